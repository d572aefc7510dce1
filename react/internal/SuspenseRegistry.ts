/**
 * The suspense queries of a provider (internal): a suspended render keeps no state, so the query
 * of a `useStackSuspenseQuery` lives here, found again by the hook's identity (`useId`) and its
 * dependencies. Dependencies are compared as React compares them (`Object.is`, element by
 * element), never by a serialisation: two `Redacted` tokens, two `Map`s, `undefined` and `null`
 * are different dependencies even when they print alike.
 *
 * @module
 */
import type { DependencyList } from "react"
import type { QueryObserver } from "./QueryObserver.js"

interface Entry {
  readonly deps: ReadonlyArray<unknown>
  readonly observer: QueryObserver<unknown, unknown>
}

/** Whether two dependency lists are the same, as for `useEffect` / `useMemo`. */
export const sameDependencies = (left: DependencyList, right: DependencyList): boolean =>
  left.length === right.length && left.every((value, index) => Object.is(value, right[index]))

/** See the module. */
export class SuspenseRegistry {
  private readonly byHook = new Map<string, Array<Entry>>()

  /** The query of a hook for these dependencies, if one is kept. */
  get<A, E>(hook: string, deps: DependencyList): QueryObserver<A, E> | undefined {
    const entry = this.byHook.get(hook)?.find((candidate) => sameDependencies(candidate.deps, deps))
    return entry?.observer as QueryObserver<A, E> | undefined
  }

  /** Keeps the query of a hook for these dependencies (a copy of the list). */
  add<A, E>(hook: string, deps: DependencyList, observer: QueryObserver<A, E>): void {
    const entries = this.byHook.get(hook) ?? []
    entries.push({ deps: [...deps], observer: observer as QueryObserver<unknown, unknown> })
    this.byHook.set(hook, entries)
  }

  /** Whether this query is still kept for the hook. */
  has(hook: string, observer: QueryObserver<unknown, unknown>): boolean {
    return this.byHook.get(hook)?.some((entry) => entry.observer === observer) ?? false
  }

  /** Forgets this query of the hook (its other queries stay). */
  remove(hook: string, observer: QueryObserver<unknown, unknown>): void {
    const entries = this.byHook.get(hook)
    if (entries === undefined) return
    const rest = entries.filter((entry) => entry.observer !== observer)
    if (rest.length === 0) this.byHook.delete(hook)
    else this.byHook.set(hook, rest)
  }

  /** How many queries are kept (for tests). */
  get size(): number {
    let count = 0
    for (const entries of this.byHook.values()) count += entries.length
    return count
  }
}
