/**
 * Every retry rule of the SDK, as `Schedule`s in one place (SPEC.md §8, §9; PROTOCOL.md §1.6):
 *
 * - 429: wait `Retry-After` seconds, or retry at once without it;
 * - 508 with the `INFINITE_LOOP_DETECTED` marker: retry with backoff;
 * - network failure of an idempotent request: retry with exponential backoff
 *   (base 1000 ms, jitter 0.5×–1.5×); non-idempotent requests are never retried;
 * - at most 5 attempts per logical request (the first one included), as the official client.
 *
 * The policy is a service, so tests and apps swap it with a layer ({@link layerNoRetries}).
 *
 * @module
 */
import { Context, Duration, Effect, Layer, Random, Schedule } from "effect"

/** Why an attempt may be retried. */
export type RetrySignal =
  | { readonly _tag: "RateLimitedSignal"; readonly retryAfterSeconds: number | undefined }
  | { readonly _tag: "LoopDetectedSignal" }
  | { readonly _tag: "NetworkFailureSignal"; readonly cause: unknown }

/** The retry policy service: a schedule fed with the signal of each failed attempt. */
export interface RetryPolicyShape {
  readonly schedule: Schedule.Schedule<unknown, RetrySignal>
}

/** The retry policy service. */
export class RetryPolicy extends Context.Tag("stack-auth-effect/RetryPolicy")<RetryPolicy, RetryPolicyShape>() {}

/** Attempts per logical request, the first one included. */
export const maxAttempts = 5

/** Base delay of the exponential backoff. */
export const backoffBase: Duration.Duration = Duration.millis(1000)

/** The backoff before retry number `retryIndex` (0-based): base × 2^index × random(0.5…1.5). */
export const backoff = (retryIndex: number): Effect.Effect<Duration.Duration> =>
  Effect.map(Random.nextRange(0.5, 1.5), (factor) =>
    Duration.millis(Math.round(Duration.toMillis(backoffBase) * 2 ** retryIndex * factor))
  )

/** The delay before the next attempt for a signal. */
export const delayFor = (signal: RetrySignal, retryIndex: number): Effect.Effect<Duration.Duration> => {
  switch (signal._tag) {
    case "RateLimitedSignal":
      return Effect.succeed(
        signal.retryAfterSeconds === undefined ? Duration.zero : Duration.seconds(signal.retryAfterSeconds)
      )
    case "LoopDetectedSignal":
    case "NetworkFailureSignal":
      return backoff(retryIndex)
  }
}

/** The default schedule: up to {@link maxAttempts} attempts, delays by {@link delayFor}. */
export const defaultSchedule: Schedule.Schedule<unknown, RetrySignal> = Schedule.identity<RetrySignal>().pipe(
  Schedule.intersect(Schedule.count),
  Schedule.whileOutput(([, retryIndex]) => retryIndex < maxAttempts - 1),
  Schedule.modifyDelayEffect(([signal, retryIndex]) => delayFor(signal, retryIndex)),
  Schedule.map(([, retryIndex]) => retryIndex)
)

/** The default policy. */
export const layer: Layer.Layer<RetryPolicy> = Layer.succeed(RetryPolicy, { schedule: defaultSchedule })

/** A policy that never retries (every retryable failure surfaces at once). */
export const layerNoRetries: Layer.Layer<RetryPolicy> = Layer.succeed(RetryPolicy, { schedule: Schedule.stop })
