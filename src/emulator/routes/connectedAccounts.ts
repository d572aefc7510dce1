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
 * - `GET|PATCH|DELETE /oauth-providers/{user_id|me}/{id}` and `POST /oauth-providers` (server), as
 *   the service answers them (backend `apps/backend/src/app/api/latest/oauth-providers/crud.tsx`
 *   @1694a094; its answers unchanged at 2f719903): a client without a user is `CANNOT_GET_OWN_USER_WITHOUT_USER`, a client for
 *   another user a 403 text per operation ("Client can only read|update|delete|list OAuth
 *   providers for their own user."); an unknown user `USER_NOT_FOUND`; a connection the user does
 *   not have the 404 text "OAuth provider {id} for user {user_id} not found"; `POST` with a
 *   provider the project does not configure the 404 text "OAuth provider {id} not found or not
 *   configured" (checked before the user). Enabling sign-in is refused when the user already
 *   signs in with another connection of that provider (400 text), and when another connection
 *   signs in with the same account id (`OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN`; on
 *   PATCH without `account_id` the service compares with every other sign-in connection of the
 *   project, as its query has no account filter then); a second connection of the user with the
 *   same provider and account id is a 400 text. A connection's `email` is left out when it has none.
 *
 * A client may only address its own user (`me` or its id); server access may address anyone.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import {
  accessTokenEndpoint,
  accountAccessTokenEndpoint,
  connectionNotFoundText,
  listEndpoint,
  listOAuthProvidersEndpoint,
  providerNotConfiguredText,
  sameProviderAccountText,
  sameProviderSignInText
} from "../../connected-accounts/internal/connectedAccounts.js"
import {
  CannotGetOwnUserWithoutUser,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  OauthConnectionAlreadyConnectedToAnotherUser,
  OauthConnectionDoesNotHaveRequiredScope,
  OauthConnectionNotConnectedToUser,
  OauthProviderAccountIdAlreadyUsedForSignIn,
  OauthProviderNotFoundOrNotEnabled,
  UserNotFound
} from "../../core/KnownErrors.js"
import * as MockProvider from "../OAuthProvider.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import * as Endpoints from "../Endpoints.js"
import type { Handler } from "../Router.js"
import { route } from "../Router.js"
import { randomUuid } from "../Random.js"
import type { OAuthAccountRecord, UserRecord } from "../State.js"

/** What a client does to a user's connections, as the service's 403 texts name it. */
type ClientOperation = "read" | "update" | "delete" | "list"

/** The service's 403 text of a client addressing another user's connections. */
export const otherUserText = (operation: ClientOperation): string => `Client can only ${operation} OAuth providers for their own user.`

/**
 * The user a client request addresses by `user_id`: a signed-in user (`CANNOT_GET_OWN_USER_WITHOUT_USER`
 * otherwise), `me` or its own id (403 text for another).
 */
const clientUserOf =
  (operation: ClientOperation) => (context: RequestContext, userId: string): Effect.Effect<UserRecord, CannotGetOwnUserWithoutUser | TextFailure> => {
    const user = context.auth?.user
    if (user === undefined) return Effect.fail(CannotGetOwnUserWithoutUser.make({}))
    return userId === "me" || userId === user.id ? Effect.succeed(user) : Effect.fail(new TextFailure({ status: 403, text: otherUserText(operation) }))
  }

/** The service's 403 text of a client listing another user's connected accounts (`connected-accounts/[user_id]/crud.tsx` at 2f719903). */
export const otherUserListText = "Client can only list connected accounts for their own user."

/** The service's 403 text of a client asking another user's access token (`…/access-token/crud.tsx` at 2f719903). */
export const otherUserTokenText = "Client can only access its own connected accounts"

/** The user a client's connected-accounts request addresses by `user_id`: `me` or its own id (403 `text` for another). */
const clientUserOfConnectedAccounts =
  (text: string) => (context: RequestContext, userId: string): Effect.Effect<UserRecord, CannotGetOwnUserWithoutUser | TextFailure> =>
    userId === "me"
      ? requireMe(context)
      : context.auth?.user !== undefined && context.auth.user.id === userId
      ? Effect.succeed(context.auth.user)
      : Effect.fail(new TextFailure({ status: 403, text }))

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
    // the service refuses a client's other user first, then checks the provider and its keys, then
    // reads the user (USER_NOT_FOUND): connected-accounts/[user_id]/[provider_id]/…/access-token/crud.tsx at 2f719903
    const clientUser = context.auth?.type === "client" ? yield* userOf(context, input.userId) : undefined
    const provider = projectOf(context).config.oauthProviders.find((candidate) => candidate.id === input.providerId)
    if (provider === undefined) return yield* Effect.fail(OauthProviderNotFoundOrNotEnabled.make({}))
    // shared keys give no token unless the deployment sets STACK_ALLOW_SHARED_OAUTH_ACCESS_TOKENS
    // (`isSharedAccessTokenBlocked`, access-token-helpers.tsx at 2f719903; the emulator never does)
    if (provider.type === "shared") return yield* Effect.fail(OauthAccessTokenNotAvailableWithSharedOauthKeys.make({}))
    const user = clientUser ?? (yield* userOf(context, input.userId))
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
        ...(account.email === null || account.email === "" ? {} : { email: account.email }),
        allowSignIn: account.allowSignIn,
        allowConnectedAccounts: account.allowConnectedAccounts,
        ...(context.auth?.type === "client" ? {} : { accountId: account.accountId })
      })),
      isPaginated: false as const
    }))
})

/** The wire view of a connection (server views carry `account_id`; no `email` when it has none). */
const connectionView = (context: RequestContext, user: UserRecord, account: OAuthAccountRecord) => ({
  id: account.id,
  userId: user.id,
  type: account.provider,
  providerConfigId: account.providerConfigId,
  ...(account.email === null || account.email === "" ? {} : { email: account.email }),
  allowSignIn: account.allowSignIn,
  allowConnectedAccounts: account.allowConnectedAccounts,
  ...(context.auth?.type === "client" ? {} : { accountId: account.accountId })
})

/** The service's plain-text refusals of `/oauth-providers`, defined with the SDK's wire definitions (which types them). */
export { connectionNotFoundText, providerNotConfiguredText, sameProviderAccountText, sameProviderSignInText }

/**
 * The service's checks before a connection is created or changed (its `checkInputValidity`),
 * `existing` being the connection changed (left out of every comparison).
 */
const checkInputValidity = (
  context: RequestContext,
  input: {
    readonly user: UserRecord
    readonly providerConfigId: string
    readonly accountId: string | undefined
    readonly allowSignIn: boolean | undefined
    readonly existing?: OAuthAccountRecord
  }
) =>
  Effect.gen(function* () {
    const others = [...projectOf(context).users.values()].flatMap((owner) =>
      owner.oauthAccounts.filter((account) => account !== input.existing).map((account) => ({ owner, account }))
    )
    const ownOfProvider = others.filter(({ owner, account }) => owner.id === input.user.id && account.providerConfigId === input.providerConfigId)
    if (input.allowSignIn === true && ownOfProvider.some(({ account }) => account.allowSignIn)) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: sameProviderSignInText }))
    }
    if (input.accountId !== undefined && ownOfProvider.some(({ account }) => account.accountId === input.accountId)) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: sameProviderAccountText }))
    }
    // without an account id the service's query has no account filter: any other sign-in connection counts
    if (
      input.allowSignIn === true &&
      others.some(({ account }) => account.allowSignIn && (input.accountId === undefined || account.accountId === input.accountId))
    ) {
      return yield* Effect.fail(OauthProviderAccountIdAlreadyUsedForSignIn.make({}))
    }
  })

/** The handlers of `/oauth-providers/{user_id}/{id}` at one access level, `userOf(operation)` resolving the addressed user. */
const connectionHandlers = <E>(userOf: (operation: ClientOperation) => (context: RequestContext, userId: string) => Effect.Effect<UserRecord, E>) => {
  const find = (operation: ClientOperation, context: RequestContext, params: { readonly userId: string; readonly providerId: string }) =>
    Effect.gen(function* () {
      const user = yield* userOf(operation)(context, params.userId)
      const account = user.oauthAccounts.find((candidate) => candidate.id === params.providerId)
      if (account === undefined) return yield* Effect.fail(new TextFailure({ status: 404, text: connectionNotFoundText(params.providerId, user.id) }))
      return { user, account }
    })
  return {
    get: ({ params }: Parameters<Handler<typeof Endpoints.getOAuthProvider>>[0], context: RequestContext) =>
      Effect.map(find("read", context, params), ({ user, account }) => connectionView(context, user, account)),
    update: ({ params, payload }: Parameters<Handler<typeof Endpoints.updateOAuthProvider>>[0], context: RequestContext) =>
      Effect.gen(function* () {
        if (context.auth?.type === "client" && (payload.email !== undefined || payload.accountId !== undefined)) {
          const keys = [payload.email !== undefined ? "email" : undefined, payload.accountId !== undefined ? "account_id" : undefined].filter((key) =>
            key !== undefined
          )
          return yield* Effect.fail(schemaError(context, [`body contains unknown properties: ${keys.join(", ")}`]))
        }
        const { user, account } = yield* find("update", context, params)
        yield* checkInputValidity(context, {
          user,
          providerConfigId: account.providerConfigId,
          accountId: payload.accountId,
          allowSignIn: payload.allowSignIn,
          existing: account
        })
        if (payload.allowSignIn !== undefined) account.allowSignIn = payload.allowSignIn
        if (payload.allowConnectedAccounts !== undefined) account.allowConnectedAccounts = payload.allowConnectedAccounts
        if (payload.email !== undefined) account.email = payload.email
        if (payload.accountId !== undefined) {
          const replaced: OAuthAccountRecord = { ...account, accountId: payload.accountId }
          user.oauthAccounts.splice(user.oauthAccounts.indexOf(account), 1, replaced)
          return connectionView(context, user, replaced)
        }
        return connectionView(context, user, account)
      }),
    delete: ({ params }: Parameters<Handler<typeof Endpoints.deleteOAuthProvider>>[0], context: RequestContext) =>
      Effect.map(find("delete", context, params), ({ user, account }) => {
        user.oauthAccounts.splice(user.oauthAccounts.indexOf(account), 1)
        return { success: true as const }
      })
  }
}

/**
 * `POST /oauth-providers` (server): links a provider account of an enabled provider to an existing
 * user. `user_id: "me"` is the request's user, resolved (or refused with
 * `CANNOT_GET_OWN_USER_WITHOUT_USER`) before anything else, as the service's schema validation does.
 */
const createConnection = ({ payload }: Parameters<Handler<typeof Endpoints.createOAuthProvider>>[0], context: RequestContext) =>
  Effect.gen(function* () {
    const project = projectOf(context)
    const me = payload.userId === "me" ? yield* requireMe(context) : undefined
    const provider = project.config.oauthProviders.find((candidate) => candidate.id === payload.providerConfigId)
    if (provider === undefined) return yield* Effect.fail(new TextFailure({ status: 404, text: providerNotConfiguredText(payload.providerConfigId) }))
    const user = me ?? project.users.get(payload.userId)
    if (user === undefined) return yield* Effect.fail(UserNotFound.make({}))
    yield* checkInputValidity(context, { user, providerConfigId: provider.id, accountId: payload.accountId, allowSignIn: payload.allowSignIn })
    // not the service's check (its answer here is not known): the emulator keeps one user per provider account
    for (const other of project.users.values()) {
      if (other.id === user.id) continue
      if (other.oauthAccounts.some((account) => account.providerConfigId === provider.id && account.accountId === payload.accountId)) {
        return yield* Effect.fail(OauthConnectionAlreadyConnectedToAnotherUser.make({}))
      }
    }
    const account: OAuthAccountRecord = {
      id: randomUuid(),
      providerConfigId: provider.id,
      provider: provider.provider,
      accountId: payload.accountId,
      email: payload.email ?? null,
      allowSignIn: payload.allowSignIn,
      allowConnectedAccounts: payload.allowConnectedAccounts,
      grantedScopes: [...MockProvider.baseScopes(provider.provider)]
    }
    user.oauthAccounts.push(account)
    return connectionView(context, user, account)
  })

/**
 * `GET /oauth-providers` without `user_id` (an overload after the SDK's, which needs it): server
 * access lists the connections of every user of the project, in creation order as far as the
 * emulator keeps it (users in creation order, each user's in order); a client is refused as for
 * another user (its user is not the missing `user_id`), `CANNOT_GET_OWN_USER_WITHOUT_USER` without a user.
 */
const listAllConnectionsEndpoint = Endpoint.make({
  name: "Emulator.listAllOAuthProviders",
  method: "GET",
  path: "/oauth-providers",
  access: "client",
  session: "optional",
  // no query schema: the router refuses any query key (a user_id the SDK's entry refused stays refused)
  success: listOAuthProvidersEndpoint.success,
  errors: [CannotGetOwnUserWithoutUser]
})

const listAllConnections = (_input: unknown, context: RequestContext) =>
  Effect.gen(function* () {
    if (context.auth?.type === "client") {
      if (context.auth.user === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      return yield* Effect.fail(new TextFailure({ status: 403, text: otherUserText("list") }))
    }
    const users = [...projectOf(context).users.values()]
    return {
      items: users.flatMap((user) => user.oauthAccounts.map((account) => connectionView(context, user, account))),
      isPaginated: false as const
    }
  })

const clientConnections = connectionHandlers(clientUserOf)
const serverConnections = connectionHandlers(() => serverUserOf)

const clientList = handlers(clientUserOfConnectedAccounts(otherUserListText))
const client = handlers(clientUserOfConnectedAccounts(otherUserTokenText))
const server = handlers(serverUserOf)
const served = Endpoints.serverConnectedAccounts

/** The connected-account routes (client access: the signed-in user's; server access: any user's). */
export const routes = [
  route(listEndpoint, clientList.list),
  route(accessTokenEndpoint, client.accessToken, { emptyBody: {} }),
  route(accountAccessTokenEndpoint, client.accountAccessToken, { emptyBody: {} }),
  route(listOAuthProvidersEndpoint, handlers(clientUserOf("list")).listOAuthProviders),
  route(listAllConnectionsEndpoint, listAllConnections),
  route(served.list, server.list),
  route(served.accessToken, server.accessToken, { emptyBody: {} }),
  route(served.accountAccessToken, server.accountAccessToken, { emptyBody: {} }),
  route(served.listOAuthProviders, server.listOAuthProviders),
  route(Endpoints.servedAt(listAllConnectionsEndpoint, "server", []), listAllConnections),
  route(Endpoints.getOAuthProvider, clientConnections.get),
  route(Endpoints.updateOAuthProvider, clientConnections.update),
  route(Endpoints.deleteOAuthProvider, clientConnections.delete),
  route(Endpoints.serverOAuthProviders.get, serverConnections.get),
  route(Endpoints.serverOAuthProviders.update, serverConnections.update),
  route(Endpoints.serverOAuthProviders.delete, serverConnections.delete),
  route(Endpoints.createOAuthProvider, createConnection)
]
