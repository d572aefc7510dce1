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
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { getEndpoint, listEndpoint, TeamMemberProfileUpdate, updateEndpoint } from "./internal/teamMemberProfiles.js"

/** The domain's schemas, defined with its wire definitions (`internal/teamMemberProfiles.ts`). */
export { ServerTeamMemberProfile, TeamMemberProfile, TeamMemberProfileUpdate } from "./internal/teamMemberProfiles.js"

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
