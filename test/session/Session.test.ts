import { describe, expect, it } from "@effect/vitest"
import { Chunk, Deferred, Effect, Exit, Fiber, Option, Redacted, Stream, TestClock } from "effect"
import { http, HttpResponse } from "msw"
import type { JsonBodyType } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import { freshAccess, json, knownError, sessionMocks, tokenResponse } from "./sessionMocks.js"
import * as Sessions from "../../src/auth/Sessions.js"
import { Session } from "../../src/session/Session.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import { accessToken, apiUrl, makeMswServer, projectId, publishableClientKey, realPause, refreshTokenText, runAdvancingClock, sessionLayer, tokens, userBody } from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledRequest: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
const { refreshEndpoint, meEndpoint } = sessionMocks(server)

/** The test clock starts at 0: a token expiring at `seconds` (epoch seconds). */
const expiringAt = (seconds: number) => accessToken(seconds)

const stored = Effect.flatMap(TokenStore, (store) => store.get)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))

describe("access token reuse (SPEC.md §4)", () => {
  it.effect("reuses the access token while 20 s or more remain", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint()
      yield* TestClock.setTime(0)
      yield* Users.getCurrent()
      yield* TestClock.setTime(40_000) // exactly 20 s left
      yield* Users.getCurrent()
      expect(refreshes).toHaveLength(0)
      expect(me).toHaveLength(2)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("refreshes when less than 20 s remain, with the refresh grant's form fields", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint()
      yield* TestClock.setTime(40_001)
      yield* Users.getCurrent()
      expect(refreshes).toHaveLength(1)
      const form = refreshes[0]!
      expect(Object.fromEntries(form)).toEqual({
        grant_type: "refresh_token",
        refresh_token: refreshTokenText,
        client_id: projectId,
        client_secret: publishableClientKey
      })
      expect(me).toEqual([freshAccess])
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("a token without exp never expires", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      meEndpoint()
      yield* TestClock.setTime(10 * 365 * 24 * 3600 * 1000)
      yield* Users.getCurrent()
      expect(refreshes).toHaveLength(0)
    }).pipe(Effect.provide(sessionLayer(tokens(accessToken(undefined), refreshTokenText)))))

  it.effect("20 concurrent calls with an expired access token send exactly 1 refresh", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        return tokenResponse()
      })
      const me = meEndpoint()
      yield* TestClock.setTime(120_000)
      const users = yield* Effect.all(Array.from({ length: 20 }, () => Users.getCurrent()), { concurrency: "unbounded" })
      expect(users.every(Option.isSome)).toBe(true)
      expect(refreshes).toHaveLength(1)
      expect(me).toHaveLength(20)
      expect(new Set(me)).toEqual(new Set([freshAccess]))
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("a session with only a refresh token refreshes before the first call", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      meEndpoint()
      const user = yield* Users.getCurrent()
      expect(Option.isSome(user)).toBe(true)
      expect(refreshes).toHaveLength(1)
      expect(text((yield* stored).accessToken)).toBe(freshAccess)
    }).pipe(Effect.provide(sessionLayer(tokens(undefined, refreshTokenText)))))
})

describe("invalid access tokens (PROTOCOL.md §1.6)", () => {
  it.effect("an invalid-access-token answer marks the token expired and the call is retried once with a fresh token", () =>
    Effect.gen(function* () {
      const stale = expiringAt(5_000)
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint((token) => (token === stale ? knownError("ACCESS_TOKEN_EXPIRED", 401, "Access token has expired.") : json(userBody)))
      const user = yield* Users.getCurrent()
      expect(Option.isSome(user)).toBe(true)
      expect(me).toEqual([stale, freshAccess])
      expect(refreshes).toHaveLength(1)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))

  it.effect("20 concurrent calls rejected as UNPARSABLE_ACCESS_TOKEN share 1 refresh", () =>
    Effect.gen(function* () {
      const stale = expiringAt(5_000)
      const refreshes = refreshEndpoint(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10))
        return tokenResponse()
      })
      meEndpoint((token) => (token === stale ? knownError("UNPARSABLE_ACCESS_TOKEN", 401, "Access token is not parsable.") : json(userBody)))
      const users = yield* Effect.all(Array.from({ length: 20 }, () => Users.getCurrent()), { concurrency: "unbounded" })
      expect(users.every(Option.isSome)).toBe(true)
      expect(refreshes).toHaveLength(1)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))

  it.effect("a token rejected again after the retry surfaces as its typed error", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => tokenResponse())
      const me = meEndpoint(() =>
        HttpResponse.json(
          { code: "INVALID_PROJECT_FOR_ACCESS_TOKEN", error: "Access token not valid for this project.", details: { expected_project_id: projectId, actual_project_id: "internal" } },
          { status: 401, headers: { "x-stack-known-error": "INVALID_PROJECT_FOR_ACCESS_TOKEN" } }
        )
      )
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("InvalidProjectForAccessToken")
      expect(me).toHaveLength(2)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))
})

describe("ending a session (SPEC.md §4)", () => {
  it.effect("a rejected refresh token clears both tokens and the user is signed out", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, "Refresh token not found."))
      const me = meEndpoint()
      yield* TestClock.setTime(120_000)
      const user = yield* Users.getCurrent()
      expect(Option.isNone(user)).toBe(true)
      expect(me).toHaveLength(0)
      const after = yield* stored
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("a network failure during refresh keeps the refresh token", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => HttpResponse.error())
      meEndpoint()
      yield* TestClock.setTime(120_000)
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("ConnectivityError")
      expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("a server fault during refresh keeps the refresh token", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => new HttpResponse("boom", { status: 500 }))
      meEndpoint()
      yield* TestClock.setTime(120_000)
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("HttpError")
      expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("a sign-out during an in-flight refresh wins: the refresh result is dropped", () =>
    Effect.gen(function* () {
      const release = yield* Deferred.make<void>()
      let releaseRefresh: () => void = () => {}
      const gate = new Promise<void>((resolve) => (releaseRefresh = resolve))
      refreshEndpoint(async () => {
        await gate
        return tokenResponse()
      })
      server.use(http.delete(`${apiUrl}/auth/sessions/current`, () => json({ success: true })))
      meEndpoint()
      yield* TestClock.setTime(120_000)
      const session = yield* Session
      const pending = yield* Effect.fork(session.refresh)
      yield* realPause(20)
      yield* session.clear
      releaseRefresh()
      yield* Deferred.succeed(release, undefined)
      const result = yield* Fiber.join(pending)
      expect(Option.isNone(result)).toBe(true)
      const after = yield* stored
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("sign-out deletes the current session, then clears the tokens", () =>
    Effect.gen(function* () {
      let deletes = 0
      server.use(http.delete(`${apiUrl}/auth/sessions/current`, () => (deletes++, json({ success: true }))))
      yield* Sessions.signOut()
      expect(deletes).toBe(1)
      const after = yield* stored
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))

  it.effect("sign-out ignores a refresh-token error (the session is already gone)", () =>
    Effect.gen(function* () {
      server.use(http.delete(`${apiUrl}/auth/sessions/current`, () => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, "gone")))
      yield* Sessions.signOut()
      expect(Option.isNone((yield* stored).refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))

  it.effect("a sign-out that cannot reach the server (after the idempotent retries) keeps the tokens, so the caller can retry", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.delete(`${apiUrl}/auth/sessions/current`, () => (calls++, HttpResponse.error())))
      const fiber = yield* Effect.fork(Effect.flip(Sessions.signOut()))
      const { exit } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("ConnectivityError")
      expect(calls).toBe(5)
      expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))
})

describe("token responses are validated before they are stored (SPEC.md §5)", () => {
  const rejects = (name: string, body: Record<string, JsonBodyType>) =>
    it.effect(`rejects ${name}`, () =>
      Effect.gen(function* () {
        refreshEndpoint(() => json(body))
        meEndpoint()
        yield* TestClock.setTime(120_000)
        const error = yield* Effect.flip(Users.getCurrent())
        expect(error._tag).toBe("InvalidResponse")
        expect(error.message).not.toContain(refreshTokenText)
        const after = yield* stored
        expect(text(after.refreshToken)).toBe(refreshTokenText)
        expect(text(after.accessToken)).toBe(expiringAt(60))
      }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  rejects("an empty access token", { access_token: "", token_type: "Bearer" })
  rejects("the access token text 'undefined'", { access_token: "undefined", token_type: "Bearer" })
  rejects("a token type other than bearer or dpop", { access_token: freshAccess, token_type: "mac" })
  rejects("a non-positive expires_in", { access_token: freshAccess, token_type: "Bearer", expires_in: 0 })
  rejects("a missing access token", { token_type: "Bearer" })

  it.effect("accepts token_type in any case (DPoP) and keeps the old refresh token when none is returned", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => json({ access_token: freshAccess, token_type: "DPoP" }))
      meEndpoint()
      yield* TestClock.setTime(120_000)
      yield* Users.getCurrent()
      const after = yield* stored
      expect(text(after.accessToken)).toBe(freshAccess)
      expect(text(after.refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))

  it.effect("a refresh response with a new refresh token replaces the old one", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => tokenResponse(freshAccess, { refresh_token: "rotatedrefresh000000000000000000000000000000000" }))
      meEndpoint()
      yield* TestClock.setTime(120_000)
      yield* Users.getCurrent()
      expect(text((yield* stored).refreshToken)).toBe("rotatedrefresh000000000000000000000000000000000")
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(60), refreshTokenText)))))
})

describe("session changes are observable", () => {
  it.effect("the stream emits sign-in, refresh and sign-out", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => tokenResponse())
      const session = yield* Session
      const collected = yield* Effect.fork(Stream.runCollect(Stream.take(session.changes, 4)))
      yield* realPause(5)
      yield* session.signIn({ accessToken: Redacted.make(expiringAt(60)), refreshToken: Option.some(Redacted.make(refreshTokenText)) })
      yield* session.refresh
      yield* session.clear
      const states = Chunk.toReadonlyArray(yield* Fiber.join(collected))
      expect(states.map((state) => text(state.accessToken))).toEqual([undefined, expiringAt(60), freshAccess, undefined])
    }).pipe(Effect.provide(sessionLayer())))
})
