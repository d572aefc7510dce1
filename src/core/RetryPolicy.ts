/**
 * The retry policy: a `Schedule` fed with the signal of each failed attempt (SPEC.md §8, §9;
 * PROTOCOL.md §1.6). The default is `Schedules.retry`:
 *
 * - 429: wait `Retry-After` plus the backoff below, or the backoff alone without the header (as
 *   the official client: a burst of 429s is spread out, never retried at once). `Retry-After` is
 *   read in both of its forms: delay-seconds, or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`,
 *   counted from Effect's `Clock`; a date already past is 0 s); any other text is ignored. A
 *   `Retry-After` longer than `maxRetryAfter` (60 s by default) is not slept on: the call ends at
 *   once in `RateLimited` carrying the server's value, so a hostile or confused answer
 *   (`Retry-After: 99999999999`) never holds a call forever;
 * - 508 with the `INFINITE_LOOP_DETECTED` marker: retry with backoff;
 * - network failure of an idempotent request: retry with exponential backoff
 *   (base 1000 ms, jitter 0.5×–1.5×); non-idempotent requests are never retried. A network
 *   failure is a request that got no answer: once an answer's status and headers arrived, a body
 *   that fails while it is read (cut short, not matching its `Content-Encoding`) is an
 *   `InvalidResponse`, never retried (the service answered and may have acted on the request);
 * - at most 5 attempts per logical request (the first one included), as the official client;
 * - each attempt may take at most `attemptTimeout` (30 s by default); a stalled answer is a
 *   network failure;
 * - an answer body may be at most `maxResponseBytes` (8 MiB by default): the transport stops
 *   reading after that many bytes (plus at most one network chunk) and the call fails with
 *   `InvalidResponse`, never retried (the service's answers are a few kilobytes).
 *
 * The policy is a service, so tests and apps swap it with a layer ({@link layerNoRetries}).
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { retry } from "./Schedules.js"
import type { RetrySignal } from "./Schedules.js"

export type { RetrySignal } from "./Schedules.js"
export { backoff, backoffBase, delayFor, maxAttempts } from "./Schedules.js"

/** The retry policy service: a schedule fed with the signal of each failed attempt. */
export interface RetryPolicyShape {
  readonly schedule: Schedule.Schedule<unknown, RetrySignal>
  /**
   * How long one attempt may take (request and whole response body) before it counts as a
   * network failure: retried when the request may be repeated, else a `ConnectivityError`.
   * Default {@link defaultAttemptTimeout}; `"none"` sets no limit.
   */
  readonly attemptTimeout?: Duration.Input | "none" | undefined
  /**
   * The largest answer body read, in bytes: a larger one (by its `content-length`, or once more
   * bytes arrived) fails with `InvalidResponse` without being read further. Default
   * {@link defaultMaxResponseBytes}.
   */
  readonly maxResponseBytes?: number | undefined
  /**
   * The longest `Retry-After` of a 429 that is waited for. A longer one is not slept on: the call
   * fails at once with `RateLimited` (its `retryAfterSeconds` is the server's value), so the app
   * decides (show "try again later", queue the work). Default {@link defaultMaxRetryAfter}
   * (60 s). An HTTP-date `Retry-After` counts as the seconds from now (Effect's `Clock`) to it.
   * `"none"` waits for every `Retry-After`, however long (only a caller's own
   * `Effect.timeout` then ends the wait).
   */
  readonly maxRetryAfter?: Duration.Input | "none" | undefined
}

/**
 * The default ceiling on a waited-for `Retry-After`: 60 s. The official client waits for the
 * header; a finite ceiling keeps a hostile or broken answer (`Retry-After: 99999999999`) from
 * holding a call (and a request of the app's server) forever. Above it the call fails at once
 * with `RateLimited` carrying the server's value.
 */
export const defaultMaxRetryAfter: Duration.Input | "none" = Duration.minutes(1)

/** The default largest answer body: 8 MiB. */
export const defaultMaxResponseBytes = 8 * 1024 * 1024

/** The default time limit of one attempt: 30 s. */
export const defaultAttemptTimeout: Duration.Duration = Duration.seconds(30)

/** The retry policy service. */
export class RetryPolicy extends Context.Service<RetryPolicy, RetryPolicyShape>()("stack-auth-effect/RetryPolicy") {}

/** The default retry schedule (see `Schedules.retry`). */
export const defaultSchedule: Schedule.Schedule<unknown, RetrySignal> = retry

/** The default policy. */
export const layer: Layer.Layer<RetryPolicy> = Layer.succeed(RetryPolicy, { schedule: retry })

/**
 * A policy from parts: the default schedule, attempt limit, body limit and `Retry-After` ceiling
 * unless given.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "stack-auth-effect"
 *
 * const Patient = RetryPolicy.layerWith({ attemptTimeout: "2 minutes", maxResponseBytes: 32 * 1024 * 1024 })
 * // a 429 asking to wait longer than 10 s fails at once with RateLimited (default: 60 s)
 * const Impatient = RetryPolicy.layerWith({ maxRetryAfter: "10 seconds" })
 * ```
 */
export const layerWith = (options: Partial<RetryPolicyShape>): Layer.Layer<RetryPolicy> =>
  Layer.succeed(RetryPolicy, {
    schedule: options.schedule ?? retry,
    attemptTimeout: options.attemptTimeout,
    maxResponseBytes: options.maxResponseBytes,
    maxRetryAfter: options.maxRetryAfter
  })

/** A policy that never retries (every retryable failure surfaces at once). */
export const layerNoRetries: Layer.Layer<RetryPolicy> = Layer.succeed(RetryPolicy, { schedule: Schedule.recurs(0) })
