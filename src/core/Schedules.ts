/**
 * Every `Schedule` of the SDK in one place: the retry policy's default schedule and the polling
 * cadences. Keeping them together keeps timing rules easy to find and to change.
 *
 * @module
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"

/** Why an attempt may be retried. */
export type RetrySignal =
  | { readonly _tag: "RateLimitedSignal"; readonly retryAfterSeconds: number | undefined }
  | { readonly _tag: "LoopDetectedSignal" }
  | { readonly _tag: "NetworkFailureSignal"; readonly cause: unknown }

/** Attempts per logical request, the first one included. */
export const maxAttempts = 5

/** Base delay of the exponential backoff. */
export const backoffBase: Duration.Duration = Duration.millis(1000)

/** The backoff before retry number `retryIndex` (0-based): base × 2^index × random(0.5…1.5). */
export const backoff = (retryIndex: number): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.nextBetween(0.5, 1.5), (factor) => Duration.millis(Math.round(Duration.toMillis(backoffBase) * 2 ** retryIndex * factor)))

/**
 * The delay before the next attempt for a signal (PROTOCOL.md §1.6, as the official client):
 *
 * - 429 with `Retry-After: n`: n seconds **plus** the {@link backoff} of this retry;
 * - 429 without `Retry-After`: the {@link backoff} only (never at once: a service answering a
 *   burst of 429s needs the callers to spread out);
 * - 508 loop marker, network failure: the {@link backoff}.
 *
 * How long a `Retry-After` may be before the SDK gives up instead of waiting is the policy's
 * `maxRetryAfter` (see `RetryPolicy`), not part of the schedule.
 */
export const delayFor = (signal: RetrySignal, retryIndex: number): Effect.Effect<Duration.Duration> => {
  switch (signal._tag) {
    case "RateLimitedSignal": {
      const retryAfterSeconds = signal.retryAfterSeconds
      return retryAfterSeconds === undefined
        ? backoff(retryIndex)
        : Effect.map(backoff(retryIndex), (jitter) => Duration.sum(Duration.seconds(retryAfterSeconds), jitter))
    }
    case "LoopDetectedSignal":
    case "NetworkFailureSignal":
      return backoff(retryIndex)
  }
}

/**
 * The default retry schedule: up to {@link maxAttempts} attempts, delays by {@link delayFor}
 * (the schedule's `attempt` counts from 1, so retry number `attempt - 1`).
 */
export const retry: Schedule.Schedule<number, RetrySignal> = Schedule.recurs(maxAttempts - 1).pipe(
  Schedule.setInputType<RetrySignal>(),
  Schedule.modifyDelay(({ attempt, input }) => delayFor(input, attempt - 1))
)

/** How often the browser cookie store looks for tokens changed by another tab (SPEC.md §9). */
export const cookiePollInterval: Duration.Duration = Duration.millis(100)

/** The browser cookie store's polling cadence. */
export const cookiePoll = (interval: Duration.Input = cookiePollInterval): Schedule.Schedule<number> => Schedule.spaced(interval)

/** How often the CLI login polls for the browser's confirmation (PROTOCOL.md §5.6). */
export const cliPollInterval: Duration.Duration = Duration.millis(2000)

/**
 * The CLI login's polling cadence: every {@link cliPollInterval} (or `interval`), without limit
 * unless `maxAttempts` (polls in all, the first one included) is given.
 */
export const cliPoll = (
  options: { readonly interval?: Duration.Input; readonly maxAttempts?: number } = {}
): Schedule.Schedule<unknown> => {
  const spaced = Schedule.spaced(options.interval ?? cliPollInterval)
  return options.maxAttempts === undefined
    ? spaced
    : Schedule.max([spaced, Schedule.recurs(Math.max(0, options.maxAttempts - 1))])
}
