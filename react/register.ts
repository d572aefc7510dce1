/**
 * The app's runtime, declared once for the whole `stack-auth-effect/react` module (as TanStack
 * Router's `Register` declares the app's router): the plain hooks (`useStackQuery`,
 * `useStackSuspenseQuery`, `useStackMutation`, `useStackCallback`, `useMfaSignIn`, and the hooks
 * that need more than client access such as `useMetrics`) accept the effects that runtime can run.
 * With nothing declared they accept client access only: effects needing at most
 * `Stack.ClientServices` (what `Stack.layerClient` provides).
 *
 * The declaration, in any file of the app (e.g. next to the runtime):
 * `declare module "stack-auth-effect/react" { interface Register { runtime: typeof runtime } }`.
 *
 * @module
 */
import type * as ManagedRuntime from "effect/ManagedRuntime"
import type { AdminAccess } from "../src/core/Access.js"
import type { ClientServices } from "../src/cache/ClientServices.js"

/**
 * What an app declares (module augmentation of `stack-auth-effect/react`) to type the plain hooks
 * by its runtime: `interface Register { runtime: typeof runtime }`. Empty here: then the hooks
 * accept client access only.
 */
export interface Register {}

/** The runtime the app declared in {@link Register}, if any. */
export type RegisteredRuntime = Register extends { readonly runtime: infer Runtime extends ManagedRuntime.ManagedRuntime<never, unknown> } ? Runtime
  : undefined

/**
 * The services the plain hooks accept in an effect's requirements: those of the runtime the app
 * declared in {@link Register}, else `Stack.ClientServices` (client access only).
 */
export type RegisteredServices = RegisteredRuntime extends ManagedRuntime.ManagedRuntime<never, unknown>
  ? ManagedRuntime.ManagedRuntime.Services<RegisteredRuntime>
  : ClientServices

/**
 * What a hook that needs services `S` beyond client access is, in the plain exports, when the
 * declared runtime does not provide them: not callable, with this name in the compiler's message.
 */
export interface NeedsRegisteredRuntimeWith<S> {
  /** The services the declared runtime lacks (a type-only mark; never present at run time). */
  readonly "~needs": S
}

/** A hook `Hook` needing services `S`: itself when the declared runtime provides `S`, else {@link NeedsRegisteredRuntimeWith}. */
export type HookNeeding<S, Hook> = [S] extends [RegisteredServices] ? Hook : NeedsRegisteredRuntimeWith<Exclude<S, RegisteredServices>>

/** The services of an admin runtime (`Stack.layerAdmin`): a Stack layer's, plus `AdminAccess`. */
export type AdminServices = ClientServices | AdminAccess
