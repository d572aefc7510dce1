"use client"
/**
 * Hooks over admin access (the official `StackAdminApp`'s admin `useProject()`,
 * `project.useConfig()`, `useProductionModeErrors()`, `useMetrics`, `useSvixToken`,
 * `useInternalApiKeys`, `useTeamPermissionDefinitions`, `useProjectPermissionDefinitions`), for a
 * dashboard or an admin tool whose runtime holds an admin credential (`Stack.layerAdmin`, with the
 * admin key or an owner's admin access token). `makeStackHooks(runtime)`
 * returns them when the runtime provides `AdminAccess`; the plain exports are callable when the
 * runtime the app declared (`Register`) provides it, and otherwise do not compile.
 *
 * Every read goes through the query cache (many components, one request; a Suspense form resolves
 * from it): `ProjectConfig.update`, `AdminProjects.updateCurrent` and the other project writes
 * refresh the project and config hooks. The permission definitions are kept under the prefix their changes invalidate
 * (`["team-permissions"]`, `["project-permissions"]`): a `PermissionDefinitions.create…`,
 * `update…` or `delete…` refreshes them. The other entries no SDK call invalidates (creating an
 * internal API key does not): `refetch()` reads them again.
 *
 * @module
 */
import type { AdminAccess } from "../src/core/Access.js"
import * as QueryCache from "../src/cache/QueryCache.js"
import * as PermissionDefinitions from "../src/permissions/PermissionDefinitions.js"
import * as Admin from "../src/projects/Admin.js"
import * as AdminProjects from "../src/projects/AdminProjects.js"
import * as InternalApiKeys from "../src/projects/InternalApiKeys.js"
import * as ProjectConfig from "../src/projects/ProjectConfig.js"
import type { QueryHooks } from "./domain.js"
import { useQueryWith, useSuspenseQueryWith } from "./internal/hooks.js"
import type { AdminServices, HookNeeding } from "./register.js"

/** Options of {@link useMetrics}. */
export interface UseMetricsOptions {
  /** Count anonymous users too (`include_anonymous=true`; default: the service's, not counted). */
  readonly includeAnonymous?: boolean
}

/** The cache key of the team permission definitions (under the prefix their changes invalidate). */
export const teamDefinitionsKey: QueryCache.Key = ["team-permissions", "definitions"]

/** The cache key of the project permission definitions (under the prefix their changes invalidate). */
export const projectDefinitionsKey: QueryCache.Key = ["project-permissions", "definitions"]

/** The cache key of the metrics (`includeAnonymous` as given, `"default"` when not). */
export const metricsKey = (includeAnonymous: boolean | undefined): QueryCache.Key => [
  "admin",
  "metrics",
  includeAnonymous === undefined ? "default" : String(includeAnonymous)
]

/** The cache key of the Svix token. */
export const svixTokenKey: QueryCache.Key = ["admin", "svix-token"]

/** The cache key of the internal API keys. */
export const internalApiKeysKey: QueryCache.Key = ["admin", "internal-api-keys"]

const metrics = (options: UseMetricsOptions) =>
  QueryCache.cached(
    metricsKey(options.includeAnonymous),
    Admin.getMetrics(options.includeAnonymous === undefined ? {} : { includeAnonymous: options.includeAnonymous })
  )
const svixToken = () => QueryCache.cached(svixTokenKey, Admin.createSvixToken())
const internalApiKeys = () => QueryCache.cached(internalApiKeysKey, InternalApiKeys.list())
const teamDefinitions = () => QueryCache.cached(teamDefinitionsKey, PermissionDefinitions.listTeamDefinitions())
const projectDefinitions = () => QueryCache.cached(projectDefinitionsKey, PermissionDefinitions.listProjectDefinitions())

/** The admin hooks, made of `hooks` typed by a runtime with admin access. */
export const makeAdminHooks = (hooks: QueryHooks<AdminServices>) => {
  const { useStackQuery: query, useStackSuspenseQuery: suspenseQuery } = hooks
  return {
    /** The current project, admin view (`AdminProjects.getCurrent`: `GET /internal/projects/current`). Official: admin `useProject()`. */
    useAdminProject: () => query(AdminProjects.getCurrent(), []),
    /** {@link useAdminProject} for Suspense. */
    useSuspenseAdminProject: () => suspenseQuery(AdminProjects.getCurrent(), []),
    /** The production-mode problems of the project (`AdminProjects.getProductionModeErrors`). Official: `project.useProductionModeErrors()`. */
    useProductionModeErrors: () => query(AdminProjects.getProductionModeErrors(), []),
    /** {@link useProductionModeErrors} for Suspense. */
    useSuspenseProductionModeErrors: () => suspenseQuery(AdminProjects.getProductionModeErrors(), []),
    /** The rendered project config (`ProjectConfig.get`: `GET /internal/config`). Official: `project.useConfig()`. */
    useConfig: () => query(ProjectConfig.get(), []),
    /** {@link useConfig} for Suspense. */
    useSuspenseConfig: () => suspenseQuery(ProjectConfig.get(), []),
    /** The override written at a level (`ProjectConfig.getOverride`). */
    useConfigOverride: (level: ProjectConfig.ConfigLevel) => query(ProjectConfig.getOverride(level), [level]),
    /** {@link useConfigOverride} for Suspense. */
    useSuspenseConfigOverride: (level: ProjectConfig.ConfigLevel) => suspenseQuery(ProjectConfig.getOverride(level), [level]),
    /** The project's dashboard metrics (`Admin.getMetrics`: `GET /internal/metrics`, cached). */
    useMetrics: (options: UseMetricsOptions = {}) => query(metrics(options), [options.includeAnonymous ?? null]),
    /** {@link useMetrics} for Suspense. */
    useSuspenseMetrics: (options: UseMetricsOptions = {}) => suspenseQuery(metrics(options), [options.includeAnonymous ?? null]),
    /** A token for the Svix webhook portal (`Admin.createSvixToken`: `POST /webhooks/svix-token`, cached; `refetch()` makes a new one). */
    useSvixToken: () => query(svixToken(), []),
    /** {@link useSvixToken} for Suspense. */
    useSuspenseSvixToken: () => suspenseQuery(svixToken(), []),
    /** The project's internal API keys, newest first, values obfuscated (`InternalApiKeys.list`: `GET /internal/api-keys`, cached). */
    useInternalApiKeys: () => query(internalApiKeys(), []),
    /** {@link useInternalApiKeys} for Suspense. */
    useSuspenseInternalApiKeys: () => suspenseQuery(internalApiKeys(), []),
    /** The team permission definitions, system ones included (`PermissionDefinitions.listTeamDefinitions`, cached). */
    useTeamPermissionDefinitions: () => query(teamDefinitions(), []),
    /** {@link useTeamPermissionDefinitions} for Suspense. */
    useSuspenseTeamPermissionDefinitions: () => suspenseQuery(teamDefinitions(), []),
    /** The project permission definitions (`PermissionDefinitions.listProjectDefinitions`, cached). */
    useProjectPermissionDefinitions: () => query(projectDefinitions(), []),
    /** {@link useProjectPermissionDefinitions} for Suspense. */
    useSuspenseProjectPermissionDefinitions: () => suspenseQuery(projectDefinitions(), [])
  }
}

/** The hooks {@link makeAdminHooks} makes (from `makeStackHooks(runtime)` with admin access). */
export type AdminHooks = ReturnType<typeof makeAdminHooks>

const generic: AdminHooks = makeAdminHooks({
  useStackQuery: (effect, deps, options = {}) => useQueryWith("useStackQuery", undefined, effect, deps, options),
  useStackSuspenseQuery: (effect, deps) => useSuspenseQueryWith("useStackSuspenseQuery", undefined, effect, deps)
})

/** An admin hook as the plain exports give it: callable when the declared runtime has `AdminAccess`. */
type Plain<K extends keyof AdminHooks> = HookNeeding<AdminAccess, AdminHooks[K]>

// the plain exports are the same functions; their type depends on the runtime the app declared
const plain = <K extends keyof AdminHooks>(name: K): Plain<K> => generic[name] as unknown as Plain<K>

/** The current project, admin view (`AdminProjects.getCurrent`). Needs a declared runtime with `AdminAccess` (see `Register`). */
export const useAdminProject: Plain<"useAdminProject"> = plain("useAdminProject")

/** {@link useAdminProject} for Suspense. */
export const useSuspenseAdminProject: Plain<"useSuspenseAdminProject"> = plain("useSuspenseAdminProject")

/** The production-mode problems of the project (`AdminProjects.getProductionModeErrors`). Needs a declared runtime with `AdminAccess`. */
export const useProductionModeErrors: Plain<"useProductionModeErrors"> = plain("useProductionModeErrors")

/** {@link useProductionModeErrors} for Suspense. */
export const useSuspenseProductionModeErrors: Plain<"useSuspenseProductionModeErrors"> = plain("useSuspenseProductionModeErrors")

/** The rendered project config (`ProjectConfig.get`). Needs a declared runtime with `AdminAccess`. */
export const useConfig: Plain<"useConfig"> = plain("useConfig")

/** {@link useConfig} for Suspense. */
export const useSuspenseConfig: Plain<"useSuspenseConfig"> = plain("useSuspenseConfig")

/** The override written at a level (`ProjectConfig.getOverride`). Needs a declared runtime with `AdminAccess`. */
export const useConfigOverride: Plain<"useConfigOverride"> = plain("useConfigOverride")

/** {@link useConfigOverride} for Suspense. */
export const useSuspenseConfigOverride: Plain<"useSuspenseConfigOverride"> = plain("useSuspenseConfigOverride")

/**
 * The project's dashboard metrics (`Admin.getMetrics`: users, daily series, countries, recent
 * users, login methods). Needs a declared runtime with `AdminAccess` (see `Register`).
 *
 * @example
 * ```tsx
 * import { ManagedRuntime } from "effect"
 * import { Stack } from "stack-auth-effect"
 * import { makeStackHooks } from "stack-auth-effect/react"
 *
 * declare const projectId: string, superSecretAdminKey: string // from the admin tool's environment
 *
 * export const runtime = ManagedRuntime.make(Stack.layerAdmin({ projectId, superSecretAdminKey }))
 * export const { useMetrics } = makeStackHooks(runtime) // or declare `runtime` in `Register`
 *
 * export const UserCount = () => {
 *   const metrics = useMetrics()
 *   return <span aria-busy={metrics.waiting}>{metrics.status === "success" ? metrics.data.totalUsers : "…"}</span>
 * }
 * ```
 */
export const useMetrics: Plain<"useMetrics"> = plain("useMetrics")

/** {@link useMetrics} for Suspense. */
export const useSuspenseMetrics: Plain<"useSuspenseMetrics"> = plain("useSuspenseMetrics")

/** A token for the Svix webhook portal (`Admin.createSvixToken`). Needs a declared runtime with `AdminAccess`. */
export const useSvixToken: Plain<"useSvixToken"> = plain("useSvixToken")

/** {@link useSvixToken} for Suspense. */
export const useSuspenseSvixToken: Plain<"useSuspenseSvixToken"> = plain("useSuspenseSvixToken")

/** The project's internal API keys (`InternalApiKeys.list`). Needs a declared runtime with `AdminAccess`. */
export const useInternalApiKeys: Plain<"useInternalApiKeys"> = plain("useInternalApiKeys")

/** {@link useInternalApiKeys} for Suspense. */
export const useSuspenseInternalApiKeys: Plain<"useSuspenseInternalApiKeys"> = plain("useSuspenseInternalApiKeys")

/** The team permission definitions (`PermissionDefinitions.listTeamDefinitions`, cached). Needs a declared runtime with `AdminAccess`. */
export const useTeamPermissionDefinitions: Plain<"useTeamPermissionDefinitions"> = plain("useTeamPermissionDefinitions")

/** {@link useTeamPermissionDefinitions} for Suspense. */
export const useSuspenseTeamPermissionDefinitions: Plain<"useSuspenseTeamPermissionDefinitions"> = plain("useSuspenseTeamPermissionDefinitions")

/** The project permission definitions (`PermissionDefinitions.listProjectDefinitions`, cached). Needs a declared runtime with `AdminAccess`. */
export const useProjectPermissionDefinitions: Plain<"useProjectPermissionDefinitions"> = plain("useProjectPermissionDefinitions")

/** {@link useProjectPermissionDefinitions} for Suspense. */
export const useSuspenseProjectPermissionDefinitions: Plain<"useSuspenseProjectPermissionDefinitions"> = plain("useSuspenseProjectPermissionDefinitions")
