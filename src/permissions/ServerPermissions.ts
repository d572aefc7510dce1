/**
 * Granting and revoking permissions with server access (PROTOCOL.md §3.5): team permissions of a
 * team member, and project permissions of a user. Grants are direct: what a granted permission
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
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidArgument } from "../core/Errors.js"
import { permissionIdProblem } from "./Permissions.js"
import { grantProjectPermissionEndpoint, grantTeamPermissionEndpoint, revokeProjectPermissionEndpoint, revokeTeamPermissionEndpoint } from "./internal/serverPermissions.js"

/** Fails with `InvalidArgument` (nothing sent) when `permissionId` is not a permission id. */
const checkPermissionId = (permissionId: string): Effect.Effect<void, InvalidArgument> => {
  const problem = permissionIdProblem(permissionId)
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
