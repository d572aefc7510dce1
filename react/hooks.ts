"use client"
/**
 * Generic hooks over the app's runtime and the SDK's query cache (DESIGN.md §3).
 *
 * - {@link useStackQuery}: runs an effect, re-runs it when a cache entry it read gets a new value
 *   (after a mutation invalidated it), when the session changes (sign-in, sign-out: the previous
 *   user's data is dropped first) or on `refetch()`. Many components reading the same entry
 *   share one request. The fiber is interrupted on unmount; StrictMode's double mount keeps one
 *   fiber; on the server it renders `"loading"` and starts nothing.
 * - {@link useStackSuspenseQuery}: the same, for Suspense: throws a promise while loading and
 *   the typed error to the nearest error boundary.
 * - {@link useStackMutation}: runs an effect on demand; a failure nobody handles (no `onError`
 *   option and the component never reads `error`) reaches the provider's `onError`.
 * - {@link useStackCallback}: fire-and-forget; every failure reaches the provider's `onError`.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from "react"
import type { DependencyList } from "react"
import { QueryObserver } from "./internal/QueryObserver.js"
import type { QueryState } from "./internal/QueryObserver.js"
import { useStackContext } from "./StackProvider.js"
import type { StackErrorHandler, StackRuntime } from "./StackProvider.js"

/**
 * The state of a query plus `refetch`, discriminated by `status`: `"loading"` until the first
 * result (and again after a session change); `"success"` with `data`; `"error"` with the typed
 * `error` (`undefined` for a defect, which also goes to the provider's `onError`) and the last
 * `data` if any. After an invalidation the previous `data` stays visible until the new one arrives.
 */
export type StackQueryResult<A, E> =
  | {
      readonly status: "loading"
      readonly data: A | undefined
      readonly error: undefined
      /** Invalidates the cache entries the effect read and runs it again. */
      readonly refetch: () => void
    }
  | {
      readonly status: "success"
      readonly data: A
      readonly error: undefined
      /** Invalidates the cache entries the effect read and runs it again. */
      readonly refetch: () => void
    }
  | {
      readonly status: "error"
      readonly data: A | undefined
      readonly error: E | undefined
      /** Invalidates the cache entries the effect read and runs it again. */
      readonly refetch: () => void
    }

/** Options of {@link useStackQuery}. */
export interface StackQueryOptions {
  /** `false` leaves the query idle (status `"loading"`, nothing runs); default `true`. */
  readonly enabled?: boolean | undefined
}

const useObserver = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  deps: DependencyList,
  hook: string
): { observer: QueryObserver<A, E>; runtime: StackRuntime<unknown>; onError: StackErrorHandler } => {
  const context = useStackContext(hook)
  const runtime = context.runtime as StackRuntime<unknown>
  // the effect is identified by `deps`, like a `useEffect` body
  const observer = useMemo(() => new QueryObserver<A, E>(runtime, effect, context.onError), [runtime, context.onError, ...deps])
  return { observer, runtime, onError: context.onError }
}

const idleSubscribe = () => () => {}

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
 *   return <ul>{channels.data.map((channel) => <li key={channel.id}>{channel.value}</li>)}</ul>
 * }
 * ```
 */
export const useStackQuery = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  deps: DependencyList,
  options: StackQueryOptions = {}
): StackQueryResult<A, E> => {
  const { observer } = useObserver(effect, deps, "useStackQuery")
  const enabled = options.enabled ?? true
  const state = useSyncExternalStore(enabled ? observer.subscribe : idleSubscribe, observer.getSnapshot, observer.getSnapshot)
  return useMemo(
    () => ({ status: state.status, data: state.data, error: state.error, refetch: observer.refetch }) as StackQueryResult<A, E>,
    [state, observer]
  )
}

/** How long a suspense query nobody mounted is kept after it settled. */
const suspenseKeepMillis = 10_000

const thrown = <E>(state: QueryState<unknown, E>): unknown =>
  state.error !== undefined ? state.error : state.cause !== undefined ? Cause.squash(state.cause) : new Error("Query failed")

/**
 * Like {@link useStackQuery} for Suspense: returns the value; while loading it throws a promise
 * (the nearest `<Suspense>` shows its fallback); on failure it throws the typed error to the
 * nearest error boundary. Later refetches keep showing the previous value; a session change
 * suspends again. `deps` identify the effect as for `useEffect`: compared with `Object.is`, so a
 * new token (`Redacted`), `Map` or object is a new query even when it prints like the old one
 * (keep them stable, e.g. with `useMemo`, or every render starts a new query).
 */
export const useStackSuspenseQuery = <A, E, R>(effect: Effect.Effect<A, E, R>, deps: DependencyList): A => {
  const context = useStackContext("useStackSuspenseQuery")
  const id = useId()
  const registry = context.suspenseQueries
  let observer = registry.get<A, E>(id, deps)
  if (observer === undefined) {
    observer = new QueryObserver<A, E>(context.runtime as StackRuntime<unknown>, effect, context.onError)
    registry.add(id, deps, observer)
    // a suspended render keeps no state: the query lives in the provider until a component mounts
    observer.start()
  }
  const current = observer
  const kept = current as QueryObserver<unknown, unknown>
  if (!current.hasListeners) {
    current.armDrop(suspenseKeepMillis, () => registry.remove(id, kept))
  }
  const subscribe = useCallback(
    (listener: () => void) => {
      const unsubscribe = current.subscribe(listener)
      return () => {
        unsubscribe()
        queueMicrotask(() => {
          if (!current.hasListeners && registry.has(id, kept)) {
            current.stop()
            registry.remove(id, kept)
          }
        })
      }
    },
    [current, kept, registry, id]
  )
  const state = useSyncExternalStore(subscribe, current.getSnapshot, current.getSnapshot)
  if (state.status === "loading") throw current.promise()
  if (state.status === "error") throw thrown(state)
  return state.data as A
}

/** The state of a mutation plus `run` and `reset`. */
export interface StackMutationResult<Args extends ReadonlyArray<unknown>, A, E> {
  /** Runs the effect; the promise resolves with its `Exit` (it never rejects). */
  readonly run: (...args: Args) => Promise<Exit.Exit<A, E>>
  /** `true` while a run is in flight. */
  readonly pending: boolean
  /**
   * The typed error of the last run. Reading it tells the hook the component shows failures: they
   * then no longer go to the provider's `onError`.
   */
  readonly error: E | undefined
  /** The value of the last successful run. */
  readonly data: A | undefined
  /** Forgets `error` and `data`. */
  readonly reset: () => void
}

/** Options of {@link useStackMutation}. */
export interface StackMutationOptions<A, E> {
  /** Handles failures (then they do not reach the provider's `onError`). */
  readonly onError?: ((error: E, cause: Cause.Cause<E>) => void) | undefined
  /** Called with the value of each successful run. */
  readonly onSuccess?: ((value: A) => void) | undefined
}

interface MutationState<A, E> {
  readonly pending: boolean
  readonly error: E | undefined
  readonly data: A | undefined
}

const useMounted = () => {
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  return mounted
}

const report = <E>(cause: Cause.Cause<E>, onError: StackErrorHandler) => {
  const failure = Cause.failureOption(cause)
  onError(Option.isSome(failure) ? failure.value : Cause.squash(cause), cause)
}

/**
 * An effect a component runs on demand (a form submit, a button). `run(...args)` resolves with
 * the `Exit`. A failure goes to `options.onError` when given; otherwise, unless the component
 * reads `error` (it shows failures itself), to the provider's `onError` (default: an alert).
 * Interruption is not a failure. A run is not interrupted when the component unmounts (it is the
 * user's intent, e.g. a sign-out that unmounts the page), but no state is set afterwards.
 *
 * @example
 * ```tsx
 * import { Users } from "stack-auth-effect"
 * import { useStackMutation } from "stack-auth-effect/react"
 *
 * const RenameButton = () => {
 *   const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }))
 *   return <button disabled={rename.pending} onClick={() => void rename.run("Ada")}>Rename</button>
 * }
 * ```
 */
export const useStackMutation = <Args extends ReadonlyArray<any>, A, E, R>(
  fn: (...args: Args) => Effect.Effect<A, E, R>,
  options: StackMutationOptions<A, E> = {}
): StackMutationResult<Args, A, E> => {
  const context = useStackContext("useStackMutation")
  const [state, setState] = useState<MutationState<A, E>>({ pending: false, error: undefined, data: undefined })
  const mounted = useMounted()
  const latest = useRef({ fn, options, onError: context.onError })
  latest.current = { fn, options, onError: context.onError }
  const errorShown = useRef(false)
  const inFlight = useRef(0)
  const runtime = context.runtime as StackRuntime<unknown>

  const run = useCallback(
    (...args: Args): Promise<Exit.Exit<A, E>> => {
      inFlight.current += 1
      if (mounted.current) setState((previous) => ({ pending: true, error: undefined, data: previous.data }))
      return runtime.runPromiseExit(latest.current.fn(...args)).then((result) => {
        const exit = result as Exit.Exit<A, E>
        inFlight.current -= 1
        const pending = inFlight.current > 0
        if (Exit.isSuccess(exit)) {
          if (mounted.current) setState({ pending, error: undefined, data: exit.value })
          latest.current.options.onSuccess?.(exit.value)
          return exit
        }
        if (Cause.isInterruptedOnly(exit.cause)) {
          if (mounted.current) setState((previous) => ({ ...previous, pending }))
          return exit
        }
        const failure = Cause.failureOption(exit.cause)
        if (mounted.current) setState((previous) => ({ pending, error: Option.getOrUndefined(failure), data: previous.data }))
        const handler = latest.current.options.onError
        if (handler !== undefined && Option.isSome(failure)) handler(failure.value, exit.cause)
        else if (!(errorShown.current && Option.isSome(failure))) report(exit.cause, latest.current.onError)
        return exit
      })
    },
    [runtime, mounted]
  )
  const reset = useCallback(() => setState({ pending: false, error: undefined, data: undefined }), [])

  return {
    run,
    pending: state.pending,
    get error() {
      errorShown.current = true
      return state.error
    },
    data: state.data,
    reset
  }
}

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
): ((...args: Args) => void) => {
  const context = useStackContext("useStackCallback")
  const latest = useRef({ fn, onError: context.onError })
  latest.current = { fn, onError: context.onError }
  const runtime = context.runtime as StackRuntime<unknown>
  return useCallback(
    (...args: Args) => {
      void runtime.runPromiseExit(latest.current.fn(...args)).then((exit) => {
        if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) report(exit.cause, latest.current.onError)
      })
    },
    [runtime]
  )
}
