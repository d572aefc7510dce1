/**
 * The types shared by the provider, the hooks and their implementation (internal; the public
 * modules `StackProvider` and `hooks` re-export them): a leaf module, so that no module imports
 * another that imports it back (docs/ARCHITECTURE.md).
 *
 * @module
 */
import type * as Cause from "effect/Cause"
import type * as Exit from "effect/Exit"
import type * as ManagedRuntime from "effect/ManagedRuntime"

/** The runtime the app built from its layers (client, server or admin access). */
export type StackRuntime<R = never> = ManagedRuntime.ManagedRuntime<R, unknown>

/**
 * Receives failures nobody handled: the typed error (`E`) when there is one, else the defect, and
 * the whole cause.
 */
export type StackErrorHandler = (error: unknown, cause: Cause.Cause<unknown>) => void

/**
 * The state of a query plus `refetch`, discriminated by `status`: `"loading"` until the first
 * result (and again after a session change); `"success"` with `data`; `"error"` with the typed
 * `error` (`undefined` for a defect, which also goes to the provider's `onError`) and the last
 * `data` if any. After an invalidation the previous `data` stays visible, with `waiting: true`,
 * until the new one arrives.
 */
export type StackQueryResult<A, E> =
  | {
    readonly status: "loading"
    readonly data: A | undefined
    readonly error: undefined
    /** Never while loading: nothing is shown yet. */
    readonly waiting: false
    /** Invalidates the cache entries the effect read and runs it again. */
    readonly refetch: () => void
  }
  | {
    readonly status: "success"
    readonly data: A
    readonly error: undefined
    /**
     * `true` while the query runs again in the background (an entry it read was invalidated,
     * or `refetch()` was called) and `data` is the previous value; `false` once the new one is shown.
     */
    readonly waiting: boolean
    /** Invalidates the cache entries the effect read and runs it again. */
    readonly refetch: () => void
  }
  | {
    readonly status: "error"
    readonly data: A | undefined
    readonly error: E | undefined
    /** `true` while the query runs again in the background (after an invalidation or `refetch()`). */
    readonly waiting: boolean
    /** Invalidates the cache entries the effect read and runs it again. */
    readonly refetch: () => void
  }

/** Options of `useStackQuery`. */
export interface StackQueryOptions {
  /** `false` leaves the query idle (status `"loading"`, nothing runs); default `true`. */
  readonly enabled?: boolean | undefined
}

/** The state of a mutation plus `run` and `reset` (plain fields: reading them changes nothing). */
export interface StackMutationResult<Args extends ReadonlyArray<unknown>, A, E> {
  /** Runs the effect; the promise resolves with its `Exit` (it never rejects). */
  readonly run: (...args: Args) => Promise<Exit.Exit<A, E>>
  /** `true` while a run is in flight. */
  readonly pending: boolean
  /**
   * The typed error of the last run. Showing it does not stop the failure from reaching the
   * provider's `onError`: declare `handlesError: true` (or pass `onError`) for that.
   */
  readonly error: E | undefined
  /** The value of the last successful run. */
  readonly data: A | undefined
  /** Forgets `error` and `data`. */
  readonly reset: () => void
}

/**
 * Options of `useStackMutation`. Who handles a typed failure: the `onError` option when
 * given; else the component itself when `handlesError` is `true`; else the provider's `onError`
 * (default: an alert). A defect (a bug, not a typed error) always reaches the provider's `onError`.
 */
export interface StackMutationOptions<A, E> {
  /** Handles typed failures (then they do not reach the provider's `onError`). */
  readonly onError?: ((error: E, cause: Cause.Cause<E>) => void) | undefined
  /**
   * `true` when the component shows `error` itself (or reads the `Exit` that `run` resolves with):
   * typed failures then do not reach the provider's `onError`. Default `false`.
   */
  readonly handlesError?: boolean | undefined
  /** Called with the value of each successful run. */
  readonly onSuccess?: ((value: A) => void) | undefined
}
