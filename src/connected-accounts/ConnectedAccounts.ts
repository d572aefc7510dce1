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
import * as OAuth from "../auth/OAuth.js"
import * as Endpoint from "../core/Endpoint.js"
import { accessTokenEndpoint, accountAccessTokenEndpoint, listEndpoint, listOAuthProvidersEndpoint } from "./internal/connectedAccounts.js"

/** The domain's schemas, defined with its wire definitions (`internal/connectedAccounts.ts`). */
export { ConnectedAccount, OAuthProviderConnection, ProviderAccessToken } from "./internal/connectedAccounts.js"

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
  const request = options.accountId === undefined
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

/**
 * One of the signed-in user's OAuth provider connections by its id (the official
 * `user.getOAuthProvider(id)`), or `Option.none()` when the user has no such connection. Reads
 * {@link listOAuthProviders}. Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const getOAuthProvider = Effect.fn("ConnectedAccounts.getOAuthProvider")(function* (id: string) {
  const connections = yield* listOAuthProviders()
  return Option.fromNullishOr(connections.find((connection) => connection.id === id))
})

/** Options of {@link getAccessTokenOrLink}: the token's, and where the link flow goes if one is needed. */
export interface GetOrLinkOptions extends AccessTokenOptions {
  /** The link flow's pages (callback, error, after-callback); default as `OAuth.linkAccount`'s. */
  readonly link?: Omit<OAuth.OAuthStartOptions, "provider" | "scopes"> | undefined
}

/**
 * A provider access token for the signed-in user, or, when the user has no such connection or
 * it lacks a requested scope, the start of the flow that links one (the official
 * `getConnectedAccount(provider, { or: "redirect", scopes })`): `OAuth.linkAccount` with the
 * provider and the scopes navigates the page to the provider and this answers `Option.none()`;
 * after the callback the same call answers the token. Fails like {@link getAccessToken} and
 * `OAuth.linkAccount`.
 */
export const getAccessTokenOrLink = Effect.fn("ConnectedAccounts.getAccessTokenOrLink")(function* (options: GetOrLinkOptions) {
  const token = yield* getAccessToken(options)
  if (Option.isSome(token)) return token
  const scopes = typeof options.scope === "string" ? options.scope.split(" ").filter((scope) => scope.length > 0) : options.scope
  yield* OAuth.linkAccount({ ...options.link, provider: options.provider, ...(scopes === undefined || scopes.length === 0 ? {} : { scopes }) })
  return Option.none()
})
