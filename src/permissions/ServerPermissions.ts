/**
 * Any user's permissions with server access (PROTOCOL.md §3.5): the lists and checks of
 * `Permissions` (the signed-in user's) for a user given by id, and granting and revoking team
 * permissions of a team member and project permissions of a user. Grants are direct: what a granted permission
 * contains is held through it (see `Permissions.ts` for the recursive lists).
 *
 * Granting is idempotent (201 each time). Revoking removes a *direct* grant only: a permission
 * held through containment, or not held, fails (`TeamPermissionNotFound`, the service's 401, for
 * teams; `PermissionNotFound` for projects).
 *
 * Permission ids are checked before sending (`InvalidArgument`, nothing sent): custom ids match
 * `^[a-z0-9_:]+$`, system ids are the six `$` team permissions.
 *
 * Every grant and revoke invalidates the cached permission lists it changes
 * (`["team-permissions", teamId]`, `["project-permissions"]`).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidArgument } from "../core/Errors.js"
import * as Permissions from "./Permissions.js"
import { listProjectPermissionsForUserEndpoint, listTeamPermissionsForUserEndpoint } from "./internal/permissions.js"
import {
  grantProjectPermissionEndpoint,
  grantTeamPermissionEndpoint,
  listTeamMemberPermissionsEndpoint,
  revokeProjectPermissionEndpoint,
  revokeTeamPermissionEndpoint
} from "./internal/serverPermissions.js"

/** Fails with `InvalidArgument` (nothing sent) when `permissionId` is not a permission id. */
const checkPermissionId = (permissionId: string): Effect.Effect<void, InvalidArgument> => {
  const problem = Permissions.permissionIdProblem(permissionId)
  return problem === undefined
    ? Effect.void
    : Effect.fail(new InvalidArgument({ argument: "permissionId", message: `Invalid permission id "${permissionId}": ${problem}` }))
}

/**
 * Grants a team permission (custom or `$` system) to a member of the team; granting again
 * changes nothing. `POST /team-permissions/{team_id}/{user_id}/{permission_id}` (201); needs
 * server access. Fails with `UserNotFound`, `TeamMembershipNotFound` (the user is not in the
 * team, or the team does not exist), `PermissionNotFound`, `WrongPermissionScope` (a project
 * permission), or `InvalidArgument` (malformed ids, nothing sent).
 */
export const grantTeamPermission = Effect.fn("ServerPermissions.grantTeamPermission")(function* (
  teamId: string,
  userId: string,
  permissionId: string
) {
  yield* checkPermissionId(permissionId)
  const granted = yield* Endpoint.call(grantTeamPermissionEndpoint, { params: { teamId, userId, permissionId }, payload: {} })
  yield* QueryCache.invalidate(["team-permissions", teamId])
  return granted
})

/**
 * Revokes a team permission granted directly to a member.
 * `DELETE /team-permissions/{team_id}/{user_id}/{permission_id}`; needs server access. Fails with
 * `TeamPermissionNotFound` (401: not granted directly), `TeamMembershipNotFound`,
 * `UserNotFound`, or `InvalidArgument` (malformed ids, nothing sent).
 */
export const revokeTeamPermission = Effect.fn("ServerPermissions.revokeTeamPermission")(function* (
  teamId: string,
  userId: string,
  permissionId: string
) {
  yield* checkPermissionId(permissionId)
  yield* Endpoint.call(revokeTeamPermissionEndpoint, { params: { teamId, userId, permissionId } })
  yield* QueryCache.invalidate(["team-permissions", teamId])
})

/**
 * Grants a project permission to a user; granting again changes nothing.
 * `POST /project-permissions/{user_id}/{permission_id}` (201); needs server access. Fails with
 * `UserNotFound`, `PermissionNotFound` (also for the `$` team system permissions),
 * `WrongPermissionScope` (a team permission), or `InvalidArgument` (malformed ids, nothing sent).
 */
export const grantProjectPermission = Effect.fn("ServerPermissions.grantProjectPermission")(function* (
  userId: string,
  permissionId: string
) {
  yield* checkPermissionId(permissionId)
  const granted = yield* Endpoint.call(grantProjectPermissionEndpoint, { params: { userId, permissionId }, payload: {} })
  yield* QueryCache.invalidate(["project-permissions"])
  return granted
})

/**
 * Revokes a project permission granted directly to a user.
 * `DELETE /project-permissions/{user_id}/{permission_id}`; needs server access. Fails with
 * `PermissionNotFound` (not granted directly), `UserNotFound`, or `InvalidArgument` (malformed
 * ids, nothing sent).
 */
export const revokeProjectPermission = Effect.fn("ServerPermissions.revokeProjectPermission")(function* (
  userId: string,
  permissionId: string
) {
  yield* checkPermissionId(permissionId)
  yield* Endpoint.call(revokeProjectPermissionEndpoint, { params: { userId, permissionId } })
  yield* QueryCache.invalidate(["project-permissions"])
})

/**
 * A user's permissions in a team, sorted by id; `recursive` defaults to `true`.
 * `GET /team-permissions?team_id=&user_id=<id>&recursive=` (server access, cached). A user who is
 * not a member (or does not exist) has none. Fails with `InvalidArgument` for ids that are not
 * uuids (nothing sent).
 */
export const listTeamPermissions = Effect.fn("ServerPermissions.listTeamPermissions")(function* (
  teamId: string,
  userId: string,
  options: Permissions.ListOptions = {}
) {
  const recursive = options.recursive ?? true
  const answer = yield* QueryCache.cached(
    Permissions.teamPermissionsKey(teamId, userId, recursive),
    Endpoint.call(listTeamPermissionsForUserEndpoint, { query: { teamId, userId, recursive } })
  )
  return answer.items
})

/** One permission one member of a team holds (see {@link listTeamMemberPermissions}). */
export interface TeamMemberPermission {
  readonly userId: string
  readonly permissionId: string
}

/**
 * The permissions of every member of a team, as `{ userId, permissionId }` pairs (the official
 * `listTeamMemberPermissions(teamId, { recursive })`); `recursive` adds what the granted
 * permissions contain, and defaults to `false` as the official SDK's does.
 * `GET /team-permissions?team_id=<id>&recursive=` without `user_id` (server access; cached, and
 * refreshed by {@link grantTeamPermission} / {@link revokeTeamPermission} in the team). Fails with
 * `InvalidArgument` (a malformed team id, nothing sent).
 */
export const listTeamMemberPermissions = Effect.fn("ServerPermissions.listTeamMemberPermissions")(function* (
  teamId: string,
  options: Permissions.ListOptions = {}
) {
  const recursive = options.recursive ?? false
  const answer = yield* QueryCache.cached(
    Permissions.teamPermissionsKey(teamId, "*members", recursive),
    Endpoint.call(listTeamMemberPermissionsEndpoint, { query: { teamId, recursive } })
  )
  return answer.items.map((permission): TeamMemberPermission => ({ userId: permission.userId, permissionId: permission.id }))
})

/**
 * Whether a user holds a team permission, directly or through containment.
 * `GET /team-permissions?…&recursive=true` (server access). Fails like {@link listTeamPermissions}.
 */
export const hasTeamPermission = Effect.fn("ServerPermissions.hasTeamPermission")(function* (
  teamId: string,
  userId: string,
  permissionId: string
) {
  const permissions = yield* listTeamPermissions(teamId, userId, { recursive: true })
  return permissions.some((permission) => permission.id === permissionId)
})

/**
 * A user's project permissions, sorted by id; `recursive` defaults to `true`.
 * `GET /project-permissions?user_id=<id>&recursive=` (server access, cached). Fails with
 * `InvalidArgument` for a `userId` that is not a uuid (nothing sent).
 */
export const listProjectPermissions = Effect.fn("ServerPermissions.listProjectPermissions")(function* (
  userId: string,
  options: Permissions.ListOptions = {}
) {
  const recursive = options.recursive ?? true
  const answer = yield* QueryCache.cached(
    Permissions.projectPermissionsKey(userId, recursive),
    Endpoint.call(listProjectPermissionsForUserEndpoint, { query: { userId, recursive } })
  )
  return answer.items
})

/**
 * Whether a user holds a project permission, directly or through containment.
 * `GET /project-permissions?user_id=<id>&recursive=true` (server access). Fails like
 * {@link listProjectPermissions}.
 */
export const hasProjectPermission = Effect.fn("ServerPermissions.hasProjectPermission")(function* (
  userId: string,
  permissionId: string
) {
  const permissions = yield* listProjectPermissions(userId, { recursive: true })
  return permissions.some((permission) => permission.id === permissionId)
})

/**
 * One of a user's team permissions (the official `serverUser.getPermission(team, id)`), or
 * `Option.none()` when the user does not hold it; `recursive` (default `true`) counts permissions
 * held through containment. Reads {@link listTeamPermissions}.
 */
export const getTeamPermission = Effect.fn("ServerPermissions.getTeamPermission")(function* (
  teamId: string,
  userId: string,
  permissionId: string,
  options: Permissions.ListOptions = {}
) {
  const permissions = yield* listTeamPermissions(teamId, userId, options)
  return Option.fromNullishOr(permissions.find((permission) => permission.id === permissionId))
})

/**
 * One of a user's project permissions, or `Option.none()` when the user does not hold it;
 * `recursive` (default `true`) counts permissions held through containment. Reads
 * {@link listProjectPermissions}.
 */
export const getProjectPermission = Effect.fn("ServerPermissions.getProjectPermission")(function* (
  userId: string,
  permissionId: string,
  options: Permissions.ListOptions = {}
) {
  const permissions = yield* listProjectPermissions(userId, options)
  return Option.fromNullishOr(permissions.find((permission) => permission.id === permissionId))
})
