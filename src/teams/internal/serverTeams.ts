/**
 * The wire definitions of `ServerTeams` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `ServerTeams.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser, TeamMembershipAlreadyExists, TeamMembershipNotFound, TeamNotFound, UserNotFound } from "../../core/KnownErrors.js"
import { field, Json, optionalField, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { ServerTeam } from "../../users/User.js"
import { ServerTeamMemberProfile } from "./teamMemberProfiles.js"
import { TeamMemberProfileUpdate } from "./teamMemberProfiles.js"
import { ProfileParams } from "./teamMemberProfiles.js"
import { UserIdOrMe } from "./teams.js"

const TeamParams = wireStruct({ teamId: field("team_id", Uuid) })

/** The fields a server may set on a team. */
export const ServerTeamUpdate = wireStruct({
  displayName: optionalField("display_name", Schema.String),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json),
  clientReadOnlyMetadata: optionalField("client_read_only_metadata", Json),
  serverMetadata: optionalField("server_metadata", Json)
})

/** A server update of a team. */
export type ServerTeamUpdate = typeof ServerTeamUpdate.Type

/** The server create body: the update fields with a required display name, and an optional creator. */
export const ServerTeamCreate = wireStruct({
  ...ServerTeamUpdate.wireFields,
  displayName: field("display_name", Schema.String),
  /** The user who joins as creator (creator default permissions); omitted: nobody joins. */
  creatorUserId: optionalField("creator_user_id", UserIdOrMe)
})

/** A team to create with server access. */
export type ServerTeamCreate = typeof ServerTeamCreate.Type

/** `GET /teams?user_id=` (server; without `user_id`: every team). */
export const listEndpoint = Endpoint.make({
  name: "ServerTeams.list",
  method: "GET",
  path: "/teams",
  access: "server",
  session: "none",
  query: wireStruct({ userId: optionalField("user_id", UserIdOrMe) }),
  success: wireStruct({ items: Schema.Array(ServerTeam), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /teams/{team_id}` (server). */
export const getEndpoint = Endpoint.make({
  name: "ServerTeams.get",
  method: "GET",
  path: "/teams/:team_id",
  access: "server",
  session: "none",
  params: TeamParams,
  success: ServerTeam,
  errors: [TeamNotFound]
})

/** `POST /teams` (server; 201). */
export const createEndpoint = Endpoint.make({
  name: "ServerTeams.create",
  method: "POST",
  path: "/teams",
  access: "server",
  session: "none",
  payload: ServerTeamCreate,
  success: ServerTeam,
  successStatus: 201,
  errors: [UserNotFound, CannotGetOwnUserWithoutUser]
})

/** `PATCH /teams/{team_id}` (server). */
export const updateEndpoint = Endpoint.make({
  name: "ServerTeams.update",
  method: "PATCH",
  path: "/teams/:team_id",
  access: "server",
  session: "none",
  params: TeamParams,
  payload: ServerTeamUpdate,
  success: ServerTeam,
  errors: [TeamNotFound]
})

/** `DELETE /teams/{team_id}` (server). */
export const deleteEndpoint = Endpoint.make({
  name: "ServerTeams.delete",
  method: "DELETE",
  path: "/teams/:team_id",
  access: "server",
  session: "none",
  params: TeamParams,
  success: SuccessTrue,
  errors: [TeamNotFound]
})

const MembershipParams = wireStruct({ teamId: field("team_id", Uuid), userId: field("user_id", UserIdOrMe) })

/** `POST /team-memberships/{team_id}/{user_id}` (server; body `{}`; 201). */
export const addMemberEndpoint = Endpoint.make({
  name: "ServerTeams.addMember",
  method: "POST",
  path: "/team-memberships/:team_id/:user_id",
  access: "server",
  session: "none",
  params: MembershipParams,
  payload: Schema.Struct({}),
  success: wireStruct({ teamId: field("team_id", Uuid), userId: field("user_id", Uuid) }),
  successStatus: 201,
  errors: [UserNotFound, TeamNotFound, TeamMembershipAlreadyExists, CannotGetOwnUserWithoutUser]
})

/** `DELETE /team-memberships/{team_id}/{user_id}` (server). */
export const removeMemberEndpoint = Endpoint.make({
  name: "ServerTeams.removeMember",
  method: "DELETE",
  path: "/team-memberships/:team_id/:user_id",
  access: "server",
  session: "none",
  params: MembershipParams,
  success: SuccessTrue,
  errors: [TeamMembershipNotFound, UserNotFound, CannotGetOwnUserWithoutUser, TeamNotFound]
})

/** `GET /team-member-profiles?team_id=&user_id=` (server: either filter, or none). */
export const listMemberProfilesEndpoint = Endpoint.make({
  name: "ServerTeams.listMemberProfiles",
  method: "GET",
  path: "/team-member-profiles",
  access: "server",
  session: "none",
  query: wireStruct({ teamId: optionalField("team_id", Uuid), userId: optionalField("user_id", UserIdOrMe) }),
  success: wireStruct({ items: Schema.Array(ServerTeamMemberProfile), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [TeamNotFound, UserNotFound, CannotGetOwnUserWithoutUser]
})

/** `GET /team-member-profiles/{team_id}/{user_id}` (server). */
export const getMemberProfileEndpoint = Endpoint.make({
  name: "ServerTeams.getMemberProfile",
  method: "GET",
  path: "/team-member-profiles/:team_id/:user_id",
  access: "server",
  session: "none",
  params: ProfileParams,
  success: ServerTeamMemberProfile,
  errors: [TeamMembershipNotFound, UserNotFound, CannotGetOwnUserWithoutUser, TeamNotFound]
})

/** `PATCH /team-member-profiles/{team_id}/{user_id}` (server). */
export const updateMemberProfileEndpoint = Endpoint.make({
  name: "ServerTeams.updateMemberProfile",
  method: "PATCH",
  path: "/team-member-profiles/:team_id/:user_id",
  access: "server",
  session: "none",
  params: ProfileParams,
  payload: TeamMemberProfileUpdate,
  success: ServerTeamMemberProfile,
  errors: [TeamMembershipNotFound, UserNotFound, CannotGetOwnUserWithoutUser, TeamNotFound]
})
