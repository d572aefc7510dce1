"use client"
/**
 * The React binding's root: the app builds a `ManagedRuntime` from its layers once, and
 * `StackProvider` only exposes it. Hooks read it with {@link useStackRuntime}; outside a
 * provider they throw an error saying what to do.
 *
 * @module
 */
import type { ManagedRuntime } from "effect"
import { createContext, createElement, useContext } from "react"
import type { ReactNode } from "react"

/** The runtime the app built from its layers (client, server or admin access). */
export type StackRuntime<R = never> = ManagedRuntime.ManagedRuntime<R, unknown>

const RuntimeContext = createContext<StackRuntime<never> | null>(null)

/** Props of {@link StackProvider}. */
export interface StackProviderProps {
  /** Built once by the app, e.g. `ManagedRuntime.make(Stack.layerClient({ … }))`. */
  readonly runtime: StackRuntime<never>
  readonly children?: ReactNode
}

/**
 * Makes the app's runtime available to the hooks below it.
 *
 * @example
 * ```tsx
 * const runtime = ManagedRuntime.make(Stack.layerClient({ projectId, publishableClientKey }))
 * root.render(<StackProvider runtime={runtime}><App /></StackProvider>)
 * ```
 */
export const StackProvider = (props: StackProviderProps) =>
  createElement(RuntimeContext.Provider, { value: props.runtime }, props.children)

/** The runtime of the nearest {@link StackProvider}; throws a helpful error outside one. */
export const useStackRuntime = <R = never,>(): StackRuntime<R> => {
  const runtime = useContext(RuntimeContext)
  if (runtime === null) {
    throw new Error(
      "useStackRuntime must be used inside <StackProvider runtime={…}>. Build a ManagedRuntime from your Stack layers once and pass it to StackProvider at the root of your app."
    )
  }
  // the provider accepts any runtime; the caller names the services it expects the app to provide
  return runtime as unknown as StackRuntime<R>
}
