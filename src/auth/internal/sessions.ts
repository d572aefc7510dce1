/**
 * The wire definitions of `Sessions` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Sessions.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotDeleteCurrentSession, CannotGetOwnUserWithoutUser, refreshTokenErrorClasses, UserIdDoesNotExist } from "../../core/KnownErrors.js"
import { AnyObject, DateFromMillis, field, optionalField, RedactedToken, SuccessTrue, Uuid, wireStruct, withMessage } from "../../core/Wire.js"

/** `DELETE /auth/sessions/current`. */
export const deleteCurrentEndpoint = Endpoint.make({
  name: "Sessions.signOut",
  method: "DELETE",
  path: "/auth/sessions/current",
  access: "client",
  session: "required",
  payload: AnyObject,
  success: AnyObject,
  errors: refreshTokenErrorClasses
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
export const ActiveSession = wireStruct({
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
export const ActiveSessionList = wireStruct({
  items: Schema.Array(ActiveSession),
  isPaginated: field("is_paginated", Schema.Literal(false))
})

/** `user_id` of the session routes: `me` or a user id. */
export const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

/** `GET /auth/sessions?user_id=me` (client access: the signed-in user's sessions). */
export const listEndpoint = Endpoint.make({
  name: "Sessions.list",
  method: "GET",
  path: "/auth/sessions",
  access: "client",
  session: "required",
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: ActiveSessionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /auth/sessions?user_id=<id>` (server access: any user's sessions). */
export const listForUserEndpoint = Endpoint.make({
  name: "ServerSessions.list",
  method: "GET",
  path: "/auth/sessions",
  access: "server",
  session: "none",
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: ActiveSessionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /auth/sessions?user_id=<id>` with admin access: impersonation sessions included. */
export const adminListForUserEndpoint = Endpoint.make({
  name: "AdminSessions.list",
  method: "GET",
  path: "/auth/sessions",
  access: "admin",
  session: "none",
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
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
  params: wireStruct({ sessionId: field("session_id", Uuid) }),
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: SuccessTrue,
  errors: [CannotDeleteCurrentSession, CannotGetOwnUserWithoutUser]
})

/** `DELETE /auth/sessions/{id}?user_id=<id>` (server access; the service requires `user_id` here too). */
export const revokeForUserEndpoint = Endpoint.make({
  name: "ServerSessions.revoke",
  method: "DELETE",
  path: "/auth/sessions/:session_id",
  access: "server",
  session: "none",
  params: wireStruct({ sessionId: field("session_id", Uuid) }),
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: SuccessTrue,
  errors: [CannotDeleteCurrentSession, CannotGetOwnUserWithoutUser]
})

/** Longest lifetime the service accepts: 367 days. */
export const maxSessionLifetimeMillis = 367 * 24 * 60 * 60 * 1000

/** Payload of `POST /auth/sessions`. */
export const CreatePayload = wireStruct({
  userId: field("user_id", UserIdOrMe),
  /** Default (on the service) one year. */
  expiresInMillis: optionalField(
    "expires_in_millis",
    Schema.Number.check(
      withMessage(
        (value: number) => Number.isInteger(value) && value >= 0 && value <= maxSessionLifetimeMillis,
        `must be an integer from 0 to ${maxSessionLifetimeMillis}`
      )
    )
  ),
  /** Default (on the service) false. */
  isImpersonation: optionalField("is_impersonation", Schema.Boolean)
})

/** `{refresh_token, access_token}` of a server-created session. */
export const CreatedSession = wireStruct({
  accessToken: field("access_token", RedactedToken),
  refreshToken: field("refresh_token", RedactedToken)
})

/** The tokens of a server-created session. */
export type CreatedSession = typeof CreatedSession.Type

/** `POST /auth/sessions` (server access); answers 200. */
export const createEndpoint = Endpoint.make({
  name: "ServerSessions.create",
  method: "POST",
  path: "/auth/sessions",
  access: "server",
  session: "none",
  payload: CreatePayload,
  success: CreatedSession,
  errors: [UserIdDoesNotExist, CannotGetOwnUserWithoutUser]
})
