"use client"
/**
 * The React binding's root: the app builds a `ManagedRuntime` from its layers once, and
 * `StackProvider` only exposes it. Hooks read it with {@link useStackRuntime}; outside a
 * provider they throw an error saying what to do.
 *
 * The provider also owns the `onError` callback: an effect a component starts and nobody awaits
 * or shows (a button's sign-out, say) never fails silently; its typed error reaches `onError`,
 * whose browser default shows `window.alert` with the error's message (SPEC.md §8).
 *
 * @module
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { createContext, createElement, useCallback, useContext, useMemo, useRef, useState } from "react"
import type { ReactNode } from "react"
import * as Hydration from "../src/users/Hydration.js"
import { SuspenseRegistry } from "./internal/SuspenseRegistry.js"
import type { StackErrorHandler, StackRuntime } from "./internal/types.js"

/** The runtime and the error handler's types (in a leaf module the query observer uses too). */
export type { StackErrorHandler, StackRuntime } from "./internal/types.js"

/** The message of an error for people: its `message`, else its `_tag`, else its text. */
export const errorMessage = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const record = error as { readonly message?: unknown; readonly _tag?: unknown }
    if (typeof record.message === "string" && record.message !== "") return record.message
    if (typeof record._tag === "string") return record._tag
  }
  return String(error)
}

/**
 * The default {@link StackErrorHandler}: in a browser, `window.alert(message)` (SPEC.md §8);
 * elsewhere (server rendering, tests without a DOM) `console.error`. Reads `window` only when an
 * error is reported, never while rendering.
 */
export const defaultErrorHandler: StackErrorHandler = (error, cause) => {
  const target = globalThis as { readonly window?: { readonly alert?: (message: string) => void } }
  if (typeof target.window?.alert === "function") {
    target.window.alert(errorMessage(error))
    return
  }
  console.error("Unhandled Stack error:", errorMessage(error), cause)
}

/** What the provider hands to the hooks. */
export interface StackContextValue {
  readonly runtime: StackRuntime<never>
  readonly onError: StackErrorHandler
  /** Suspense queries by hook identity and dependencies (they must outlive a suspended render). */
  readonly suspenseQueries: SuspenseRegistry
  /** The server's hand-over (`initialState`), decoded, and its one-time application. */
  readonly hydration: HydrationContext | undefined
}

/** A decoded hand-over and the effect that applies it (once, however many hooks run it). */
export interface HydrationContext {
  readonly state: Hydration.Hydration
  /** `Hydration.hydrate(state)`, run by the first hook that needs it; the others wait for it. */
  readonly apply: Effect.Effect<boolean, never, unknown>
}

const StackContext = createContext<StackContextValue | null>(null)

/** Props of {@link StackProvider}. */
export interface StackProviderProps {
  /** Built once by the app, e.g. `ManagedRuntime.make(Stack.layerClient({ … }))`. */
  readonly runtime: StackRuntime<never>
  /**
   * Called with failures nobody handled (a mutation whose `error` the component never reads and
   * that has no `onError` of its own, a fire-and-forget callback, a defect). Default:
   * {@link defaultErrorHandler} (`window.alert` in a browser).
   */
  readonly onError?: StackErrorHandler | undefined
  /**
   * The server's hand-over (`Hydration.dehydrate()` on the server, for the request's session):
   * `useUser` renders its user at once (no "loading" and no `GET /users/me` on the first render),
   * and tokens the browser's store lacks are stored. Read on the first render only. A value that
   * is not a hand-over is reported to `onError` and ignored.
   */
  readonly initialState?: Hydration.Dehydrated | undefined
  readonly children?: ReactNode
}

/**
 * Makes the app's runtime available to the hooks below it.
 *
 * @example
 * ```tsx
 * import { ManagedRuntime } from "effect"
 * import { createRoot } from "react-dom/client"
 * import { Stack } from "stack-auth-effect"
 * import { errorMessage, StackProvider } from "stack-auth-effect/react"
 *
 * declare const projectId: string, publishableClientKey: string // your project's keys
 * declare function toast(message: string): void // your app's notifications
 * const App = () => <main>…</main>
 *
 * const runtime = ManagedRuntime.make(Stack.layerClient({ projectId, publishableClientKey }))
 * createRoot(document.getElementById("root")!).render(
 *   <StackProvider runtime={runtime} onError={(error) => toast(errorMessage(error))}><App /></StackProvider>
 * )
 * ```
 */
export const StackProvider = (props: StackProviderProps) => {
  const [suspenseQueries] = useState(() => new SuspenseRegistry())
  const [hydration] = useState((): HydrationContext | undefined => {
    if (props.initialState === undefined) return undefined
    const decoded = Hydration.decode(props.initialState)
    if (Result.isFailure(decoded)) {
      ;(props.onError ?? defaultErrorHandler)(decoded.failure, Cause.fail(decoded.failure))
      return undefined
    }
    return { state: decoded.success, apply: Effect.runSync(Effect.cached(Hydration.hydrate(decoded.success))) }
  })
  // a new `onError` function on every render must not restart the hooks' queries
  const latestOnError = useRef<StackErrorHandler>(defaultErrorHandler)
  latestOnError.current = props.onError ?? defaultErrorHandler
  const onError = useCallback<StackErrorHandler>((error, cause) => latestOnError.current(error, cause), [])
  const value = useMemo(
    (): StackContextValue => ({ runtime: props.runtime, onError, suspenseQueries, hydration }),
    [props.runtime, onError, suspenseQueries, hydration]
  )
  return createElement(StackContext.Provider, { value }, props.children)
}

const missingProvider = (hook: string) =>
  new Error(
    `${hook} must be used inside <StackProvider runtime={…}>. Build a ManagedRuntime from your Stack layers once and pass it to StackProvider at the root of your app.`
  )

/** The nearest provider's runtime, error handler and suspense registry; throws outside one. */
export const useStackContext = (hook = "useStackContext"): StackContextValue => {
  const value = useContext(StackContext)
  if (value === null) throw missingProvider(hook)
  return value
}

/** The runtime of the nearest {@link StackProvider}; throws a helpful error outside one. */
export const useStackRuntime = <R = never>(): StackRuntime<R> => {
  const value = useContext(StackContext)
  if (value === null) throw missingProvider("useStackRuntime")
  // the provider accepts any runtime; the caller names the services it expects the app to provide
  return value.runtime as unknown as StackRuntime<R>
}

/** The error handler of the nearest {@link StackProvider} (to report a failure you caught yourself). */
export const useStackErrorHandler = (): StackErrorHandler => useStackContext("useStackErrorHandler").onError
