"use client"
/**
 * Generic hooks over the app's runtime and the SDK's query cache (DESIGN.md §3).
 *
 * - {@link useStackQuery}: runs an effect, re-runs it when a cache entry it read gets a new value
 *   (after a mutation invalidated it), when the session changes (sign-in, sign-out: the previous
 *   user's data is dropped first) or on `refetch()`. Many components reading the same entry
 *   share one request. The fiber is interrupted on unmount; StrictMode's double mount keeps one
 *   fiber; on the server it renders `"loading"` and starts nothing. While it runs again with a
 *   result on screen, the result's `waiting` is `true`.
 * - {@link useStackSuspenseQuery}: the same, for Suspense: throws a promise while loading and
 *   the typed error to the nearest error boundary.
 * - {@link useStackMutation}: runs an effect on demand; a typed failure goes to its `onError`
 *   option, stays with the component when it declares `handlesError: true`, and otherwise reaches
 *   the provider's `onError`.
 * - {@link useStackCallback}: fire-and-forget; every failure reaches the provider's `onError`.
 *
 * These accept any effect and run it on the provider's runtime, whatever it provides: a missing
 * service is a defect at run time. {@link makeStackHooks} gives the same hooks typed by the app's
 * runtime, so that an effect it cannot run does not compile.
 *
 * @module
 */
import type * as Cause from "effect/Cause"
import type * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import type { DependencyList } from "react"
import { useCallbackWith, useMutationWith, useQueryWith, useSuspenseQueryWith } from "./internal/hooks.js"

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

/** Options of {@link useStackQuery}. */
export interface StackQueryOptions {
  /** `false` leaves the query idle (status `"loading"`, nothing runs); default `true`. */
  readonly enabled?: boolean | undefined
}

/**
 * Runs `effect` with the app's runtime and keeps the result current (see the module).
 * `deps` identify the effect, as for `useEffect`.
 *
 * @example
 * ```tsx
 * import { ContactChannels } from "stack-auth-effect"
 * import { errorMessage, useStackQuery } from "stack-auth-effect/react"
 *
 * const ContactChannelList = () => {
 *   const channels = useStackQuery(ContactChannels.list(), [])
 *   if (channels.status === "loading") return <p>Loading…</p>
 *   if (channels.status === "error") return <p role="alert">{errorMessage(channels.error)}</p>
 *   return <ul aria-busy={channels.waiting}>{channels.data.map((channel) => <li key={channel.id}>{channel.value}</li>)}</ul>
 * }
 * ```
 */
export const useStackQuery = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  deps: DependencyList,
  options: StackQueryOptions = {}
): StackQueryResult<A, E> => useQueryWith("useStackQuery", undefined, effect as Effect.Effect<A, E, unknown>, deps, options)

/**
 * Like {@link useStackQuery} for Suspense: returns the value; while loading it throws a promise
 * (the nearest `<Suspense>` shows its fallback); on failure it throws the typed error to the
 * nearest error boundary. Later refetches keep showing the previous value; a session change
 * suspends again. `deps` identify the effect as for `useEffect`: compared with `Object.is`, so a
 * new token (`Redacted`), `Map` or object is a new query even when it prints like the old one
 * (keep them stable, e.g. with `useMemo`, or every render starts a new query).
 */
export const useStackSuspenseQuery = <A, E, R>(effect: Effect.Effect<A, E, R>, deps: DependencyList): A =>
  useSuspenseQueryWith("useStackSuspenseQuery", undefined, effect as Effect.Effect<A, E, unknown>, deps)

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
 * Options of {@link useStackMutation}. Who handles a typed failure: the `onError` option when
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

/**
 * An effect a component runs on demand (a form submit, a button). `run(...args)` resolves with
 * the `Exit`. A typed failure goes to `options.onError` when given; stays with the component when
 * it declares `options.handlesError` (it shows `error`); otherwise it reaches the provider's
 * `onError` (default: an alert), as every defect does. Interruption is not a failure. A run is
 * not interrupted when the component unmounts (it is the user's intent, e.g. a sign-out that
 * unmounts the page), but no state is set afterwards.
 *
 * @example
 * ```tsx
 * import { Users } from "stack-auth-effect"
 * import { errorMessage, useStackMutation } from "stack-auth-effect/react"
 *
 * const RenameButton = () => {
 *   const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }), { handlesError: true })
 *   return (
 *     <>
 *       <button disabled={rename.pending} onClick={() => void rename.run("Ada")}>Rename</button>
 *       {rename.error === undefined ? null : <p role="alert">{errorMessage(rename.error)}</p>}
 *     </>
 *   )
 * }
 * ```
 */
export const useStackMutation = <Args extends ReadonlyArray<any>, A, E, R>(
  fn: (...args: Args) => Effect.Effect<A, E, R>,
  options: StackMutationOptions<A, E> = {}
): StackMutationResult<Args, A, E> =>
  useMutationWith("useStackMutation", undefined, fn as (...args: Args) => Effect.Effect<A, E, unknown>, options)

/**
 * A fire-and-forget version of {@link useStackMutation}: returns a function that starts the
 * effect and returns nothing; every failure (not interruption) reaches the provider's `onError`.
 *
 * @example
 * ```tsx
 * import { Sessions } from "stack-auth-effect"
 * import { useStackCallback } from "stack-auth-effect/react"
 *
 * const SignOutButton = () => {
 *   const signOut = useStackCallback(() => Sessions.signOut())
 *   return <button onClick={() => signOut()}>Sign out</button>
 * }
 * ```
 */
export const useStackCallback = <Args extends ReadonlyArray<any>, A, E, R>(
  fn: (...args: Args) => Effect.Effect<A, E, R>
): ((...args: Args) => void) => useCallbackWith("useStackCallback", undefined, fn as (...args: Args) => Effect.Effect<A, E, unknown>)
