/**
 * `RequestAuth.authenticate`, `RequestAuth.verify` and `HttpApiAuth` call a token "expired" only
 * when its signature verified and its `exp` has passed (issue 25 item 5): a client told "expired"
 * refreshes and retries, so a forged, foreign or garbage token, or a refresh token sent as an
 * access token, is "invalid". Against the in-process emulator, time from `TestClock`; requests to
 * the service counted.
 */
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import * as jose from "jose"
import * as Password from "../../src/auth/Password.js"
import type * as Emulator from "../../src/emulator/index.js"
import { HttpApiAuth, RequestAuth } from "../../src/server/index.js"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import { makeEmulator } from "../auth/flowsSupport.js"
import { countingClient } from "../support/countingClient.js"
import { password } from "./support.js"

const start = 1_800_000_000_000

/** The tokens of a user who signed up on `keys`' project. */
const signedUp = (emulator: Emulator.Emulator, keys: Emulator.ProjectCredentials, email: string) =>
  Effect.gen(function* () {
    yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
    const tokens = yield* Effect.flatMap(Session, (session) => session.current)
    return { accessToken: Redacted.value(Option.getOrThrow(tokens.accessToken)), refreshToken: Redacted.value(Option.getOrThrow(tokens.refreshToken)) }
  }).pipe(
    Effect.provide(
      Stack.layerClient({
        projectId: keys.projectId,
        publishableClientKey: keys.publishableClientKey,
        httpClient: countingClient(emulator).layer,
        tokenStore: "memory"
      })
    )
  )

/** `token`'s header and claims (with `changes`) signed with a key the attacker made. */
const forge = (token: string, changes: jose.JWTPayload = {}) =>
  Effect.promise(async () => {
    const { privateKey } = await jose.generateKeyPair("ES256")
    return new jose.SignJWT({ ...jose.decodeJwt(token), ...changes }).setProtectedHeader({ alg: "ES256", kid: jose.decodeProtectedHeader(token).kid! }).sign(
      privateKey
    )
  })

/** The demo project's server, a user of it and one of another project (signed up at `start`), and what the server sent. */
const setup = Effect.gen(function* () {
  yield* TestClock.setTime(start)
  const emulator = yield* makeEmulator()
  const foreignKeys = yield* Effect.orDie(emulator.createProject({}))
  const user = yield* signedUp(emulator, emulator.demo, "own@example.com")
  const foreign = yield* signedUp(emulator, foreignKeys, "foreign@example.com")
  const http = countingClient(emulator)
  const server = AccessTokenVerifier.layer().pipe(
    Layer.provideMerge(
      Stack.layerServer({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        secretServerKey: emulator.demo.secretServerKey,
        httpClient: http.layer
      })
    )
  )
  const lifetimeMillis = emulator.settings.accessTokenLifetimeSeconds * 1000
  return { emulator, user, foreign, server, http, lifetimeMillis }
})

const bearer = (token: string) => new Request("http://app.test/me", { headers: { authorization: `Bearer ${token}` } })

describe("RequestAuth.authenticate: only a verified token whose exp passed is 'expired'", () => {
  it.effect("the service's own access token, expired, with nothing to refresh it: 'expired', judged by the service (one GET /users/me)", () =>
    Effect.gen(function* () {
      const { emulator, user, server, http, lifetimeMillis } = yield* setup
      yield* TestClock.adjust(lifetimeMillis + 60_000)
      const before = http.count("GET /users/me")
      const error = yield* Effect.flip(RequestAuth.authenticate(bearer(user.accessToken), { projectId: emulator.demo.projectId })).pipe(Effect.provide(server))
      expect(error).toMatchObject({ _tag: "Unauthorized", reason: "expired" })
      expect(http.count("GET /users/me") - before).toBe(1)
    }))

  it.effect("forged (an attacker's key), fresh or past its exp: 'invalid'", () =>
    Effect.gen(function* () {
      const { emulator, user, server } = yield* setup
      const fresh = yield* forge(user.accessToken)
      const stale = yield* forge(user.accessToken, { exp: start / 1000 - 3600, iat: start / 1000 - 4200 })
      for (const token of [fresh, stale]) {
        const error = yield* Effect.flip(RequestAuth.authenticate(bearer(token), { projectId: emulator.demo.projectId })).pipe(Effect.provide(server))
        expect(error).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
      }
    }))

  it.effect("foreign (another project's genuine token), fresh or expired: 'invalid'", () =>
    Effect.gen(function* () {
      const { emulator, foreign, server, lifetimeMillis } = yield* setup
      const fresh = yield* Effect.flip(RequestAuth.authenticate(bearer(foreign.accessToken), { projectId: emulator.demo.projectId })).pipe(
        Effect.provide(server)
      )
      expect(fresh).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
      yield* TestClock.adjust(lifetimeMillis + 60_000)
      const expired = yield* Effect.flip(RequestAuth.authenticate(bearer(foreign.accessToken), { projectId: emulator.demo.projectId })).pipe(
        Effect.provide(server)
      )
      expect(expired).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
    }))

  it.effect("garbage and a refresh token sent as the access token: 'invalid', with no request to the service", () =>
    Effect.gen(function* () {
      const { emulator, user, server, http } = yield* setup
      const before = http.count()
      for (const token of ["garbage-token-text", "a.b.c", user.refreshToken]) {
        const error = yield* Effect.flip(RequestAuth.authenticate(bearer(token), { projectId: emulator.demo.projectId })).pipe(Effect.provide(server))
        expect(error, token.slice(0, 8)).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
      }
      expect(http.count()).toBe(before)
    }))

  it.effect("both tokens (the official SDK's Authorization hand-over) with a revoked session: 'invalid', not 'expired'", () =>
    Effect.gen(function* () {
      const { emulator, user, server, lifetimeMillis } = yield* setup
      const forgedRefresh = { accessToken: user.accessToken, refreshToken: "r".repeat(45) }
      yield* TestClock.adjust(lifetimeMillis + 60_000)
      const header = `Bearer stackauth_${Buffer.from(JSON.stringify(forgedRefresh), "utf8").toString("base64")}`
      const request = new Request("http://app.test/me", { headers: { authorization: header } })
      const error = yield* Effect.flip(RequestAuth.authenticate(request, { projectId: emulator.demo.projectId })).pipe(Effect.provide(server))
      expect(error).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
    }))

  it.effect("a fresh genuine token still authenticates (one GET /users/me)", () =>
    Effect.gen(function* () {
      const { emulator, user, server, http } = yield* setup
      const before = http.count("GET /users/me")
      const found = yield* RequestAuth.authenticate(bearer(user.accessToken), { projectId: emulator.demo.projectId }).pipe(Effect.provide(server))
      expect(found.primaryEmail).toBe("own@example.com")
      expect(http.count("GET /users/me") - before).toBe(1)
    }))
})

describe("RequestAuth.verify and HttpApiAuth give the same verdicts", () => {
  it.effect("verify: a forged token past its exp is 'invalid'; the genuine one at the same time 'expired'", () =>
    Effect.gen(function* () {
      const { emulator, user, server, lifetimeMillis } = yield* setup
      const forged = yield* forge(user.accessToken)
      yield* TestClock.adjust(lifetimeMillis + 60_000)
      const options = { projectId: emulator.demo.projectId }
      expect(yield* Effect.flip(RequestAuth.verify(bearer(forged), options)).pipe(Effect.provide(server))).toMatchObject({ reason: "invalid" })
      expect(yield* Effect.flip(RequestAuth.verify(bearer(user.accessToken), options)).pipe(Effect.provide(server))).toMatchObject({ reason: "expired" })
    }))

  it.effect("HttpApiAuth's middleware answers a forged expired bearer token and a garbage one 401 'invalid'", () =>
    Effect.gen(function* () {
      const { emulator, user, server } = yield* setup
      const stale = yield* forge(user.accessToken, { exp: start / 1000 - 3600, iat: start / 1000 - 4200 })
      const app = HttpApiAuth.middleware({ projectId: emulator.demo.projectId })(Effect.succeed(HttpServerResponse.text("hello")))
      for (const token of [stale, "garbage-token-text"]) {
        const response = yield* app.pipe(
          Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(bearer(token))),
          Effect.provide(server)
        )
        expect(response.status).toBe(401)
        expect(yield* Effect.promise(() => HttpServerResponse.toWeb(response).json())).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
      }
    }))
})
