/**
 * The signed-in user's sessions (PROTOCOL.md §3.0 "Session", §3.1): sign-out and the user's
 * active sessions (list, revoke one), with client access. Any user's sessions, and sessions a
 * server creates for a user, are in `ServerSessions`; the admin's list in `AdminSessions`.
 *
 * A session is one refresh token; its `id` is the `refresh_token_id` claim of the access tokens
 * minted from it. Lists are newest first; impersonation sessions are listed only with admin access.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { isRefreshTokenError } from "../core/KnownErrors.js"
import { Session } from "../session/Session.js"
import { deleteCurrentEndpoint, listEndpoint, revokeEndpoint } from "./internal/sessions.js"

/** The domain's schemas, defined with its wire definitions (`internal/sessions.ts`). */
export { ActiveSession, GeoInfo } from "./internal/sessions.js"

/**
 * Signs out: deletes the current session on the server, then clears the tokens. Any error of the
 * `REFRESH_TOKEN_ERROR` family (the session is already gone or unusable) or an expired access
 * token is ignored, as the spec says; with no token there is nothing to delete and the tokens are
 * cleared. Other failures leave the tokens in place, so the caller can retry.
 */
export const signOut = Effect.fn("Sessions.signOut")(function* () {
  const session = yield* Session
  const tokens = yield* session.current
  if (Option.isSome(tokens.accessToken) || Option.isSome(tokens.refreshToken)) {
    yield* Endpoint.call(deleteCurrentEndpoint, { payload: {} }).pipe(
      Effect.catchIf(isRefreshTokenError, () => Effect.void),
      Effect.catchTags({
        // a rejected refresh token, or an expired or unparsable access token (grouped by the call)
        SessionError: (error) =>
          isRefreshTokenError(error.reason) || error.reason._tag === "AccessTokenExpired" || error.reason._tag === "UnparsableAccessToken"
            ? Effect.void
            : Effect.fail(error),
        UserNotSignedIn: () => Effect.void
      })
    )
  }
  yield* session.clear
})

/** The cache key of the signed-in user's active sessions (see `QueryCache`). */
export const cacheKey: QueryCache.Key = ["sessions", "me"]

/**
 * The signed-in user's active sessions, newest first (`isCurrentSession` marks this one).
 * `GET /auth/sessions?user_id=me`, through the query cache (key {@link cacheKey}; a sign-in or
 * sign-out clears it). Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const list = Effect.fn("Sessions.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, { query: { userId: "me" } }))
  return answer.items
})

/**
 * Revokes one of the signed-in user's other sessions. `DELETE /auth/sessions/{id}?user_id=me`.
 * The current session cannot be revoked this way (`CannotDeleteCurrentSession`: sign out
 * instead); an unknown id is a 404 `HttpError` ("Session not found.").
 */
export const revoke = Effect.fn("Sessions.revoke")(function* (sessionId: string) {
  yield* Endpoint.call(revokeEndpoint, { params: { sessionId }, query: { userId: "me" } }).pipe(
    QueryCache.invalidating(["sessions"])
  )
})
