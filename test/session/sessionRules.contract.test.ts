/**
 * The session rules (SPEC.md §4–5, PROTOCOL.md §2.7, §5.1), one suite run against both kinds of
 * session: the full session over a token store (`Session.layer`) and the light per-request
 * session (`Session.makeForRequest`). Both share one implementation; this suite pins that they
 * obey the same rules: reuse while ≥ 20 s remain, one refresh per refresh token shared by every
 * caller (and not cancelled by a caller's interruption), a rejected refresh token signs out, any
 * other failure keeps the tokens, the refresh cooldown after a network failure, a sign-out during
 * a refresh wins. Time comes from `TestClock`; every assertion counts requests, fibers or tokens.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Layer, Option, Redacted } from "effect"
import { makeFiberCount } from "../support/fibers.js"
import { TestClock } from "effect/testing"
import { http, HttpResponse } from "msw"
import type { JsonBodyType } from "msw"
import { afterAll, afterEach, beforeAll, expectTypeOf } from "vitest"
import { freshAccess, gate, json, knownError, sessionMocks, tokenResponse } from "./sessionMocks.js"
import type { refreshGrant } from "../../src/session/RefreshGrant.js"
import type { RefreshFailure, SessionError, TransportError } from "../../src/core/Errors.js"
import type { DecodedErrorOf } from "../../src/core/internal/definition.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { StackConfigError } from "../../src/core/StackConfig.js"
import * as SessionModule from "../../src/session/Session.js"
import { defaultRefreshFailureCooldown, RefreshFailureCooldown, Session } from "../../src/session/Session.js"
import type { RefreshError } from "../../src/session/Session.js"
import * as TokenStoreModule from "../../src/session/TokenStore.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import {
  accessToken,
  apiUrl,
  makeMswServer,
  projectId,
  publishableClientKey,
  realPause,
  refreshTokenText,
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

/** A kind of session under test. */
interface SessionKind {
  readonly name: string
  /** Transport + session (+ a memory token store; the per-request session does not use it). */
  readonly layer: (
    initial: StoredTokens,
    retryPolicy?: Layer.Layer<RetryPolicy.RetryPolicy>
  ) => Layer.Layer<Session | StackClient | TokenStore, StackConfigError>
  /** The tokens as kept: the token store for the full session, the session itself for the per-request one. */
  readonly stored: Effect.Effect<StoredTokens, never, Session | TokenStore>
}

const kinds: ReadonlyArray<SessionKind> = [
  {
    name: "Session.layer (over a token store)",
    layer: (initial, retryPolicy) => sessionLayer(initial, retryPolicy),
    stored: Effect.flatMap(TokenStore, (store) => store.get)
  },
  {
    name: "Session.makeForRequest (one request's tokens)",
    layer: (initial, retryPolicy) =>
      Layer.effect(Session, SessionModule.makeForRequest(initial)).pipe(
        Layer.provideMerge(transportLayer(retryPolicy)),
        Layer.provideMerge(TokenStoreModule.layerMemory())
      ),
    stored: Effect.flatMap(Session, (session) => session.current)
  }
]

/** The test clock starts at 0: a token expiring at `seconds` (epoch seconds). */
const expiringAt = (seconds: number) => accessToken(seconds)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))
const rotatedRefresh = "rotatedrefresh000000000000000000000000000000000"
const otherRefresh = "otherrefreshtoken00000000000000000000000000000"

/** Waits (real time) until `condition` holds, letting msw and the fibers progress. */
const until = (condition: () => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 500 && !condition(); i++) yield* realPause(2)
    expect(condition()).toBe(true)
  })

for (const kind of kinds) {
  const stored = kind.stored

  describe(`${kind.name}: access token reuse (SPEC.md §4)`, () => {
    it.effect("reuses the access token while 20 s or more remain", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => tokenResponse())
        const me = meEndpoint()
        yield* TestClock.setTime(0)
        yield* Users.getCurrent()
        yield* TestClock.setTime(40_000) // exactly 20 s left
        yield* Users.getCurrent()
        expect(refreshes).toHaveLength(0)
        expect(me).toEqual([expiringAt(60), expiringAt(60)])
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    it.effect("refreshes when less than 20 s remain, with the refresh grant's form fields", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => tokenResponse())
        const me = meEndpoint()
        yield* TestClock.setTime(40_001)
        yield* Users.getCurrent()
        expect(refreshes).toHaveLength(1)
        expect(Object.fromEntries(refreshes[0]!)).toEqual({
          grant_type: "refresh_token",
          refresh_token: refreshTokenText,
          client_id: projectId,
          client_secret: publishableClientKey
        })
        expect(me).toEqual([freshAccess])
        expect(text((yield* stored).accessToken)).toBe(freshAccess)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    it.effect("a token without exp never expires", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => tokenResponse())
        meEndpoint()
        yield* TestClock.setTime(10 * 365 * 24 * 3600 * 1000)
        yield* Users.getCurrent()
        expect(refreshes).toHaveLength(0)
      }).pipe(Effect.provide(kind.layer(tokens(accessToken(undefined), refreshTokenText)))))

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
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    it.effect("a session with only a refresh token refreshes before the first call; without tokens nothing is sent", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => tokenResponse())
        const me = meEndpoint()
        const user = yield* Users.getCurrent()
        expect(Option.isSome(user)).toBe(true)
        expect(refreshes).toHaveLength(1)
        expect(text((yield* stored).accessToken)).toBe(freshAccess)
        const signedOut = yield* Users.getCurrent().pipe(Effect.provide(kind.layer(tokens(undefined, undefined))))
        expect(Option.isNone(signedOut)).toBe(true)
        expect(refreshes).toHaveLength(1)
        expect(me).toHaveLength(1)
      }).pipe(Effect.provide(kind.layer(tokens(undefined, refreshTokenText)))))
  })

  describe(`${kind.name}: invalid access tokens (PROTOCOL.md §1.6)`, () => {
    it.effect("an invalid-access-token answer marks the token expired and the call is retried once with a fresh token", () =>
      Effect.gen(function* () {
        const stale = expiringAt(5_000)
        const refreshes = refreshEndpoint(() => tokenResponse())
        const me = meEndpoint((token) => (token === stale ? knownError("ACCESS_TOKEN_EXPIRED", 401, "Access token has expired.") : json(userBody)))
        const user = yield* Users.getCurrent()
        expect(Option.isSome(user)).toBe(true)
        expect(me).toEqual([stale, freshAccess])
        expect(refreshes).toHaveLength(1)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(5_000), refreshTokenText)))))

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
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(5_000), refreshTokenText)))))

    it.effect("a token rejected again after the retry surfaces as its typed error", () =>
      Effect.gen(function* () {
        refreshEndpoint(() => tokenResponse())
        const me = meEndpoint(() =>
          HttpResponse.json(
            {
              code: "INVALID_PROJECT_FOR_ACCESS_TOKEN",
              error: "Access token not valid for this project.",
              details: { expected_project_id: projectId, actual_project_id: "internal" }
            },
            { status: 401, headers: { "x-stack-known-error": "INVALID_PROJECT_FOR_ACCESS_TOKEN" } }
          )
        )
        const error = yield* Effect.flip(Users.getCurrent())
        expect(error._tag === "SessionError" && error.reason._tag).toBe("InvalidProjectForAccessToken")
        expect(me).toHaveLength(2)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(5_000), refreshTokenText)))))
  })

  describe(`${kind.name}: ending a session (SPEC.md §4)`, () => {
    for (const code of KnownErrors.refreshTokenErrorCodes) {
      it.effect(`a refresh token rejected with ${code} clears both tokens and the user is signed out`, () =>
        Effect.gen(function* () {
          const cls = KnownErrors.byCode.get(code)!
          const refreshes = refreshEndpoint(() => knownError(code, cls.status, "Refresh token rejected."))
          const me = meEndpoint()
          yield* TestClock.setTime(120_000)
          const user = yield* Users.getCurrent()
          expect(Option.isNone(user)).toBe(true)
          expect(me).toHaveLength(0)
          const after = yield* stored
          expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
          // signed out for good: no further refresh
          expect(Option.isNone(yield* Users.getCurrent())).toBe(true)
          expect(refreshes).toHaveLength(1)
        }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))
    }

    it.effect("a network failure during refresh keeps the refresh token", () =>
      Effect.gen(function* () {
        refreshEndpoint(() => HttpResponse.error())
        meEndpoint()
        yield* TestClock.setTime(120_000)
        const error = yield* Effect.flip(Users.getCurrent())
        expect(error._tag).toBe("ConnectivityError")
        expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    it.effect("a server fault during refresh keeps the refresh token", () =>
      Effect.gen(function* () {
        refreshEndpoint(() => new HttpResponse("boom", { status: 500 }))
        meEndpoint()
        yield* TestClock.setTime(120_000)
        const error = yield* Effect.flip(Users.getCurrent())
        expect(error._tag).toBe("HttpError")
        expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    it.effect("a sign-out during an in-flight refresh wins: the refresh result is dropped", () =>
      Effect.gen(function* () {
        const refreshGate = gate()
        refreshEndpoint(async () => {
          await refreshGate.promise
          return tokenResponse()
        })
        server.use(http.delete(`${apiUrl}/auth/sessions/current`, () => json({ success: true })))
        meEndpoint()
        yield* TestClock.setTime(120_000)
        const session = yield* Session
        const pending = yield* Effect.forkChild(session.refresh)
        yield* realPause(20)
        yield* session.clear
        refreshGate.open()
        const result = yield* Fiber.join(pending)
        expect(Option.isNone(result)).toBe(true)
        const after = yield* stored
        expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))
  })

  describe(`${kind.name}: token responses are validated before they are stored (SPEC.md §5)`, () => {
    const rejects = (name: string, body: Record<string, JsonBodyType>) =>
      it.effect(`rejects ${name}: InvalidResponse, both tokens kept`, () =>
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
        }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    rejects("an empty access token", { access_token: "", token_type: "Bearer" })
    rejects("the access token text 'undefined'", { access_token: "undefined", token_type: "Bearer" })
    rejects("a token type other than bearer or dpop", { access_token: freshAccess, token_type: "mac" })
    rejects("a non-positive expires_in", { access_token: freshAccess, token_type: "Bearer", expires_in: 0 })
    // not a token answer at all (no token_type): a broken answer, not "a refresh returns nothing"
    rejects("an empty JSON object", {})
    rejects("a null access token without a token type", { access_token: null })

    it.effect("accepts token_type in any case (DPoP) and keeps the old refresh token when none is returned", () =>
      Effect.gen(function* () {
        refreshEndpoint(() => json({ access_token: freshAccess, token_type: "DPoP" }))
        meEndpoint()
        yield* TestClock.setTime(120_000)
        yield* Users.getCurrent()
        const after = yield* stored
        expect(text(after.accessToken)).toBe(freshAccess)
        expect(text(after.refreshToken)).toBe(refreshTokenText)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    it.effect("a refresh response with a new refresh token replaces the old one", () =>
      Effect.gen(function* () {
        refreshEndpoint(() => tokenResponse(freshAccess, { refresh_token: rotatedRefresh }))
        meEndpoint()
        yield* TestClock.setTime(120_000)
        yield* Users.getCurrent()
        expect(text((yield* stored).refreshToken)).toBe(rotatedRefresh)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))
  })

  // a token answer (valid token_type) carrying no access token is "a refresh returns nothing"
  describe(`${kind.name}: a refresh that returns nothing ends the session (SPEC.md §4)`, () => {
    const endsSession = (name: string, body: Record<string, JsonBodyType>) =>
      it.effect(`${name}: both tokens cleared, the user is signed out, no user read is sent`, () =>
        Effect.gen(function* () {
          const refreshes = refreshEndpoint(() => json(body))
          const reads = meEndpoint()
          yield* TestClock.setTime(120_000)
          const user = yield* Users.getCurrent()
          expect(Option.isNone(user)).toBe(true)
          const after = yield* stored
          expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
          expect(refreshes).toHaveLength(1)
          expect(reads).toEqual([])
        }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))

    endsSession("a 200 without an access token", { token_type: "Bearer" })
    endsSession("a null access token", { access_token: null, token_type: "Bearer" })
  })

  describe(`${kind.name}: the shared refresh belongs to the session, not to a caller`, () => {
    const interruptions = [
      { name: "interrupted (Fiber.interrupt)", stop: <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.andThen(Fiber.interrupt(fiber), Fiber.await(fiber)) },
      {
        name: "timed out (Effect.timeout)",
        stop: <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.andThen(TestClock.adjust("1 second"), Fiber.await(fiber))
      }
    ]
    for (const interruption of interruptions) {
      it.effect(`3 callers share a refresh; the first is ${interruption.name}: the other 2 still get the token, 1 refresh request`, () =>
        Effect.gen(function* () {
          const refreshGate = gate()
          const refreshes = refreshEndpoint(async () => {
            await refreshGate.promise
            return tokenResponse()
          })
          const me = meEndpoint()
          yield* TestClock.setTime(120_000)
          const first = yield* Effect.forkChild(Effect.timeout(Users.getCurrent(), "1 second"))
          yield* until(() => refreshes.length === 1)
          const others = yield* Effect.all([Effect.forkChild(Users.getCurrent()), Effect.forkChild(Users.getCurrent())])
          yield* realPause(10)
          const stopped = yield* interruption.stop(first)
          expect(Exit.isFailure(stopped)).toBe(true)
          refreshGate.open()
          const users = yield* Fiber.joinAll(others)
          expect(users.every(Option.isSome)).toBe(true)
          expect(refreshes).toHaveLength(1)
          expect(me).toEqual([freshAccess, freshAccess])
          expect(text((yield* stored).accessToken)).toBe(freshAccess)
        }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))
    }

    it.effect("a refresh whose every caller was interrupted still completes and stores its tokens; no fiber is left once it ended", () =>
      Effect.gen(function* () {
        const refreshGate = gate()
        const refreshes = refreshEndpoint(async () => {
          await refreshGate.promise
          return tokenResponse()
        })
        meEndpoint()
        yield* TestClock.setTime(120_000)
        const fibers = makeFiberCount()
        const session = yield* Session
        const callers = yield* Effect.all(Array.from({ length: 3 }, () => Effect.forkChild(fibers.track(session.requestTokens))))
        yield* until(() => refreshes.length === 1)
        yield* Fiber.interruptAll(callers)
        // the callers are gone; the shared refresh is still running
        const running = fibers.live()
        expect(running).toBeGreaterThanOrEqual(1)
        refreshGate.open()
        for (let i = 0; i < 500 && text((yield* session.current).accessToken) !== freshAccess; i++) yield* realPause(2)
        expect(text((yield* stored).accessToken)).toBe(freshAccess)
        for (let i = 0; i < 500 && fibers.live() > 0; i++) yield* realPause(2)
        expect(fibers.live()).toBe(0)
        // the stored token is reused: no second refresh
        yield* Users.getCurrent()
        expect(refreshes).toHaveLength(1)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText)))))
  })

  describe(`${kind.name}: refresh cooldown after a network failure`, () => {
    const faults = [
      { name: "no answer (ConnectivityError)", tag: "ConnectivityError", answer: () => HttpResponse.error() },
      { name: "503 (HttpError)", tag: "HttpError", answer: () => new HttpResponse("unavailable", { status: 503 }) },
      { name: "429 (RateLimited)", tag: "RateLimited", answer: () => new HttpResponse("slow down", { status: 429 }) }
    ]
    for (const fault of faults) {
      it.effect(`after ${fault.name}, 50 calls over 1 s reuse the failure: 1 refresh; after the cooldown, 1 more`, () =>
        Effect.gen(function* () {
          const refreshes = refreshEndpoint(fault.answer)
          const me = meEndpoint()
          yield* TestClock.setTime(120_000)
          for (let i = 0; i < 50; i++) {
            const error = yield* Effect.flip(Users.getCurrent())
            expect(error._tag).toBe(fault.tag)
            yield* TestClock.adjust(20)
          }
          expect(refreshes).toHaveLength(1)
          expect(me).toHaveLength(0)
          expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
          // 2 s after the failure: a new refresh, which recovers
          yield* TestClock.adjust(Duration.toMillis(defaultRefreshFailureCooldown) - 1_000)
          const recovered = refreshEndpoint(() => tokenResponse())
          const user = yield* Users.getCurrent()
          expect(Option.isSome(user)).toBe(true)
          expect(refreshes).toHaveLength(1)
          expect(recovered).toHaveLength(1)
        }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText), RetryPolicy.layerNoRetries))))
    }

    it.effect("the forced refresh (session.refresh) obeys the cooldown too", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => HttpResponse.error())
        const session = yield* Session
        for (let i = 0; i < 10; i++) {
          const error = yield* Effect.flip(session.refresh)
          expect(error._tag).toBe("ConnectivityError")
        }
        expect(refreshes).toHaveLength(1)
        yield* TestClock.adjust(defaultRefreshFailureCooldown)
        yield* Effect.flip(session.refresh)
        expect(refreshes).toHaveLength(2)
      }).pipe(Effect.provide(kind.layer(tokens(undefined, refreshTokenText), RetryPolicy.layerNoRetries))))

    it.effect("the cooldown is per refresh token: a sign-in with another refresh token refreshes at once", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => HttpResponse.error())
        yield* TestClock.setTime(120_000)
        expect((yield* Effect.flip(Users.getCurrent()))._tag).toBe("ConnectivityError")
        expect(refreshes).toHaveLength(1)
        const session = yield* Session
        yield* session.signIn({ accessToken: Redacted.make(expiringAt(60)), refreshToken: Option.some(Redacted.make(otherRefresh)) })
        expect((yield* Effect.flip(Users.getCurrent()))._tag).toBe("ConnectivityError")
        expect(refreshes.map((form) => form.get("refresh_token"))).toEqual([refreshTokenText, otherRefresh])
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText), RetryPolicy.layerNoRetries))))

    it.effect("a malformed answer is not a network failure: the next call refreshes again", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => json({ access_token: "", token_type: "Bearer" }))
        yield* TestClock.setTime(120_000)
        expect((yield* Effect.flip(Users.getCurrent()))._tag).toBe("InvalidResponse")
        expect((yield* Effect.flip(Users.getCurrent()))._tag).toBe("InvalidResponse")
        expect(refreshes).toHaveLength(2)
      }).pipe(Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText), RetryPolicy.layerNoRetries))))

    it.effect("the cooldown is set through the RefreshFailureCooldown reference", () =>
      Effect.gen(function* () {
        const refreshes = refreshEndpoint(() => HttpResponse.error())
        yield* TestClock.setTime(120_000)
        yield* Effect.flip(Users.getCurrent())
        yield* TestClock.adjust("9 seconds")
        yield* Effect.flip(Users.getCurrent())
        expect(refreshes).toHaveLength(1)
        yield* TestClock.adjust("1 second")
        yield* Effect.flip(Users.getCurrent())
        expect(refreshes).toHaveLength(2)
      }).pipe(
        Effect.provideService(RefreshFailureCooldown, Duration.seconds(10)),
        Effect.provide(kind.layer(tokens(expiringAt(60), refreshTokenText), RetryPolicy.layerNoRetries))
      ))
  })
}

describe("RefreshError", () => {
  it("is exactly what the refresh grant can fail with, minus the REFRESH_TOKEN_ERROR family (which signs out); the known errors inside a SessionError", () => {
    expectTypeOf<TransportError | RefreshFailure>().toEqualTypeOf<Exclude<DecodedErrorOf<typeof refreshGrant>, KnownErrors.RefreshTokenError>>()
    expectTypeOf<RefreshError>().toEqualTypeOf<TransportError | SessionError<RefreshFailure>>()
  })
})
