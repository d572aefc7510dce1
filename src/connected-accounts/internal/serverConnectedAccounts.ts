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
  OauthProviderNotFoundOrNotEnabled,
  UserNotFound
} from "../../core/KnownErrors.js"
import { field, Uuid, wireStruct } from "../../core/Wire.js"
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
