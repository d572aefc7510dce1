/**
 * Reading the `Either` a test's `app.run(...)` gives: its success or its failure, or a thrown
 * error naming what came instead (the test then fails with it).
 */

/** An `Either` as `app.run` returns it. */
export type RunResult<A, E> = { _tag: "Right"; right: A } | { _tag: "Left"; left: E }

/** The success; throws when the run failed. */
export const right = <A, E>(result: RunResult<A, E>): A => {
  if (result._tag === "Left") throw new Error(`expected success, got ${JSON.stringify(result.left)}`)
  return result.right
}

/** The failure; throws when the run succeeded. */
export const left = <A, E>(result: RunResult<A, E>): E => {
  if (result._tag === "Right") throw new Error(`expected failure, got ${JSON.stringify(result.right)}`)
  return result.left
}
