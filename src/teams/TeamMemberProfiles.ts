/**
 * Team member profiles with client access (PROTOCOL.md §3.0, §3.4): the name and image a member
 * shows in one team (falling back to the user's own). The signed-in user lists a team's members
 * (needs `$read_members` to see others), reads one profile and updates its own.
 *
 * Reads go through the query cache (`["team-members", teamId]` for the list,
 * `["team-members", teamId, userId]` for one profile); updating invalidates the team's entries.
 * The server view (with the full user) lives in `ServerTeams`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser, TeamMembershipNotFound, TeamPermissionRequired, UserNotFound } from "../core/KnownErrors.js"
import { field, optionalField, Uuid } from "../core/Wire.js"
import { ServerUser } from "../users/User.js"
import { UserIdOrMe } from "./Teams.js"

/** A member's profile in a team, client view. */
export const TeamMemberProfile = Schema.Struct({
  teamId: field("team_id", Uuid),
  userId: field("user_id", Uuid),
  displayName: field("display_name", Schema.NullOr(Schema.String)),
  profileImageUrl: field("profile_image_url", Schema.NullOr(Schema.String))
})

/** A member's profile in a team, client view. */
export type TeamMemberProfile = typeof TeamMemberProfile.Type

/** A member's profile, server view: adds the full server-view user. */
export const ServerTeamMemberProfile = Schema.Struct({ ...TeamMemberProfile.fields, user: ServerUser })

/** A member's profile, server view. */
export type ServerTeamMemberProfile = typeof ServerTeamMemberProfile.Type

/** The fields of a profile that can change (null: show the user's own value). */
export const TeamMemberProfileUpdate = Schema.Struct({
  displayName: optionalField("display_name", Schema.NullOr(Schema.String)),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String))
})

/** A change of a member profile. */
export type TeamMemberProfileUpdate = typeof TeamMemberProfileUpdate.Type

/** Path parameters of one profile. */
export const ProfileParams = Schema.Struct({ teamId: field("team_id", Uuid), userId: field("user_id", UserIdOrMe) })

const errors = [TeamMembershipNotFound, TeamPermissionRequired, CannotGetOwnUserWithoutUser, UserNotFound] as const

/** `GET /team-member-profiles?team_id=&user_id=` (client access; `team_id` required, caller must be a member). */
export const listEndpoint = Endpoint.make({
  name: "TeamMemberProfiles.list",
  method: "GET",
  path: "/team-member-profiles",
  access: "client",
  session: "required",
  query: Schema.Struct({ teamId: field("team_id", Uuid), userId: optionalField("user_id", UserIdOrMe) }),
  success: Schema.Struct({ items: Schema.Array(TeamMemberProfile), isPaginated: field("is_paginated", Schema.Boolean) }),
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

/** The cache key of a team's member list. */
export const listKey = (teamId: string): QueryCache.Key => ["team-members", teamId]

/**
 * The members of a team, in joining order. `GET /team-member-profiles?team_id=`; cached
 * (`["team-members", teamId]`). The signed-in user must be a member (`TeamMembershipNotFound`)
 * holding `$read_members` (`TeamPermissionRequired`).
 */
export const list = Effect.fn("TeamMemberProfiles.list")(function* (teamId: string) {
  const answer = yield* QueryCache.cached(listKey(teamId), Endpoint.call(listEndpoint, { query: { teamId } }))
  return answer.items
})

/**
 * One member's profile (default: the signed-in user's). `GET /team-member-profiles/{team_id}/{user_id}`;
 * cached (`["team-members", teamId, userId]`). Reading another member needs `$read_members`.
 * Fails with `TeamMembershipNotFound`, `TeamPermissionRequired`, `UserNotFound`.
 */
export const get = Effect.fn("TeamMemberProfiles.get")(function* (teamId: string, userId: string = "me") {
  return yield* QueryCache.cached([...listKey(teamId), userId], Endpoint.call(getEndpoint, { params: { teamId, userId } }))
})

/**
 * Changes the signed-in user's profile in a team. `PATCH /team-member-profiles/{team_id}/me`.
 * Fails with `TeamMembershipNotFound` when the user is not a member.
 */
export const updateMine = Effect.fn("TeamMemberProfiles.updateMine")(function* (teamId: string, changes: TeamMemberProfileUpdate) {
  return yield* Endpoint.call(updateEndpoint, { params: { teamId, userId: "me" }, payload: changes }).pipe(
    QueryCache.invalidating(listKey(teamId))
  )
})
