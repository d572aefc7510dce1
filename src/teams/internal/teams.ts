/**
 * The wire definitions of `Teams` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Teams.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  TeamMembershipNotFound,
  TeamNotFound,
  TeamPermissionRequired,
  UserAuthenticationRequired,
  UserNotFound
} from "../../core/KnownErrors.js"
import { field, Json, optionalField, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { ClientTeam } from "../../users/User.js"

/** `"me"` or a user id (uuid). */
export const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

/** The `{ items, is_paginated }` envelope of the team lists. */
export const TeamList = wireStruct({ items: Schema.Array(ClientTeam), isPaginated: field("is_paginated", Schema.Boolean) })

const TeamParams = wireStruct({ teamId: field("team_id", Uuid) })

/** The fields a client may set on a team. */
export const ClientTeamUpdate = wireStruct({
  displayName: optionalField("display_name", Schema.String),
  /** A base64 image (data URL or bare base64) from client access; null removes it. */
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json)
})

/** An update of a team (client access). */
export type ClientTeamUpdate = typeof ClientTeamUpdate.Type

/** The client create body: the creator is always the signed-in user (`creator_user_id: "me"`). */
export const ClientTeamCreate = wireStruct({
  displayName: field("display_name", Schema.String),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json),
  creatorUserId: field("creator_user_id", UserIdOrMe)
})

/** `GET /teams?user_id=me` (client access). */
export const listMineEndpoint = Endpoint.make({
  name: "Teams.listMine",
  method: "GET",
  path: "/teams",
  access: "client",
  session: "required",
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: TeamList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /teams/{team_id}` (client access; the caller must be a member). */
export const getEndpoint = Endpoint.make({
  name: "Teams.get",
  method: "GET",
  path: "/teams/:team_id",
  access: "client",
  session: "required",
  params: TeamParams,
  success: ClientTeam,
  errors: [TeamNotFound, TeamMembershipNotFound, UserAuthenticationRequired, UserNotFound]
})

/** `POST /teams` (client access; 201). */
export const createEndpoint = Endpoint.make({
  name: "Teams.create",
  method: "POST",
  path: "/teams",
  access: "client",
  session: "required",
  payload: ClientTeamCreate,
  success: ClientTeam,
  successStatus: 201,
  errors: [UserAuthenticationRequired, UserNotFound]
})

/** `PATCH /teams/{team_id}` (client access; needs `$update_team`). */
export const updateEndpoint = Endpoint.make({
  name: "Teams.update",
  method: "PATCH",
  path: "/teams/:team_id",
  access: "client",
  session: "required",
  params: TeamParams,
  payload: ClientTeamUpdate,
  success: ClientTeam,
  errors: [TeamPermissionRequired, TeamNotFound, TeamMembershipNotFound, UserAuthenticationRequired, UserNotFound]
})

/** `DELETE /teams/{team_id}` (client access; needs `$delete_team`). */
export const deleteEndpoint = Endpoint.make({
  name: "Teams.delete",
  method: "DELETE",
  path: "/teams/:team_id",
  access: "client",
  session: "required",
  params: TeamParams,
  success: SuccessTrue,
  errors: [TeamPermissionRequired, TeamNotFound, TeamMembershipNotFound, UserAuthenticationRequired, UserNotFound]
})

/** `DELETE /team-memberships/{team_id}/{user_id|me}` (client access: self always, others with `$remove_members`). */
export const removeMembershipEndpoint = Endpoint.make({
  name: "Teams.removeMembership",
  method: "DELETE",
  path: "/team-memberships/:team_id/:user_id",
  access: "client",
  session: "required",
  params: wireStruct({ teamId: field("team_id", Uuid), userId: field("user_id", UserIdOrMe) }),
  success: SuccessTrue,
  errors: [TeamMembershipNotFound, TeamPermissionRequired, CannotGetOwnUserWithoutUser, UserNotFound, TeamNotFound]
})

/** The service's answer (403, plain text) when the project does not let clients create teams. */
export const clientTeamCreationDisabledText = "Client team creation is disabled for this project"

/** The service's answer (400, plain text) to a client-set profile image that is not a base64 image. */
export const invalidProfileImageText = "Invalid profile image URL"
