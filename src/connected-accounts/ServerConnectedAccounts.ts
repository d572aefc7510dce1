/**
 * Any user's connected accounts by user id, with server access (PROTOCOL.md §3.6, §3.8; SPEC.md
 * §7: the server variant of the access-token route includes the user id): the same calls as
 * `ConnectedAccounts` (the signed-in user's), each taking the user's id first, and the creation of
 * a connection (the official `serverApp.createOAuthProvider`). The official SDK has them on a
 * server user (`serverUser.getConnectedAccount(…)`, `serverUser.listOAuthProviders()`).
 *
 * As on the client, a provider access token that cannot be had because the connection lacks a
 * scope or the user has no such connection is `Option.none()` from {@link getAccessToken}, and
 * `OauthAccessTokenNotAvailable` from a connection's own `getAccessToken`. An unknown user fails
 * with `UserNotFound`; a user id that is not a uuid with `InvalidArgument` (nothing sent). The
 * link flow (`or: "redirect"`) is a client's: the official server user refuses it too.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { OauthAccessTokenNotAvailable } from "../core/KnownErrors.js"
import type { AccessTokenOptions, AccountRef, ConnectionAccessTokenOptions } from "./ConnectedAccounts.js"
import type { ConnectedAccount } from "./internal/connectedAccounts.js"
import { mapTextErrors, providerNotConfiguredText, tokenNotAvailableDetails } from "./internal/connectedAccounts.js"
import {
  accessTokenEndpoint,
  accountAccessTokenEndpoint,
  createOAuthProviderEndpoint,
  deleteOAuthProviderEndpoint,
  listEndpoint,
  listOAuthProvidersEndpoint,
  updateOAuthProviderEndpoint
} from "./internal/serverConnectedAccounts.js"
import type { OAuthProviderCreate, OAuthProviderServerUpdate } from "./internal/serverConnectedAccounts.js"

/** The domain's schemas, defined with its wire definitions (`internal/serverConnectedAccounts.ts`). */
export { OAuthProviderCreate, OAuthProviderServerUpdate } from "./internal/serverConnectedAccounts.js"

/**
 * The project does not configure this provider: the service's 404 text "OAuth provider {id} not
 * found or not configured" of `POST /oauth-providers`.
 */
export class OAuthProviderNotConfigured extends Data.TaggedError("OAuthProviderNotConfigured")<{
  readonly message: string
  /** The provider config id asked for. */
  readonly providerConfigId: string
}> {}

const scopeText = (scopes: ReadonlyArray<string> | undefined): string => (scopes ?? []).filter((scope) => scope.length > 0).join(" ")

/**
 * A provider access token of one of a user's connected accounts (the official server
 * `connection.getAccessToken({ scopes })`). `POST /connected-accounts/{user_id}/{provider}/{account}/access-token`
 * → 201; needs server access. Fails with `OauthAccessTokenNotAvailable` when the account's token
 * lacks a requested scope or the account is not connected; with `UserNotFound`,
 * `OauthProviderNotFoundOrNotEnabled`, `OauthAccessTokenNotAvailableWithSharedOauthKeys`.
 */
export const getConnectionAccessToken = Effect.fn("ServerConnectedAccounts.getConnectionAccessToken")(function* (
  account: Pick<ConnectedAccount, "userId" | "provider" | "providerAccountId">,
  options: ConnectionAccessTokenOptions = {}
) {
  const scope = scopeText(options.scopes)
  return yield* Endpoint.call(accountAccessTokenEndpoint, {
    params: { userId: account.userId, providerId: account.provider, providerAccountId: account.providerAccountId },
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

/** A user's connected provider account with its own access-token read (server access). */
export interface ServerOAuthConnection extends ConnectedAccount {
  /** {@link getConnectionAccessToken} for this account. */
  readonly getAccessToken: (options?: ConnectionAccessTokenOptions) => ReturnType<typeof getConnectionAccessToken>
}

const connectionOf = (account: ConnectedAccount): ServerOAuthConnection => ({
  ...account,
  getAccessToken: (options) => getConnectionAccessToken(account, options)
})

/**
 * A user's connected provider accounts (those that allow connected-account use), each with its own
 * `getAccessToken`. `GET /connected-accounts/{user_id}`; needs server access. Fails with `UserNotFound`.
 */
export const list = Effect.fn("ServerConnectedAccounts.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(listEndpoint, { params: { userId } })
  return answer.items.map(connectionOf)
})

/**
 * A provider access token for a user's connected account, or `Option.none()` when the connection
 * lacks a requested scope or the user has no such connection.
 * `POST /connected-accounts/{user_id}/{provider}[/{accountId}]/access-token` → 201; needs server
 * access. Fails with `UserNotFound`, `OauthProviderNotFoundOrNotEnabled`,
 * `OauthAccessTokenNotAvailableWithSharedOauthKeys` (the project uses the service's shared OAuth keys).
 */
export const getAccessToken = Effect.fn("ServerConnectedAccounts.getAccessToken")(function* (
  userId: string,
  options: AccessTokenOptions
) {
  const scope = typeof options.scope === "string" ? options.scope : options.scope?.join(" ")
  const payload = scope === undefined || scope === "" ? {} : { scope }
  const request = options.accountId === undefined
    ? Endpoint.call(accessTokenEndpoint, { params: { userId, providerId: options.provider }, payload })
    : Endpoint.call(accountAccessTokenEndpoint, {
      params: { userId, providerId: options.provider, providerAccountId: options.accountId },
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
 * A user's OAuth provider connections; with server access each carries its provider `accountId`.
 * `GET /oauth-providers?user_id=<id>`; needs server access. Fails with `UserNotFound`.
 */
export const listOAuthProviders = Effect.fn("ServerConnectedAccounts.listOAuthProviders")(function* (userId: string) {
  const answer = yield* Endpoint.call(listOAuthProvidersEndpoint, { query: { userId } })
  return answer.items
})

/**
 * One OAuth provider connection of a user by its id (the official `getOAuthProvider(id)` on a
 * server user), or `Option.none()` when the user has no such connection. Reads
 * {@link listOAuthProviders}. Fails with `UserNotFound`.
 */
export const getOAuthProvider = Effect.fn("ServerConnectedAccounts.getOAuthProvider")(function* (userId: string, id: string) {
  const connections = yield* listOAuthProviders(userId)
  return Option.fromNullishOr(connections.find((connection) => connection.id === id))
})

/** Options of {@link get} by provider (server access: no link flow). */
export interface GetOptions<O extends "return-null" | "throw" = "return-null" | "throw"> {
  /** `"return-null"` (default): `Option.none()`; `"throw"`: fails with `OauthAccessTokenNotAvailable`. */
  readonly or?: O
  /** Provider scopes the connection's token must carry. */
  readonly scopes?: ReadonlyArray<string> | undefined
}

const getByProvider = Effect.fn("ServerConnectedAccounts.get")(function* (userId: string, provider: string, options: GetOptions) {
  const accounts = yield* list(userId)
  for (const account of accounts) {
    if (account.provider !== provider) continue
    const usable = yield* getConnectionAccessToken(account, { scopes: options.scopes }).pipe(
      Effect.map(() => true),
      Effect.catchTag("OauthAccessTokenNotAvailable", () => Effect.succeed(false))
    )
    if (usable) return options.or === "throw" ? account : Option.some(account)
  }
  if (options.or === "throw") {
    return yield* Effect.fail(OauthAccessTokenNotAvailable.make({ provider, details: tokenNotAvailableDetails(scopeText(options.scopes)) }))
  }
  return Option.none<ServerOAuthConnection>()
})

const getByAccount = Effect.fn("ServerConnectedAccounts.get")(function* (userId: string, account: AccountRef) {
  const accounts = yield* list(userId)
  return Option.fromNullishOr(
    accounts.find((candidate) => candidate.provider === account.provider && candidate.providerAccountId === account.providerAccountId)
  )
})

type BaseError = Effect.Error<ReturnType<typeof list>> | Exclude<Effect.Error<ReturnType<typeof getConnectionAccessToken>>, OauthAccessTokenNotAvailable>
type Requirements = Effect.Services<ReturnType<typeof list>> | Effect.Services<ReturnType<typeof getConnectionAccessToken>>

/**
 * One of a user's connected accounts (the official `serverUser.getConnectedAccount`): by
 * `{ provider, providerAccountId }` that account or `Option.none()`; by provider id, the first
 * connected account of that provider whose access token carries `scopes` (each account's token
 * is asked in turn), else `Option.none()` — or, with `or: "throw"`, `OauthAccessTokenNotAvailable`.
 * Needs server access. Fails with `UserNotFound`.
 */
export function get(userId: string, account: AccountRef): Effect.Effect<Option.Option<ServerOAuthConnection>, BaseError, Requirements>
export function get<const O extends "return-null" | "throw" = "return-null">(
  userId: string,
  provider: string,
  options?: GetOptions<O>
): Effect.Effect<
  [O] extends ["throw"] ? ServerOAuthConnection : Option.Option<ServerOAuthConnection>,
  BaseError | (O extends "throw" ? OauthAccessTokenNotAvailable : never),
  Requirements
>
export function get(
  userId: string,
  target: string | AccountRef,
  options: GetOptions = {}
): Effect.Effect<Option.Option<ServerOAuthConnection> | ServerOAuthConnection, BaseError | OauthAccessTokenNotAvailable, Requirements> {
  return typeof target === "string" ? getByProvider(userId, target, options) : getByAccount(userId, target)
}

// a change of a connection changes the user's lists and the user's `oauthProviders`
const invalidatesConnections = QueryCache.invalidating(["oauth-providers"], ["connected-accounts"], ["user"])

/**
 * Links a provider account to a user (the official `serverApp.createOAuthProvider`): a connection
 * of a provider the project configures, with its sign-in and connected-account switches.
 * `POST /oauth-providers` → 201, the connection (with its `accountId`); needs server access.
 *
 * Checked as the service checks:
 * the provider first ({@link OAuthProviderNotConfigured}), then the user (`UserNotFound`); then
 * `OAuthProviderConflict` (`"sign-in"`: with `allowSignIn`, the user already signs in with another
 * connection of the provider; `"account"`: the user already has a connection of the provider with
 * this account id) and `OauthProviderAccountIdAlreadyUsedForSignIn` (with `allowSignIn`, another
 * connection signs in with this account id).
 */
export const createOAuthProvider = Effect.fn("ServerConnectedAccounts.createOAuthProvider")(function* (input: OAuthProviderCreate) {
  return yield* mapTextErrors(Endpoint.call(createOAuthProviderEndpoint, { payload: input })).pipe(
    Effect.mapError((error) =>
      error instanceof HttpError && error.status === 404 && error.body.trim() === providerNotConfiguredText(input.providerConfigId)
        ? new OAuthProviderNotConfigured({ message: error.body.trim(), providerConfigId: input.providerConfigId })
        : error
    ),
    invalidatesConnections
  )
})

/**
 * Changes a user's connection (the official server `oauthProvider.update`): its sign-in and
 * connected-account switches, its e-mail, its account id. `PATCH /oauth-providers/{user_id}/{id}`
 * → the connection as changed; needs server access. Fails with `UserNotFound`,
 * `OAuthProviderNotFound`, `OAuthProviderConflict`, `OauthProviderAccountIdAlreadyUsedForSignIn`
 * (checked as {@link createOAuthProvider}; without `accountId` the service compares with every
 * other connection of the project that signs in).
 */
export const updateOAuthProvider = Effect.fn("ServerConnectedAccounts.updateOAuthProvider")(function* (
  userId: string,
  id: string,
  changes: OAuthProviderServerUpdate
) {
  return yield* mapTextErrors(Endpoint.call(updateOAuthProviderEndpoint, { params: { userId, providerId: id }, payload: changes })).pipe(
    invalidatesConnections
  )
})

/**
 * Removes a user's connection (the official server `oauthProvider.delete()`).
 * `DELETE /oauth-providers/{user_id}/{id}`; needs server access. Fails with `UserNotFound`,
 * `OAuthProviderNotFound`.
 */
export const deleteOAuthProvider = Effect.fn("ServerConnectedAccounts.deleteOAuthProvider")(function* (userId: string, id: string) {
  yield* mapTextErrors(Endpoint.call(deleteOAuthProviderEndpoint, { params: { userId, providerId: id } })).pipe(invalidatesConnections)
})
