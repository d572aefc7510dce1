/**
 * A plain set of synchronous listeners: how the session hears its token store and how the query
 * cache hears the session without a fiber (issue 14: an idle client context runs no fiber, and
 * the cache is in step with the session as soon as the session's write returns).
 *
 * Streams of changes for subscribers (`Session.changes`, `TokenStore.changes`,
 * `QueryCache.subscribe`) are not built here: they are effect's own `SubscriptionRef` and
 * `PubSub`, which hand every subscriber a queue of its own.
 *
 * @module
 */

/** Listeners of values of type `A`, called synchronously by {@link Listeners.emit}. */
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
}
