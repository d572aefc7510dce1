"use client"
/**
 * The hooks' implementations (internal), shared by the generic hooks of `hooks.ts` (any effect,
 * the provider's runtime) and the typed ones of `makeStackHooks.ts` (effects the runtime can run,
 * and that runtime only). Each takes the hook's name (for errors) and the runtime it is bound to
 * (`undefined`: the nearest provider's, whatever it is).
 *
 * @module
 */
import * as Cause from "effect/Cause"
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from "react"
import type { DependencyList } from "react"
import type { StackMutationOptions, StackMutationResult, StackQueryOptions, StackQueryResult } from "./types.js"
import { useStackContext } from "../StackProvider.js"
import type { StackContextValue, StackErrorHandler, StackRuntime } from "../StackProvider.js"
import { QueryObserver } from "./QueryObserver.js"
import type { QueryState } from "./QueryObserver.js"
import { callSite } from "./SuspenseRegistry.js"

/** The runtime a set of hooks is bound to; `undefined` for the provider's. */
export type Bound = StackRuntime<unknown> | undefined

const otherRuntime = (hook: string) =>
  new Error(
    `${hook} comes from makeStackHooks(runtime) for another runtime than the one of the nearest <StackProvider>. Pass that same runtime to the provider: <StackProvider runtime={runtime}>.`
  )

/** The nearest provider's context, checked against the runtime the hook is bound to. */
export const useBoundContext = (hook: string, bound: Bound): StackContextValue & { readonly runtime: StackRuntime<unknown> } => {
  const context = useStackContext(hook)
  if (bound !== undefined && (context.runtime as unknown) !== bound) throw otherRuntime(hook)
  return context as StackContextValue & { readonly runtime: StackRuntime<unknown> }
}

const idleSubscribe = () => () => {}

/** `useStackQuery`'s implementation. */
export const useQueryWith = <A, E>(
  hook: string,
  bound: Bound,
  effect: Effect.Effect<A, E, unknown>,
  deps: DependencyList,
  options: StackQueryOptions,
  initial?: { readonly data: A } | undefined
): StackQueryResult<A, E> => {
  const context = useBoundContext(hook, bound)
  const runtime = context.runtime
  // the effect is identified by `deps`, like a `useEffect` body
  const observer = useMemo(() => new QueryObserver<A, E>(runtime, effect, context.onError, initial), [runtime, context.onError, ...deps])
  const enabled = options.enabled ?? true
  const state = useSyncExternalStore(enabled ? observer.subscribe : idleSubscribe, observer.getSnapshot, observer.getSnapshot)
  return useMemo(
    () =>
      ({
        status: state.status,
        data: state.data,
        error: state.error,
        waiting: state.waiting,
        refetch: observer.refetch
      }) as StackQueryResult<A, E>,
    [state, observer]
  )
}

/** How long a suspense query nobody mounted is kept after it settled. */
const suspenseKeepMillis = 10_000

const thrown = <E>(state: QueryState<unknown, E>): unknown =>
  state.error !== undefined ? state.error : state.cause !== undefined ? Cause.squash(state.cause) : new Error("Query failed")

/** `useStackSuspenseQuery`'s implementation. */
export const useSuspenseQueryWith = <A, E>(
  hook: string,
  bound: Bound,
  effect: Effect.Effect<A, E, unknown>,
  deps: DependencyList,
  initial?: { readonly data: A } | undefined
): A => {
  const context = useBoundContext(hook, bound)
  const reactId = useId()
  // the query's identity, stable across the retries of a suspended render (see SuspenseRegistry);
  // found once per mounted component (a ref survives only renders that committed)
  const identity = useRef<string | undefined>(undefined)
  if (identity.current === undefined) {
    const site = callSite()
    identity.current = site === undefined ? `${hook} id ${reactId}` : `${hook} at\n${site}`
  }
  const id = identity.current
  const registry = context.suspenseQueries
  let observer = registry.get<A, E>(id, deps)
  if (observer === undefined) {
    observer = new QueryObserver<A, E>(context.runtime, effect, context.onError, initial)
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

/** Hands a failure to an error handler: the typed error when there is one, else the defect. */
export const report = <E>(cause: Cause.Cause<E>, onError: StackErrorHandler) => {
  const failure = Cause.findError(cause)
  onError(Result.isSuccess(failure) ? failure.success : Cause.squash(cause), cause)
}

/** `useStackMutation`'s implementation. */
export const useMutationWith = <Args extends ReadonlyArray<unknown>, A, E>(
  hook: string,
  bound: Bound,
  fn: (...args: Args) => Effect.Effect<A, E, unknown>,
  options: StackMutationOptions<A, E>
): StackMutationResult<Args, A, E> => {
  const context = useBoundContext(hook, bound)
  const [state, setState] = useState<MutationState<A, E>>({ pending: false, error: undefined, data: undefined })
  const mounted = useMounted()
  const latest = useRef({ fn, options, onError: context.onError })
  latest.current = { fn, options, onError: context.onError }
  const inFlight = useRef(0)
  const runtime = context.runtime

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
        if (Cause.hasInterruptsOnly(exit.cause)) {
          if (mounted.current) setState((previous) => ({ ...previous, pending }))
          return exit
        }
        const failure = Cause.findError(exit.cause)
        const error = Result.isSuccess(failure) ? failure.success : undefined
        if (mounted.current) setState((previous) => ({ pending, error, data: previous.data }))
        const { onError, handlesError } = latest.current.options
        // the rule: a typed failure is handled by the `onError` option, or by the component when it
        // declares `handlesError`; anything else (and every defect) goes to the provider
        if (onError !== undefined && Result.isSuccess(failure)) onError(failure.success, exit.cause)
        else if (!(handlesError === true && Result.isSuccess(failure))) report(exit.cause, latest.current.onError)
        return exit
      })
    },
    [runtime, mounted]
  )
  const reset = useCallback(() => setState({ pending: false, error: undefined, data: undefined }), [])

  return useMemo(
    () => ({ run, pending: state.pending, error: state.error, data: state.data, reset }),
    [run, state, reset]
  )
}

/** `useStackCallback`'s implementation. */
export const useCallbackWith = <Args extends ReadonlyArray<unknown>, A, E>(
  hook: string,
  bound: Bound,
  fn: (...args: Args) => Effect.Effect<A, E, unknown>
): (...args: Args) => void => {
  const context = useBoundContext(hook, bound)
  const latest = useRef({ fn, onError: context.onError })
  latest.current = { fn, onError: context.onError }
  const runtime = context.runtime
  return useCallback(
    (...args: Args) => {
      void runtime.runPromiseExit(latest.current.fn(...args)).then((exit) => {
        if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) report(exit.cause, latest.current.onError)
      })
    },
    [runtime]
  )
}
