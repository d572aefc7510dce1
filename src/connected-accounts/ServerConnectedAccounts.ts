/**
 * Any user's connected accounts by user id, with server access (PROTOCOL.md §3.6, §3.8; SPEC.md
 * §7: the server variant of the access-token route includes the user id): the same calls as
 * `ConnectedAccounts` (the signed-in user's), each taking the user's id first. The official SDK
 * has them on a server user (`serverUser.getConnectedAccount(…)`).
 *
 * As on the client, a provider access token that cannot be had because the connection lacks a
 * scope or the user has no such connection is `Option.none()`. An unknown user fails with
 * `UserNotFound`; a user id that is not a uuid with `InvalidArgument` (nothing sent).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Endpoint from "../core/Endpoint.js"
import type { AccessTokenOptions } from "./ConnectedAccounts.js"
import { accessTokenEndpoint, accountAccessTokenEndpoint, listEndpoint, listOAuthProvidersEndpoint } from "./internal/serverConnectedAccounts.js"

/**
 * A user's connected provider accounts. `GET /connected-accounts/{user_id}`; needs server access.
 * Fails with `UserNotFound`.
 */
export const list = Effect.fn("ServerConnectedAccounts.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(listEndpoint, { params: { userId } })
  return answer.items
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
