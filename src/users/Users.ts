/**
 * The signed-in user (PROTOCOL.md §3.3) with client access: read, update, delete. Any user by
 * id, with server access, is in `ServerUsers`.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import { Session } from "../session/Session.js"
import { CurrentUser } from "./User.js"
import { clientUserDeletionDisabledText, CurrentUserUpdate, deleteCurrentEndpoint, getCurrentEndpoint, updateCurrentEndpoint } from "./internal/users.js"

/** The domain's schemas, defined with its wire definitions (`internal/users.ts`). */
export { CurrentUserUpdate } from "./internal/users.js"

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
