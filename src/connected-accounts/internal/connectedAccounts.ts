/**
 * The wire definitions of `ConnectedAccounts` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `ConnectedAccounts.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { HttpError } from "../../core/Errors.js"
import {
  CannotGetOwnUserWithoutUser,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionDoesNotHaveRequiredScope,
  OauthConnectionNotConnectedToUser,
  OauthProviderAccountIdAlreadyUsedForSignIn,
  OauthProviderNotFoundOrNotEnabled
} from "../../core/KnownErrors.js"
import { field, optionalField, RedactedToken, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"

/** `user_id` of these routes: `me` or a user id (the SDK sends `me`). */
export const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

/** A provider account connected to a user. */
export const ConnectedAccount = wireStruct({
  userId: field("user_id", Schema.String),
  /** The provider config id, e.g. `github`. */
  provider: Schema.String,
  /** The account's id at the provider. */
  providerAccountId: field("provider_account_id", Schema.String)
})

/** A provider account connected to a user. */
export type ConnectedAccount = typeof ConnectedAccount.Type

/** `GET /connected-accounts/{user_id}` → `{ items, is_paginated: false }`. */
export const listEndpoint = Endpoint.make({
  name: "ConnectedAccounts.list",
  method: "GET",
  path: "/connected-accounts/:user_id",
  access: "client",
  session: "required",
  params: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: wireStruct({ items: Schema.Array(ConnectedAccount), isPaginated: field("is_paginated", Schema.Literal(false)) }),
  errors: [CannotGetOwnUserWithoutUser]
})

/** Body of the access-token routes: space-separated provider scopes the token must carry. */
export const AccessTokenPayload = Schema.Struct({ scope: Schema.optional(Schema.String) })

/** `{ access_token }` (201). */
export const ProviderAccessToken = wireStruct({ accessToken: field("access_token", RedactedToken) })

const accessTokenErrors = [
  OauthProviderNotFoundOrNotEnabled,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionNotConnectedToUser,
  OauthConnectionDoesNotHaveRequiredScope,
  CannotGetOwnUserWithoutUser
] as const

/** `POST /connected-accounts/{user_id}/{provider_id}/access-token` → 201 `{access_token}`. */
export const accessTokenEndpoint = Endpoint.make({
  name: "ConnectedAccounts.getAccessToken",
  method: "POST",
  path: "/connected-accounts/:user_id/:provider_id/access-token",
  access: "client",
  session: "required",
  params: wireStruct({ userId: field("user_id", UserIdOrMe), providerId: field("provider_id", Schema.String) }),
  payload: AccessTokenPayload,
  success: ProviderAccessToken,
  successStatus: 201,
  errors: accessTokenErrors
})

/** `POST /connected-accounts/{user_id}/{provider_id}/{provider_account_id}/access-token` (one account). */
export const accountAccessTokenEndpoint = Endpoint.make({
  name: "ConnectedAccounts.getAccessToken",
  method: "POST",
  path: "/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token",
  access: "client",
  session: "required",
  params: wireStruct({
    userId: field("user_id", UserIdOrMe),
    providerId: field("provider_id", Schema.String),
    providerAccountId: field("provider_account_id", Schema.String)
  }),
  payload: AccessTokenPayload,
  success: ProviderAccessToken,
  successStatus: 201,
  errors: accessTokenErrors
})

/** An OAuth provider connection of a user (`/oauth-providers` item). */
export const OAuthProviderConnection = wireStruct({
  /** The connection's id (uuid). */
  id: Schema.String,
  userId: field("user_id", Schema.String),
  /** The provider kind, e.g. `github`. */
  type: Schema.String,
  providerConfigId: field("provider_config_id", Schema.String),
  email: Schema.optional(Schema.NullOr(Schema.String)),
  allowSignIn: field("allow_sign_in", Schema.Boolean),
  allowConnectedAccounts: field("allow_connected_accounts", Schema.Boolean),
  /** Server views only. */
  accountId: optionalField("account_id", Schema.String)
})

/** An OAuth provider connection of a user. */
export type OAuthProviderConnection = typeof OAuthProviderConnection.Type

/** `GET /oauth-providers?user_id=me` → `{ items, is_paginated: false }`. */
export const listOAuthProvidersEndpoint = Endpoint.make({
  name: "ConnectedAccounts.listOAuthProviders",
  method: "GET",
  path: "/oauth-providers",
  access: "client",
  session: "required",
  query: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: wireStruct({ items: Schema.Array(OAuthProviderConnection), isPaginated: field("is_paginated", Schema.Literal(false)) }),
  errors: [
    CannotGetOwnUserWithoutUser,
    OauthProviderNotFoundOrNotEnabled,
    OauthConnectionDoesNotHaveRequiredScope,
    OauthAccessTokenNotAvailableWithSharedOauthKeys
  ]
})

// ---------------------------------------------------------------------------------------------
// One connection: `PATCH|DELETE /oauth-providers/{user_id}/{id}` (backend
// `apps/backend/src/app/api/latest/oauth-providers/crud.tsx` at 2f719903)
// ---------------------------------------------------------------------------------------------

/** Path parameters of one connection of the signed-in user (the id is a uuid, as the service checks it). */
export const OwnConnectionParams = wireStruct({ providerId: field("provider_id", Uuid) })

/** What a client may change on its own connection (the service's client update schema). */
export const OAuthProviderClientUpdate = wireStruct({
  allowSignIn: optionalField("allow_sign_in", Schema.Boolean),
  allowConnectedAccounts: optionalField("allow_connected_accounts", Schema.Boolean)
})

/** Changes to one of the signed-in user's connections; absent fields stay as they are. */
export type OAuthProviderClientUpdate = typeof OAuthProviderClientUpdate.Type

/** `PATCH /oauth-providers/me/{id}` → the connection as changed. */
export const updateOAuthProviderEndpoint = Endpoint.make({
  name: "ConnectedAccounts.updateOAuthProvider",
  method: "PATCH",
  path: "/oauth-providers/me/:provider_id",
  access: "client",
  session: "required",
  params: OwnConnectionParams,
  payload: OAuthProviderClientUpdate,
  success: OAuthProviderConnection,
  errors: [CannotGetOwnUserWithoutUser, OauthProviderAccountIdAlreadyUsedForSignIn]
})

/** `DELETE /oauth-providers/me/{id}` → `{ success: true }`. */
export const deleteOAuthProviderEndpoint = Endpoint.make({
  name: "ConnectedAccounts.deleteOAuthProvider",
  method: "DELETE",
  path: "/oauth-providers/me/:provider_id",
  access: "client",
  session: "required",
  params: OwnConnectionParams,
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser]
})

// The service's plain-text refusals of `/oauth-providers` (crud.tsx at 2f719903), shared with the emulator.

/** The 404 text of a connection id the user does not have (`ensureProviderExists`). */
export const connectionNotFoundText = (providerId: string, userId: string): string => `OAuth provider ${providerId} for user ${userId} not found`

/** The 404 text of a provider the project does not configure (`getProviderConfig`, `POST /oauth-providers`). */
export const providerNotConfiguredText = (providerConfigId: string): string => `OAuth provider ${providerConfigId} not found or not configured`

/** The 400 text of a second sign-in connection of one provider for a user (`checkInputValidity`). */
export const sameProviderSignInText = "The same provider type with sign-in enabled already exists for this user."

/** The 400 text of a second connection of one provider and account id for a user (`checkInputValidity`). */
export const sameProviderAccountText = "The same provider type with the same account ID already exists for this user."

// ---------------------------------------------------------------------------------------------
// Plain-text errors of `/oauth-providers` (public through `ConnectedAccounts`)
// ---------------------------------------------------------------------------------------------

/**
 * The user has no connection with this id: the service's 404 text "OAuth provider {id} for user
 * {user_id} not found".
 */
export class OAuthProviderNotFound extends Data.TaggedError("OAuthProviderNotFound")<{
  readonly message: string
}> {}

/**
 * A change the service refuses with a 400 text because the user already has such a connection:
 * `"sign-in"` — another connection of the same provider already signs in ("The same provider type
 * with sign-in enabled already exists for this user."); `"account"` — another connection of the
 * same provider has this account id ("The same provider type with the same account ID already
 * exists for this user.").
 */
export class OAuthProviderConflict extends Data.TaggedError("OAuthProviderConflict")<{
  readonly message: string
  readonly reason: "sign-in" | "account"
}> {}

/** The typed error for a plain-text `HttpError` of `/oauth-providers/{user_id}/{id}`, if it is one. */
const fromText = (error: HttpError): OAuthProviderNotFound | OAuthProviderConflict | undefined => {
  const text = error.body.trim()
  if (error.status === 404 && text.startsWith("OAuth provider ") && text.endsWith(" not found")) return new OAuthProviderNotFound({ message: text })
  if (error.status === 400 && text === sameProviderSignInText) return new OAuthProviderConflict({ message: text, reason: "sign-in" })
  if (error.status === 400 && text === sameProviderAccountText) return new OAuthProviderConflict({ message: text, reason: "account" })
  return undefined
}

/**
 * Turns the service's plain-text answers about a connection into {@link OAuthProviderNotFound}
 * and {@link OAuthProviderConflict}; any other `HttpError` stays as it is.
 */
export const mapTextErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | OAuthProviderNotFound | OAuthProviderConflict, R> =>
  Effect.mapError(effect, (error): E | OAuthProviderNotFound | OAuthProviderConflict => error instanceof HttpError ? (fromText(error) ?? error) : error)

/** The official SDK's details of an unavailable connection token, naming this SDK's calls. */
export const tokenNotAvailableDetails = (scope: string): string =>
  `${
    scope === "" ? "The OAuth refresh token has likely been revoked or expired." : `The requested scopes [${scope}] are not available on the existing token.`
  } The user needs to re-authorize by calling \`OAuth.linkAccount\` or using \`ConnectedAccounts.getOrLink\`.`
