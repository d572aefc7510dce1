/**
 * Teams with server access (PROTOCOL.md §3.4): list every team (or a user's), read, create (with
 * an optional creator who joins with the creator default permissions), update (server and
 * client-read-only metadata included), delete; add and remove members; read and change member
 * profiles (server view, with the full user). Every function needs `ServerAccess`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as ServerTeamApiKeys from "../api-keys/ServerTeamApiKeys.js"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import type { ServerTeam } from "../users/User.js"
import { TeamMemberProfileUpdate } from "./TeamMemberProfiles.js"
import { teamPrefixes } from "./Teams.js"
import {
  addMemberEndpoint,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  getMemberProfileEndpoint,
  listEndpoint,
  listMemberProfilesEndpoint,
  removeMemberEndpoint,
  ServerTeamCreate,
  ServerTeamUpdate,
  updateEndpoint,
  updateMemberProfileEndpoint
} from "./internal/serverTeams.js"

/** The domain's schemas, defined with its wire definitions (`internal/serverTeams.ts`). */
export { ServerTeamCreate, ServerTeamUpdate } from "./internal/serverTeams.js"

export { ServerTeam } from "../users/User.js"
export type { ServerTeamMemberProfile } from "./TeamMemberProfiles.js"

/**
 * Options of {@link list}: what the service's team list reads. Its query has `user_id` and
 * `add_current_user`, the latter for creation only (deprecated there, ignored by the list); the
 * list has no paging or order options: every team, oldest first.
 */
export interface ListOptions {
  /**
   * Only the teams this user is a member of: a user id (a uuid; anything else is `InvalidArgument`,
   * nothing sent), or `"me"`, the request's user (`CannotGetOwnUserWithoutUser` without one, as
   * with server access alone).
   */
  readonly userId?: string | undefined
}

/**
 * Every team of the project, or the teams of one user (`userId`), oldest first.
 * `GET /teams[?user_id=]`; needs `ServerAccess`.
 */
export const list = Effect.fn("ServerTeams.list")(function* (options: ListOptions = {}) {
  const answer = yield* Endpoint.call(listEndpoint, { query: options.userId === undefined ? {} : { userId: options.userId } })
  return answer.items
})

/** A team, server view. `GET /teams/{team_id}`; needs `ServerAccess`. Fails with `TeamNotFound`. */
export const get = Effect.fn("ServerTeams.get")(function* (teamId: string) {
  return yield* Endpoint.call(getEndpoint, { params: { teamId } })
})

/**
 * The team a team API key belongs to (the official `getTeam({ apiKey })`), or `Option.none()`
 * when the value is not a valid key (not found, a user key, revoked, expired: the
 * API_KEY_NOT_VALID family). `POST /team-api-keys/check`, then `GET /teams/{team_id}`; needs
 * server access. Fails with `TeamApiKeys.TeamApiKeysNotEnabled` when the project has no team API keys.
 */
export const getByApiKey = Effect.fn("ServerTeams.getByApiKey")(function* (apiKey: string | Redacted.Redacted<string>) {
  const key = yield* ServerTeamApiKeys.checkOrNone(apiKey)
  if (Option.isNone(key)) return Option.none<ServerTeam>()
  return Option.some(yield* get(key.value.teamId))
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
