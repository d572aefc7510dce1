/**
 * The full session (`Session.layer`) beyond the token rules it shares with the per-request
 * session (those are in `sessionRules.contract.test.ts`, run against both): sign-out, the
 * change stream, and the scope that owns a refresh in flight.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Redacted, Scope, Stream } from "effect"
import { makeFiberCount } from "../support/fibers.js"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import { freshAccess, gate, json, knownError, sessionMocks, tokenResponse } from "./sessionMocks.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as SessionModule from "../../src/session/Session.js"
import { Session } from "../../src/session/Session.js"
import * as TokenStoreModule from "../../src/session/TokenStore.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import {
  accessToken,
  apiUrl,
  makeMswServer,
  realPause,
  refreshTokenText,
  runAdvancingClock,
  sessionLayer,
  tokens,
  transportLayer,
  userBody
} from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
const { refreshEndpoint, meEndpoint } = sessionMocks(server)

/** The test clock starts at 0: a token expiring at `seconds` (epoch seconds). */
const expiringAt = (seconds: number) => accessToken(seconds)

const stored = Effect.flatMap(TokenStore, (store) => store.get)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))

describe("signing out (SPEC.md §4)", () => {
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
      const fiber = yield* Effect.forkChild(Effect.flip(Sessions.signOut()))
      const { exit } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("ConnectivityError")
      expect(calls).toBe(5)
      expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiringAt(5_000), refreshTokenText)))))
})

describe("session changes are observable", () => {
  it.effect("the stream emits sign-in, refresh and sign-out", () =>
    Effect.gen(function* () {
      refreshEndpoint(() => tokenResponse())
      const session = yield* Session
      const collected = yield* Effect.forkChild(Stream.runCollect(Stream.take(session.changes, 4)))
      yield* realPause(5)
      yield* session.signIn({ accessToken: Redacted.make(expiringAt(60)), refreshToken: Option.some(Redacted.make(refreshTokenText)) })
      yield* session.refresh
      yield* session.clear
      const states = Array.from(yield* Fiber.join(collected))
      expect(states.map((state) => text(state.accessToken))).toEqual([undefined, expiringAt(60), freshAccess, undefined])
    }).pipe(Effect.provide(sessionLayer())))
})

describe("the session's scope", () => {
  it.effect("closing the session's scope stops a refresh in flight and its waiting callers; no fiber is left", () =>
    Effect.gen(function* () {
      let release: () => void = () => {}
      const gate = new Promise<void>((resolve) => (release = resolve))
      let refreshes = 0
      server.use(
        http.post(`${apiUrl}/auth/oauth/token`, async () => {
          refreshes++
          await gate
          return tokenResponse()
        })
      )
      const scope = yield* Scope.make()
      const fibers = makeFiberCount()
      const session = yield* SessionModule.make.pipe(Scope.provide(scope), Effect.provide(TokenStoreModule.layerMemory(tokens(undefined, refreshTokenText))))
      const caller = yield* Effect.forkChild(fibers.track(session.refresh))
      for (let i = 0; i < 500 && refreshes === 0; i++) yield* realPause(2)
      expect(refreshes).toBe(1)
      const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
      for (let i = 0; i < 500 && Option.isNone(Option.fromUndefinedOr(closing.pollUnsafe())); i++) yield* realPause(2)
      const closed = Option.isSome(Option.fromUndefinedOr(closing.pollUnsafe()))
      release()
      expect(closed).toBe(true)
      expect(Exit.hasInterrupts(yield* Fiber.await(caller))).toBe(true)
      for (let i = 0; i < 500 && fibers.live() > 0; i++) yield* realPause(2)
      expect(fibers.live()).toBe(0)
      expect(refreshes).toBe(1)
    }).pipe(Effect.provide(transportLayer())))
})

describe("another tab of the same session writes during a refresh", () => {
  /** A store another tab writes to: `write` is that tab's change, heard through `listen`. */
  const sharedStore = (initial: StoredTokens) => {
    let current = initial
    const listeners = new Set<(tokens: StoredTokens) => void>()
    const store: TokenStoreModule.TokenStoreShape = {
      get: Effect.sync(() => current),
      set: (tokens) => Effect.sync(() => void (current = tokens)),
      changes: Stream.empty,
      listen: (listener) => {
        listeners.add(listener)
        return () => void listeners.delete(listener)
      }
    }
    const write = (tokens: StoredTokens) => {
      current = tokens
      for (const listener of listeners) listener(tokens)
    }
    return { layer: Layer.succeed(TokenStore, store), write }
  }

  it.effect("the call waiting on the superseded refresh is sent with the access token the other tab wrote, not as signed out", () => {
    const shared = sharedStore(tokens(undefined, refreshTokenText))
    const otherTabsAccess = accessToken(20_000)
    return Effect.gen(function* () {
      const refreshGate = gate()
      const refreshes = refreshEndpoint(async () => {
        await refreshGate.promise
        return tokenResponse()
      })
      const sent = meEndpoint((token) => (token === null ? knownError("CANNOT_GET_OWN_USER_WITHOUT_USER", 400, "no user") : json(userBody)))
      const call = yield* Effect.forkChild(Users.getCurrent())
      for (let i = 0; i < 500 && refreshes.length === 0; i++) yield* realPause(2)
      // the other tab's cookies: the refresh cookie was seen first, now the access cookie too
      shared.write(tokens(otherTabsAccess, refreshTokenText))
      refreshGate.open()
      const user = yield* Fiber.join(call)
      expect(Option.isSome(user)).toBe(true)
      expect(sent).toEqual([otherTabsAccess])
      expect(refreshes).toHaveLength(1)
      expect(text((yield* stored).accessToken)).toBe(otherTabsAccess)
    }).pipe(Effect.provide(SessionModule.layer.pipe(Layer.provideMerge(shared.layer), Layer.provideMerge(transportLayer()))))
  })

  it.effect("a sign-in of another session meanwhile (another refresh token) still ends the waiting call as signed out", () => {
    const shared = sharedStore(tokens(undefined, refreshTokenText))
    return Effect.gen(function* () {
      const refreshGate = gate()
      refreshEndpoint(async () => {
        await refreshGate.promise
        return tokenResponse()
      })
      const sent = meEndpoint((token) => (token === null ? knownError("CANNOT_GET_OWN_USER_WITHOUT_USER", 400, "no user") : json(userBody)))
      const call = yield* Effect.forkChild(Users.getCurrent())
      yield* realPause(20)
      shared.write(tokens(accessToken(20_000), "another-sessions-refresh-token"))
      refreshGate.open()
      const user = yield* Fiber.join(call)
      expect(Option.isNone(user)).toBe(true)
      expect(sent.filter((token) => token !== null)).toEqual([])
    }).pipe(Effect.provide(SessionModule.layer.pipe(Layer.provideMerge(shared.layer), Layer.provideMerge(transportLayer()))))
  })
})
