/**
 * A plain set of listeners, called synchronously with every value (issue 14: heap per
 * `Stack.layerClient` and bundle size). It replaces a `PubSub` / `SubscriptionRef` where the
 * only readers are a few subscribers: nothing is held while nobody listens (the set is made at
 * the first listener), no fiber runs to deliver, and a stream is made only for a subscriber that
 * asks for one ({@link Listeners.stream}: a queue of its own while it runs).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"

/** Listeners of values of type `A`. */
export class Listeners<A> {
  #set: Set<(value: A) => void> | undefined = undefined

  /** How many listeners are registered. */
  get size(): number {
    return this.#set?.size ?? 0
  }

  /** Registers `listener`; returns the function that removes it. */
  add(listener: (value: A) => void): () => void {
    const set = (this.#set ??= new Set())
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }

  /**
   * Calls every listener with `value`, in the order they were added. A listener added or removed
   * during the call is seen by the next one; a throwing listener does not stop the others.
   */
  emit(value: A): void {
    const set = this.#set
    if (set === undefined || set.size === 0) return
    for (const listener of [...set]) {
      try {
        listener(value)
      } catch {
        // a listener's failure is its own: the others still hear the value
      }
    }
  }

  /**
   * `current()` when the stream starts (when given: as `SubscriptionRef.changes`), then every value
   * emitted while it runs: a listener feeding an unbounded queue of its own, removed when the
   * stream ends.
   */
  stream(current?: () => A): Stream.Stream<A> {
    return Stream.unwrapScoped(
      Effect.map(
        Effect.acquireRelease(
          Effect.map(Queue.unbounded<A>(), (queue) => {
            if (current !== undefined) Queue.unsafeOffer(queue, current())
            const remove = this.add((value) => {
              Queue.unsafeOffer(queue, value)
            })
            return { queue, remove }
          }),
          ({ queue, remove }) => Effect.zipRight(Effect.sync(remove), Queue.shutdown(queue))
        ),
        ({ queue }) => Stream.fromQueue(queue)
      )
    )
  }
}
