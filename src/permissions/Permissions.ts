/**
 * Permissions a user holds (PROTOCOL.md §3.0 "Permissions", §3.5): team permissions (granted in
 * one team) and project permissions (granted project-wide). The signed-in user reads its own with
 * client access (`user_id=me`); with server access any user's are read by id in `ServerPermissions`.
 *
 * A permission may contain others (its definition's `containedPermissionIds`, see
 * `PermissionDefinitions.ts`). A *recursive* list holds the direct grants and everything they
 * contain, transitively; a *direct* list only the grants themselves. The service defaults
 * `recursive` to false when the query omits it; this SDK defaults it to **true** and always sends
 * it. Lists come sorted by permission id.
 *
 * Team permission ids are custom ids (`^[a-z0-9_:]+$`) or the system permissions `$update_team`,
 * `$delete_team`, `$read_members`, `$remove_members`, `$invite_members`, `$manage_api_keys`.
 *
 * Reads go through the query cache (`QueryCache.cached`; keys `["team-permissions", teamId, user,
 * "recursive" | "direct"]` and `["project-permissions", user, "recursive" | "direct"]`, where
 * `user` is `"me"` or the user id); grants, revokes and definition changes invalidate them.
 *
 * @example
 * ```ts
 * import { Permissions } from "stack-auth-effect"
 *
 * // show the delete button only to members holding $delete_team (directly or through team_admin)
 * const canDelete = (teamId: string) => Permissions.hasTeamPermission(teamId, "$delete_team")
 * const direct = (teamId: string) => Permissions.listTeamPermissions(teamId, { recursive: false })
 * ```
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { listProjectPermissionsEndpoint, listTeamPermissionsEndpoint } from "./internal/permissions.js"

/** The domain's schemas, defined with its wire definitions (`internal/permissions.ts`). */
export { ProjectPermission, TeamPermission } from "./internal/permissions.js"

// ---------------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------------

/** The ids of permissions, defined with the wire definitions (`internal/permissionIds.ts`). */
export {
  CustomPermissionId,
  customPermissionIdMessage,
  customPermissionIdPattern,
  invalidSystemPermissionMessage,
  PermissionId,
  permissionIdMessage,
  permissionIdProblem,
  systemTeamPermissionIds
} from "./internal/permissionIds.js"
export type { SystemTeamPermissionId } from "./internal/permissionIds.js"

// ---------------------------------------------------------------------------------------------
// Cache keys
// ---------------------------------------------------------------------------------------------

/** Options of the list reads. */
export interface ListOptions {
  /** With everything the granted permissions contain, transitively (default `true`). */
  readonly recursive?: boolean
}

const depth = (recursive: boolean) => (recursive ? "recursive" : "direct")

/** The cache key of a user's team permissions (`user`: `"me"` or a user id). */
export const teamPermissionsKey = (teamId: string, user: string, recursive: boolean): QueryCache.Key => [
  "team-permissions",
  teamId,
  user,
  depth(recursive)
]

/** The cache key of a user's project permissions (`user`: `"me"` or a user id). */
export const projectPermissionsKey = (user: string, recursive: boolean): QueryCache.Key => [
  "project-permissions",
  user,
  depth(recursive)
]

// ---------------------------------------------------------------------------------------------
// Client functions (the signed-in user)
// ---------------------------------------------------------------------------------------------

/**
 * The signed-in user's permissions in a team, sorted by id; `recursive` (default `true`) adds
 * every contained permission. `GET /team-permissions?team_id=&user_id=me&recursive=true|false`
 * (cached). A team the user is not in gives an empty list. Fails with `UserNotSignedIn`, or
 * `InvalidArgument` for a `teamId` that is not a uuid (nothing sent).
 */
export const listTeamPermissions = Effect.fn("Permissions.listTeamPermissions")(function* (
  teamId: string,
  options: ListOptions = {}
) {
  const recursive = options.recursive ?? true
  const answer = yield* QueryCache.cached(
    teamPermissionsKey(teamId, "me", recursive),
    Endpoint.call(listTeamPermissionsEndpoint, { query: { teamId, userId: "me", recursive } })
  )
  return answer.items
})

/**
 * Whether the signed-in user holds a team permission, directly or through containment (reads
 * the recursive list, so it shares its cache entry). `GET /team-permissions?…&recursive=true`.
 * Fails like {@link listTeamPermissions}.
 */
export const hasTeamPermission = Effect.fn("Permissions.hasTeamPermission")(function* (teamId: string, permissionId: string) {
  const permissions = yield* listTeamPermissions(teamId, { recursive: true })
  return permissions.some((permission) => permission.id === permissionId)
})

/**
 * The signed-in user's project permissions, sorted by id; `recursive` (default `true`) adds every
 * contained permission. `GET /project-permissions?user_id=me&recursive=true|false` (cached).
 * Fails with `UserNotSignedIn`.
 */
export const listProjectPermissions = Effect.fn("Permissions.listProjectPermissions")(function* (options: ListOptions = {}) {
  const recursive = options.recursive ?? true
  const answer = yield* QueryCache.cached(
    projectPermissionsKey("me", recursive),
    Endpoint.call(listProjectPermissionsEndpoint, { query: { userId: "me", recursive } })
  )
  return answer.items
})

/**
 * Whether the signed-in user holds a project permission, directly or through containment.
 * `GET /project-permissions?user_id=me&recursive=true` (shares the recursive list's cache entry).
 * Fails like {@link listProjectPermissions}.
 */
export const hasProjectPermission = Effect.fn("Permissions.hasProjectPermission")(function* (permissionId: string) {
  const permissions = yield* listProjectPermissions({ recursive: true })
  return permissions.some((permission) => permission.id === permissionId)
})

/**
 * One of the signed-in user's team permissions (the official `user.getPermission(team, id)`),
 * or `Option.none()` when the user does not hold it; `recursive` (default `true`) counts
 * permissions held through containment. Reads {@link listTeamPermissions} (same cache entry).
 */
export const getTeamPermission = Effect.fn("Permissions.getTeamPermission")(function* (
  teamId: string,
  permissionId: string,
  options: ListOptions = {}
) {
  const permissions = yield* listTeamPermissions(teamId, options)
  return Option.fromNullishOr(permissions.find((permission) => permission.id === permissionId))
})

/**
 * One of the signed-in user's project permissions (the official `user.getPermission(id)`), or
 * `Option.none()` when the user does not hold it; `recursive` (default `true`) counts permissions
 * held through containment. Reads {@link listProjectPermissions} (same cache entry).
 */
export const getProjectPermission = Effect.fn("Permissions.getProjectPermission")(function* (
  permissionId: string,
  options: ListOptions = {}
) {
  const permissions = yield* listProjectPermissions(options)
  return Option.fromNullishOr(permissions.find((permission) => permission.id === permissionId))
})
