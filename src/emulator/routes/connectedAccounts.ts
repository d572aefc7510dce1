/**
 * Connected accounts and OAuth provider connections (PROTOCOL.md §3.6, §3.8), from the SDK's
 * definitions (`ConnectedAccounts.ts`):
 *
 * - `GET /connected-accounts/{user_id|me}` → `{ items: [{user_id, provider, provider_account_id}], is_paginated: false }`;
 * - `POST /connected-accounts/{user_id|me}/{provider_id}[/{provider_account_id}]/access-token` `{scope?}`
 *   → 201 `{access_token}` from the mock provider. Checked in this order: provider enabled
 *   (`OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED`), own keys (`OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS`
 *   for shared keys, as a production service answers — the recorded 201s for shared keys came
 *   from a development switch, see the wire samples' README), a connection of the user
 *   (`OAUTH_CONNECTION_NOT_CONNECTED_TO_USER`), every requested scope granted
 *   (`OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE`);
 * - `GET /oauth-providers?user_id=` → the user's connections (`account_id` with server access).
 *
 * A client may only address its own user (`me` or its id); server access may address anyone.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import { accessTokenEndpoint, accountAccessTokenEndpoint, listEndpoint, listOAuthProvidersEndpoint } from "../../connected-accounts/internal/connectedAccounts.js"
import {
  CannotGetOwnUserWithoutUser,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionDoesNotHaveRequiredScope,
  OauthConnectionNotConnectedToUser,
  OauthProviderNotFoundOrNotEnabled,
  UserNotFound
} from "../../core/KnownErrors.js"
import * as MockProvider from "../OAuthProvider.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import * as Endpoints from "../Endpoints.js"
import type { Handler } from "../Router.js"
import { route } from "../Router.js"
import type { UserRecord } from "../State.js"

/** The user a client request addresses by `user_id`: `me` or its own id (403 text for another). */
const clientUserOf = (context: RequestContext, userId: string): Effect.Effect<UserRecord, CannotGetOwnUserWithoutUser | TextFailure> =>
  userId === "me"
    ? requireMe(context)
    : context.auth?.user !== undefined && context.auth.user.id === userId
      ? Effect.succeed(context.auth.user)
      : Effect.fail(new TextFailure({ status: 403, text: "Client can only access its own user's OAuth connections." }))

/** The user a server request addresses by `user_id`: `me` or any existing user (USER_NOT_FOUND). */
const serverUserOf = (context: RequestContext, userId: string): Effect.Effect<UserRecord, CannotGetOwnUserWithoutUser | UserNotFound> => {
  if (userId === "me") return requireMe(context)
  const user = projectOf(context).users.get(userId)
  return user === undefined ? Effect.fail(UserNotFound.make({})) : Effect.succeed(user)
}

const accessToken = <E>(
  userOf: (context: RequestContext, userId: string) => Effect.Effect<UserRecord, E>,
  context: RequestContext,
  input: { readonly userId: string; readonly providerId: string; readonly providerAccountId?: string; readonly scope: string | undefined }
) =>
  Effect.gen(function* () {
    const user = yield* userOf(context, input.userId)
    const provider = projectOf(context).config.oauthProviders.find((candidate) => candidate.id === input.providerId)
    if (provider === undefined) return yield* Effect.fail(OauthProviderNotFoundOrNotEnabled.make({}))
    if (provider.type === "shared") return yield* Effect.fail(OauthAccessTokenNotAvailableWithSharedOauthKeys.make({}))
    const accounts = user.oauthAccounts.filter(
      (account) =>
        account.providerConfigId === provider.id &&
        account.allowConnectedAccounts &&
        (input.providerAccountId === undefined || account.accountId === input.providerAccountId)
    )
    if (accounts.length === 0) return yield* Effect.fail(OauthConnectionNotConnectedToUser.make({}))
    const requested = (input.scope ?? "").split(" ").filter((scope) => scope.length > 0)
    const account = accounts.find((candidate) => requested.every((scope) => candidate.grantedScopes.includes(scope)))
    if (account === undefined) return yield* Effect.fail(OauthConnectionDoesNotHaveRequiredScope.make({}))
    return { accessToken: Redacted.make(MockProvider.issueAccessToken()) }
  })

/** The connected-account handlers at one access level, `userOf` resolving the addressed user. */
const handlers = <E>(userOf: (context: RequestContext, userId: string) => Effect.Effect<UserRecord, E>) => ({
  list: (input: Parameters<Handler<typeof listEndpoint>>[0], context: RequestContext) =>
    Effect.map(userOf(context, input.params.userId), (user) => ({
      items: user.oauthAccounts
        .filter((account) => account.allowConnectedAccounts)
        .map((account) => ({ userId: user.id, provider: account.providerConfigId, providerAccountId: account.accountId })),
      isPaginated: false as const
    })),
  accessToken: ({ params, payload }: Parameters<Handler<typeof accessTokenEndpoint>>[0], context: RequestContext) =>
    accessToken(userOf, context, { userId: params.userId, providerId: params.providerId, scope: payload.scope }),
  accountAccessToken: ({ params, payload }: Parameters<Handler<typeof accountAccessTokenEndpoint>>[0], context: RequestContext) =>
    accessToken(userOf, context, {
      userId: params.userId,
      providerId: params.providerId,
      providerAccountId: params.providerAccountId,
      scope: payload.scope
    }),
  listOAuthProviders: ({ query }: Parameters<Handler<typeof listOAuthProvidersEndpoint>>[0], context: RequestContext) =>
    Effect.map(userOf(context, query.userId), (user) => ({
      items: user.oauthAccounts.map((account) => ({
        id: account.id,
        userId: user.id,
        type: account.provider,
        providerConfigId: account.providerConfigId,
        email: account.email,
        allowSignIn: account.allowSignIn,
        allowConnectedAccounts: account.allowConnectedAccounts,
        ...(context.auth?.type === "client" ? {} : { accountId: account.accountId })
      })),
      isPaginated: false as const
    }))
})

const client = handlers(clientUserOf)
const server = handlers(serverUserOf)
const served = Endpoints.serverConnectedAccounts

/** The connected-account routes (client access: the signed-in user's; server access: any user's). */
export const routes = [
  route(listEndpoint, client.list),
  route(accessTokenEndpoint, client.accessToken, { emptyBody: {} }),
  route(accountAccessTokenEndpoint, client.accountAccessToken, { emptyBody: {} }),
  route(listOAuthProvidersEndpoint, client.listOAuthProviders),
  route(served.list, server.list),
  route(served.accessToken, server.accessToken, { emptyBody: {} }),
  route(served.accountAccessToken, server.accountAccessToken, { emptyBody: {} }),
  route(served.listOAuthProviders, server.listOAuthProviders)
]
