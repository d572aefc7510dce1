/**
 * `Session.makeForRequest`: the light session over one request's tokens (no store, no watcher
 * fiber, no scope) follows the same token rules as the full session.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Layer, Option, Redacted, Stream, TestClock } from "effect"
import { HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import { freshAccess, json, knownError, sessionMocks, tokenResponse } from "./sessionMocks.js"
import * as SessionModule from "../../src/session/Session.js"
import { Session } from "../../src/session/Session.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import { accessToken, makeMswServer, realPause, refreshTokenText, tokens, transportLayer, userBody } from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledRequest: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
const { refreshEndpoint, meEndpoint } = sessionMocks(server)

/** Transport + the light session over fixed tokens. */
const requestSession = (initial: StoredTokens) =>
  Layer.effect(Session, SessionModule.makeForRequest(initial)).pipe(Layer.provideMerge(transportLayer()))

const current = Effect.flatMap(Session, (session) => session.current)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))

describe("Session.makeForRequest", () => {
  it.effect("reuses the access token while 20 s or more remain, refreshes below", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint()
      yield* TestClock.setTime(40_000)
      yield* Users.getCurrent()
      expect(refreshes).toHaveLength(0)
      yield* TestClock.setTime(40_001)
      yield* Users.getCurrent()
      expect(refreshes).toHaveLength(1)
      expect(me).toEqual([accessToken(60), freshAccess])
      expect(text((yield* current).accessToken)).toBe(freshAccess)
    }).pipe(Effect.provide(requestSession(tokens(accessToken(60), refreshTokenText)))))

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
      expect(new Set(me)).toEqual(new Set([freshAccess]))
    }).pipe(Effect.provide(requestSession(tokens(accessToken(60), refreshTokenText)))))

  it.effect("a session with only a refresh token refreshes; without tokens nothing is sent", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      meEndpoint()
      const user = yield* Users.getCurrent()
      expect(Option.isSome(user)).toBe(true)
      expect(refreshes).toHaveLength(1)
      const signedOut = yield* Users.getCurrent().pipe(Effect.provide(requestSession(tokens(undefined, undefined))))
      expect(Option.isNone(signedOut)).toBe(true)
      expect(refreshes).toHaveLength(1)
    }).pipe(Effect.provide(requestSession(tokens(undefined, refreshTokenText)))))

  it.effect("an invalid-access-token answer marks the token expired; the call is retried once with a fresh token", () =>
    Effect.gen(function* () {
      const stale = accessToken(5_000)
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint((token) => (token === stale ? knownError("ACCESS_TOKEN_EXPIRED", 401, "Access token has expired.") : json(userBody)))
      const user = yield* Users.getCurrent()
      expect(Option.isSome(user)).toBe(true)
      expect(me).toEqual([stale, freshAccess])
      expect(refreshes).toHaveLength(1)
    }).pipe(Effect.provide(requestSession(tokens(accessToken(5_000), refreshTokenText)))))

  it.effect("a rejected refresh token clears both tokens; a network failure keeps them", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => HttpResponse.error())
      const me = meEndpoint()
      yield* TestClock.setTime(120_000)
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("ConnectivityError")
      expect(text((yield* current).refreshToken)).toBe(refreshTokenText)
      refreshEndpoint(() => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, "Refresh token not found."))
      const user = yield* Users.getCurrent()
      expect(Option.isNone(user)).toBe(true)
      expect(me).toHaveLength(0)
      const after = yield* current
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(requestSession(tokens(accessToken(60), refreshTokenText)))))

  it.effect("a sign-out during an in-flight refresh wins: the refresh result is dropped", () =>
    Effect.gen(function* () {
      let releaseRefresh: () => void = () => {}
      const gate = new Promise<void>((resolve) => (releaseRefresh = resolve))
      refreshEndpoint(async () => {
        await gate
        return tokenResponse()
      })
      yield* TestClock.setTime(120_000)
      const session = yield* Session
      const pending = yield* Effect.fork(session.refresh)
      yield* realPause(20)
      yield* session.clear
      releaseRefresh()
      const result = yield* Fiber.join(pending)
      expect(Option.isNone(result)).toBe(true)
      const after = yield* current
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(requestSession(tokens(accessToken(60), refreshTokenText)))))

  it.effect("a rotated refresh token replaces the old one; sign-in stores new tokens; changes emit nothing", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => tokenResponse(freshAccess, { refresh_token: "rotatedrefresh000000000000000000000000000000000" }))
      meEndpoint()
      yield* TestClock.setTime(120_000)
      yield* Users.getCurrent()
      expect(text((yield* current).refreshToken)).toBe("rotatedrefresh000000000000000000000000000000000")
      const session = yield* Session
      yield* session.signIn({ accessToken: Redacted.make(accessToken(500)), refreshToken: Option.none() })
      const after = yield* current
      expect(text(after.accessToken)).toBe(accessToken(500))
      expect(Option.isNone(after.refreshToken)).toBe(true)
      expect(Chunk.size(yield* Stream.runCollect(session.changes))).toBe(0)
    }).pipe(Effect.provide(requestSession(tokens(accessToken(60), refreshTokenText)))))
})
