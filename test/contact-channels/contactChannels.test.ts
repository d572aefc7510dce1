/**
 * Contact channels through the SDK against the in-process emulator: the client functions on the
 * signed-in user (create, list, update, send a code to the default handler URL, verify, make
 * primary, delete), the typed plain-text errors, `used_for_auth` uniqueness across users, one
 * primary per user with `primary_email` following it, codes of deleted channels, client access
 * to another user (403 text), and the server variants.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Result } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as ServerContactChannels from "../../src/contact-channels/ServerContactChannels.js"
import { HttpError } from "../../src/core/Errors.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Session from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Users from "../../src/users/Users.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { clientHeaders, send } from "../emulator/helpers.js"

const appUrl = "http://localhost:3000"
const password = "correct horse battery"

/** An emulator, and a way to build signed-in devices (each with its own session) and a server. */
const bench = Effect.gen(function* () {
  const emulator = yield* Emulator.make()
  const httpClient = Emulator.layerHttpClient(emulator)
  const { projectId, publishableClientKey, secretServerKey } = emulator.demo
  /** A device signed up as `email` (its layer built once, so its session lives across calls). */
  const device = (email: string) =>
    Effect.gen(function* () {
      const context = yield* Layer.build(
        Layer.merge(Stack.layerClient({ projectId, publishableClientKey, httpClient }), HandlerUrls.layer({ appUrl }))
      )
      yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(Effect.provide(context))
      const user = Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(context)))
      return {
        userId: user.id,
        run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context) as Effect.Effect<A, E, never>
      }
    })
  const server = yield* Layer.build(
    Layer.merge(Stack.layerServer({ projectId, publishableClientKey, secretServerKey, httpClient }), HandlerUrls.layer({ appUrl }))
  )
  const asServer = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, server) as Effect.Effect<A, E, never>
  return { emulator, device, asServer }
})

/** The user record of the demo project (to look at its primary e-mail fields). */
const userRecord = (emulator: Emulator.Emulator, userId: string) => emulator.state.projects.get(emulator.demo.projectId)!.users.get(userId)!

/** The signed-in session's access token (for raw requests). */
const accessTokenOf = () =>
  Session.Session.use((session) => session.requestTokens).pipe(
    Effect.map((tokens) => Redacted.value(Option.getOrThrow(tokens.accessToken)))
  )

/** The code of the newest e-mail sent to `to`. */
const codeSentTo = (emulator: Emulator.Emulator, to: string) => {
  const email = emulator.latestEmail({ email: to })
  expect(email?.kind).toBe("email_verification")
  return { code: email!.code!, link: email!.link! }
}

describe("ContactChannels (client)", () => {
  it.effect("create → send code (default handler URL) → verify → list shows it verified", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* bench
      const ada = yield* device("ada@example.com")
      const created = yield* ada.run(ContactChannels.create({ value: "ada.work@example.com", usedForAuth: false }))
      expect(created).toMatchObject({
        userId: ada.userId,
        type: "email",
        value: "ada.work@example.com",
        isVerified: false,
        isPrimary: false,
        usedForAuth: false
      })

      yield* ada.run(ContactChannels.sendVerificationCode(created.id))
      const { code, link } = codeSentTo(emulator, "ada.work@example.com")
      expect(link).toBe(`${appUrl}/handler/email-verification?code=${code}`)
      yield* ContactChannels.verify(code).pipe(ada.run)

      const channels = yield* ada.run(ContactChannels.list())
      expect(channels.map((c) => [c.value, c.isPrimary, c.isVerified, c.usedForAuth])).toEqual([
        ["ada@example.com", true, false, true],
        ["ada.work@example.com", false, true, false]
      ])
      // the primary e-mail was not verified by the other channel's code
      expect(userRecord(emulator, ada.userId).primaryEmailVerified).toBe(false)

      const again = yield* Effect.result(ada.run(ContactChannels.sendVerificationCode(created.id)))
      expect(Result.isFailure(again) && again.failure._tag).toBe("EmailAlreadyVerified")
    }))

  it.effect("making a channel primary demotes the old one and the user's primary e-mail follows", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* bench
      const ada = yield* device("ada@example.com")
      const work = yield* ada.run(ContactChannels.create({ value: "ada.work@example.com", usedForAuth: true }))
      const updated = yield* ada.run(ContactChannels.update(work.id, { isPrimary: true }))
      expect(updated).toMatchObject({ id: work.id, isPrimary: true, usedForAuth: true })

      const channels = yield* ada.run(ContactChannels.list())
      expect(channels.filter((c) => c.isPrimary).map((c) => c.id)).toEqual([work.id])
      expect(channels.find((c) => c.value === "ada@example.com")?.isPrimary).toBe(false)
      const user = Option.getOrThrow(yield* ada.run(Users.getCurrent()))
      expect(user.primaryEmail).toBe("ada.work@example.com")

      // creating a new primary channel demotes again
      const home = yield* ada.run(ContactChannels.create({ value: "ada.home@example.com", usedForAuth: false, isPrimary: true }))
      expect(home.isPrimary).toBe(true)
      expect((yield* ada.run(ContactChannels.list())).filter((c) => c.isPrimary).map((c) => c.id)).toEqual([home.id])
      expect(userRecord(emulator, ada.userId).primaryEmail).toBe("ada.home@example.com")

      // deleting the primary channel leaves the user without a primary e-mail
      yield* ada.run(ContactChannels.delete(home.id))
      expect(userRecord(emulator, ada.userId).primaryEmail).toBeNull()
      expect((yield* ada.run(ContactChannels.list())).map((c) => c.value).sort()).toEqual(["ada.work@example.com", "ada@example.com"])
    }))

  it.effect("an e-mail used for auth by another user is refused with details; not for auth it is allowed", () =>
    Effect.gen(function* () {
      const { device } = yield* bench
      yield* device("ada@example.com")
      const bob = yield* device("bob@example.com")
      const refused = yield* Effect.result(bob.run(ContactChannels.create({ value: "ada@example.com", usedForAuth: true })))
      expect(Result.isFailure(refused)).toBe(true)
      if (Result.isFailure(refused) && refused.failure._tag === "ContactChannelAlreadyUsedForAuthBySomeoneElse") {
        expect(refused.failure.details).toEqual({ type: "email", contact_channel_value: "ada@example.com", would_work_if_email_was_verified: false })
      } else expect.fail(`unexpected ${JSON.stringify(refused)}`)

      const contact = yield* bob.run(ContactChannels.create({ value: "ada@example.com", usedForAuth: false }))
      expect(contact.usedForAuth).toBe(false)
      const turnOn = yield* Effect.result(bob.run(ContactChannels.update(contact.id, { usedForAuth: true })))
      expect(Result.isFailure(turnOn) && turnOn.failure._tag).toBe("ContactChannelAlreadyUsedForAuthBySomeoneElse")
    }))

  it.effect("a channel used for auth is a sign-in identity: password sign-in with it reaches its owner; sign-up with it is refused", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* bench
      const ada = yield* device("ada@example.com")
      yield* ada.run(ContactChannels.create({ value: "ada.work@example.com", usedForAuth: true }))
      const { projectId, publishableClientKey } = emulator.demo
      const other = yield* Layer.build(Stack.layerClient({ projectId, publishableClientKey, httpClient: Emulator.layerHttpClient(emulator) }))
      const signedIn = yield* Password.signInWithPassword({ email: "ada.work@example.com", password }).pipe(Effect.provide(other))
      expect(signedIn.userId).toBe(ada.userId)
      const fresh = yield* Layer.build(Stack.layerClient({ projectId, publishableClientKey, httpClient: Emulator.layerHttpClient(emulator) }))
      const refused = yield* Effect.flip(
        Password.signUpWithPassword({ email: "ada.work@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(fresh))
      )
      expect(refused._tag).toBe("UserEmailAlreadyExists")
    }))

  it.effect("the plain-text answers are typed: already exists, not found", () =>
    Effect.gen(function* () {
      const { device } = yield* bench
      const ada = yield* device("ada@example.com")
      const duplicate = yield* Effect.result(ada.run(ContactChannels.create({ value: "ada@example.com", usedForAuth: false })))
      expect(Result.isFailure(duplicate) && duplicate.failure._tag).toBe("ContactChannelAlreadyExists")

      const missing = "0b7f5e1c-2a57-4f0e-9a43-5c1f2d9e8a11"
      const tagOf = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
        ada.run(Effect.flip(effect)).pipe(Effect.map((error) => error._tag))
      expect(yield* tagOf(ContactChannels.update(missing, { value: "x@example.com" }))).toBe("ContactChannelNotFound")
      expect(yield* tagOf(ContactChannels.delete(missing))).toBe("ContactChannelNotFound")
      expect(yield* tagOf(ContactChannels.sendVerificationCode(missing))).toBe("ContactChannelNotFound")
    }))

  it.effect("deleting a channel voids its pending code: verify answers ContactChannelNotFound", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* bench
      const ada = yield* device("ada@example.com")
      const work = yield* ada.run(ContactChannels.create({ value: "ada.work@example.com", usedForAuth: false }))
      yield* ada.run(ContactChannels.sendVerificationCode(work.id))
      const { code } = codeSentTo(emulator, "ada.work@example.com")
      yield* ada.run(ContactChannels.delete(work.id))
      const result = yield* Effect.result(ada.run(ContactChannels.verify(code)))
      expect(Result.isFailure(result) && result.failure).toMatchObject({ _tag: "ContactChannelNotFound", status: 400 })
    }))

  it.effect("a changed value needs verifying again; an untrusted callback URL is refused", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* bench
      const ada = yield* device("ada@example.com")
      const work = yield* ada.run(ContactChannels.create({ value: "ada.work@example.com", usedForAuth: false }))
      yield* ada.run(ContactChannels.sendVerificationCode(work.id))
      const { code } = codeSentTo(emulator, "ada.work@example.com")
      yield* ada.run(ContactChannels.update(work.id, { value: "ada.job@example.com" }))
      const stale = yield* Effect.result(ada.run(ContactChannels.verify(code)))
      expect(Result.isFailure(stale) && stale.failure._tag).toBe("ContactChannelNotFound")

      const untrusted = yield* Effect.result(
        ada.run(ContactChannels.sendVerificationCode(work.id, { callbackUrl: "https://evil.example.net/verify" }))
      )
      expect(Result.isFailure(untrusted) && untrusted.failure._tag).toBe("RedirectUrlNotWhitelisted")
    }))

  it.effect("client access to another user's channels is refused with 403 text; is_verified is not a client field", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* bench
      const ada = yield* device("ada@example.com")
      const bob = yield* device("bob@example.com")
      const bobToken = yield* bob.run(accessTokenOf())
      const headers = clientHeaders(emulator.demo, { "x-stack-access-token": bobToken })
      const foreign = yield* send(emulator, { path: `/api/v1/contact-channels?user_id=${ada.userId}`, headers })
      expect([foreign.status, foreign.text]).toEqual([403, "Client can only list contact channels for their own user."])
      const own = yield* send(emulator, { path: `/api/v1/contact-channels?user_id=${bob.userId}`, headers })
      expect(own.status).toBe(200)
      const verified = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/contact-channels",
        headers,
        body: { user_id: "me", type: "email", value: "bob.x@example.com", used_for_auth: false, is_verified: true }
      })
      expect([verified.status, verified.headers.get("x-stack-known-error")]).toEqual([400, "SCHEMA_ERROR"])
    }))
})

describe("ContactChannels.mapTextErrors / mapNotFound", () => {
  const httpError = (status: number, body: string) =>
    new HttpError({ message: `HTTP ${status}`, status, body, method: "POST", url: "http://localhost/api/v1/contact-channels" })

  it.effect("maps the channel texts by status and text; other HttpErrors stay", () =>
    Effect.gen(function* () {
      const tagOf = (error: HttpError, mapper: typeof ContactChannels.mapTextErrors) => Effect.map(Effect.flip(mapper(Effect.fail(error))), (e) => e._tag)
      expect(yield* tagOf(httpError(404, "Contact channel not found."), ContactChannels.mapTextErrors)).toBe("ContactChannelNotFound")
      expect(yield* tagOf(httpError(400, "Contact channel not found. Was your contact channel deleted?"), ContactChannels.mapNotFound)).toBe(
        "ContactChannelNotFound"
      )
      expect(yield* tagOf(httpError(400, "Contact channel already exists"), ContactChannels.mapTextErrors)).toBe("ContactChannelAlreadyExists")
      expect(yield* tagOf(httpError(400, "Contact channel already exists"), ContactChannels.mapNotFound)).toBe("HttpError")
      expect(yield* tagOf(httpError(500, "Contact channel not found"), ContactChannels.mapTextErrors)).toBe("HttpError")
      expect(yield* tagOf(httpError(400, "Something else"), ContactChannels.mapTextErrors)).toBe("HttpError")
    }))
})

describe("ContactChannels (server)", () => {
  it.effect("ServerContactChannels: create (verified), list, update to primary, send, delete; unknown user", () =>
    Effect.gen(function* () {
      const { emulator, device, asServer } = yield* bench
      const ada = yield* device("ada@example.com")
      const created = yield* asServer(ServerContactChannels.create(ada.userId, { value: "ada.srv@example.com", usedForAuth: false, isVerified: true }))
      expect(created).toMatchObject({ userId: ada.userId, isVerified: true, isPrimary: false })
      expect((yield* asServer(ServerContactChannels.list(ada.userId))).map((c) => c.value)).toEqual(["ada@example.com", "ada.srv@example.com"])

      yield* asServer(ServerContactChannels.update(ada.userId, created.id, { isPrimary: true }))
      const user = yield* asServer(ServerUsers.getById(ada.userId))
      expect([user.primaryEmail, user.primaryEmailVerified]).toEqual(["ada.srv@example.com", true])

      const old = (yield* asServer(ServerContactChannels.list(ada.userId))).find((c) => c.value === "ada@example.com")!
      yield* asServer(ServerContactChannels.sendVerificationCode(ada.userId, old.id))
      const { code } = codeSentTo(emulator, "ada@example.com")
      yield* asServer(ContactChannels.verify(code))
      expect((yield* asServer(ServerContactChannels.list(ada.userId))).find((c) => c.id === old.id)?.isVerified).toBe(true)

      yield* asServer(ServerContactChannels.delete(ada.userId, old.id))
      expect((yield* asServer(ServerContactChannels.list(ada.userId))).map((c) => c.id)).toEqual([created.id])

      const nobody = "6f0c2d7e-3b1a-4c8d-9e2f-1a2b3c4d5e6f"
      const unknown = yield* Effect.result(asServer(ServerContactChannels.list(nobody)))
      expect(Result.isFailure(unknown) && unknown.failure).toMatchObject({ _tag: "UserIdDoesNotExist", details: { user_id: nobody } })
    }))
})
