/**
 * Teams of the signed-in user (PROTOCOL.md §3.4, client access): list mine, read one, create
 * (only where the project allows client team creation; the creator becomes a member with the
 * project's team-creator default permissions), update (`$update_team`), delete (`$delete_team`),
 * leave, and remove another member (`$remove_members`). Selecting a team goes through
 * `Users.updateCurrent({ selectedTeamId })`.
 *
 * Reads go through the query cache: `["teams", "me"]` for the list, `["team", teamId]` for one
 * team; mutations invalidate what they change (the list, the team, its members, invitations,
 * permissions and keys, and `["user"]` whose `selectedTeam` embeds the team).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import {
  clientTeamCreationDisabledText,
  ClientTeamUpdate,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  invalidProfileImageText,
  listMineEndpoint,
  removeMembershipEndpoint,
  updateEndpoint
} from "./internal/teams.js"

/** The domain's schemas, defined with its wire definitions (`internal/teams.ts`). */
export { ClientTeamCreate, ClientTeamUpdate } from "./internal/teams.js"

export { ClientTeam, ServerTeam } from "../users/User.js"

/** The project does not allow client team creation (`client_team_creation_enabled` is off). */
export class ClientTeamCreationDisabled extends Data.TaggedError("ClientTeamCreationDisabled")<{ readonly message: string }> {
  /** The error with the service's message. */
  static readonly make = () => new ClientTeamCreationDisabled({ message: clientTeamCreationDisabledText })
}

/** A profile image set with client access must be a base64 image (a `data:image/…;base64,` URL or bare base64). */
export class InvalidProfileImageUrl extends Data.TaggedError("InvalidProfileImageUrl")<{ readonly message: string }> {
  /** The error with the service's message. */
  static readonly make = () => new InvalidProfileImageUrl({ message: invalidProfileImageText })
}

const imageGate = catchPlainText(400, invalidProfileImageText, InvalidProfileImageUrl.make)

/** The cache key of the signed-in user's teams. */
export const listMineKey: QueryCache.Key = ["teams", "me"]

/** The cache key of one team. */
export const teamKey = (teamId: string): QueryCache.Key => ["team", teamId]

/** Every cache prefix that holds something of a team (what deleting or leaving it changes). */
export const teamPrefixes = (teamId: string): ReadonlyArray<QueryCache.Key> => [
  ["teams"],
  ["team", teamId],
  ["team-members", teamId],
  ["team-invitations", teamId],
  ["team-permissions", teamId],
  ["team-api-keys", teamId],
  ["user"]
]

/**
 * The teams the signed-in user is a member of, oldest first. `GET /teams?user_id=me`; cached
 * (`["teams", "me"]`). Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const listMine = Effect.fn("Teams.listMine")(function* () {
  const answer = yield* QueryCache.cached(listMineKey, Endpoint.call(listMineEndpoint, { query: { userId: "me" } }))
  return answer.items
})

/**
 * One team the signed-in user is a member of. `GET /teams/{team_id}`; cached (`["team", id]`).
 * Fails with `TeamMembershipNotFound` when the user is not a member (also for a team that does
 * not exist), `TeamNotFound`.
 */
export const get = Effect.fn("Teams.get")(function* (teamId: string) {
  return yield* QueryCache.cached(teamKey(teamId), Endpoint.call(getEndpoint, { params: { teamId } }))
})

/** What a client creates. */
export interface ClientTeamCreateInput {
  readonly displayName: string
  /** A base64 image (data URL or bare base64). */
  readonly profileImageUrl?: string | null
  readonly clientMetadata?: unknown
}

/**
 * Creates a team with the signed-in user as its creator (`creator_user_id: "me"`): the user
 * becomes a member with the project's team-creator default permissions. `POST /teams`.
 * Fails with {@link ClientTeamCreationDisabled} (403 text) unless the project allows client team
 * creation, {@link InvalidProfileImageUrl}, `UserNotSignedIn`.
 */
export const create = Effect.fn("Teams.create")(function* (input: ClientTeamCreateInput) {
  return yield* Endpoint.call(createEndpoint, {
    payload: {
      displayName: input.displayName,
      ...(input.profileImageUrl === undefined ? {} : { profileImageUrl: input.profileImageUrl }),
      ...(input.clientMetadata === undefined ? {} : { clientMetadata: input.clientMetadata }),
      creatorUserId: "me"
    }
  }).pipe(
    catchPlainText(403, clientTeamCreationDisabledText, ClientTeamCreationDisabled.make),
    imageGate,
    QueryCache.invalidating(["teams"])
  )
})

/**
 * Updates a team (display name, profile image, client metadata). `PATCH /teams/{team_id}`; needs
 * `$update_team` in the team. Fails with `TeamPermissionRequired`, `TeamMembershipNotFound`
 * (not a member), `TeamNotFound`, {@link InvalidProfileImageUrl}.
 */
export const update = Effect.fn("Teams.update")(function* (teamId: string, changes: ClientTeamUpdate) {
  return yield* Endpoint.call(updateEndpoint, { params: { teamId }, payload: changes }).pipe(
    imageGate,
    QueryCache.invalidating(["teams"], teamKey(teamId), ["user"])
  )
})

/**
 * Deletes a team with its memberships, permissions, invitations and API keys.
 * `DELETE /teams/{team_id}`; needs `$delete_team`. Fails with `TeamPermissionRequired`,
 * `TeamMembershipNotFound`, `TeamNotFound`.
 */
const deleteTeam = Effect.fn("Teams.delete")(function* (teamId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { teamId } }).pipe(QueryCache.invalidating(...teamPrefixes(teamId)))
})

export { deleteTeam as delete }

/**
 * The signed-in user leaves a team (its permissions there go with it; a selected team is
 * unselected). `DELETE /team-memberships/{team_id}/me`. Fails with `TeamMembershipNotFound`.
 */
export const leave = Effect.fn("Teams.leave")(function* (teamId: string) {
  yield* Endpoint.call(removeMembershipEndpoint, { params: { teamId, userId: "me" } }).pipe(
    QueryCache.invalidating(...teamPrefixes(teamId))
  )
})

/**
 * Removes another member from a team. `DELETE /team-memberships/{team_id}/{user_id}`; needs
 * `$remove_members`. Fails with `TeamPermissionRequired`, `TeamMembershipNotFound`, `UserNotFound`.
 */
export const removeMember = Effect.fn("Teams.removeMember")(function* (teamId: string, userId: string) {
  yield* Endpoint.call(removeMembershipEndpoint, { params: { teamId, userId } }).pipe(
    QueryCache.invalidating(["team-members", teamId], ["team-permissions", teamId])
  )
})
