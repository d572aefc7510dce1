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
import { route } from "../Router.js"
import type { UserRecord } from "../State.js"

/** The user addressed by `user_id`: `me`, or an id (a client only its own). */
const userOf = (context: RequestContext, userId: string) =>
  Effect.gen(function* () {
    if (userId === "me") return yield* requireMe(context)
    const project = projectOf(context)
    if (context.auth?.type === "client") {
      if (context.auth.user?.id !== userId) {
        return yield* Effect.fail(new TextFailure({ status: 403, text: "Client can only access its own user's OAuth connections." }))
      }
      return context.auth.user
    }
    const user = project.users.get(userId)
    if (user === undefined) return yield* Effect.fail(UserNotFound.make({}))
    return user
  })

const accessToken = (
  context: RequestContext,
  input: { readonly userId: string; readonly providerId: string; readonly providerAccountId?: string; readonly scope: string | undefined }
) =>
  Effect.gen(function* () {
    const user: UserRecord = yield* userOf(context, input.userId)
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

/** The connected-account routes. */
export const routes = [
  route(listEndpoint, ({ params }, context) =>
    Effect.map(userOf(context, params.userId), (user) => ({
      items: user.oauthAccounts
        .filter((account) => account.allowConnectedAccounts)
        .map((account) => ({ userId: user.id, provider: account.providerConfigId, providerAccountId: account.accountId })),
      isPaginated: false as const
    }))
  ),
  route(
    accessTokenEndpoint,
    ({ params, payload }, context) =>
      accessToken(context, { userId: params.userId, providerId: params.providerId, scope: payload.scope }),
    { emptyBody: {} }
  ),
  route(
    accountAccessTokenEndpoint,
    ({ params, payload }, context) =>
      accessToken(context, {
        userId: params.userId,
        providerId: params.providerId,
        providerAccountId: params.providerAccountId,
        scope: payload.scope
      }),
    { emptyBody: {} }
  ),
  route(listOAuthProvidersEndpoint, ({ query }, context) =>
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
  )
]
