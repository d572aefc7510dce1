/**
 * OAuth on the service's side (PROTOCOL.md §2.1, §3.1.1, §7), against the emulator's mock
 * provider (`OAuthProvider.ts`):
 *
 * - `GET /auth/oauth/authorize/{provider_id}`: client id/secret (`INVALID_OAUTH_CLIENT_ID_OR_SECRET`,
 *   401 `INVALID_PUBLISHABLE_CLIENT_KEY`, `PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT`), provider
 *   enabled, trusted `after_callback_redirect_url` (`redirect_uri` is checked at the callback),
 *   `type=link` needs `token` (400 text), extra scopes refused with shared keys, S256 required
 *   (schema). Redirect mode: 307 to the provider + `stack-oauth-inner-<inner state>` cookie
 *   (HttpOnly, Max-Age 600); JSON mode: 200 `{location}`. The outer flow lasts 10 minutes.
 * - `GET /auth/oauth/callback/{provider_id}`: redirect mode needs the inner cookie (else 400 text,
 *   the flow survives); the provider code is exchanged (inner PKCE), the user is found, created or
 *   linked, and the browser is sent (303) to `redirect_uri?code=<outer code>&state=<app state>`.
 *   Errors a user can cause (`SIGN_UP_NOT_ENABLED`, `OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER`,
 *   `CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE`, `OAUTH_PROVIDER_ACCESS_DENIED`) are
 *   redirected to `redirect_uri` with `error`, `error_description`, `errorCode`, `message`, `details`.
 *   An untrusted `redirect_uri` is `REDIRECT_URL_NOT_WHITELISTED` there (after the provider's code
 *   is exchanged, before any user is touched); errors go to the error redirect URL when
 *   `redirect_uri` is untrusted and it is trusted, else they are the callback's JSON answer.
 * - The code grant of `POST /auth/oauth/token` is `OAuthCodeGrant.ts` (served by `tokens.ts`): one-time codes (5 minutes), `redirect_uri` equality (400 text), PKCE — a wrong
 *   verifier is `INVALID_AUTHORIZATION_CODE` and does not consume the code; TOTP users get
 *   `MULTI_FACTOR_AUTHENTICATION_REQUIRED`.
 * - The mock provider's pages (`/emulator/oauth-provider/{provider_id}/authorize`, GET and POST).
 *
 * Users: a returning provider account signs its user in; `type=link` attaches the account to
 * the token's user; otherwise, when the account's e-mail is a contact channel used for auth by a
 * user, the project's `oauth_account_merge_strategy` decides: `link_method` (the default) joins
 * that user only if THAT channel is verified (an unverified one is refused with
 * `CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE`, `would_work_if_email_was_verified`),
 * `raise_error` always refuses, `allow_duplicates` goes on as for a new e-mail. Then an anonymous
 * token's user is upgraded, and else a user is created (`primary_email_verified` true, no
 * password, `auth_with_email` false).
 *
 * The mock provider redirects only to this emulator's own OAuth callback
 * (`{api base}/api/v1/auth/oauth/callback/{provider_id}`); any other `redirect_uri` is a 400 text.
 *
 * @module
 */
import * as Cookies from "effect/http/Cookies"
import { Effect, Redacted } from "effect"
import { publicClientSentinel } from "../../core/Wire.js"
import type { KnownErrorInstance } from "../../core/KnownError.js"
import {
  ContactChannelAlreadyUsedForAuthBySomeoneElse,
  InvalidOauthClientIdOrSecret,
  InvalidPublishableClientKey,
  OauthConnectionAlreadyConnectedToAnotherUser,
  OauthExtraScopeNotAvailableWithSharedOauthKeys,
  OauthProviderAccessDenied,
  OauthProviderNotFoundOrNotEnabled,
  OauthProviderTemporarilyUnavailable,
  OuterOauthTimeout,
  PublishableClientKeyRequiredForProject,
  RedirectUrlNotWhitelisted,
  SignUpNotEnabled,
  UnparsableAccessToken
} from "../../core/KnownErrors.js"
import { verifyAccessToken } from "../AccessTokens.js"
import * as Endpoints from "../Endpoints.js"
import * as ExternalOAuth from "../ExternalOAuthProvider.js"
import * as MockProvider from "../OAuthProvider.js"
import { accessTokenExpired } from "../ProjectAuth.js"
import { randomBase64Url, randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { jsonResponse, TextFailure, textResponse } from "../Responses.js"
import { route } from "../Router.js"
import type { OAuthFlowRecord, ProjectRecord, ProviderRequest, UserRecord } from "../State.js"
import { grantUserDefaults } from "../Permissions.js"
import { createPersonalTeamIfEnabled } from "../Teams.js"
import { findAuthChannel, isKeySetValid, makeUser } from "../State.js"
import { serialized } from "../Store.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import { authorizationCodeLifetimeMillis } from "../OAuthCodeGrant.js"

/** How long an outer flow (authorize → callback) may take. */
export const outerFlowLifetimeMillis = 10 * 60 * 1000

/** How long an authorization code for the token endpoint lives (defined with the code grant). */
export { authorizationCodeLifetimeMillis }

/** Max-Age of the inner CSRF cookie of redirect mode, in seconds. */
export const innerCookieMaxAgeSeconds = 600

/** The name of the inner CSRF cookie of a redirect-mode flow. */
export const innerCookieName = (innerState: string): string => `stack-oauth-inner-${innerState}`

/** The 400 text of a redirect-mode callback without its inner cookie (wire sample oauth/15). */
export const missingInnerCookieText =
  "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again"

/** The 400 text of a callback whose `state` names no live flow. */
export const invalidStateText = "Invalid OAuth state. Please try signing in again."

/** The service's 400 text when the provider refuses the code (`invalid_grant`; `apps/backend/src/oauth/providers/base.tsx` at 2f719903). */
export const innerInvalidGrantText = "Inner OAuth callback failed due to invalid grant. Please try again."

/** The service's 400 text when the provider refuses the client (`invalid_client`; `providers/base.tsx` at 2f719903). */
export const innerInvalidClientText =
  "Invalid client credentials for this OAuth provider. Please ensure the configuration in the Stack Auth dashboard is correct."

/** The 400 text of the mock provider asked to redirect anywhere but the emulator's own OAuth callback. */
export const foreignRedirectUriText =
  "redirect_uri is not registered with this provider: the emulator's mock OAuth provider only redirects to the emulator's own OAuth callback."

const randomHex = (bytes: number): string => {
  const buffer = new Uint8Array(bytes)
  globalThis.crypto.getRandomValues(buffer)
  return [...buffer].map((byte) => byte.toString(16).padStart(2, "0")).join("")
}

const redirect = (status: 303 | 307, location: string, headers: Readonly<Record<string, string>> = {}): Response =>
  status === 307 ? new Response(null, { status, headers: { location, ...headers } }) : jsonResponse(303, {}, { headers: { location, ...headers } })

const callbackPath = (providerId: string): string => `/api/v1/auth/oauth/callback/${encodeURIComponent(providerId)}`

// ---------------------------------------------------------------------------------------------
// Authorize
// ---------------------------------------------------------------------------------------------

const authorize = (
  input: { readonly params: { readonly provider_id: string }; readonly query: typeof Endpoints.AuthorizeQueryOfService.Type },
  context: RequestContext,
  external: ExternalOAuth.Discovery | undefined
) =>
  Effect.gen(function* () {
    const { query } = input
    const { state } = context.env
    const [projectId = "", branchId = "main"] = query.clientId.split("#")
    const project = state.projects.get(projectId)
    if (project === undefined || branchId !== "main") {
      return yield* Effect.fail(InvalidOauthClientIdOrSecret.make({ client_id: query.clientId }))
    }
    const secret = Redacted.value(query.clientSecret)
    if (secret === publicClientSentinel) {
      if (project.requiresPublishableClientKey) {
        return yield* Effect.fail(PublishableClientKeyRequiredForProject.make({ project_id: project.id }))
      }
    } else if (!project.keys.some((keys) => keys.publishableClientKey === secret && isKeySetValid(keys, context.nowMillis))) {
      return yield* Effect.fail(InvalidPublishableClientKey.make({ project_id: project.id }))
    }
    const provider = project.config.oauthProviders.find((candidate) => candidate.id === input.params.provider_id)
    if (provider === undefined) return yield* Effect.fail(OauthProviderNotFoundOrNotEnabled.make({}))

    // As the service (apps/backend/src/app/api/latest/auth/oauth/authorize/[provider_id]/route.tsx at
    // 2f719903b181c20940159e9f3aaaa99bc3ec3b0f): only `after_callback_redirect_url` is checked here;
    // `redirect_uri` is checked at the callback, `error_redirect_uri` is used there only if trusted.
    const errorRedirectUrl = context.url.searchParams.get("error_redirect_uri") ?? query.errorRedirectUrl ?? undefined
    if (query.afterCallbackRedirectUrl !== undefined && !isTrustedUrl(project, query.afterCallbackRedirectUrl)) {
      return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
    }
    const type = query.type ?? "authenticate"
    if (type === "link" && query.token === undefined) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: "?token= query parameter is required for link type" }))
    }
    let tokenUserId: string | undefined
    if (query.token !== undefined) {
      const verified = yield* verifyAccessToken(Redacted.value(query.token), {
        projectOf: (id) => state.projects.get(id),
        nowMillis: context.nowMillis
      }).pipe(
        Effect.mapError((failure) =>
          failure._tag === "Unparsable"
            ? UnparsableAccessToken.make({})
            : accessTokenExpired({
              expired_at_millis: failure.expiredAtMillis,
              project_id: failure.projectId,
              user_id: failure.userId,
              refresh_token_id: failure.refreshTokenId
            })
        )
      )
      if (verified.project.id !== project.id) {
        return yield* Effect.fail(new TextFailure({ status: 403, text: "The access token is not valid for this project" }))
      }
      tokenUserId = project.users.has(verified.claims.sub) ? verified.claims.sub : undefined
      if (type === "link" && tokenUserId === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "The user of the access token does not exist anymore." }))
      }
    }
    const extraScopes = (query.providerScope ?? "").split(" ").filter((scope) => scope.length > 0)
    if (extraScopes.length > 0 && provider.type === "shared") {
      return yield* Effect.fail(OauthExtraScopeNotAvailableWithSharedOauthKeys.make({}))
    }

    const innerState = randomBase64Url(32)
    const innerVerifier = randomBase64Url(32)
    const providerRequest: ProviderRequest = {
      // the external server's client is the provider's kind (the service's MockProvider.create(providerType))
      clientId: external === undefined ? provider.id : provider.provider,
      redirectUri: `${context.apiBase}${callbackPath(provider.id)}`,
      state: innerState,
      codeChallenge: yield* MockProvider.challengeOf(innerVerifier),
      scopes: external === undefined ? [...new Set([...MockProvider.baseScopes(provider.provider), ...extraScopes])] : ExternalOAuth.scopesOf(extraScopes)
    }
    const responseMode = query.stackResponseMode ?? "redirect"
    state.oauthFlows.set(innerState, {
      projectId: project.id,
      provider,
      type,
      tokenUserId,
      redirectUri: query.redirectUri,
      errorRedirectUrl,
      afterCallbackRedirectUrl: query.afterCallbackRedirectUrl,
      state: query.state,
      codeChallenge: query.codeChallenge,
      // a missing method is `plain` (OAuth 2.0 PKCE, RFC 7636 §4.3), as the service takes it
      codeChallengeMethod: query.codeChallengeMethod ?? "plain",
      providerRequest,
      innerVerifier,
      responseMode,
      expiresAtMillis: context.nowMillis + outerFlowLifetimeMillis
    })
    const location = external === undefined
      ? MockProvider.authorizationUrl(context.apiBase, provider.id, providerRequest)
      : ExternalOAuth.authorizationUrl(external, providerRequest)
    if (responseMode === "json") return jsonResponse(200, { location })
    const expires = new Date(context.nowMillis + innerCookieMaxAgeSeconds * 1000).toUTCString()
    return redirect(307, location, {
      "set-cookie": `${innerCookieName(innerState)}=true; Path=/; Expires=${expires}; Max-Age=${innerCookieMaxAgeSeconds}; HttpOnly`
    })
  })

// ---------------------------------------------------------------------------------------------
// Callback
// ---------------------------------------------------------------------------------------------

/** The user a provider account signs in as (or is linked to), or the known error to redirect with. */
const resolveUser = (
  context: RequestContext,
  project: ProjectRecord,
  flow: OAuthFlowRecord,
  account: MockProvider.ProviderAccount
): Effect.Effect<
  { readonly user: UserRecord; readonly isNewUser: boolean },
  OauthConnectionAlreadyConnectedToAnotherUser | ContactChannelAlreadyUsedForAuthBySomeoneElse | SignUpNotEnabled
> =>
  Effect.gen(function* () {
    const findOwner = (): { readonly user: UserRecord; readonly index: number } | undefined => {
      for (const user of project.users.values()) {
        const index = user.oauthAccounts.findIndex(
          (candidate) => candidate.providerConfigId === flow.provider.id && candidate.accountId === account.accountId
        )
        if (index >= 0) return { user, index }
      }
      return undefined
    }
    const attach = (user: UserRecord) => {
      const existing = user.oauthAccounts.find(
        (candidate) => candidate.providerConfigId === flow.provider.id && candidate.accountId === account.accountId
      )
      if (existing !== undefined) {
        existing.email = account.email
        existing.grantedScopes = [...new Set([...existing.grantedScopes, ...account.scopes])]
        return
      }
      user.oauthAccounts.push({
        id: randomUuid(),
        providerConfigId: flow.provider.id,
        provider: flow.provider.provider,
        accountId: account.accountId,
        email: account.email,
        allowSignIn: true,
        allowConnectedAccounts: true,
        grantedScopes: [...account.scopes]
      })
    }
    const owner = findOwner()
    const tokenUser = flow.tokenUserId === undefined ? undefined : project.users.get(flow.tokenUserId)

    if (flow.type === "link") {
      if (tokenUser === undefined) return yield* Effect.fail(OauthConnectionAlreadyConnectedToAnotherUser.make({}))
      if (owner !== undefined && owner.user.id !== tokenUser.id) {
        return yield* Effect.fail(OauthConnectionAlreadyConnectedToAnotherUser.make({}))
      }
      attach(tokenUser)
      return { user: tokenUser, isNewUser: false }
    }
    if (owner !== undefined && owner.user.oauthAccounts[owner.index]!.allowSignIn) {
      attach(owner.user)
      return { user: owner.user, isNewUser: false }
    }
    // The e-mail is a sign-in channel of an existing user: what happens is the project's
    // `oauth_account_merge_strategy`. Joining that account needs THE MATCHING CHANNEL verified
    // (not the user's primary e-mail): anyone may add an unverified channel with someone else's
    // address, and must not receive that person's sign-ins.
    const channel = findAuthChannel(project, account.email)
    const strategy = project.config.oauthAccountMergeStrategy ?? "link_method"
    // allow_duplicates: go on as for a new e-mail (the new user's e-mail is not used for sign-in)
    if (channel !== undefined && strategy !== "allow_duplicates") {
      if (strategy === "raise_error" || !channel.isVerified) {
        return yield* Effect.fail(
          ContactChannelAlreadyUsedForAuthBySomeoneElse.make({
            type: "email",
            contact_channel_value: account.email,
            would_work_if_email_was_verified: strategy === "link_method"
          })
        )
      }
      attach(channel.user)
      return { user: channel.user, isNewUser: false }
    }
    if (tokenUser !== undefined && tokenUser.isAnonymous) {
      tokenUser.isAnonymous = false
      if (tokenUser.primaryEmail === null) {
        tokenUser.primaryEmail = account.email
        tokenUser.primaryEmailVerified = true
      }
      attach(tokenUser)
      return { user: tokenUser, isNewUser: true }
    }
    if (!project.config.signUpEnabled) return yield* Effect.fail(SignUpNotEnabled.make({}))
    const user = makeUser(randomUuid(), context.nowMillis)
    user.primaryEmail = account.email
    user.primaryEmailVerified = true
    user.primaryEmailAuthEnabled = false
    // createOAuthUserAndAccount's displayName / profileImageUrl (the external server's userinfo)
    if (account.displayName != null) user.displayName = account.displayName
    if (account.profileImageUrl != null) user.profileImageUrl = account.profileImageUrl
    attach(user)
    project.users.set(user.id, user)
    grantUserDefaults(project, user.id)
    createPersonalTeamIfEnabled(project, user, context.nowMillis)
    return { user, isNewUser: true }
  })

/**
 * Sends the browser back to the app with a known error in the query (PROTOCOL.md §3.1.1): to
 * `redirect_uri` if the project trusts it, else to the error redirect URL if trusted, else the
 * error is the callback's answer (the service's `redirectOrThrowError`,
 * apps/backend/src/app/api/latest/auth/oauth/callback/[provider_id]/route.tsx at
 * 2f719903b181c20940159e9f3aaaa99bc3ec3b0f).
 */
const errorRedirect = <E extends KnownErrorInstance>(project: ProjectRecord, flow: OAuthFlowRecord, error: E): Effect.Effect<Response, E> => {
  const targetUrl = isTrustedUrl(project, flow.redirectUri)
    ? flow.redirectUri
    : flow.errorRedirectUrl !== undefined && isTrustedUrl(project, flow.errorRedirectUrl)
    ? flow.errorRedirectUrl
    : undefined
  if (targetUrl === undefined) return Effect.fail(error)
  const target = new URL(targetUrl)
  const details = error.details as Record<string, unknown> | undefined
  target.searchParams.set("error", "server_error")
  target.searchParams.set("error_description", error.message)
  target.searchParams.set("errorCode", error.code)
  target.searchParams.set("message", error.message)
  target.searchParams.set("details", JSON.stringify(details ?? {}))
  return Effect.succeed(redirect(303, target.href))
}

type CallbackInput = {
  readonly params: { readonly provider_id: string }
  readonly query: {
    readonly code?: string | undefined
    readonly state?: string | undefined
    readonly iss?: string | undefined
    readonly error?: string | undefined
  }
}

/** A callback checked up to the provider's code: answered already, or the flow and code to exchange. */
type PreparedCallback =
  | { readonly _tag: "Answer"; readonly response: Response }
  | {
    readonly _tag: "Exchange"
    readonly innerState: string
    readonly flow: OAuthFlowRecord
    readonly project: ProjectRecord
    readonly code: string
  }

/** The callback's checks before the provider's code is exchanged. */
const prepareCallback = (input: CallbackInput, context: RequestContext) =>
  Effect.gen(function* () {
    const { query } = input
    const { oauthFlows } = context.env.state
    const innerState = query.state ?? ""
    const flow = oauthFlows.get(innerState)
    if (flow === undefined || flow.provider.id !== input.params.provider_id) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: invalidStateText }))
    }
    if (flow.expiresAtMillis <= context.nowMillis) {
      oauthFlows.delete(innerState)
      return yield* Effect.fail(OuterOauthTimeout.make({}))
    }
    if (flow.responseMode === "redirect") {
      const cookies = Cookies.parseHeader(context.request.headers.get("cookie") ?? "")
      if (!Object.hasOwn(cookies, innerCookieName(innerState))) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: missingInnerCookieText }))
      }
    }
    const project = context.env.state.projects.get(flow.projectId)
    if (project === undefined) {
      oauthFlows.delete(innerState)
      return yield* Effect.fail(new TextFailure({ status: 400, text: "The project of this OAuth flow does not exist anymore." }))
    }
    if (query.error !== undefined) {
      oauthFlows.delete(innerState)
      const response = yield* errorRedirect(project, flow, OauthProviderAccessDenied.make({}))
      return { _tag: "Answer", response } as const satisfies PreparedCallback
    }
    if (query.code === undefined) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: "The OAuth provider's callback has no code." }))
    }
    return { _tag: "Exchange", innerState, flow, project, code: query.code } as const satisfies PreparedCallback
  })

/** The callback after the provider's code was exchanged for `account`: the user, then the outer code. */
const finishCallback = (
  context: RequestContext,
  prepared: Extract<PreparedCallback, { readonly _tag: "Exchange" }>,
  account: MockProvider.ProviderAccount
) =>
  Effect.gen(function* () {
    const { flow, project } = prepared
    context.env.state.oauthFlows.delete(prepared.innerState)
    // The service checks `redirect_uri` here, when its OAuth server validates the outer request
    // (OAuthModel.validateRedirectUri, apps/backend/src/oauth/model.tsx at
    // 2f719903b181c20940159e9f3aaaa99bc3ec3b0f), before any user is found or created.
    if (!isTrustedUrl(project, flow.redirectUri)) return yield* errorRedirect(project, flow, RedirectUrlNotWhitelisted.make({}))
    const resolved = yield* Effect.result(resolveUser(context, project, flow, account))
    if (resolved._tag === "Failure") return yield* errorRedirect(project, flow, resolved.failure)

    const code = randomHex(32)
    context.env.state.oauthCodes.set(code, {
      projectId: project.id,
      userId: resolved.success.user.id,
      isNewUser: resolved.success.isNewUser,
      redirectUri: flow.redirectUri,
      codeChallenge: flow.codeChallenge,
      codeChallengeMethod: flow.codeChallengeMethod,
      afterCallbackRedirectUrl: flow.afterCallbackRedirectUrl ?? null,
      expiresAtMillis: context.nowMillis + authorizationCodeLifetimeMillis,
      used: false
    })
    const target = new URL(flow.redirectUri)
    target.searchParams.set("code", code)
    target.searchParams.set("state", flow.state)
    return redirect(303, target.href)
  })

/** The callback against the in-process mock provider (the state's write permit held throughout). */
const callback = (input: CallbackInput, context: RequestContext) =>
  Effect.gen(function* () {
    const prepared = yield* prepareCallback(input, context)
    if (prepared._tag === "Answer") return prepared.response
    const account = yield* MockProvider.exchangeCode({
      state: context.env.state,
      providerId: prepared.flow.provider.id,
      clientId: prepared.flow.providerRequest.clientId,
      code: prepared.code,
      redirectUri: prepared.flow.providerRequest.redirectUri,
      codeVerifier: prepared.flow.innerVerifier,
      nowMillis: context.nowMillis
    }).pipe(
      Effect.mapError(
        () => new TextFailure({ status: 400, text: "The OAuth provider rejected the authorization code. Please try signing in again." })
      )
    )
    return yield* finishCallback(context, prepared, account)
  })

/**
 * The callback against an external OAuth server (`EmulatorOptions.oauthMockUrl`): the checks and
 * the user's part hold the state's write permit, the calls to the server in between do not (a
 * slow server holds no other request back). A flow used by another callback meanwhile is an
 * invalid state. Failures are answered as the service's `getCallback` answers them.
 */
const externalCallback = (url: string) => (input: CallbackInput, context: RequestContext) =>
  Effect.gen(function* () {
    const { state } = context.env
    const prepared = yield* serialized(state, prepareCallback(input, context))
    if (prepared._tag === "Answer") return prepared.response
    const outcome = yield* Effect.result(
      Effect.flatMap(ExternalOAuth.discover(url), (discovery) =>
        ExternalOAuth.exchangeCode({
          discovery,
          request: prepared.flow.providerRequest,
          code: prepared.code,
          iss: input.query.iss,
          codeVerifier: prepared.flow.innerVerifier,
          nowMillis: context.nowMillis
        }))
    )
    return yield* serialized(
      state,
      Effect.gen(function* () {
        if (state.oauthFlows.get(prepared.innerState) !== prepared.flow) {
          return yield* Effect.fail(new TextFailure({ status: 400, text: invalidStateText }))
        }
        if (outcome._tag === "Success") return yield* finishCallback(context, prepared, { ...outcome.success, scopes: prepared.flow.providerRequest.scopes })
        const failure = outcome.failure
        switch (failure.kind) {
          case "access_denied":
            return yield* errorRedirect(prepared.project, prepared.flow, OauthProviderAccessDenied.make({}))
          case "unavailable":
            return yield* errorRedirect(prepared.project, prepared.flow, OauthProviderTemporarilyUnavailable.make({}))
          case "invalid_grant":
            return yield* Effect.fail(new TextFailure({ status: 400, text: innerInvalidGrantText }))
          case "invalid_client":
            return yield* Effect.fail(new TextFailure({ status: 400, text: innerInvalidClientText }))
          case "invalid_answer":
            return yield* Effect.fail(new TextFailure({ status: 500, text: failure.message }))
        }
      })
    )
  })

/** The external OAuth server's discovery for authorize (none with the in-process mock provider); a failure is a 500 text, as the service's. */
const externalDiscovery = (context: RequestContext): Effect.Effect<ExternalOAuth.Discovery | undefined, TextFailure> => {
  const url = context.env.settings.oauthMockUrl
  return url === undefined
    ? Effect.succeed(undefined)
    : ExternalOAuth.discover(url).pipe(Effect.mapError((failure) => new TextFailure({ status: 500, text: failure.message })))
}

// ---------------------------------------------------------------------------------------------
// Mock provider pages
// ---------------------------------------------------------------------------------------------

const providerRequestOf = (parameters: Readonly<Record<string, string>>): ProviderRequest | string => {
  const missing = ["client_id", "redirect_uri", "state", "code_challenge"].filter((name) => (parameters[name] ?? "") === "")
  if (missing.length > 0) return `Missing parameters: ${missing.join(", ")}`
  if ((parameters["code_challenge_method"] ?? "S256") !== "S256") return "Only code_challenge_method=S256 is supported."
  try {
    new URL(parameters["redirect_uri"]!)
  } catch {
    return "redirect_uri is not a valid URL."
  }
  return {
    clientId: parameters["client_id"]!,
    redirectUri: parameters["redirect_uri"]!,
    state: parameters["state"]!,
    codeChallenge: parameters["code_challenge"]!,
    scopes: (parameters["scope"] ?? "").split(" ").filter((scope) => scope.length > 0)
  }
}

const isEmail = (text: string | undefined): text is string => text !== undefined && /^[^\s@]+@[^\s@]+$/.test(text)

const htmlResponse = (status: number, html: string): Response => new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } })

const providerPage = (
  context: RequestContext,
  providerId: string,
  parameters: Readonly<Record<string, string>>,
  decision: "show" | "approve" | "deny"
): Response => {
  const request = providerRequestOf(parameters)
  if (typeof request === "string") return textResponse(400, request)
  // like a real provider, redirect only to the registered callback: this emulator's own
  if (request.redirectUri !== `${context.apiBase}${callbackPath(providerId)}`) return textResponse(400, foreignRedirectUriText)
  if (decision === "deny") return redirect(303, MockProvider.deny(request))
  const email = parameters["email"]?.trim()
  if (decision === "show" || !isEmail(email)) {
    const problem = decision === "approve" ? "Enter an e-mail address." : undefined
    return htmlResponse(decision === "approve" ? 400 : 200, MockProvider.consentPage(providerId, parameters, problem))
  }
  const location = MockProvider.approve({
    state: context.env.state,
    apiBase: context.apiBase,
    providerId,
    request,
    email: email.toLowerCase(),
    nowMillis: context.nowMillis
  })
  return redirect(303, location)
}

/** The OAuth routes (the code grant is served by `tokens.ts` through `OAuthCodeGrant.ts`). */
export const routes = [
  // without the router's write permit: with an external OAuth server, the calls to it are made
  // outside the permit, everything else inside (Store.serialized)
  route(
    Endpoints.oauthAuthorize,
    (input, context) => Effect.flatMap(externalDiscovery(context), (external) => serialized(context.env.state, authorize(input, context, external))),
    { rejectUnknownKeys: false, overrideErrorStatus: false, withoutWritePermit: true }
  ),
  route(
    Endpoints.oauthCallback,
    (input, context) => {
      const url = context.env.settings.oauthMockUrl
      return url === undefined ? serialized(context.env.state, callback(input, context)) : externalCallback(url)(input, context)
    },
    { rejectUnknownKeys: false, overrideErrorStatus: false, withoutWritePermit: true }
  ),
  route(
    Endpoints.mockProviderAuthorize,
    ({ params, query }, context) => Effect.sync(() => providerPage(context, params.provider_id, query, query["auto"] === "1" ? "approve" : "show")),
    { overrideErrorStatus: false }
  ),
  route(
    Endpoints.mockProviderApprove,
    ({ params, query, payload }, context) =>
      Effect.sync(() => {
        const parameters = { ...query, ...payload }
        return providerPage(context, params.provider_id, parameters, parameters["action"] === "deny" ? "deny" : "approve")
      }),
    { overrideErrorStatus: false, emptyBody: {} }
  )
]
