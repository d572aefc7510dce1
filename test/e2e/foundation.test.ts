/**
 * End to end over real HTTP against the emulator server: sign up, sign in, get and update the
 * current user, refresh after expiry, a token the server rejects, sign out.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Stack from "../../src/Stack.js"
import { Session } from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { countingFetch, startServer } from "./support.js"

let main: { server: RunningServer; stop: () => Promise<void> }
let shortLived: { server: RunningServer; stop: () => Promise<void> }

beforeAll(async () => {
  main = await startServer()
  // 5 s tokens: long enough that the refreshed token is still fresh when the retried call reaches
  // the server on a loaded machine (a 1 s token expired again there: two refreshes instead of one)
  shortLived = await startServer({ accessTokenLifetimeSeconds: 5 })
})
afterAll(async () => {
  await main?.stop()
  await shortLived?.stop()
})

const clientLayer = (server: RunningServer, options: { initial?: StoredTokens } = {}) => {
  const fetch = countingFetch()
  const layer = Stack.layerClient({
    projectId: server.emulator.demo.projectId,
    publishableClientKey: server.emulator.demo.publishableClientKey,
    baseUrl: server.baseUrl,
    httpClient: fetch.layer,
    tokenStore: TokenStore.layerMemory(options.initial ?? TokenStore.empty)
  })
  return { layer, count: fetch.count }
}

const run = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices>, layer: Layer.Layer<Stack.ClientServices, unknown>) =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)

const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

describe("foundation flows over HTTP against the emulator", () => {
  it("signs up, reads the user, and finds the verification e-mail in the outbox", async () => {
    const email = uniqueEmail("signup")
    const { layer, count } = clientLayer(main.server)
    const user = await run(
      Effect.gen(function* () {
        const { userId } = yield* Password.signUpWithPassword({
          email,
          password: "correct horse battery",
          verificationCallbackUrl: "http://localhost:3000/handler/email-verification"
        })
        const current = yield* Users.getCurrent()
        return { userId, current }
      }),
      layer
    )
    expect(Option.isSome(user.current)).toBe(true)
    const current = Option.getOrThrow(user.current)
    expect(current.id).toBe(user.userId)
    expect(current.primaryEmail).toBe(email)
    expect(current.hasPassword).toBe(true)
    expect(current.signedUpAt).toBeInstanceOf(Date)
    expect(count("POST /auth/password/sign-up")).toBe(1)
    expect(count("GET /users/me")).toBe(1)
    const mail = main.server.emulator.latestEmail({ email })
    expect(mail?.link).toMatch(/^http:\/\/localhost:3000\/handler\/email-verification\?code=[0-9a-z]{45}$/)
  })

  it("signs in, updates the display name, and reads it back", async () => {
    const email = uniqueEmail("update")
    await run(Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true }), clientLayer(main.server).layer)
    const { layer } = clientLayer(main.server)
    const result = await run(
      Effect.gen(function* () {
        yield* Password.signInWithPassword({ email, password: "correct horse battery" })
        const updated = yield* Users.updateCurrent({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } })
        const reread = yield* Users.getCurrent()
        return { updated, reread }
      }),
      layer
    )
    expect(result.updated.displayName).toBe("Ada Lovelace")
    expect(Option.getOrThrow(result.reread).displayName).toBe("Ada Lovelace")
    expect(Option.getOrThrow(result.reread).clientMetadata).toEqual({ theme: "dark" })
  })

  it("a wrong password is EmailPasswordMismatch; a short one at sign-up is PasswordTooShort with its details", async () => {
    const email = uniqueEmail("wrong")
    const { layer } = clientLayer(main.server)
    const errors = await run(
      Effect.gen(function* () {
        const short = yield* Effect.flip(Password.signUpWithPassword({ email, password: "short", noVerificationCallback: true }))
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        const wrong = yield* Effect.flip(Password.signInWithPassword({ email, password: "not the password" }))
        const taken = yield* Effect.flip(Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true }))
        return { short, wrong, taken }
      }),
      layer
    )
    expect(errors.short._tag).toBe("PasswordTooShort")
    if (errors.short._tag === "PasswordTooShort") expect(errors.short.details.min_length).toBe(8)
    expect(errors.wrong._tag).toBe("EmailPasswordMismatch")
    expect(errors.taken._tag).toBe("UserEmailAlreadyExists")
  })

  it("refreshes after the access token expired at the server: one refresh, then the call succeeds", async () => {
    const email = uniqueEmail("refresh")
    const { layer, count } = clientLayer(shortLived.server)
    const user = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        yield* Effect.sleep("5200 millis") // the 5 s token is now expired at the server too
        return yield* Users.getCurrent()
      }),
      layer
    )
    expect(Option.getOrThrow(user).primaryEmail).toBe(email)
    expect(count("POST /auth/oauth/token")).toBe(1)
    expect(count("GET /users/me")).toBe(1)
  })

  it("a token the client thought valid but the server rejects is refreshed once and the call retried", async () => {
    const email = uniqueEmail("rejected")
    const signUp = clientLayer(main.server)
    const tokens = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        return yield* Effect.flatMap(Session, (session) => session.current)
      }),
      signUp.layer
    )
    // a JWT without `exp` (never expires for the client), signed with a key the emulator does not know
    const forged = await new SignJWT({ sub: "someone" }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("not the key"))
    const { layer, count } = clientLayer(main.server, {
      initial: { accessToken: Option.some(Redacted.make(forged)), refreshToken: tokens.refreshToken }
    })
    const user = await run(Users.getCurrent(), layer)
    expect(Option.getOrThrow(user).primaryEmail).toBe(email)
    expect(count("GET /users/me")).toBe(2)
    expect(count("POST /auth/oauth/token")).toBe(1)
  })

  it("signs out: the session is deleted at the server and its refresh token no longer works", async () => {
    const email = uniqueEmail("signout")
    const { layer, count } = clientLayer(main.server)
    const before = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        const tokens = yield* Effect.flatMap(Session, (session) => session.current)
        yield* Sessions.signOut()
        const after = yield* Users.getCurrent()
        const stored = yield* Effect.flatMap(Session, (session) => session.current)
        return { tokens, after, stored }
      }),
      layer
    )
    expect(count("DELETE /auth/sessions/current")).toBe(1)
    expect(Option.isNone(before.after)).toBe(true)
    expect(Option.isNone(before.stored.refreshToken)).toBe(true)
    // a client holding the old refresh token is signed out by the rejected refresh
    const stale = clientLayer(main.server, { initial: { accessToken: Option.none(), refreshToken: before.tokens.refreshToken } })
    const user = await run(
      Effect.gen(function* () {
        const user = yield* Users.getCurrent()
        const stored = yield* Effect.flatMap(Session, (session) => session.current)
        return { user, stored }
      }),
      stale.layer
    )
    expect(Option.isNone(user.user)).toBe(true)
    expect(Option.isNone(user.stored.refreshToken)).toBe(true)
    expect(stale.count("POST /auth/oauth/token")).toBe(1)
  })
})
