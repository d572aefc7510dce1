/**
 * The wire definitions of `ServerUsers` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `ServerUsers.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  PasswordTooLong,
  PasswordTooShort,
  TeamMembershipNotFound,
  UserEmailAlreadyExists,
  UserNotFound
} from "../../core/KnownErrors.js"
import { field, Json, optionalField, QueryBoolean, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { OAuthProviderLink, ServerUser } from "../User.js"

/** The `{user_id}` of a path. */
const UserIdParams = wireStruct({ userId: field("user_id", Uuid) })

/** `GET /users/{user_id}` (server access). */
export const getByIdEndpoint = Endpoint.make({
  name: "ServerUsers.getById",
  method: "GET",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: UserIdParams,
  success: ServerUser,
  errors: [UserNotFound]
})

/** A decimal integer ≥ 1 in a query string. */
export const QueryPositiveInt = Schema.NumberFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))

/** Sign-up risk scores (0–100 each). */
export const RiskScoresInput = wireStruct({
  signUp: field(
    "sign_up",
    wireStruct({
      bot: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })),
      freeTrialAbuse: field("free_trial_abuse", Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })))
    })
  )
})

const updateFields = {
  displayName: optionalField("display_name", Schema.NullOr(Schema.String.check(Schema.isMaxLength(256)))),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json),
  clientReadOnlyMetadata: optionalField("client_read_only_metadata", Json),
  serverMetadata: optionalField("server_metadata", Json),
  primaryEmail: optionalField("primary_email", Schema.NullOr(Schema.String.check(Schema.isMinLength(1)))),
  primaryEmailVerified: optionalField("primary_email_verified", Schema.Boolean),
  primaryEmailAuthEnabled: optionalField("primary_email_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: optionalField("passkey_auth_enabled", Schema.Boolean),
  otpAuthEnabled: optionalField("otp_auth_enabled", Schema.Boolean),
  /** A new password (≤ 70 characters) or null to remove it; revokes every session of the user. */
  password: optionalField("password", Schema.NullOr(Schema.String)),
  totpSecretBase64: optionalField("totp_secret_base64", Schema.NullOr(Schema.String)),
  restrictedByAdmin: optionalField("restricted_by_admin", Schema.Boolean),
  restrictedByAdminReason: optionalField("restricted_by_admin_reason", Schema.NullOr(Schema.String)),
  restrictedByAdminPrivateDetails: optionalField("restricted_by_admin_private_details", Schema.NullOr(Schema.String)),
  countryCode: optionalField("country_code", Schema.NullOr(Schema.String)),
  riskScores: optionalField("risk_scores", RiskScoresInput)
}

/**
 * The server update body of a user (all optional). `password_hash` is not offered: the SDK sends
 * passwords, never hashes.
 */
export const ServerUserUpdate = wireStruct({
  ...updateFields,
  selectedTeamId: optionalField("selected_team_id", Schema.NullOr(Uuid)),
  /** Only `false`: upgrades an anonymous user. */
  isAnonymous: optionalField("is_anonymous", Schema.Literal(false))
})

/** A server update of a user. */
export type ServerUserUpdate = typeof ServerUserUpdate.Type

/** The server create body: the update body without `selected_team_id`, plus OAuth links and `is_anonymous`. */
export const ServerUserCreate = wireStruct({
  ...updateFields,
  oauthProviders: optionalField("oauth_providers", Schema.Array(OAuthProviderLink)),
  isAnonymous: optionalField("is_anonymous", Schema.Boolean)
})

/** A user to create with server access. */
export type ServerUserCreate = typeof ServerUserCreate.Type

/** Query of `GET /users` (domain names; wire names snake_case, booleans as `"true"`/`"false"`). */
export const ListQuery = wireStruct({
  limit: optionalField("limit", QueryPositiveInt),
  cursor: optionalField("cursor", Uuid),
  orderBy: optionalField("order_by", Schema.Literal("signed_up_at")),
  desc: optionalField("desc", QueryBoolean),
  query: optionalField("query", Schema.String),
  teamId: optionalField("team_id", Uuid),
  includeRestricted: optionalField("include_restricted", QueryBoolean),
  includeAnonymous: optionalField("include_anonymous", QueryBoolean),
  onlyAnonymous: optionalField("only_anonymous", QueryBoolean)
})

/** One page of `GET /users`, wire shape decoded. */
export const UserPage = wireStruct({
  items: Schema.Array(ServerUser),
  isPaginated: field("is_paginated", Schema.Literal(true)),
  pagination: wireStruct({ nextCursor: field("next_cursor", Schema.NullOr(Schema.String)) })
})

/** One page of `GET /users`. */
export type UserPage = typeof UserPage.Type

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** `GET /users` (server, admin): paginated list; restricted and anonymous users excluded by default. */
export const listEndpoint = Endpoint.make({
  name: "ServerUsers.list",
  method: "GET",
  path: "/users",
  access: "server",
  session: "none",
  query: ListQuery,
  success: UserPage,
  errors: []
})

/** `POST /users` (server, admin): 201 and the new user. */
export const createEndpoint = Endpoint.make({
  name: "ServerUsers.create",
  method: "POST",
  path: "/users",
  access: "server",
  session: "none",
  payload: ServerUserCreate,
  success: ServerUser,
  successStatus: 201,
  errors: [UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong, TeamMembershipNotFound]
})

/** `PATCH /users/{user_id}` (server, admin): the server update body. */
export const updateEndpoint = Endpoint.make({
  name: "ServerUsers.update",
  method: "PATCH",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: UserIdParams,
  payload: ServerUserUpdate,
  success: ServerUser,
  errors: [UserNotFound, UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong, TeamMembershipNotFound]
})

/** `DELETE /users/{user_id}` (server, admin). */
export const deleteEndpoint = Endpoint.make({
  name: "ServerUsers.delete",
  method: "DELETE",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: UserIdParams,
  success: SuccessTrue,
  errors: [UserNotFound]
})

/** `GET /users/me` with server (or admin) access: the server view of the session's user. */
export const getCurrentServerEndpoint = Endpoint.make({
  name: "ServerUsers.getCurrent",
  method: "GET",
  path: "/users/me",
  access: "server",
  session: "required",
  success: ServerUser,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `PATCH /users/me` with server (or admin) access: the server update body, the server view. */
export const updateCurrentServerEndpoint = Endpoint.make({
  name: "ServerUsers.updateCurrent",
  method: "PATCH",
  path: "/users/me",
  access: "server",
  session: "required",
  payload: ServerUserUpdate,
  success: ServerUser,
  errors: [CannotGetOwnUserWithoutUser, UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong, TeamMembershipNotFound]
})
