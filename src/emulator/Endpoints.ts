/**
 * Endpoint definitions the emulator serves that the SDK does not define (yet), or defines only
 * from the client's side. Their schemas are written on the wire's terms (snake_case keys); where
 * an SDK schema fits, it is reused.
 *
 * - `oauthToken`: the token endpoint as the service accepts it (client_secret optional, both
 *   grants, the deprecated duplicate keys of the answer). The SDK's `refreshGrant` is the
 *   client's view of the same route.
 * - server views of `/users/me`, `/users/{user_id}`, `/users`; `DELETE /users/me`; anonymous
 *   sign-up; `/auth/sessions/current/refresh`; JWKS; the welcome text; the outbox.
 *
 * @module
 */
import { Schema } from "effect"
import * as Endpoint from "../core/Endpoint.js"
import {
  InvalidAuthorizationCode,
  InvalidOauthClientIdOrSecret,
  InvalidPublishableClientKey,
  InvalidScope,
  PasswordTooLong,
  PasswordTooShort,
  PublishableClientKeyRequiredForProject,
  RefreshTokenNotFoundOrExpired,
  UserEmailAlreadyExists
} from "../core/KnownErrors.js"
import { AuthorizeQuery } from "../auth/OAuth.js"
import { ServerUser } from "../users/User.js"
import { SuccessTrue, Uuid as WireUuid } from "../core/Wire.js"

/** A uuid path/body value (the SDK's `Wire.Uuid`). */
export const Uuid = WireUuid

/** `"true"` / `"false"` in a query string, a boolean in the domain. */
export const QueryBoolean = Schema.transform(Schema.Literal("true", "false"), Schema.Boolean, {
  strict: true,
  decode: (text) => text === "true",
  encode: (value) => (value ? "true" : "false")
})


// ---------------------------------------------------------------------------------------------
// Health, JWKS, outbox
// ---------------------------------------------------------------------------------------------

/** `GET /api/v1`: welcome text echoing the resolved authentication; rejects any query. */
export const welcome = Endpoint.make({
  name: "Emulator.welcome",
  method: "GET",
  path: "/",
  access: "none",
  session: "none",
  success: Schema.String,
  errors: []
})

/** A public key of the JWKS. */
export const Jwk = Schema.Struct({
  kty: Schema.Literal("EC"),
  crv: Schema.Literal("P-256"),
  alg: Schema.Literal("ES256"),
  kid: Schema.String,
  x: Schema.String,
  y: Schema.String
})

/** `GET /projects/{project_id}/.well-known/jwks.json` (no auth). */
export const jwks = Endpoint.make({
  name: "Emulator.jwks",
  method: "GET",
  path: "/projects/:project_id/.well-known/jwks.json",
  access: "none",
  session: "none",
  params: Schema.Struct({ project_id: Schema.String }),
  query: Schema.Struct({
    include_anonymous: Schema.optional(QueryBoolean),
    include_restricted: Schema.optional(QueryBoolean)
  }),
  success: Schema.Struct({ keys: Schema.Array(Jwk) }),
  errors: []
})

/** `GET /projects-anonymous-users/{project_id}/.well-known/jwks.json`: 307 to the JWKS with `include_anonymous=true`. */
export const jwksAnonymousAlias = Endpoint.make({
  name: "Emulator.jwksAnonymousAlias",
  method: "GET",
  path: "/projects-anonymous-users/:project_id/.well-known/jwks.json",
  access: "none",
  session: "none",
  params: Schema.Struct({ project_id: Schema.String }),
  success: Schema.instanceOf(Response),
  errors: []
})

/** One outbox entry on the wire. */
export const OutboxItem = Schema.Struct({
  id: Schema.String,
  to: Schema.String,
  subject: Schema.String,
  code: Schema.NullOr(Schema.String),
  link: Schema.NullOr(Schema.String),
  sent_at_millis: Schema.Number
})

/** `GET /emulator/outbox?email=&project_id=` (emulator only, no auth): e-mails the emulator "sent", oldest first. */
export const outbox = Endpoint.make({
  name: "Emulator.outbox",
  method: "GET",
  path: "/emulator/outbox",
  access: "none",
  session: "none",
  query: Schema.Struct({ email: Schema.optional(Schema.String), project_id: Schema.optional(Schema.String) }),
  success: Schema.Struct({ items: Schema.Array(OutboxItem) }),
  errors: []
})

// ---------------------------------------------------------------------------------------------
// Tokens and sessions
// ---------------------------------------------------------------------------------------------

/** The token endpoint's body as the service accepts it (extra keys tolerated by the route). */
export const OAuthTokenRequest = Schema.Struct({
  grant_type: Schema.Literal("refresh_token", "authorization_code"),
  client_id: Schema.optional(Schema.String),
  client_secret: Schema.optional(Schema.String),
  refresh_token: Schema.optional(Schema.String),
  code: Schema.optional(Schema.String),
  redirect_uri: Schema.optional(Schema.String),
  code_verifier: Schema.optional(Schema.String),
  scope: Schema.optional(Schema.String)
})

/** The token endpoint's answer on the wire (with the deprecated duplicates `newUser`, `afterCallbackRedirectUrl`). */
export const OAuthTokenAnswer = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Number,
  scope: Schema.String,
  refresh_token: Schema.optional(Schema.String),
  is_new_user: Schema.optional(Schema.Boolean),
  newUser: Schema.optional(Schema.Boolean),
  after_callback_redirect_url: Schema.NullOr(Schema.String),
  afterCallbackRedirectUrl: Schema.NullOr(Schema.String)
})

/** `POST /auth/oauth/token` (form or JSON, no x-stack headers needed). */
export const oauthToken = Endpoint.make({
  name: "Emulator.oauthToken",
  method: "POST",
  path: "/auth/oauth/token",
  access: "none",
  session: "none",
  payload: OAuthTokenRequest,
  payloadEncoding: "form",
  success: OAuthTokenAnswer,
  errors: [
    RefreshTokenNotFoundOrExpired,
    InvalidOauthClientIdOrSecret,
    InvalidPublishableClientKey,
    PublishableClientKeyRequiredForProject,
    InvalidScope,
    InvalidAuthorizationCode
  ]
})

/** `POST /auth/sessions/current/refresh` with `X-Stack-Refresh-Token` → `{access_token}`. */
export const refreshCurrentSession = Endpoint.make({
  name: "Emulator.refreshCurrentSession",
  method: "POST",
  path: "/auth/sessions/current/refresh",
  access: "client",
  session: "none",
  success: Schema.Struct({ access_token: Schema.String }),
  errors: [RefreshTokenNotFoundOrExpired]
})

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

/** `GET /users/me` with server (or admin) access: the server view. */
export const getCurrentUserServer = Endpoint.make({
  name: "Emulator.getCurrentUserServer",
  method: "GET",
  path: "/users/me",
  access: "server",
  session: "required",
  success: ServerUser,
  errors: []
})

/** The server update body of a user (PROTOCOL.md §3.3), wire keys; `password_hash` is not supported by the emulator. */
export const ServerUserUpdate = Schema.Struct({
  display_name: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(256)))),
  profile_image_url: Schema.optional(Schema.NullOr(Schema.String)),
  client_metadata: Schema.optional(Schema.Unknown),
  client_read_only_metadata: Schema.optional(Schema.Unknown),
  server_metadata: Schema.optional(Schema.Unknown),
  primary_email: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1)))),
  primary_email_verified: Schema.optional(Schema.Boolean),
  primary_email_auth_enabled: Schema.optional(Schema.Boolean),
  passkey_auth_enabled: Schema.optional(Schema.Boolean),
  otp_auth_enabled: Schema.optional(Schema.Boolean),
  password: Schema.optional(Schema.NullOr(Schema.String)),
  totp_secret_base64: Schema.optional(Schema.NullOr(Schema.String)),
  selected_team_id: Schema.optional(Schema.NullOr(Uuid)),
  is_anonymous: Schema.optional(Schema.Literal(false)),
  restricted_by_admin: Schema.optional(Schema.Boolean),
  restricted_by_admin_reason: Schema.optional(Schema.NullOr(Schema.String)),
  restricted_by_admin_private_details: Schema.optional(Schema.NullOr(Schema.String)),
  country_code: Schema.optional(Schema.NullOr(Schema.String)),
  risk_scores: Schema.optional(
    Schema.Struct({
      sign_up: Schema.Struct({
        bot: Schema.Int.pipe(Schema.between(0, 100)),
        free_trial_abuse: Schema.Int.pipe(Schema.between(0, 100))
      })
    })
  )
})

/** A server update of a user. */
export type ServerUserUpdate = typeof ServerUserUpdate.Type

/** `PATCH /users/me` with server (or admin) access: the server update body, the server view. */
export const updateCurrentUserServer = Endpoint.make({
  name: "Emulator.updateCurrentUserServer",
  method: "PATCH",
  path: "/users/me",
  access: "server",
  session: "required",
  payload: ServerUserUpdate,
  success: ServerUser,
  errors: [UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong]
})

/** `DELETE /users/me` (client: only when the project allows client user deletion). */
export const deleteCurrentUser = Endpoint.make({
  name: "Emulator.deleteCurrentUser",
  method: "DELETE",
  path: "/users/me",
  access: "client",
  session: "required",
  success: SuccessTrue,
  errors: []
})

/** A decimal integer ≥ 1 in a query string. */
const QueryPositiveInt = Schema.NumberFromString.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1))

/** `GET /users` (server, admin): paginated list, restricted and anonymous users excluded by default. */
export const listUsers = Endpoint.make({
  name: "Emulator.listUsers",
  method: "GET",
  path: "/users",
  access: "server",
  session: "none",
  query: Schema.Struct({
    limit: Schema.optional(QueryPositiveInt),
    cursor: Schema.optional(Uuid),
    order_by: Schema.optional(Schema.Literal("signed_up_at")),
    desc: Schema.optional(QueryBoolean),
    query: Schema.optional(Schema.String),
    team_id: Schema.optional(Uuid),
    include_restricted: Schema.optional(QueryBoolean),
    include_anonymous: Schema.optional(QueryBoolean),
    only_anonymous: Schema.optional(QueryBoolean)
  }),
  success: Schema.Struct({
    items: Schema.Array(ServerUser),
    is_paginated: Schema.Literal(true),
    pagination: Schema.Struct({ next_cursor: Schema.NullOr(Schema.String) })
  }),
  errors: []
})

// ---------------------------------------------------------------------------------------------
// OAuth (the service's authorize and callback, and the emulator's mock provider)
// ---------------------------------------------------------------------------------------------

/**
 * `GET /auth/oauth/authorize/{provider_id}` as the service serves it: the SDK's query schema
 * (`OAuth.AuthorizeQuery`; unknown keys tolerated by the route), answered with a 307 redirect or
 * `{location}` (JSON mode) — the route builds the response itself.
 */
export const oauthAuthorize = Endpoint.make({
  name: "Emulator.oauthAuthorize",
  method: "GET",
  path: "/auth/oauth/authorize/:provider_id",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: AuthorizeQuery,
  success: Schema.instanceOf(Response),
  errors: []
})

/** `GET /auth/oauth/callback/{provider_id}?code&state&iss` (or `error`): the provider sends the browser back. */
export const oauthCallback = Endpoint.make({
  name: "Emulator.oauthCallback",
  method: "GET",
  path: "/auth/oauth/callback/:provider_id",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: Schema.Struct({
    code: Schema.optional(Schema.String),
    state: Schema.optional(Schema.String),
    iss: Schema.optional(Schema.String),
    error: Schema.optional(Schema.String),
    error_description: Schema.optional(Schema.String)
  }),
  success: Schema.instanceOf(Response),
  errors: []
})

/** Parameters of the mock provider's authorization page (query or form), all strings. */
export const MockProviderParameters = Schema.Record({ key: Schema.String, value: Schema.String })

/** `GET /emulator/oauth-provider/{provider_id}/authorize` (emulator only): consent page, or `auto=1&email=…`. */
export const mockProviderAuthorize = Endpoint.make({
  name: "Emulator.mockProviderAuthorize",
  method: "GET",
  path: "/emulator/oauth-provider/:provider_id/authorize",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: MockProviderParameters,
  success: Schema.instanceOf(Response),
  errors: []
})

/** `POST /emulator/oauth-provider/{provider_id}/authorize` (emulator only): the consent form's answer. */
export const mockProviderApprove = Endpoint.make({
  name: "Emulator.mockProviderApprove",
  method: "POST",
  path: "/emulator/oauth-provider/:provider_id/authorize",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: MockProviderParameters,
  payload: MockProviderParameters,
  payloadEncoding: "form",
  success: Schema.instanceOf(Response),
  errors: []
})
