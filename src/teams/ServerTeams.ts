/**
 * Teams with server access (PROTOCOL.md §3.4): list every team (or a user's), read, create (with
 * an optional creator who joins with the creator default permissions), update (server and
 * client-read-only metadata included), delete; add and remove members; read and change member
 * profiles (server view, with the full user). Every function needs `ServerAccess`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  TeamMembershipAlreadyExists,
  TeamMembershipNotFound,
  TeamNotFound,
  UserNotFound
} from "../core/KnownErrors.js"
import { field, Json, optionalField, SuccessTrue, Uuid } from "../core/Wire.js"
import { ServerTeam } from "../users/User.js"
import { ProfileParams, ServerTeamMemberProfile, TeamMemberProfileUpdate } from "./TeamMemberProfiles.js"
import { teamPrefixes, UserIdOrMe } from "./Teams.js"

export { ServerTeam } from "../users/User.js"
export type { ServerTeamMemberProfile } from "./TeamMemberProfiles.js"

const TeamParams = Schema.Struct({ teamId: field("team_id", Uuid) })

/** The fields a server may set on a team. */
export const ServerTeamUpdate = Schema.Struct({
  displayName: optionalField("display_name", Schema.String),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json),
  clientReadOnlyMetadata: optionalField("client_read_only_metadata", Json),
  serverMetadata: optionalField("server_metadata", Json)
})

/** A server update of a team. */
export type ServerTeamUpdate = typeof ServerTeamUpdate.Type

/** The server create body: the update fields with a required display name, and an optional creator. */
export const ServerTeamCreate = Schema.Struct({
  ...ServerTeamUpdate.fields,
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
  query: Schema.Struct({ userId: optionalField("user_id", UserIdOrMe) }),
  success: Schema.Struct({ items: Schema.Array(ServerTeam), isPaginated: field("is_paginated", Schema.Boolean) }),
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

const MembershipParams = Schema.Struct({ teamId: field("team_id", Uuid), userId: field("user_id", UserIdOrMe) })

/** `POST /team-memberships/{team_id}/{user_id}` (server; body `{}`; 201). */
export const addMemberEndpoint = Endpoint.make({
  name: "ServerTeams.addMember",
  method: "POST",
  path: "/team-memberships/:team_id/:user_id",
  access: "server",
  session: "none",
  params: MembershipParams,
  payload: Schema.Struct({}),
  success: Schema.Struct({ teamId: field("team_id", Uuid), userId: field("user_id", Uuid) }),
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
  errors: [TeamMembershipNotFound, UserNotFound, CannotGetOwnUserWithoutUser]
})

/** `GET /team-member-profiles?team_id=&user_id=` (server: either filter, or none). */
export const listMemberProfilesEndpoint = Endpoint.make({
  name: "ServerTeams.listMemberProfiles",
  method: "GET",
  path: "/team-member-profiles",
  access: "server",
  session: "none",
  query: Schema.Struct({ teamId: optionalField("team_id", Uuid), userId: optionalField("user_id", UserIdOrMe) }),
  success: Schema.Struct({ items: Schema.Array(ServerTeamMemberProfile), isPaginated: field("is_paginated", Schema.Boolean) }),
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
  errors: [TeamMembershipNotFound, UserNotFound, CannotGetOwnUserWithoutUser]
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
  errors: [TeamMembershipNotFound, UserNotFound, CannotGetOwnUserWithoutUser]
})

/**
 * Every team of the project, or the teams of one user (`userId`), oldest first.
 * `GET /teams[?user_id=]`; needs `ServerAccess`.
 */
export const list = Effect.fn("ServerTeams.list")(function* (options: { readonly userId?: string } = {}) {
  const answer = yield* Endpoint.call(listEndpoint, { query: options.userId === undefined ? {} : { userId: options.userId } })
  return answer.items
})

/** A team, server view. `GET /teams/{team_id}`; needs `ServerAccess`. Fails with `TeamNotFound`. */
export const get = Effect.fn("ServerTeams.get")(function* (teamId: string) {
  return yield* Endpoint.call(getEndpoint, { params: { teamId } })
})

/**
 * Creates a team. With `creatorUserId` that user joins with the project's team-creator default
 * permissions; without it the team starts empty. `POST /teams`; needs `ServerAccess`. Fails with
 * `UserNotFound` (unknown creator).
 */
export const create = Effect.fn("ServerTeams.create")(function* (input: ServerTeamCreate) {
  return yield* Endpoint.call(createEndpoint, { payload: input }).pipe(QueryCache.invalidating(["teams"]))
})

/**
 * Updates a team (display name, image, client, client-read-only and server metadata).
 * `PATCH /teams/{team_id}`; needs `ServerAccess`. Fails with `TeamNotFound`.
 */
export const update = Effect.fn("ServerTeams.update")(function* (teamId: string, changes: ServerTeamUpdate) {
  return yield* Endpoint.call(updateEndpoint, { params: { teamId }, payload: changes }).pipe(
    QueryCache.invalidating(["teams"], ["team", teamId], ["user"])
  )
})

/**
 * Deletes a team with its memberships, permission grants, invitations and API keys.
 * `DELETE /teams/{team_id}`; needs `ServerAccess`. Fails with `TeamNotFound`.
 */
const deleteTeam = Effect.fn("ServerTeams.delete")(function* (teamId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { teamId } }).pipe(QueryCache.invalidating(...teamPrefixes(teamId)))
})

export { deleteTeam as delete }

/**
 * Adds a user to a team with the project's member default permissions.
 * `POST /team-memberships/{team_id}/{user_id}`; needs `ServerAccess`. Fails with `UserNotFound`,
 * `TeamNotFound`, `TeamMembershipAlreadyExists`.
 */
export const addMember = Effect.fn("ServerTeams.addMember")(function* (teamId: string, userId: string) {
  return yield* Endpoint.call(addMemberEndpoint, { params: { teamId, userId }, payload: {} }).pipe(
    QueryCache.invalidating(["teams"], ["team-members", teamId])
  )
})

/**
 * Removes a member from a team (their permissions there go too).
 * `DELETE /team-memberships/{team_id}/{user_id}`; needs `ServerAccess`. Fails with
 * `TeamMembershipNotFound`, `UserNotFound`.
 */
export const removeMember = Effect.fn("ServerTeams.removeMember")(function* (teamId: string, userId: string) {
  yield* Endpoint.call(removeMemberEndpoint, { params: { teamId, userId } }).pipe(
    QueryCache.invalidating(["teams"], ["team-members", teamId], ["team-permissions", teamId])
  )
})

/**
 * Member profiles (server view, with the full user) of a team, of a user across teams, or of
 * every membership. `GET /team-member-profiles[?team_id=][&user_id=]`; needs `ServerAccess`.
 * Fails with `TeamNotFound`, `UserNotFound`.
 */
export const listMemberProfiles = Effect.fn("ServerTeams.listMemberProfiles")(function* (
  filter: { readonly teamId?: string; readonly userId?: string } = {}
) {
  const answer = yield* Endpoint.call(listMemberProfilesEndpoint, {
    query: {
      ...(filter.teamId === undefined ? {} : { teamId: filter.teamId }),
      ...(filter.userId === undefined ? {} : { userId: filter.userId })
    }
  })
  return answer.items
})

/**
 * One member's profile, server view. `GET /team-member-profiles/{team_id}/{user_id}`; needs
 * `ServerAccess`. Fails with `TeamMembershipNotFound`, `UserNotFound`.
 */
export const getMemberProfile = Effect.fn("ServerTeams.getMemberProfile")(function* (teamId: string, userId: string) {
  return yield* Endpoint.call(getMemberProfileEndpoint, { params: { teamId, userId } })
})

/**
 * Changes a member's profile in a team. `PATCH /team-member-profiles/{team_id}/{user_id}`; needs
 * `ServerAccess`. Fails with `TeamMembershipNotFound`, `UserNotFound`.
 */
export const updateMemberProfile = Effect.fn("ServerTeams.updateMemberProfile")(function* (
  teamId: string,
  userId: string,
  changes: TeamMemberProfileUpdate
) {
  return yield* Endpoint.call(updateMemberProfileEndpoint, { params: { teamId, userId }, payload: changes }).pipe(
    QueryCache.invalidating(["team-members", teamId])
  )
})
