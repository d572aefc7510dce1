"use client"
/**
 * Hooks typed by the app's runtime (as effect-atom's runtime atoms are): `makeStackHooks(runtime)`
 * returns `useStackQuery`, `useStackSuspenseQuery`, `useStackMutation`, `useStackCallback`,
 * `useStackRuntime` and the domain hooks (`useUser`, `useTeams`, …) that accept only effects
 * whose requirements the runtime provides. A client app (a runtime of `Stack.layerClient`) then
 * does not compile a server-only call such as `ServerUsers.list()` (it needs `ServerAccess`).
 *
 * The hooks still read the nearest `StackProvider` (its `onError` and Suspense queries), which must
 * hold the same runtime: under a provider of another runtime they throw an error saying so.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import type { DependencyList } from "react"
import type { ClientServices } from "../src/cache/ClientServices.js"
import { makeAdminHooks } from "./admin.js"
import type { AdminHooks } from "./admin.js"
import { makeCliHooks } from "./cli.js"
import type { CliHooks } from "./cli.js"
import { makeDomainHooks } from "./domain.js"
import type { DomainHooks, QueryHooks } from "./domain.js"
import type { StackMutationOptions, StackMutationResult, StackQueryOptions, StackQueryResult } from "./hooks.js"
import { useBoundContext, useCallbackWith, useMutationWith, useQueryWith, useSuspenseQueryWith } from "./internal/hooks.js"
import { makeMfaHooks } from "./mfa.js"
import type { MfaHooks } from "./mfa.js"
import { makeEmailAdminHooks, makeEmailServerHooks } from "./emails.js"
import type { EmailAdminHooks, EmailAdminServices, EmailServerHooks, EmailServerServices } from "./emails.js"
import { makeProfileHooks } from "./profiles.js"
import type { ProfileHooks } from "./profiles.js"
import type { AdminServices } from "./register.js"
import { makeServerHooks } from "./server.js"
import type { ServerHooks, ServerServices } from "./server.js"
import type { StackRuntime } from "./StackProvider.js"
import { makeTokenHooks } from "./tokens.js"
import type { TokenHooks } from "./tokens.js"

/** The generic hooks, for effects whose requirements are among the runtime's services `R`. */
export interface StackRuntimeHooks<R, ER> {
  /** The runtime the hooks were made for (the nearest provider must hold it). */
  readonly useStackRuntime: () => ManagedRuntime.ManagedRuntime<R, ER>
  /** `useStackQuery` for effects this runtime can run. */
  readonly useStackQuery: <A, E>(
    effect: Effect.Effect<A, E, R>,
    deps: DependencyList,
    options?: StackQueryOptions
  ) => StackQueryResult<A, E>
  /** `useStackSuspenseQuery` for effects this runtime can run. */
  readonly useStackSuspenseQuery: <A, E>(effect: Effect.Effect<A, E, R>, deps: DependencyList) => A
  /** `useStackMutation` for effects this runtime can run. */
  readonly useStackMutation: <Args extends ReadonlyArray<unknown>, A, E>(
    fn: (...args: Args) => Effect.Effect<A, E, R>,
    options?: StackMutationOptions<A, E>
  ) => StackMutationResult<Args, A, E>
  /** `useStackCallback` for effects this runtime can run. */
  readonly useStackCallback: <Args extends ReadonlyArray<unknown>, A, E>(
    fn: (...args: Args) => Effect.Effect<A, E, R>
  ) => (...args: Args) => void
}

/**
 * What {@link makeStackHooks} returns: the generic hooks typed by the runtime's services `R`; the
 * domain, token, CLI and MFA hooks (`useUser`, `useTeams`, `useAccessToken`, `useMfaSignIn`, …) when `R` includes the
 * services of a Stack layer (`Stack.ClientServices`: every runtime built from `Stack.layerClient`,
 * `layerServer` or `layerAdmin`); the server hooks (`useServerUser(id)`, `useServerUsers`, …)
 * when it also provides `ServerAccess`, with `useEmailDeliveryStats`; and the admin hooks
 * (`useAdminProject`, `useConfig`, `useProductionModeErrors`, `useMetrics`, `useInternalApiKeys`,
 * `useEmailThemes`, `useEmailTemplates`, `useEmailDrafts`, …) when it provides `AdminAccess`.
 */
export type StackHooks<R, ER> =
  & StackRuntimeHooks<R, ER>
  & ([ClientServices] extends [R] ? DomainHooks & TokenHooks & CliHooks & MfaHooks<R> : {})
  & ([ServerServices] extends [R] ? ServerHooks : {})
  & ([ClientServices] extends [R] ? ProfileHooks : {})
  & ([AdminServices] extends [R] ? AdminHooks : {})
  & ([EmailServerServices] extends [R] ? EmailServerHooks : {})
  & ([EmailAdminServices] extends [R] ? EmailAdminHooks : {})

/**
 * Hooks bound to the app's runtime and typed by its services: `useStackQuery(effect)` compiles
 * only when `effect`'s requirements are among the services the runtime provides. Make them once,
 * next to the runtime, and pass the same runtime to `StackProvider`.
 *
 * @example
 * ```tsx
 * import { ManagedRuntime } from "effect"
 * import { ContactChannels, Stack } from "stack-auth-effect"
 * import { makeStackHooks } from "stack-auth-effect/react"
 *
 * declare const projectId: string, publishableClientKey: string // your project's keys
 *
 * export const runtime = ManagedRuntime.make(Stack.layerClient({ projectId, publishableClientKey }))
 * export const { useStackQuery, useStackMutation, useUser } = makeStackHooks(runtime)
 *
 * const ChannelCount = () => {
 *   const channels = useStackQuery(ContactChannels.list(), []) // ServerUsers.list() would not compile here
 *   return <span aria-busy={channels.waiting}>{channels.status === "success" ? channels.data.length : "…"}</span>
 * }
 * ```
 */
export const makeStackHooks = <R, ER>(runtime: ManagedRuntime.ManagedRuntime<R, ER>): StackHooks<R, ER> => {
  const bound = runtime as unknown as StackRuntime<unknown>
  const hooks: StackRuntimeHooks<R, ER> = {
    useStackRuntime: () => {
      useBoundContext("useStackRuntime", bound)
      return runtime
    },
    useStackQuery: (effect, deps, options = {}) => useQueryWith("useStackQuery", bound, effect as Effect.Effect<never, never, unknown>, deps, options),
    useStackSuspenseQuery: (effect, deps) => useSuspenseQueryWith("useStackSuspenseQuery", bound, effect as Effect.Effect<never, never, unknown>, deps),
    useStackMutation: (fn, options = {}) =>
      useMutationWith("useStackMutation", bound, fn as (...args: ReadonlyArray<unknown>) => Effect.Effect<never, never, unknown>, options),
    useStackCallback: (fn) => useCallbackWith("useStackCallback", bound, fn as (...args: ReadonlyArray<unknown>) => Effect.Effect<never, never, unknown>)
  }
  // the domain hooks need only the services of a Stack layer; the type shows them only when the
  // runtime provides those (calling them otherwise would fail at run time with a missing service)
  const domain = makeDomainHooks({
    ...(hooks as unknown as QueryHooks<ClientServices>),
    useStackQueryInitial: (effect, deps, initial) =>
      useQueryWith("useUser", bound, effect as Effect.Effect<never, never, unknown>, deps, {}, initial as { readonly data: never } | undefined),
    useStackSuspenseQueryInitial: (effect, deps, initial) =>
      useSuspenseQueryWith("useSuspenseUser", bound, effect as Effect.Effect<never, never, unknown>, deps, initial as { readonly data: never } | undefined)
  })
  const server = makeServerHooks(hooks as unknown as QueryHooks<ServerServices>)
  const profiles = makeProfileHooks(hooks as unknown as QueryHooks<ClientServices>)
  const admin = makeAdminHooks(hooks as unknown as QueryHooks<AdminServices>)
  const emails = {
    ...makeEmailServerHooks(hooks as unknown as QueryHooks<EmailServerServices>),
    ...makeEmailAdminHooks(hooks as unknown as QueryHooks<EmailAdminServices>)
  }
  const all = {
    ...hooks,
    ...domain,
    ...makeTokenHooks(bound),
    ...makeCliHooks(bound),
    ...makeMfaHooks<R>(bound),
    ...server,
    ...profiles,
    ...admin,
    ...emails
  }
  return all as unknown as StackHooks<R, ER>
}
