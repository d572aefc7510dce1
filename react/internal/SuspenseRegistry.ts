/**
 * The suspense queries of a provider (internal): a suspended render keeps no state, so the query
 * of a `useStackSuspenseQuery` lives here, found again by the hook's identity and its
 * dependencies.
 *
 * The identity must be the same on every retry of a render that suspended. React's `useId` is not:
 * in a client-only root (`createRoot`) a component that suspends before it ever mounted is
 * rendered from scratch on each retry and gets a new id each time (`_r_0_`, `_r_1_`, …), so a query
 * found by it would start again on every retry and never let the component mount. The identity is
 * therefore the hook's **call site** (see {@link callSite}), with the hook's name; only where the
 * engine gives no stack does it fall back to `useId` (correct for a hydrated tree and for a
 * component that already mounted). A call site and equal dependencies are one effect, the rule of
 * `useEffect`/`useMemo`: components sharing them share one query.
 *
 * Dependencies are compared as React compares them (`Object.is`, element by element), never by a
 * serialisation: two `Redacted` tokens, two `Map`s, `undefined` and `null` are different
 * dependencies even when they print alike.
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

/**
 * The frames that identify a suspense hook's call, from the function that calls this one:
 * `useSuspenseQueryWith`, the hook (or adapter) that called it, and that one's caller (the
 * component, a custom hook, or a domain hook such as `useSuspenseTeams`).
 */
const callSiteFrames = 4

interface StackLimit {
  stackTraceLimit?: number
}

/**
 * Where the suspense hook is called: the top frames of a stack taken here (see
 * {@link callSiteFrames}), the same text on every render of that call, whatever React's own frames
 * below are (a retry, StrictMode's second render). `undefined` when the engine gives no stack.
 */
export const callSite = (): string | undefined => {
  const errors = Error as unknown as StackLimit
  const limit = errors.stackTraceLimit
  // V8 keeps only this many frames (cheaper); other engines ignore the setting
  if (typeof limit === "number") errors.stackTraceLimit = callSiteFrames
  const stack = new Error().stack
  if (typeof limit === "number") errors.stackTraceLimit = limit
  if (typeof stack !== "string") return undefined
  // V8 starts with the message line ("Error" or "Error: "); the others with the first frame
  const lines = stack.split("\n").filter((line) => line.trim() !== "")
  const frames = lines.length > 0 && /^Error:?\s*$/.test(lines[0]!) ? lines.slice(1) : lines
  return frames.length < callSiteFrames ? undefined : frames.slice(0, callSiteFrames).join("\n")
}

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
