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
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import {
  CannotGetOwnUserWithoutUser,
  TeamMembershipNotFound,
  TeamNotFound,
  TeamPermissionRequired,
  UserAuthenticationRequired,
  UserNotFound
} from "../core/KnownErrors.js"
import { field, Json, optionalField, SuccessTrue, Uuid } from "../core/Wire.js"
import { ClientTeam } from "../users/User.js"

export { ClientTeam, ServerTeam } from "../users/User.js"

/** `"me"` or a user id (uuid). */
export const UserIdOrMe = Schema.Union(Schema.Literal("me"), Uuid)

/** The `{ items, is_paginated }` envelope of the team lists. */
export const TeamList = Schema.Struct({ items: Schema.Array(ClientTeam), isPaginated: field("is_paginated", Schema.Boolean) })

const TeamParams = Schema.Struct({ teamId: field("team_id", Uuid) })

/** The fields a client may set on a team. */
export const ClientTeamUpdate = Schema.Struct({
  displayName: optionalField("display_name", Schema.String),
  /** A base64 image (data URL or bare base64) from client access; null removes it. */
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json)
})

/** An update of a team (client access). */
export type ClientTeamUpdate = typeof ClientTeamUpdate.Type

/** The client create body: the creator is always the signed-in user (`creator_user_id: "me"`). */
export const ClientTeamCreate = Schema.Struct({
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
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
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
  params: Schema.Struct({ teamId: field("team_id", Uuid), userId: field("user_id", UserIdOrMe) }),
  success: SuccessTrue,
  errors: [TeamMembershipNotFound, TeamPermissionRequired, CannotGetOwnUserWithoutUser, UserNotFound]
})

/** The service's answer (403, plain text) when the project does not let clients create teams. */
export const clientTeamCreationDisabledText = "Client team creation is disabled for this project"

/** The project does not allow client team creation (`client_team_creation_enabled` is off). */
export class ClientTeamCreationDisabled extends Data.TaggedError("ClientTeamCreationDisabled")<{ readonly message: string }> {
  /** The error with the service's message. */
  static readonly make = () => new ClientTeamCreationDisabled({ message: clientTeamCreationDisabledText })
}

/** The service's answer (400, plain text) to a client-set profile image that is not a base64 image. */
export const invalidProfileImageText = "Invalid profile image URL"

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
