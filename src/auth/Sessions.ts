/**
 * Sessions on the server side (PROTOCOL.md §3.0 "Session", §3.1, §5.1): sign-out, the user's
 * active sessions (list, revoke one), and sessions a server creates for a user.
 *
 * A session is one refresh token; its `id` is the `refresh_token_id` claim of the access tokens
 * minted from it. Lists are newest first; impersonation sessions are listed only with admin access.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import {
  CannotDeleteCurrentSession,
  CannotGetOwnUserWithoutUser,
  isRefreshTokenError,
  refreshTokenErrorClasses,
  UserIdDoesNotExist
} from "../core/KnownErrors.js"
import { AnyObject, DateFromMillis, field, optionalField, RedactedToken, SuccessTrue, Uuid } from "../core/Wire.js"
import { Session } from "../session/Session.js"

/** `DELETE /auth/sessions/current`. */
export const deleteCurrentEndpoint = Endpoint.make({
  name: "Auth.signOut",
  method: "DELETE",
  path: "/auth/sessions/current",
  access: "client",
  session: "required",
  payload: AnyObject,
  success: AnyObject,
  errors: refreshTokenErrorClasses
})

/**
 * Signs out: deletes the current session on the server, then clears the tokens. Any error of the
 * `REFRESH_TOKEN_ERROR` family (the session is already gone or unusable) or an expired access
 * token is ignored, as the spec says; with no token there is nothing to delete and the tokens are
 * cleared. Other failures leave the tokens in place, so the caller can retry.
 */
export const signOut = Effect.fn("Auth.signOut")(function* () {
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

// ---------------------------------------------------------------------------------------------
// Active sessions
// ---------------------------------------------------------------------------------------------

/** Where a session was last used from (the wire keeps these keys camelCase). */
export const GeoInfo = Schema.Struct({
  ip: Schema.String,
  countryCode: Schema.optional(Schema.NullOr(Schema.String)),
  regionCode: Schema.optional(Schema.NullOr(Schema.String)),
  cityName: Schema.optional(Schema.NullOr(Schema.String)),
  latitude: Schema.optional(Schema.NullOr(Schema.Number)),
  longitude: Schema.optional(Schema.NullOr(Schema.Number)),
  tzIdentifier: Schema.optional(Schema.NullOr(Schema.String))
})

/** Where a session was last used from. */
export type GeoInfo = typeof GeoInfo.Type

/** An active session of a user. */
export const ActiveSession = Schema.Struct({
  /** The session's id (= `refresh_token_id` of its access tokens). */
  id: Uuid,
  userId: field("user_id", Uuid),
  createdAt: field("created_at", DateFromMillis),
  /** Optional in the service's schema; always sent today. */
  lastUsedAt: optionalField("last_used_at", DateFromMillis),
  isImpersonation: field("is_impersonation", Schema.Boolean),
  /** The session of the calling access token. */
  isCurrentSession: field("is_current_session", Schema.Boolean),
  /** Where it was last used from, when the service knows. */
  geoInfo: optionalField("last_used_at_end_user_ip_info", GeoInfo)
})

/** An active session of a user. */
export type ActiveSession = typeof ActiveSession.Type

/** The list answer `{ items, is_paginated: false }`. */
export const ActiveSessionList = Schema.Struct({
  items: Schema.Array(ActiveSession),
  isPaginated: field("is_paginated", Schema.Literal(false))
})

/** `user_id` of the session routes: `me` or a user id. */
export const UserIdOrMe = Schema.Union(Schema.Literal("me"), Uuid)

/** `GET /auth/sessions?user_id=me` (client access: the signed-in user's sessions). */
export const listEndpoint = Endpoint.make({
  name: "Sessions.list",
  method: "GET",
  path: "/auth/sessions",
  access: "client",
  session: "required",
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: ActiveSessionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /auth/sessions?user_id=<id>` (server access: any user's sessions). */
export const listForUserEndpoint = Endpoint.make({
  name: "Sessions.listForUser",
  method: "GET",
  path: "/auth/sessions",
  access: "server",
  session: "none",
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: ActiveSessionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /auth/sessions?user_id=<id>` with admin access: impersonation sessions included. */
export const adminListForUserEndpoint = Endpoint.make({
  name: "Sessions.adminListForUser",
  method: "GET",
  path: "/auth/sessions",
  access: "admin",
  session: "none",
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: ActiveSessionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `DELETE /auth/sessions/{id}?user_id=me` (client access: one of the signed-in user's sessions). */
export const revokeEndpoint = Endpoint.make({
  name: "Sessions.revoke",
  method: "DELETE",
  path: "/auth/sessions/:session_id",
  access: "client",
  session: "required",
  params: Schema.Struct({ sessionId: field("session_id", Uuid) }),
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: SuccessTrue,
  errors: [CannotDeleteCurrentSession, CannotGetOwnUserWithoutUser]
})

/** `DELETE /auth/sessions/{id}?user_id=<id>` (server access; the service requires `user_id` here too). */
export const revokeForUserEndpoint = Endpoint.make({
  name: "Sessions.revokeForUser",
  method: "DELETE",
  path: "/auth/sessions/:session_id",
  access: "server",
  session: "none",
  params: Schema.Struct({ sessionId: field("session_id", Uuid) }),
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: SuccessTrue,
  errors: [CannotDeleteCurrentSession, CannotGetOwnUserWithoutUser]
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

/**
 * A user's active sessions, newest first (server access; impersonation sessions are left out, see
 * {@link adminListForUser}). `GET /auth/sessions?user_id=<id>`.
 */
export const listForUser = Effect.fn("Sessions.listForUser")(function* (userId: string) {
  const answer = yield* Endpoint.call(listForUserEndpoint, { query: { userId } })
  return answer.items
})

/**
 * A user's active sessions including impersonation sessions, newest first (admin access).
 * `GET /auth/sessions?user_id=<id>`.
 */
export const adminListForUser = Effect.fn("Sessions.adminListForUser")(function* (userId: string) {
  const answer = yield* Endpoint.call(adminListForUserEndpoint, { query: { userId } })
  return answer.items
})

/**
 * Revokes a session of a user (server access). `DELETE /auth/sessions/{id}?user_id=<id>`.
 * An unknown id is a 404 `HttpError` ("Session not found.").
 */
export const revokeForUser = Effect.fn("Sessions.revokeForUser")(function* (input: {
  readonly userId: string
  readonly sessionId: string
}) {
  yield* Endpoint.call(revokeForUserEndpoint, { params: { sessionId: input.sessionId }, query: { userId: input.userId } })
})

// ---------------------------------------------------------------------------------------------
// Server-created sessions
// ---------------------------------------------------------------------------------------------

/** Default lifetime of a server-created session: one year. */
export const defaultSessionLifetimeMillis = 31_536_000_000

/** Longest lifetime the service accepts: 367 days. */
export const maxSessionLifetimeMillis = 367 * 24 * 60 * 60 * 1000

/** Payload of `POST /auth/sessions`. */
export const CreatePayload = Schema.Struct({
  userId: field("user_id", UserIdOrMe),
  /** Default (on the service) one year. */
  expiresInMillis: optionalField(
    "expires_in_millis",
    Schema.Number.pipe(
      Schema.filter((value) => Number.isInteger(value) && value >= 0 && value <= maxSessionLifetimeMillis, {
        message: () => `must be an integer from 0 to ${maxSessionLifetimeMillis}`
      })
    )
  ),
  /** Default (on the service) false. */
  isImpersonation: optionalField("is_impersonation", Schema.Boolean)
})

/** `{refresh_token, access_token}` of a server-created session. */
export const CreatedSession = Schema.Struct({
  accessToken: field("access_token", RedactedToken),
  refreshToken: field("refresh_token", RedactedToken)
})

/** The tokens of a server-created session. */
export type CreatedSession = typeof CreatedSession.Type

/** `POST /auth/sessions` (server access); answers 200. */
export const createEndpoint = Endpoint.make({
  name: "Sessions.create",
  method: "POST",
  path: "/auth/sessions",
  access: "server",
  session: "none",
  payload: CreatePayload,
  success: CreatedSession,
  errors: [UserIdDoesNotExist]
})

/**
 * Creates a session for a user and returns its tokens (not stored: they belong to that user,
 * e.g. for impersonation or to hand over to another app). `POST /auth/sessions`; needs server
 * access. Defaults: one year, not an impersonation. Fails with `UserIdDoesNotExist`, and with
 * `InvalidArgument` before sending for a lifetime outside 0…367 days.
 */
export const create = Effect.fn("Sessions.create")(function* (input: {
  readonly userId: string
  readonly expiresInMillis?: number
  readonly isImpersonation?: boolean
}) {
  return yield* Endpoint.call(createEndpoint, {
    payload: {
      userId: input.userId,
      expiresInMillis: input.expiresInMillis ?? defaultSessionLifetimeMillis,
      isImpersonation: input.isImpersonation ?? false
    }
  })
})
