/**
 * Reading the `Result` a test's `app.run(...)` gives (`Effect.result`): its success or its
 * failure, or a thrown error naming what came instead (the test then fails with it).
 */
import type { Result } from "effect"

/** A `Result` as `app.run` returns it. */
export type RunResult<A, E> = Result.Result<A, E>

/** The success; throws when the run failed. */
export const right = <A, E>(result: RunResult<A, E>): A => {
  if (result._tag === "Failure") throw new Error(`expected success, got ${JSON.stringify(result.failure)}`)
  return result.success
}

/** The failure; throws when the run succeeded. */
export const left = <A, E>(result: RunResult<A, E>): E => {
  if (result._tag === "Success") throw new Error(`expected failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}
