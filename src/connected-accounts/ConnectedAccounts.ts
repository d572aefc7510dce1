/**
 * Connected accounts (PROTOCOL.md §3.6, §3.8, §5.6): the provider accounts linked to the
 * signed-in user, access tokens of those providers (to call the provider's API for the user),
 * and the user's OAuth provider connections.
 *
 * A provider access token that cannot be had because the connection lacks a scope
 * (`OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE`) or because the user has no such connection
 * (`OAUTH_CONNECTION_NOT_CONNECTED_TO_USER`) is `Option.none()`, as in the official SDK: link the
 * account (`OAuth.linkAccount` with the scopes) and try again.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionDoesNotHaveRequiredScope,
  OauthConnectionNotConnectedToUser,
  OauthProviderNotFoundOrNotEnabled
} from "../core/KnownErrors.js"
import { field, optionalField, RedactedToken, Uuid } from "../core/Wire.js"

/** `user_id` of these routes: `me` or a user id (the SDK sends `me`). */
export const UserIdOrMe = Schema.Union(Schema.Literal("me"), Uuid)

/** A provider account connected to a user. */
export const ConnectedAccount = Schema.Struct({
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
  params: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: Schema.Struct({ items: Schema.Array(ConnectedAccount), isPaginated: field("is_paginated", Schema.Literal(false)) }),
  errors: [CannotGetOwnUserWithoutUser]
})

/** Body of the access-token routes: space-separated provider scopes the token must carry. */
export const AccessTokenPayload = Schema.Struct({ scope: Schema.optional(Schema.String) })

/** `{ access_token }` (201). */
export const ProviderAccessToken = Schema.Struct({ accessToken: field("access_token", RedactedToken) })

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
  params: Schema.Struct({ userId: field("user_id", UserIdOrMe), providerId: field("provider_id", Schema.String) }),
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
  params: Schema.Struct({
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
export const OAuthProviderConnection = Schema.Struct({
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
  query: Schema.Struct({ userId: field("user_id", UserIdOrMe) }),
  success: Schema.Struct({ items: Schema.Array(OAuthProviderConnection), isPaginated: field("is_paginated", Schema.Literal(false)) }),
  errors: [CannotGetOwnUserWithoutUser]
})

/**
 * The signed-in user's connected provider accounts. `GET /connected-accounts/me`.
 * Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const list = Effect.fn("ConnectedAccounts.list")(function* () {
  const answer = yield* Endpoint.call(listEndpoint, { params: { userId: "me" } })
  return answer.items
})

/** Options of {@link getAccessToken}. */
export interface AccessTokenOptions {
  /** The provider config id, e.g. `github`. */
  readonly provider: string
  /** Provider scopes the token must carry (space-separated text or a list). */
  readonly scope?: string | ReadonlyArray<string> | undefined
  /** One specific connected account of that provider (its provider account id). */
  readonly accountId?: string | undefined
}

/**
 * A provider access token for the signed-in user's connected account, or `Option.none()` when
 * the connection lacks a requested scope or the user has no such connection.
 * `POST /connected-accounts/me/{provider}[/{accountId}]/access-token` → 201.
 *
 * Fails with `OauthProviderNotFoundOrNotEnabled`, `OauthAccessTokenNotAvailableWithSharedOauthKeys`
 * (the project uses the service's shared OAuth keys), `UserNotSignedIn`.
 */
export const getAccessToken = Effect.fn("ConnectedAccounts.getAccessToken")(function* (options: AccessTokenOptions) {
  const scope = typeof options.scope === "string" ? options.scope : options.scope?.join(" ")
  const payload = scope === undefined || scope === "" ? {} : { scope }
  const request =
    options.accountId === undefined
      ? Endpoint.call(accessTokenEndpoint, { params: { userId: "me", providerId: options.provider }, payload })
      : Endpoint.call(accountAccessTokenEndpoint, {
          params: { userId: "me", providerId: options.provider, providerAccountId: options.accountId },
          payload
        })
  return yield* request.pipe(
    Effect.map((answer) => Option.some(answer.accessToken)),
    Effect.catchTags({
      OauthConnectionDoesNotHaveRequiredScope: () => Effect.succeed(Option.none()),
      OauthConnectionNotConnectedToUser: () => Effect.succeed(Option.none())
    })
  )
})

/**
 * The signed-in user's OAuth provider connections (sign-in and connected-account switches).
 * `GET /oauth-providers?user_id=me`. Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const listOAuthProviders = Effect.fn("ConnectedAccounts.listOAuthProviders")(function* () {
  const answer = yield* Endpoint.call(listOAuthProvidersEndpoint, { query: { userId: "me" } })
  return answer.items
})
