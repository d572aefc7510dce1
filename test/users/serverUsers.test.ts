/** Users with server access against the in-process emulator: list/stream, create, update, delete, fromRequest. */
import * as HttpClient from "effect/http/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Stream } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { makeUser } from "../../src/emulator/State.js"
import { Password, Stack, Users } from "../../src/index.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import * as SessionModule from "../../src/session/Session.js"
import { Session } from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import { getCurrentServerEndpoint } from "../../src/users/internal/serverUsers.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { compare, load, makeSampleBench } from "../emulator/conformanceSupport.js"
import { makeEmulator } from "../emulator/helpers.js"

/** The in-process client, counting requests by "METHOD /path". */
const recordingClient = (emulator: Emulator.Emulator) => {
  const counts = new Map<string, number>()
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request) =>
        Effect.sync(() => {
          const key = `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`
          counts.set(key, (counts.get(key) ?? 0) + 1)
        })))
  ).pipe(Layer.provide(Emulator.layerHttpClient(emulator)))
  return { layer, count: (key: string) => counts.get(key) ?? 0 }
}

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator({ demo: Emulator.blankDemo })
  const recorder = recordingClient(emulator)
  const server = Stack.layerServer({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    secretServerKey: emulator.demo.secretServerKey,
    httpClient: recorder.layer
  }).pipe(Layer.orDie)
  const client = () =>
    Stack.layerClient({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      httpClient: Emulator.layerHttpClient(emulator)
    }).pipe(Layer.orDie)
  const project = emulator.state.projects.get(emulator.demo.projectId)!
  return { emulator, recorder, server, client, project }
})

/** A uuid-shaped id whose order follows `n`. */
const seededId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`

describe("ServerUsers.stream", () => {
  it.effect("walks 1,000 users in pages of 50: 20 requests, every user once, in order, counted not collected", () =>
    Effect.gen(function* () {
      const { project, recorder, server } = yield* setup
      expect(project.users.size).toBe(0)
      // insertion order differs from listing order: sign-up times descend with n, ties broken by id
      for (let n = 0; n < 1000; n++) {
        const user = makeUser(seededId(n), 1_000_000 + Math.floor((1000 - n) / 2))
        user.primaryEmail = `u${n}@example.com`
        project.users.set(user.id, user)
      }
      const result = yield* ServerUsers.stream({ limit: 50 }).pipe(
        Stream.runFold(() => ({ count: 0, ordered: true, previous: undefined as { at: number; id: string } | undefined }), (state, user) => {
          const at = user.signedUpAt.getTime()
          const ordered = state.previous === undefined || state.previous.at < at || (state.previous.at === at && state.previous.id < user.id)
          return { count: state.count + 1, ordered: state.ordered && ordered, previous: { at, id: user.id } }
        }),
        Effect.provide(server)
      )
      expect(result.count).toBe(1000)
      expect(result.ordered).toBe(true)
      expect(recorder.count("GET /users")).toBe(20)
    }))

  it.effect("is lazy: taking 60 users sends only two requests", () =>
    Effect.gen(function* () {
      const { project, recorder, server } = yield* setup
      for (let n = 0; n < 200; n++) project.users.set(seededId(n), makeUser(seededId(n), 5_000 + n))
      const taken = yield* ServerUsers.stream({ limit: 50 }).pipe(
        Stream.take(60),
        Stream.runFold(() => 0, (count) => count + 1),
        Effect.provide(server)
      )
      expect(taken).toBe(60)
      expect(recorder.count("GET /users")).toBe(2)
    }))
})

describe("ServerUsers.list", () => {
  it.effect("pages with next_cursor = first user of the next page, stable under inserts", () =>
    Effect.gen(function* () {
      const { project, server } = yield* setup
      for (let n = 0; n < 5; n++) project.users.set(seededId(n), makeUser(seededId(n), 10_000 + n))
      const first = yield* ServerUsers.list({ limit: 2 }).pipe(Effect.provide(server))
      expect(first.items.map((user) => user.id)).toEqual([seededId(0), seededId(1)])
      expect(first.nextCursor).toEqual(Option.some(seededId(2)))
      // a user signing up meanwhile lands at the end: the next page is unchanged
      project.users.set(seededId(99), makeUser(seededId(99), 20_000))
      const second = yield* ServerUsers.list({ limit: 2, cursor: Option.getOrThrow(first.nextCursor) }).pipe(Effect.provide(server))
      expect(second.items.map((user) => user.id)).toEqual([seededId(2), seededId(3)])
      const rest = yield* ServerUsers.list({ cursor: Option.getOrThrow(second.nextCursor) }).pipe(Effect.provide(server))
      expect(rest.items.map((user) => user.id)).toEqual([seededId(4), seededId(99)])
      expect(rest.nextCursor).toEqual(Option.none())
      const desc = yield* ServerUsers.list({ limit: 1, desc: true, orderBy: "signed_up_at" }).pipe(Effect.provide(server))
      expect(desc.items.map((user) => user.id)).toEqual([seededId(99)])
    }))

  it.effect("leaves anonymous and restricted users out unless asked; query searches e-mails", () =>
    Effect.gen(function* () {
      const { server } = yield* setup
      const ids = yield* Effect.gen(function* () {
        const plain = yield* ServerUsers.create({ primaryEmail: "plain@example.com" })
        const anonymous = yield* ServerUsers.create({ isAnonymous: true })
        const restricted = yield* ServerUsers.create({ displayName: "R", restrictedByAdmin: true, restrictedByAdminReason: "spam" })
        return { plain: plain.id, anonymous: anonymous.id, restricted: restricted.id }
      }).pipe(Effect.provide(server))
      const ids$ = (options: ServerUsers.ListOptions) =>
        ServerUsers.list(options).pipe(
          Effect.map((page) => page.items.map((user) => user.id).sort()),
          Effect.provide(server)
        )
      expect(yield* ids$({})).toEqual([ids.plain])
      expect(yield* ids$({ includeRestricted: true })).toEqual([ids.plain, ids.restricted].sort())
      expect(yield* ids$({ includeAnonymous: true })).toEqual([ids.plain, ids.restricted, ids.anonymous].sort())
      expect(yield* ids$({ query: "PLAIN@" })).toEqual([ids.plain])
    }))
})

describe("ServerUsers.list onlyAnonymous (issue 15 item 8)", () => {
  it.effect("onlyAnonymous: true without includeAnonymous sends include_anonymous=true and lists the anonymous users only", () =>
    Effect.gen(function* () {
      const { server, recorder } = yield* setup
      const ids = yield* Effect.gen(function* () {
        const plain = yield* ServerUsers.create({ primaryEmail: "plain@example.com" })
        const anonymous = yield* ServerUsers.create({ isAnonymous: true })
        return { plain: plain.id, anonymous: anonymous.id }
      }).pipe(Effect.provide(server))
      const page = yield* ServerUsers.list({ onlyAnonymous: true }).pipe(Effect.provide(server))
      expect(page.items.map((user) => user.id)).toEqual([ids.anonymous])
      expect(recorder.count("GET /users")).toBe(1)
      const streamed = yield* Stream.runCollect(ServerUsers.stream({ onlyAnonymous: true, limit: 1 })).pipe(Effect.provide(server))
      expect([...streamed].map((user) => user.id)).toEqual([ids.anonymous])
    }))

  it.effect("sends no request when onlyAnonymous: true contradicts includeAnonymous: false: InvalidArgument", () =>
    Effect.gen(function* () {
      const { server, recorder } = yield* setup
      const error = yield* Effect.flip(ServerUsers.list({ onlyAnonymous: true, includeAnonymous: false }).pipe(Effect.provide(server)))
      expect(error._tag).toBe("InvalidArgument")
      expect(error._tag === "InvalidArgument" && error.argument).toBe("onlyAnonymous")
      expect(recorder.count("GET /users")).toBe(0)
    }))
})

describe("Stack.layerAdmin with a secretServerKey (issue 15 item 3)", () => {
  it.effect("layerAdmin with a secretServerKey runs server calls: ServerUsers.list() sends the secret server key, 1 request", () =>
    Effect.gen(function* () {
      const { emulator, recorder } = yield* setup
      const admin = Stack.layerAdmin({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        superSecretAdminKey: emulator.demo.superSecretAdminKey,
        secretServerKey: emulator.demo.secretServerKey,
        httpClient: recorder.layer
      }).pipe(Layer.orDie)
      const created = yield* ServerUsers.create({ primaryEmail: "admin-made@example.com" }).pipe(Effect.provide(admin))
      const page = yield* ServerUsers.list().pipe(Effect.provide(admin))
      expect(page.items.map((user) => user.id)).toEqual([created.id])
      expect(recorder.count("GET /users")).toBe(1)
    }))

  it.effect("layerAdmin with an empty secretServerKey fails with MissingAccessKey naming secretServerKey, before any request", () =>
    Effect.gen(function* () {
      const { emulator, recorder } = yield* setup
      const admin = Stack.layerAdmin({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        superSecretAdminKey: emulator.demo.superSecretAdminKey,
        secretServerKey: "",
        httpClient: recorder.layer
      })
      const error = yield* Effect.flip(ServerUsers.list().pipe(Effect.provide(admin)))
      expect(error._tag === "MissingAccessKey" && error.setting).toBe("secretServerKey")
      expect(recorder.count("GET /users")).toBe(0)
    }))
})

describe("ServerUsers.create / update / delete", () => {
  it.effect("creates with 201 (hashed password, OAuth links); a taken e-mail is USER_EMAIL_ALREADY_EXISTS", () =>
    Effect.gen(function* () {
      const { project, server, client } = yield* setup
      const created = yield* ServerUsers.create({
        primaryEmail: "ada@example.com",
        primaryEmailVerified: true,
        // without it the service does not sign the user in with the e-mail (users/crud.tsx onCreate at stack-auth/stack-auth 2f719903)
        primaryEmailAuthEnabled: true,
        password: "correct horse battery",
        displayName: "Ada",
        serverMetadata: { plan: "free" },
        oauthProviders: [{ id: "github", accountId: "gh-1", email: "ada@github.test" }]
      }).pipe(Effect.provide(server))
      expect(created.hasPassword).toBe(true)
      expect(created.primaryEmailVerified).toBe(true)
      expect(created.emailAuthEnabled).toBe(true)
      expect(created.serverMetadata).toEqual({ plan: "free" })
      expect(created.oauthProviders).toEqual([{ id: "github", accountId: "gh-1", email: "ada@github.test" }])
      expect(project.users.get(created.id)?.passwordHash).not.toContain("correct horse")
      // the password works for sign-in
      yield* Password.signInWithPassword({ email: "ada@example.com", password: "correct horse battery" }).pipe(Effect.provide(client()))
      const taken = yield* ServerUsers.create({ primaryEmail: "ada@example.com", primaryEmailAuthEnabled: true }).pipe(Effect.flip, Effect.provide(server))
      expect(taken._tag).toBe("UserEmailAlreadyExists")
      const short = yield* ServerUsers.create({ password: "short" }).pipe(Effect.flip, Effect.provide(server))
      expect(short._tag).toBe("PasswordTooShort")
      expect(project.users.size).toBe(1)
    }))

  it.effect("updates metadata and verification; a new password ends every session of the user", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setup
      const browser = client()
      const userId = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "bob@example.com", password: "correct horse battery", noVerificationCallback: true })
        return Option.getOrThrow(yield* Users.getCurrent()).id
      }).pipe(Effect.provide(browser))
      const updated = yield* ServerUsers.update(userId, {
        primaryEmailVerified: true,
        clientReadOnlyMetadata: { tier: 2 },
        serverMetadata: { note: "vip" }
      }).pipe(Effect.provide(server))
      expect(updated.primaryEmailVerified).toBe(true)
      expect(updated.clientReadOnlyMetadata).toEqual({ tier: 2 })
      expect(updated.serverMetadata).toEqual({ note: "vip" })
      yield* ServerUsers.update(userId, { password: "another horse battery" }).pipe(Effect.provide(server))
      // the browser's access token is still inside its lifetime; force a refresh: the session is gone
      const afterRefresh = yield* Effect.gen(function* () {
        const session = yield* Session
        yield* session.refresh
        return yield* Users.getCurrent()
      }).pipe(Effect.provide(browser))
      expect(afterRefresh).toEqual(Option.none())
      const missing = yield* ServerUsers.update(seededId(7), { displayName: "x" }).pipe(Effect.flip, Effect.provide(server))
      expect(missing._tag).toBe("UserNotFound")
    }))

  it.effect("deletes a user with its sessions; deleting again is USER_NOT_FOUND", () =>
    Effect.gen(function* () {
      const { project, server, client } = yield* setup
      const browser = client()
      const userId = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "cy@example.com", password: "correct horse battery", noVerificationCallback: true })
        return Option.getOrThrow(yield* Users.getCurrent()).id
      }).pipe(Effect.provide(browser))
      yield* ServerUsers.deleteUser(userId).pipe(Effect.provide(server))
      expect([...project.sessions.values()].filter((session) => session.userId === userId)).toEqual([])
      expect(yield* Users.getCurrent().pipe(Effect.provide(browser))).toEqual(Option.none())
      const again = yield* ServerUsers.delete(userId).pipe(Effect.flip, Effect.provide(server))
      expect(again._tag).toBe("UserNotFound")
      const read = yield* ServerUsers.getById(userId).pipe(Effect.flip, Effect.provide(server))
      expect(read._tag).toBe("UserNotFound")
    }))

  it.effect("client deleteCurrent is refused with ClientUserDeletionNotEnabled by default", () =>
    Effect.gen(function* () {
      const { client } = yield* setup
      const browser = client()
      const error = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "dee@example.com", password: "correct horse battery", noVerificationCallback: true })
        return yield* Users.deleteCurrent().pipe(Effect.flip)
      }).pipe(Effect.provide(browser))
      expect(error._tag).toBe("ClientUserDeletionNotEnabled")
      expect(error.message).toBe("Client user deletion is not enabled for this project")
    }))
})

describe("ServerUsers.fromRequest / getCurrent", () => {
  it.effect("reads the server view of the user behind x-stack-auth; none without tokens", () =>
    Effect.gen(function* () {
      const { emulator, server, client } = yield* setup
      const browser = client()
      const tokens = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "eve@example.com", password: "correct horse battery", noVerificationCallback: true })
        const session = yield* Session
        return yield* session.current
      }).pipe(Effect.provide(browser))
      const request = new Request("http://app.test/api", { headers: RequestTokenStore.authHeaders(tokens) })
      const user = yield* ServerUsers.fromRequest(request, { projectId: emulator.demo.projectId }).pipe(Effect.provide(server))
      expect(Option.map(user, (u) => [u.primaryEmail, u.serverMetadata])).toEqual(Option.some(["eve@example.com", null]))
      const nobody = yield* ServerUsers.fromRequest(new Request("http://app.test/api"), { projectId: emulator.demo.projectId }).pipe(
        Effect.provide(server)
      )
      expect(nobody).toEqual(Option.none())
      const bad = yield* ServerUsers.fromRequest({ headers: { "x-stack-auth": "{" } }, { projectId: emulator.demo.projectId }).pipe(
        Effect.flip,
        Effect.provide(server)
      )
      expect(bad._tag).toBe("TokenStoreError")
      // the server's own session is signed out
      expect(yield* ServerUsers.getCurrent().pipe(Effect.provide(server))).toEqual(Option.none())
    }))

  it.effect("Endpoint.callInSession reads with the given session, not the context's, and a refresh stays in it", () =>
    Effect.gen(function* () {
      const { emulator, client } = yield* setup
      const signUp = (email: string) =>
        Effect.gen(function* () {
          yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
          return yield* Session.use((session) => session.current)
        }).pipe(Effect.provide(client()))
      const ann = yield* signUp("ann@example.com")
      const bob = yield* signUp("bob@example.com")
      // Bob's request session holds an access token the service no longer accepts: it refreshes
      const stale = { accessToken: Option.some(Redacted.make("not-a-jwt")), refreshToken: bob.refreshToken }
      const read = Effect.gen(function* () {
        const own = yield* Session
        const given = yield* SessionModule.makeForRequest(stale)
        const user = yield* Endpoint.callInSession(getCurrentServerEndpoint, {}, given)
        return { user, given: yield* given.current, own: yield* own.current }
      })
      const annServer = Stack.layerServer({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        secretServerKey: emulator.demo.secretServerKey,
        httpClient: Emulator.layerHttpClient(emulator),
        tokenStore: TokenStore.layerMemory(ann)
      }).pipe(Layer.orDie)
      const result = yield* read.pipe(Effect.provide(annServer))
      expect(result.user.primaryEmail).toBe("bob@example.com")
      // the refresh wrote Bob's new access token into the given session only
      expect(Option.map(result.given.accessToken, Redacted.value)).not.toEqual(Option.some("not-a-jwt"))
      expect(Option.map(result.own.accessToken, Redacted.value)).toEqual(Option.map(ann.accessToken, Redacted.value))
    }))
})

describe("conformance with the recorded server user samples (users/07, 09, 10, 11)", () => {
  const recordedId = (load("users/07-create-server").response.body as { id: string }).id
  it.effect("create (201), update, metadata update and delete answer like the service", () =>
    Effect.gen(function* () {
      const bench = yield* makeSampleBench()
      const created = yield* bench.replay("users/07-create-server")
      expect(compare(load("users/07-create-server").response, created)).toEqual([])
      const substitutions = { [recordedId]: created.json.id as string }
      const answers: Record<string, unknown> = {}
      for (const name of ["users/09-update-server", "users/10-update-server-metadata", "users/11-delete-server"]) {
        const answer = yield* bench.replay(name, substitutions)
        expect(compare(load(name).response, answer), name).toEqual([])
        answers[name] = answer.json
      }
      // values too: the metadata is replaced whole, as recorded
      const recorded = load("users/10-update-server-metadata").response.body as Record<string, unknown>
      const answered = answers["users/10-update-server-metadata"] as Record<string, unknown>
      for (const key of ["server_metadata", "client_read_only_metadata", "display_name", "primary_email_verified"]) {
        expect(answered[key], key).toEqual(recorded[key])
      }
      const missingId = load("users/12-get-user-not-found").request.path.split("/").at(-1)!
      const again = yield* bench.replay("users/12-get-user-not-found", { [missingId]: created.json.id as string })
      expect(compare(load("users/12-get-user-not-found").response, again)).toEqual([])
    }))
})
