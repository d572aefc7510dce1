/**
 * The wire definitions of `ServerPermissions` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `ServerPermissions.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { PermissionNotFound, TeamMembershipNotFound, TeamPermissionNotFound, UserNotFound, WrongPermissionScope } from "../../core/KnownErrors.js"
import { field, QueryBoolean, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { PermissionId } from "./permissionIds.js"
import { ProjectPermission, TeamPermission } from "./permissions.js"
import { TeamPermissionList } from "./permissions.js"

const TeamGrantParams = wireStruct({
  teamId: field("team_id", Uuid),
  userId: field("user_id", Uuid),
  permissionId: field("permission_id", PermissionId)
})

const ProjectGrantParams = wireStruct({
  userId: field("user_id", Uuid),
  permissionId: field("permission_id", PermissionId)
})

/** `POST /team-permissions/{team_id}/{user_id}/{permission_id}` (server access, 201, idempotent). */
export const grantTeamPermissionEndpoint = Endpoint.make({
  name: "ServerPermissions.grantTeamPermission",
  method: "POST",
  path: "/team-permissions/:team_id/:user_id/:permission_id",
  access: "server",
  session: "none",
  params: TeamGrantParams,
  payload: Schema.Struct({}),
  success: TeamPermission,
  successStatus: 201,
  errors: [UserNotFound, TeamMembershipNotFound, PermissionNotFound, WrongPermissionScope]
})

/** `DELETE /team-permissions/{team_id}/{user_id}/{permission_id}` (server access). */
export const revokeTeamPermissionEndpoint = Endpoint.make({
  name: "ServerPermissions.revokeTeamPermission",
  method: "DELETE",
  path: "/team-permissions/:team_id/:user_id/:permission_id",
  access: "server",
  session: "none",
  params: TeamGrantParams,
  success: SuccessTrue,
  errors: [UserNotFound, TeamMembershipNotFound, TeamPermissionNotFound]
})

/** `POST /project-permissions/{user_id}/{permission_id}` (server access, 201, idempotent). */
export const grantProjectPermissionEndpoint = Endpoint.make({
  name: "ServerPermissions.grantProjectPermission",
  method: "POST",
  path: "/project-permissions/:user_id/:permission_id",
  access: "server",
  session: "none",
  params: ProjectGrantParams,
  payload: Schema.Struct({}),
  success: ProjectPermission,
  successStatus: 201,
  errors: [UserNotFound, PermissionNotFound, WrongPermissionScope]
})

/** `DELETE /project-permissions/{user_id}/{permission_id}` (server access). */
export const revokeProjectPermissionEndpoint = Endpoint.make({
  name: "ServerPermissions.revokeProjectPermission",
  method: "DELETE",
  path: "/project-permissions/:user_id/:permission_id",
  access: "server",
  session: "none",
  params: ProjectGrantParams,
  success: SuccessTrue,
  errors: [UserNotFound, PermissionNotFound]
})

/**
 * `GET /team-permissions?team_id=<id>&recursive=` without `user_id` (server access): the
 * permissions of every member of a team (the official `listTeamMemberPermissions`).
 */
export const listTeamMemberPermissionsEndpoint = Endpoint.make({
  name: "ServerPermissions.listTeamMemberPermissions",
  method: "GET",
  path: "/team-permissions",
  access: "server",
  session: "none",
  query: wireStruct({
    teamId: field("team_id", Uuid),
    recursive: field("recursive", QueryBoolean)
  }),
  success: TeamPermissionList,
  errors: []
})
