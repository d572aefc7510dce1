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
 * They run the effect on the provider's runtime and accept the effects the app's runtime can run,
 * as the app declared it once for the module (`Register`, as TanStack Router's), in any file of
 * the app: `declare module "stack-auth-effect/react" { interface Register { runtime: typeof runtime } }`
 * (e.g. a runtime of `Stack.layerServer`; see the React guide).
 * With nothing declared they accept client access only (effects needing at most
 * `Stack.ClientServices`): `useStackQuery(ServerUsers.list(), [])` does not compile in a client
 * app. `makeStackHooks(runtime)` gives the same hooks typed by a runtime passed as a value.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import type { DependencyList } from "react"
import type { RegisteredServices } from "./register.js"
import { useCallbackWith, useMutationWith, useQueryWith, useSuspenseQueryWith } from "./internal/hooks.js"
import type { StackMutationOptions, StackMutationResult, StackQueryOptions, StackQueryResult } from "./internal/types.js"

/** The results and options of the hooks (in a leaf module their implementation uses too). */
export type { StackMutationOptions, StackMutationResult, StackQueryOptions, StackQueryResult } from "./internal/types.js"

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
export const useStackQuery = <A, E>(
  effect: Effect.Effect<A, E, RegisteredServices>,
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
 *
 * A suspended render keeps no state, so the query waits in the provider and is found again on the
 * retry by **this call's place in the code and `deps`**: the effect runs once per mount, not once
 * per retry, even when it is slow and reads no cache entry (in a `createRoot` app React gives a
 * component that never mounted a new `useId` on each retry, so it cannot be the key). The rule:
 * two calls in different places (two components, two custom hooks) are always different queries,
 * even with equal `deps`; components rendering the same call with equal `deps` share one query
 * and its value, as `deps` must name everything the effect depends on (the `useEffect` rule), so
 * an effect reading a prop or state must list it in `deps`. A query nobody mounted (its render was
 * abandoned) is dropped shortly after it settles; one no component shows any more, at once.
 */
export const useStackSuspenseQuery = <A, E>(effect: Effect.Effect<A, E, RegisteredServices>, deps: DependencyList): A =>
  useSuspenseQueryWith("useStackSuspenseQuery", undefined, effect as Effect.Effect<A, E, unknown>, deps)

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
export const useStackMutation = <Args extends ReadonlyArray<unknown>, A, E>(
  fn: (...args: Args) => Effect.Effect<A, E, RegisteredServices>,
  options: StackMutationOptions<A, E> = {}
): StackMutationResult<Args, A, E> => useMutationWith("useStackMutation", undefined, fn as (...args: Args) => Effect.Effect<A, E, unknown>, options)

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
export const useStackCallback = <Args extends ReadonlyArray<unknown>, A, E>(
  fn: (...args: Args) => Effect.Effect<A, E, RegisteredServices>
): (...args: Args) => void => useCallbackWith("useStackCallback", undefined, fn as (...args: Args) => Effect.Effect<A, E, unknown>)
