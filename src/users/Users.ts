/**
 * Users (PROTOCOL.md §3.3): the signed-in user with client access (read, update) and any user
 * by id with server access. More operations grow here.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import { Session } from "../session/Session.js"
import { CannotGetOwnUserWithoutUser, TeamMembershipNotFound, UserEmailAlreadyExists, UserNotFound } from "../core/KnownErrors.js"
import { field, Json, optionalField, SuccessTrue, Uuid } from "../core/Wire.js"
import { CurrentUser, ServerUser } from "./User.js"

/** `GET /users/me` (client access). */
export const getCurrentEndpoint = Endpoint.make({
  name: "Users.getCurrent",
  method: "GET",
  path: "/users/me",
  access: "client",
  session: "required",
  success: CurrentUser,
  errors: [CannotGetOwnUserWithoutUser]
})

/** Fields the signed-in user may change (client access). */
export const CurrentUserUpdate = Schema.Struct({
  displayName: optionalField("display_name", Schema.NullOr(Schema.String.pipe(Schema.maxLength(256)))),
  clientMetadata: optionalField("client_metadata", Json),
  selectedTeamId: optionalField("selected_team_id", Schema.NullOr(Uuid)),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  totpSecretBase64: optionalField("totp_secret_base64", Schema.NullOr(Schema.String)),
  otpAuthEnabled: optionalField("otp_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: optionalField("passkey_auth_enabled", Schema.Boolean),
  primaryEmail: optionalField("primary_email", Schema.NullOr(Schema.String))
})

/** An update of the signed-in user. */
export type CurrentUserUpdate = typeof CurrentUserUpdate.Type

/** `PATCH /users/me` (client access). */
export const updateCurrentEndpoint = Endpoint.make({
  name: "Users.updateCurrent",
  method: "PATCH",
  path: "/users/me",
  access: "client",
  session: "required",
  payload: CurrentUserUpdate,
  success: CurrentUser,
  errors: [CannotGetOwnUserWithoutUser, UserEmailAlreadyExists, TeamMembershipNotFound]
})

/** The cache key of the signed-in user (see `QueryCache`); mutations invalidate the prefix `["user"]`. */
export const currentUserCacheKey: QueryCache.Key = ["user", "me"]

/**
 * The signed-in user, or `Option.none()` when nobody is signed in (no token, a rejected refresh
 * token, or a deleted user: `CANNOT_GET_OWN_USER_WITHOUT_USER`). `GET /users/me`, through the
 * query cache (key {@link currentUserCacheKey}): concurrent reads share one request, and a read
 * within 5 s of the last one is served from memory until a mutation or a session change.
 *
 * Anonymous users are returned as they are (`isAnonymous`); the `or` policies of `getUser` build on this.
 */
export const getCurrent = Effect.fn("Users.getCurrent")(function* () {
  return yield* QueryCache.cached(
    currentUserCacheKey,
    Endpoint.call(getCurrentEndpoint, {}).pipe(
      Effect.map(Option.some),
      Effect.catchTags({
        UserNotSignedIn: () => Effect.succeed(Option.none<CurrentUser>()),
        CannotGetOwnUserWithoutUser: () => Effect.succeed(Option.none<CurrentUser>())
      })
    )
  )
})

/**
 * Updates the signed-in user and returns it. `PATCH /users/me`.
 * Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const updateCurrent = Effect.fn("Users.updateCurrent")(function* (update: CurrentUserUpdate) {
  return yield* Endpoint.call(updateCurrentEndpoint, { payload: update }).pipe(QueryCache.invalidating(["user"]))
})

/** `GET /users/{user_id}` (server access). */
export const getByIdEndpoint = Endpoint.make({
  name: "Users.getById",
  method: "GET",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: Schema.Struct({ userId: field("user_id", Uuid) }),
  success: ServerUser,
  errors: [UserNotFound]
})

/**
 * Any user of the project by id, server view. `GET /users/{user_id}`; needs server access.
 * Fails with `UserNotFound`.
 */
export const getById = Effect.fn("Users.getById")(function* (userId: string) {
  return yield* Endpoint.call(getByIdEndpoint, { params: { userId } })
})

/** `DELETE /users/me` (client access; only when the project allows client user deletion). */
export const deleteCurrentEndpoint = Endpoint.make({
  name: "Users.deleteCurrent",
  method: "DELETE",
  path: "/users/me",
  access: "client",
  session: "required",
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser]
})

/** The service's answer (400, plain text) when the project does not let users delete themselves. */
export const clientUserDeletionDisabledText = "Client user deletion is not enabled for this project"

/** The project does not let users delete their own account with client access. */
export class ClientUserDeletionNotEnabled extends Data.TaggedError("ClientUserDeletionNotEnabled")<{
  readonly message: string
}> {}

/**
 * Deletes the signed-in user (and its sessions). `DELETE /users/me`. Fails with
 * {@link ClientUserDeletionNotEnabled} (400 text) when the project does not allow client user
 * deletion, `UserNotSignedIn` when nobody is signed in. Clears the local session afterwards.
 */
export const deleteCurrent = Effect.fn("Users.deleteCurrent")(function* () {
  yield* Endpoint.call(deleteCurrentEndpoint, {}).pipe(
    catchPlainText(400, clientUserDeletionDisabledText, () => new ClientUserDeletionNotEnabled({ message: clientUserDeletionDisabledText })),
    QueryCache.invalidating(["user"])
  )
  const session = yield* Session
  yield* session.clear
})

/** The user behind an incoming request (server access); see `ServerUsers.fromRequest`. */
export { fromRequest } from "./ServerUsers.js"
