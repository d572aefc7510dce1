/**
 * The wire definitions of `ServerConnectedAccounts` (docs/ARCHITECTURE.md): the connected-account
 * routes of `internal/connectedAccounts.ts` with server access, addressing a user by id (SPEC.md §7:
 * "server variant includes the user id"). Not part of the public surface.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionDoesNotHaveRequiredScope,
  OauthConnectionNotConnectedToUser,
  OauthProviderAccountIdAlreadyUsedForSignIn,
  OauthProviderNotFoundOrNotEnabled,
  UserNotFound
} from "../../core/KnownErrors.js"
import { field, optionalField, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { AccessTokenPayload, ConnectedAccount, OAuthProviderConnection, ProviderAccessToken } from "./connectedAccounts.js"

/** `GET /connected-accounts/{user_id}` (server access) → `{ items, is_paginated: false }`. */
export const listEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.list",
  method: "GET",
  path: "/connected-accounts/:user_id",
  access: "server",
  session: "none",
  params: wireStruct({ userId: field("user_id", Uuid) }),
  success: wireStruct({ items: Schema.Array(ConnectedAccount), isPaginated: field("is_paginated", Schema.Literal(false)) }),
  errors: [UserNotFound]
})

const accessTokenErrors = [
  UserNotFound,
  OauthProviderNotFoundOrNotEnabled,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionNotConnectedToUser,
  OauthConnectionDoesNotHaveRequiredScope
] as const

/** `POST /connected-accounts/{user_id}/{provider_id}/access-token` (server access) → 201 `{access_token}`. */
export const accessTokenEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.getAccessToken",
  method: "POST",
  path: "/connected-accounts/:user_id/:provider_id/access-token",
  access: "server",
  session: "none",
  params: wireStruct({ userId: field("user_id", Uuid), providerId: field("provider_id", Schema.String) }),
  payload: AccessTokenPayload,
  success: ProviderAccessToken,
  successStatus: 201,
  errors: accessTokenErrors
})

/** `POST /connected-accounts/{user_id}/{provider_id}/{provider_account_id}/access-token` (server access, one account). */
export const accountAccessTokenEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.getAccessToken",
  method: "POST",
  path: "/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token",
  access: "server",
  session: "none",
  params: wireStruct({
    userId: field("user_id", Uuid),
    providerId: field("provider_id", Schema.String),
    providerAccountId: field("provider_account_id", Schema.String)
  }),
  payload: AccessTokenPayload,
  success: ProviderAccessToken,
  successStatus: 201,
  errors: accessTokenErrors
})

/** `GET /oauth-providers?user_id=<id>` (server access: each connection carries its `account_id`). */
export const listOAuthProvidersEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.listOAuthProviders",
  method: "GET",
  path: "/oauth-providers",
  access: "server",
  session: "none",
  query: wireStruct({ userId: field("user_id", Uuid) }),
  success: wireStruct({ items: Schema.Array(OAuthProviderConnection), isPaginated: field("is_paginated", Schema.Literal(false)) }),
  errors: [UserNotFound]
})

// ---------------------------------------------------------------------------------------------
// Connections of any user: `POST /oauth-providers`, `PATCH|DELETE /oauth-providers/{user_id}/{id}`
// (backend `apps/backend/src/app/api/latest/oauth-providers/crud.tsx` at 2f719903)
// ---------------------------------------------------------------------------------------------

/** Path parameters of one connection of a user (both uuids, as the service checks them). */
export const ConnectionParams = wireStruct({ userId: field("user_id", Uuid), providerId: field("provider_id", Uuid) })

/** What server access may change on a connection (the service's server update schema). */
export const OAuthProviderServerUpdate = wireStruct({
  allowSignIn: optionalField("allow_sign_in", Schema.Boolean),
  allowConnectedAccounts: optionalField("allow_connected_accounts", Schema.Boolean),
  /** The e-mail shown for the connection. */
  email: optionalField("email", Schema.String),
  /** The account's id at the provider. */
  accountId: optionalField("account_id", Schema.String)
})

/** Changes to a user's connection with server access; absent fields stay as they are. */
export type OAuthProviderServerUpdate = typeof OAuthProviderServerUpdate.Type

/** A connection to create with server access (the service's server create schema). */
export const OAuthProviderCreate = wireStruct({
  userId: field("user_id", Uuid),
  /** The project's provider config id, e.g. `github`. */
  providerConfigId: field("provider_config_id", Schema.String),
  /** The account's id at the provider. */
  accountId: field("account_id", Schema.String),
  email: optionalField("email", Schema.String),
  allowSignIn: field("allow_sign_in", Schema.Boolean),
  allowConnectedAccounts: field("allow_connected_accounts", Schema.Boolean)
})

/** A connection to create with server access. */
export type OAuthProviderCreate = typeof OAuthProviderCreate.Type

/** `POST /oauth-providers` (server) → 201, the connection. */
export const createOAuthProviderEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.createOAuthProvider",
  method: "POST",
  path: "/oauth-providers",
  access: "server",
  session: "none",
  payload: OAuthProviderCreate,
  success: OAuthProviderConnection,
  successStatus: 201,
  errors: [UserNotFound, OauthProviderAccountIdAlreadyUsedForSignIn]
})

/** `PATCH /oauth-providers/{user_id}/{id}` (server) → the connection as changed. */
export const updateOAuthProviderEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.updateOAuthProvider",
  method: "PATCH",
  path: "/oauth-providers/:user_id/:provider_id",
  access: "server",
  session: "none",
  params: ConnectionParams,
  payload: OAuthProviderServerUpdate,
  success: OAuthProviderConnection,
  errors: [UserNotFound, OauthProviderAccountIdAlreadyUsedForSignIn]
})

/** `DELETE /oauth-providers/{user_id}/{id}` (server) → `{ success: true }`. */
export const deleteOAuthProviderEndpoint = Endpoint.make({
  name: "ServerConnectedAccounts.deleteOAuthProvider",
  method: "DELETE",
  path: "/oauth-providers/:user_id/:provider_id",
  access: "server",
  session: "none",
  params: ConnectionParams,
  success: SuccessTrue,
  errors: [UserNotFound]
})
