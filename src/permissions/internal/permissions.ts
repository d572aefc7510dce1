/**
 * The wire definitions of `Permissions` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Permissions.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser } from "../../core/KnownErrors.js"
import { field, QueryBoolean, Uuid, wireStruct } from "../../core/Wire.js"

// ---------------------------------------------------------------------------------------------
// Wire objects
// ---------------------------------------------------------------------------------------------

/** A team permission a user holds: `{ id, user_id, team_id }`. */
export const TeamPermission = wireStruct({
  id: Schema.String,
  userId: field("user_id", Uuid),
  teamId: field("team_id", Uuid)
})

/** A team permission a user holds in a team. */
export type TeamPermission = typeof TeamPermission.Type

/** A project permission a user holds: `{ id, user_id }`. */
export const ProjectPermission = wireStruct({
  id: Schema.String,
  userId: field("user_id", Uuid)
})

/** A project permission a user holds. */
export type ProjectPermission = typeof ProjectPermission.Type

/** The list answer `{ items, is_paginated: false }` of team permissions. */
export const TeamPermissionList = wireStruct({
  items: Schema.Array(TeamPermission),
  isPaginated: field("is_paginated", Schema.Boolean)
})

/** The list answer `{ items, is_paginated: false }` of project permissions. */
export const ProjectPermissionList = wireStruct({
  items: Schema.Array(ProjectPermission),
  isPaginated: field("is_paginated", Schema.Boolean)
})

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** `GET /team-permissions?team_id=&user_id=me&recursive=` (client access, the signed-in user). */
export const listTeamPermissionsEndpoint = Endpoint.make({
  name: "Permissions.listTeamPermissions",
  method: "GET",
  path: "/team-permissions",
  access: "client",
  session: "required",
  query: wireStruct({
    teamId: field("team_id", Uuid),
    userId: field("user_id", Schema.Literal("me")),
    recursive: field("recursive", QueryBoolean)
  }),
  success: TeamPermissionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /project-permissions?user_id=me&recursive=` (client access, the signed-in user). */
export const listProjectPermissionsEndpoint = Endpoint.make({
  name: "Permissions.listProjectPermissions",
  method: "GET",
  path: "/project-permissions",
  access: "client",
  session: "required",
  query: wireStruct({
    userId: field("user_id", Schema.Literal("me")),
    recursive: field("recursive", QueryBoolean)
  }),
  success: ProjectPermissionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /team-permissions?team_id=&user_id=<id>&recursive=` (server access, any user). */
export const listTeamPermissionsForUserEndpoint = Endpoint.make({
  name: "ServerPermissions.listTeamPermissions",
  method: "GET",
  path: "/team-permissions",
  access: "server",
  session: "none",
  query: wireStruct({
    teamId: field("team_id", Uuid),
    userId: field("user_id", Uuid),
    recursive: field("recursive", QueryBoolean)
  }),
  success: TeamPermissionList,
  errors: []
})

/** `GET /project-permissions?user_id=<id>&recursive=` (server access, any user). */
export const listProjectPermissionsForUserEndpoint = Endpoint.make({
  name: "ServerPermissions.listProjectPermissions",
  method: "GET",
  path: "/project-permissions",
  access: "server",
  session: "none",
  query: wireStruct({
    userId: field("user_id", Uuid),
    recursive: field("recursive", QueryBoolean)
  }),
  success: ProjectPermissionList,
  errors: []
})
