/**
 * The 429 rules of the retry policy (PROTOCOL.md §1.6, SPEC.md §8, issue 15 item 1), over msw on
 * the TestClock: Retry-After plus the exponential backoff, the backoff alone without the header,
 * the `maxRetryAfter` ceiling, and a burst of 429s against many concurrent reads.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Exit, Schedule } from "effect"
import { TestClock } from "effect/testing"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import type { RetrySignal } from "../../src/core/RetryPolicy.js"
import { parseRetryAfter } from "../../src/core/internal/transport.js"
import * as Schedules from "../../src/core/Schedules.js"
import { StackClient } from "../../src/core/StackClient.js"
import { apiUrl, makeMswServer, runAdvancingClock, transportLayer } from "../support/fixtures.js"
import { runAllAdvancingClock } from "./retrySupport.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const read = (path = "/users/me") => Effect.flatMap(StackClient, (client) => client.send({ method: "GET", path, access: "client" }))

/** The 429 a real development instance sends: a JSON body about the rate limit, no known-error header. */
const tooMany = (retryAfter?: string) =>
  HttpResponse.json(
    { message: "You have exceeded the rate limit. Please try again later." },
    { status: 429, headers: retryAfter === undefined ? {} : { "retry-after": retryAfter } }
  )

/** The backoff bounds of retry `i` (0-based): 1000 ms × 2^i × 0.5…1.5. */
const backoffBounds = (i: number): readonly [number, number] => [500 * 2 ** i, 1500 * 2 ** i]

const expectWithin = (delays: ReadonlyArray<number>, offsetMillis: number) => {
  delays.forEach((delay, i) => {
    const [low, high] = backoffBounds(i)
    expect(delay, `delay before retry ${i + 1}`).toBeGreaterThanOrEqual(offsetMillis + low)
    expect(delay, `delay before retry ${i + 1}`).toBeLessThanOrEqual(offsetMillis + high)
  })
}

const defaults = transportLayer()

/**
 * Answers every read with a 429 carrying `retryAfter` and runs one read on the TestClock: the
 * error it ended in, the requests the server saw, the delays slept.
 */
const alwaysTooMany = (retryAfter: string) =>
  Effect.gen(function* () {
    let calls = 0
    server.use(http.get(`${apiUrl}/users/me`, () => (++calls, tooMany(retryAfter))))
    const { exit, delays } = yield* runAdvancingClock(yield* Effect.forkChild(Effect.flip(read())))
    return { error: Exit.isSuccess(exit) ? exit.value : undefined, calls, delays }
  })

/** A 429 with `retryAfter` above the ceiling ends the read at once: RateLimited carrying `seconds`, one request, no sleep. */
const refusedAtOnce = (retryAfter: string, seconds: number) =>
  Effect.gen(function* () {
    const { error, calls, delays } = yield* alwaysTooMany(retryAfter)
    expect(error?._tag === "RateLimited" && error.retryAfterSeconds).toBe(seconds)
    expect(calls).toBe(1)
    expect(delays).toEqual([])
  })

describe("429 backoff (PROTOCOL.md §1.6)", () => {
  it.effect("a 429 without Retry-After waits the backoff before each retry: [500,1500], [1000,3000], [2000,6000], [4000,12000] ms", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, tooMany())))
      const fiber = yield* Effect.forkChild(Effect.flip(read()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("RateLimited")
      expect(calls).toBe(5)
      expect(delays).toHaveLength(4)
      expect(delays.every((delay) => delay > 0)).toBe(true)
      expectWithin(delays, 0)
    }).pipe(Effect.provide(defaults)))

  it.effect("a 429 with Retry-After: 3 waits 3 s plus the backoff: [3500,4500], [4000,6000], [5000,9000], [7000,15000] ms", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, tooMany("3"))))
      const fiber = yield* Effect.forkChild(Effect.flip(read()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag === "RateLimited" && exit.value.retryAfterSeconds).toBe(3)
      expect(calls).toBe(5)
      expect(delays).toHaveLength(4)
      expectWithin(delays, 3000)
    }).pipe(Effect.provide(defaults)))

  it.effect("a 429 with a JSON rate-limit body and no known-error header is retried, then succeeds", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls <= 2 ? tooMany(calls === 1 ? "1" : undefined) : HttpResponse.json({ ok: true }))))
      const fiber = yield* Effect.forkChild(read())
      const { exit } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value.status).toBe(200)
      expect(calls).toBe(3)
    }).pipe(Effect.provide(defaults)))

  it.effect("Schedules.delayFor stays within Retry-After + [0.5, 1.5] × 1000 × 2^retry ms on 1000 draws per retry", () =>
    Effect.gen(function* () {
      for (let retryIndex = 0; retryIndex < 4; retryIndex++) {
        const [low, high] = backoffBounds(retryIndex)
        for (let draw = 0; draw < 1000; draw++) {
          const without = Duration.toMillis(yield* Schedules.delayFor({ _tag: "RateLimitedSignal", retryAfterSeconds: undefined }, retryIndex))
          const withHeader = Duration.toMillis(yield* Schedules.delayFor({ _tag: "RateLimitedSignal", retryAfterSeconds: 3 }, retryIndex))
          expect(without).toBeGreaterThanOrEqual(low)
          expect(without).toBeLessThanOrEqual(high)
          expect(withHeader).toBeGreaterThanOrEqual(3000 + low)
          expect(withHeader).toBeLessThanOrEqual(3000 + high)
        }
      }
    }))
})

describe("maxRetryAfter, the Retry-After ceiling (RetryPolicy)", () => {
  const withCeiling = (maxRetryAfter: RetryPolicy.RetryPolicyShape["maxRetryAfter"], schedule?: Schedule.Schedule<unknown, RetrySignal>) =>
    transportLayer(RetryPolicy.layerWith({ attemptTimeout: "none", maxRetryAfter, ...(schedule === undefined ? {} : { schedule }) }))

  it.effect("by default a Retry-After of 99999999999 s is not slept on: RateLimited at once with the server's value, 1 request", () =>
    refusedAtOnce("99999999999", 99999999999).pipe(Effect.provide(defaults)))

  it.effect("the default ceiling is 60 s: a Retry-After of 61 s fails at once, one of 60 s is waited for", () =>
    Effect.gen(function* () {
      expect(Duration.toSeconds(Duration.fromInputUnsafe(RetryPolicy.defaultMaxRetryAfter as Duration.Input))).toBe(60)
      const refused = yield* alwaysTooMany("61")
      expect(refused.error?._tag).toBe("RateLimited")
      expect(refused.calls).toBe(1)
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? tooMany("60") : HttpResponse.json({}))))
      const waited = yield* runAdvancingClock(yield* Effect.forkChild(read()))
      expect(Exit.isSuccess(waited.exit)).toBe(true)
      expect(calls).toBe(2)
      expectWithin(waited.delays, 60_000)
    }).pipe(Effect.provide(defaults)))

  it.effect("maxRetryAfter \"none\" waits for every Retry-After: one of a day is waited for, then the call succeeds", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? tooMany("86400") : HttpResponse.json({}))))
      const fiber = yield* Effect.forkChild(read())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
      expectWithin(delays, 86_400_000)
    }).pipe(Effect.provide(withCeiling("none"))))

  it.effect("a Retry-After above maxRetryAfter ends the call at once in RateLimited with the server's value: 1 request, no sleep", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, tooMany("61"))))
      const fiber = yield* Effect.forkChild(Effect.flip(read()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag === "RateLimited" && exit.value.retryAfterSeconds).toBe(61)
      expect(Exit.isSuccess(exit) && exit.value.message).toContain("maxRetryAfter")
      expect(calls).toBe(1)
      expect(delays).toEqual([])
    }).pipe(Effect.provide(withCeiling("1 minute"))))

  it.effect("a Retry-After equal to maxRetryAfter is waited for", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? tooMany("60") : HttpResponse.json({}))))
      const fiber = yield* Effect.forkChild(read())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
      expectWithin(delays, 60_000)
    }).pipe(Effect.provide(withCeiling("1 minute"))))

  it.effect("maxRetryAfter applies under a custom schedule too", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, tooMany("10"))))
      const fiber = yield* Effect.forkChild(Effect.flip(read()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("RateLimited")
      expect(calls).toBe(1)
      expect(delays).toEqual([])
    }).pipe(Effect.provide(withCeiling("5 seconds", Schedule.recurs(10)))))

  it.effect("a 429 without Retry-After is retried whatever the ceiling", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? tooMany() : HttpResponse.json({}))))
      const fiber = yield* Effect.forkChild(read())
      const { exit } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
    }).pipe(Effect.provide(withCeiling(0))))
})

describe("Retry-After as an HTTP-date (RFC 9110 §10.2.3), counted from Effect's Clock", () => {
  /** The HTTP-date `seconds` after the (test) clock's now. */
  const inSeconds = (seconds: number) => Effect.map(Clock.currentTimeMillis, (now) => new Date(now + seconds * 1000).toUTCString())

  it.effect("an HTTP-date 3 s ahead waits 3 s plus the backoff before the retry", () =>
    Effect.gen(function* () {
      const date = yield* inSeconds(3)
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? tooMany(date) : HttpResponse.json({}))))
      const { exit, delays } = yield* runAdvancingClock(yield* Effect.forkChild(read()))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
      expect(delays).toHaveLength(1)
      expectWithin(delays, 3000)
    }).pipe(Effect.provide(defaults)))

  it.effect("an HTTP-date beyond maxRetryAfter fails at once in RateLimited carrying the seconds until it: 1 request", () =>
    Effect.flatMap(inSeconds(3600), (date) => refusedAtOnce(date, 3600)).pipe(Effect.provide(defaults)))

  it.effect("an HTTP-date already past is a wait of 0 s: the retry waits the backoff alone", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 28, 12, 0, 0))
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? tooMany("Sun, 06 Nov 1994 08:49:37 GMT") : HttpResponse.json({}))))
      const { exit, delays } = yield* runAdvancingClock(yield* Effect.forkChild(read()))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
      expectWithin(delays, 0)
    }).pipe(Effect.provide(defaults)))

  it("reads the three HTTP-date forms and refuses anything else", () => {
    const now = Date.UTC(1994, 10, 6, 8, 49, 0)
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now)).toBe(37)
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(37)
    expect(parseRetryAfter("Sun Nov  6 08:49:37 1994", now)).toBe(37)
    expect(parseRetryAfter(" 120 ", now)).toBe(120)
    for (
      const text of [
        "soon",
        "",
        "-5",
        "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT",
        "2026-11-28T12:00:00Z",
        "Sun, 06 Nov 1994 08:49:37 PST"
      ]
    ) {
      expect(parseRetryAfter(text, now), text).toBeUndefined()
    }
  })
})

describe("a burst of 429s against concurrent reads", () => {
  it.effect("110 concurrent reads through a burst of 300 429s (half with Retry-After) all succeed: 410 requests", () =>
    Effect.gen(function* () {
      let requests = 0
      server.use(
        http.get(`${apiUrl}/users/me`, () => {
          const index = ++requests
          return index <= 300 ? tooMany(index % 2 === 0 ? "1" : undefined) : HttpResponse.json({})
        })
      )
      const exits = yield* runAllAdvancingClock(Array.from({ length: 110 }, () => read()))
      const failures = exits.filter(Exit.isFailure)
      expect(failures.length).toBe(0)
      expect(exits.length).toBe(110)
      expect(requests).toBe(410)
    }).pipe(Effect.provide(defaults)), 60_000)
})
