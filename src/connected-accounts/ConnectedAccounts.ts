/**
 * Connected accounts (PROTOCOL.md §3.6, §3.8, §5.6): the provider accounts linked to the
 * signed-in user, access tokens of those providers (to call the provider's API for the user),
 * and the user's OAuth provider connections (read, change, remove).
 *
 * A provider access token that cannot be had because the connection lacks a scope
 * (`OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE`) or because the user has no such connection
 * (`OAUTH_CONNECTION_NOT_CONNECTED_TO_USER`) is `Option.none()` from {@link getAccessToken}, as in
 * the official SDK: link the account (`OAuth.linkAccount` with the scopes) and try again. A
 * connection's own `getAccessToken` (the official `OAuthConnection.getAccessToken`) fails with
 * `OauthAccessTokenNotAvailable` instead, as the official one answers `Result.error` with it.
 *
 * The lists ({@link list}, {@link listOAuthProviders}) go through the query cache (keys
 * `["connected-accounts", "me"]`, `["oauth-providers", "me"]`); a change or removal of a
 * connection refreshes them and the user (whose `oauthProviders` it changes).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as OAuth from "../auth/OAuth.js"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { OauthAccessTokenNotAvailable } from "../core/KnownErrors.js"
import {
  accessTokenEndpoint,
  accountAccessTokenEndpoint,
  deleteOAuthProviderEndpoint,
  listEndpoint,
  listOAuthProvidersEndpoint,
  mapTextErrors,
  tokenNotAvailableDetails,
  updateOAuthProviderEndpoint
} from "./internal/connectedAccounts.js"
import type { ConnectedAccount, OAuthProviderClientUpdate } from "./internal/connectedAccounts.js"

/** The domain's schemas, defined with its wire definitions (`internal/connectedAccounts.ts`). */
export {
  ConnectedAccount,
  OAuthProviderClientUpdate,
  OAuthProviderConflict,
  OAuthProviderConnection,
  OAuthProviderNotFound,
  ProviderAccessToken
} from "./internal/connectedAccounts.js"

// ---------------------------------------------------------------------------------------------
// Connected accounts and their access tokens
// ---------------------------------------------------------------------------------------------

// the query cache's keys of the signed-in user's two lists
const cacheKey: QueryCache.Key = ["connected-accounts", "me"]
const oauthProvidersCacheKey: QueryCache.Key = ["oauth-providers", "me"]

/** Options of a connection's access-token read. */
export interface ConnectionAccessTokenOptions {
  /** Provider scopes the token must carry. */
  readonly scopes?: ReadonlyArray<string> | undefined
}

/**
 * A connected provider account of the signed-in user with its own access-token read (the
 * official `OAuthConnection`): `getAccessToken({ scopes })` is {@link getConnectionAccessToken}
 * for this account.
 */
export interface OAuthConnection extends ConnectedAccount {
  /**
   * A provider access token of this account (`POST /connected-accounts/me/{provider}/{account}/access-token`).
   * Fails with `OauthAccessTokenNotAvailable` when the account's token lacks a requested scope
   * or cannot be had (revoked, expired).
   */
  readonly getAccessToken: (options?: ConnectionAccessTokenOptions) => ReturnType<typeof getConnectionAccessToken>
}

const scopeText = (scopes: ReadonlyArray<string> | undefined): string => (scopes ?? []).filter((scope) => scope.length > 0).join(" ")

/**
 * A provider access token of one of the signed-in user's connected accounts (the official
 * `connection.getAccessToken({ scopes })`). `POST /connected-accounts/me/{provider}/{account}/access-token` → 201.
 * Fails with `OauthAccessTokenNotAvailable` (`provider`, `details`) when the account's token lacks a
 * requested scope or the account is not (or no longer) connected; with
 * `OauthProviderNotFoundOrNotEnabled`, `OauthAccessTokenNotAvailableWithSharedOauthKeys`,
 * `UserNotSignedIn`.
 */
export const getConnectionAccessToken = Effect.fn("ConnectedAccounts.getConnectionAccessToken")(function* (
  account: Pick<ConnectedAccount, "provider" | "providerAccountId">,
  options: ConnectionAccessTokenOptions = {}
) {
  const scope = scopeText(options.scopes)
  return yield* Endpoint.call(accountAccessTokenEndpoint, {
    params: { userId: "me", providerId: account.provider, providerAccountId: account.providerAccountId },
    payload: scope === "" ? {} : { scope }
  }).pipe(
    Effect.catchTags({
      OauthConnectionDoesNotHaveRequiredScope: () =>
        Effect.fail(OauthAccessTokenNotAvailable.make({ provider: account.provider, details: tokenNotAvailableDetails(scope) })),
      OauthConnectionNotConnectedToUser: () =>
        Effect.fail(OauthAccessTokenNotAvailable.make({ provider: account.provider, details: tokenNotAvailableDetails(scope) }))
    })
  )
})

/** The connection value of a connected account. */
const connectionOf = (account: ConnectedAccount): OAuthConnection => ({
  ...account,
  getAccessToken: (options) => getConnectionAccessToken(account, options)
})

/**
 * The signed-in user's connected provider accounts (those that allow connected-account use), each
 * with its own `getAccessToken`. `GET /connected-accounts/me`, through the query cache (key
 * {@link cacheKey}). Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const list = Effect.fn("ConnectedAccounts.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, { params: { userId: "me" } }))
  return answer.items.map(connectionOf)
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

// ---------------------------------------------------------------------------------------------
// getConnectedAccount / getOrLinkConnectedAccount
// ---------------------------------------------------------------------------------------------

/** What {@link get} does when the user has no usable connection of the provider. */
export type GetOr = "return-null" | "throw" | "redirect"

/** The link flow's pages (callback, error, after-callback); default as `OAuth.linkAccount`'s. */
export type LinkPages = Omit<OAuth.OAuthStartOptions, "provider" | "scopes">

/** Options of {@link get} by provider. */
export interface GetOptions<O extends GetOr = GetOr> {
  /**
   * `"return-null"` (default): `Option.none()`; `"throw"`: fails with `OauthAccessTokenNotAvailable`;
   * `"redirect"`: starts the link flow (`OAuth.linkAccount` with the provider and the scopes) and
   * never completes (the page goes to the provider).
   */
  readonly or?: O
  /** Provider scopes the connection's token must carry. */
  readonly scopes?: ReadonlyArray<string> | undefined
  /** The link flow's pages, for `"redirect"`. */
  readonly link?: LinkPages | undefined
}

/** A connected account named by its provider and its id there (the official `getConnectedAccount({ provider, providerAccountId })`). */
export interface AccountRef {
  readonly provider: string
  readonly providerAccountId: string
}

type Usable = Effect.Effect<Option.Option<OAuthConnection>, GetError<"return-null">, GetRequirements<"return-null">>

/**
 * The first of the user's connected accounts of `provider` whose access token carries `scopes`
 * (the official `getOrLinkConnectedAccount`'s search): each account's token is asked in turn.
 */
const firstUsable = (provider: string, scopes: ReadonlyArray<string> | undefined): Usable =>
  Effect.gen(function* () {
    const accounts = yield* list()
    for (const account of accounts) {
      if (account.provider !== provider) continue
      const token = yield* getConnectionAccessToken(account, { scopes }).pipe(
        Effect.map(() => true),
        Effect.catchTag("OauthAccessTokenNotAvailable", () => Effect.succeed(false))
      )
      if (token) return Option.some(account)
    }
    return Option.none<OAuthConnection>()
  })

/** What {@link get} by provider gives for a policy. */
export type GetResult<O extends GetOr> = [O] extends ["return-null"] ? Option.Option<OAuthConnection> : OAuthConnection

type BaseError = Effect.Error<ReturnType<typeof list>> | Exclude<Effect.Error<ReturnType<typeof getConnectionAccessToken>>, OauthAccessTokenNotAvailable>

/** The errors of {@link get} by provider for a policy. */
export type GetError<O extends GetOr> =
  | BaseError
  | (O extends "throw" ? OauthAccessTokenNotAvailable : never)
  | (O extends "redirect" ? Effect.Error<ReturnType<typeof OAuth.linkAccount>> : never)

/** The services {@link get} by provider needs for a policy (`"redirect"` adds the page, `OAuthBrowser`). */
export type GetRequirements<O extends GetOr> =
  | Effect.Services<ReturnType<typeof list>>
  | Effect.Services<ReturnType<typeof getConnectionAccessToken>>
  | (O extends "redirect" ? Effect.Services<ReturnType<typeof OAuth.linkAccount>> : never)

const getByProvider = Effect.fn("ConnectedAccounts.get")(function* (provider: string, options: GetOptions) {
  const found = yield* firstUsable(provider, options.scopes)
  if (Option.isSome(found)) return options.or === "return-null" || options.or === undefined ? found : found.value
  switch (options.or) {
    case "throw":
      return yield* Effect.fail(OauthAccessTokenNotAvailable.make({ provider, details: tokenNotAvailableDetails(scopeText(options.scopes)) }))
    case "redirect": {
      const scopes = (options.scopes ?? []).filter((scope) => scope.length > 0)
      yield* OAuth.linkAccount({ ...options.link, provider, ...(scopes.length === 0 ? {} : { scopes }) })
      return yield* Effect.never
    }
    default:
      return found
  }
})

const getByAccount = Effect.fn("ConnectedAccounts.get")(function* (account: AccountRef) {
  const accounts = yield* list()
  return Option.fromNullishOr(
    accounts.find((candidate) => candidate.provider === account.provider && candidate.providerAccountId === account.providerAccountId)
  )
})

/**
 * One of the signed-in user's connected accounts (the official `user.getConnectedAccount`):
 *
 * - by `{ provider, providerAccountId }`: that account, or `Option.none()` when the user has no
 *   such connected account (reads {@link list});
 * - by provider id (`"github"`), with `scopes`: the first connected account of that provider whose
 *   access token carries the scopes (each account's token is asked in turn); when there is none,
 *   `or` decides: `"return-null"` (default) `Option.none()`, `"throw"` fails with
 *   `OauthAccessTokenNotAvailable`, `"redirect"` starts the link flow (`OAuth.linkAccount` with
 *   the provider and the scopes; the page goes to the provider) and never completes — as
 *   {@link getOrLink}. (The official implementation treats `"throw"` as `"return-null"`,
 *   client-app-impl.ts at 2f719903; here it throws, as its name says.)
 *
 * Fails with `UserNotSignedIn` when nobody is signed in, and with the errors of
 * {@link getConnectionAccessToken} other than `OauthAccessTokenNotAvailable`.
 */
export function get(account: AccountRef): Effect.Effect<Option.Option<OAuthConnection>, BaseError, GetRequirements<"return-null">>
export function get<const O extends GetOr = "return-null">(
  provider: string,
  options?: GetOptions<O>
): Effect.Effect<GetResult<O>, GetError<O>, GetRequirements<O>>
export function get(
  target: string | AccountRef,
  options: GetOptions = {}
): Effect.Effect<Option.Option<OAuthConnection> | OAuthConnection, GetError<GetOr>, GetRequirements<GetOr>> {
  return typeof target === "string" ? getByProvider(target, options) : getByAccount(target)
}

/** Options of {@link getOrLink}. */
export interface GetOrLinkConnectionOptions {
  /** Provider scopes the connection's token must carry. */
  readonly scopes?: ReadonlyArray<string> | undefined
  /** The link flow's pages; default as `OAuth.linkAccount`'s. */
  readonly link?: LinkPages | undefined
}

/**
 * A connected account of `provider` whose access token carries `scopes`, or, when there is none,
 * the link flow (the official `user.getOrLinkConnectedAccount(provider, { scopes })`):
 * `OAuth.linkAccount` with the provider and the scopes navigates the page to the provider and
 * this never completes; after the callback the same call answers the connection. As
 * `get(provider, { or: "redirect", scopes })`.
 */
export const getOrLink = (provider: string, options: GetOrLinkConnectionOptions = {}) => get(provider, { ...options, or: "redirect" })

// ---------------------------------------------------------------------------------------------
// OAuth provider connections (sign-in and connected-account switches)
// ---------------------------------------------------------------------------------------------

// a change of a connection changes both lists and the user's `oauthProviders`
const invalidatesConnections = QueryCache.invalidating(["oauth-providers"], ["connected-accounts"], ["user"])

/**
 * The signed-in user's OAuth provider connections (sign-in and connected-account switches).
 * `GET /oauth-providers?user_id=me`, through the query cache (key `["oauth-providers", "me"]`).
 * Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const listOAuthProviders = Effect.fn("ConnectedAccounts.listOAuthProviders")(function* () {
  const answer = yield* QueryCache.cached(oauthProvidersCacheKey, Endpoint.call(listOAuthProvidersEndpoint, { query: { userId: "me" } }))
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

/**
 * Turns sign-in and connected-account use of one of the signed-in user's connections on or off
 * (the official `oauthProvider.update({ allowSignIn, allowConnectedAccounts })`).
 * `PATCH /oauth-providers/me/{id}` → the connection as changed.
 *
 * Fails with `OauthProviderAccountIdAlreadyUsedForSignIn` (turning sign-in on while another
 * connection signs in with the same account: the service's check, crud.tsx at 2f719903, has no
 * account filter on this route, so any other connection of the project that signs in counts),
 * {@link OAuthProviderConflict} (`"sign-in"`: another
 * connection of the provider already signs in), {@link OAuthProviderNotFound}, `InvalidArgument`
 * for an id that is not a uuid (nothing sent), `UserNotSignedIn`.
 */
export const updateOAuthProvider = Effect.fn("ConnectedAccounts.updateOAuthProvider")(function* (id: string, changes: OAuthProviderClientUpdate) {
  return yield* mapTextErrors(Endpoint.call(updateOAuthProviderEndpoint, { params: { providerId: id }, payload: changes })).pipe(invalidatesConnections)
})

/**
 * Removes one of the signed-in user's connections (the official `oauthProvider.delete()`): the
 * account no longer signs in and is no longer a connected account. `DELETE /oauth-providers/me/{id}`.
 * Fails with {@link OAuthProviderNotFound}, `InvalidArgument` for an id that is not a uuid
 * (nothing sent), `UserNotSignedIn`.
 */
export const deleteOAuthProvider = Effect.fn("ConnectedAccounts.deleteOAuthProvider")(function* (id: string) {
  yield* mapTextErrors(Endpoint.call(deleteOAuthProviderEndpoint, { params: { providerId: id } })).pipe(invalidatesConnections)
})

/** Options of {@link getAccessTokenOrLink}: the token's, and where the link flow goes if one is needed. */
export interface GetOrLinkOptions extends AccessTokenOptions {
  /** The link flow's pages (callback, error, after-callback); default as `OAuth.linkAccount`'s. */
  readonly link?: LinkPages | undefined
}

/**
 * A provider access token for the signed-in user, or, when the user has no such connection or
 * it lacks a requested scope, the start of the flow that links one: `OAuth.linkAccount` with the
 * provider and the scopes navigates the page to the provider and this answers `Option.none()`;
 * after the callback the same call answers the token. Fails like {@link getAccessToken} and
 * `OAuth.linkAccount`. ({@link getOrLink} is the official `getOrLinkConnectedAccount`, answering
 * the connection.)
 */
export const getAccessTokenOrLink = Effect.fn("ConnectedAccounts.getAccessTokenOrLink")(function* (options: GetOrLinkOptions) {
  const token = yield* getAccessToken(options)
  if (Option.isSome(token)) return token
  const scopes = typeof options.scope === "string" ? options.scope.split(" ").filter((scope) => scope.length > 0) : options.scope
  yield* OAuth.linkAccount({ ...options.link, provider: options.provider, ...(scopes === undefined || scopes.length === 0 ? {} : { scopes }) })
  return Option.none()
})
