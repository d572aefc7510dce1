/** Test helper of the retry tests: many concurrent calls on the TestClock. */
import { Clock, Effect, Fiber, Ref } from "effect"
import { TestClock } from "effect/testing"
import { realPause, sleeps } from "../support/fixtures.js"

/**
 * Runs `effects` concurrently, advancing the TestClock to the next wake-up only once every one of
 * them is asleep or done (so no attempt is moved in virtual time while its answer is on the way).
 */
export const runAllAdvancingClock = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.gen(function* () {
    const done = yield* Ref.make(0)
    const fiber = yield* Effect.forkChild(
      Effect.all(
        effects.map((effect) => Effect.exit(effect).pipe(Effect.ensuring(Ref.update(done, (n) => n + 1)))),
        { concurrency: "unbounded" }
      )
    )
    for (let step = 0; step < 10_000; step++) {
      const finished = fiber.pollUnsafe() !== undefined
      if (finished) break
      const pending = yield* sleeps
      const ended = yield* Ref.get(done)
      if (pending.length > 0 && pending.length + ended === effects.length) {
        const now = yield* Clock.currentTimeMillis
        const next = Math.min(...pending)
        yield* TestClock.adjust(next - now)
      } else {
        yield* realPause(1)
      }
    }
    return yield* Fiber.join(fiber)
  })
