/**
 * The wire definitions of `TeamMemberProfiles` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `TeamMemberProfiles.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser, TeamMembershipNotFound, TeamNotFound, TeamPermissionRequired, UserNotFound } from "../../core/KnownErrors.js"
import { field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"
import { ServerUser } from "../../users/User.js"
import { UserIdOrMe } from "./teams.js"

/** A member's profile in a team, client view. */
export const TeamMemberProfile = wireStruct({
  teamId: field("team_id", Uuid),
  userId: field("user_id", Uuid),
  displayName: field("display_name", Schema.NullOr(Schema.String)),
  profileImageUrl: field("profile_image_url", Schema.NullOr(Schema.String))
})

/** A member's profile in a team, client view. */
export type TeamMemberProfile = typeof TeamMemberProfile.Type

/** A member's profile, server view: adds the full server-view user. */
export const ServerTeamMemberProfile = wireStruct({ ...TeamMemberProfile.wireFields, user: ServerUser })

/** A member's profile, server view. */
export type ServerTeamMemberProfile = typeof ServerTeamMemberProfile.Type

/** The fields of a profile that can change (null: show the user's own value). */
export const TeamMemberProfileUpdate = wireStruct({
  displayName: optionalField("display_name", Schema.NullOr(Schema.String)),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String))
})

/** A change of a member profile. */
export type TeamMemberProfileUpdate = typeof TeamMemberProfileUpdate.Type

/** Path parameters of one profile. */
export const ProfileParams = wireStruct({ teamId: field("team_id", Uuid), userId: field("user_id", UserIdOrMe) })

const errors = [TeamMembershipNotFound, TeamPermissionRequired, CannotGetOwnUserWithoutUser, UserNotFound, TeamNotFound] as const

/** `GET /team-member-profiles?team_id=&user_id=` (client access; `team_id` required, caller must be a member). */
export const listEndpoint = Endpoint.make({
  name: "TeamMemberProfiles.list",
  method: "GET",
  path: "/team-member-profiles",
  access: "client",
  session: "required",
  query: wireStruct({ teamId: field("team_id", Uuid), userId: optionalField("user_id", UserIdOrMe) }),
  success: wireStruct({ items: Schema.Array(TeamMemberProfile), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors
})

/** `GET /team-member-profiles/{team_id}/{user_id|me}` (client access). */
export const getEndpoint = Endpoint.make({
  name: "TeamMemberProfiles.get",
  method: "GET",
  path: "/team-member-profiles/:team_id/:user_id",
  access: "client",
  session: "required",
  params: ProfileParams,
  success: TeamMemberProfile,
  errors
})

/** `PATCH /team-member-profiles/{team_id}/{user_id|me}` (client access: own profile only). */
export const updateEndpoint = Endpoint.make({
  name: "TeamMemberProfiles.update",
  method: "PATCH",
  path: "/team-member-profiles/:team_id/:user_id",
  access: "client",
  session: "required",
  params: ProfileParams,
  payload: TeamMemberProfileUpdate,
  success: TeamMemberProfile,
  errors
})
