/**
 * OAuth sign-in and account linking with PKCE (SPEC.md §4 "OAuth flow", PROTOCOL.md §2.1,
 * §3.1.1, §5.3, §5.5).
 *
 * Start ({@link signInWithOAuth}, {@link linkAccount}):
 * 1. a PKCE verifier (32 random bytes, base64url: 43 characters), its S256 challenge
 *    (base64url SHA-256, WebCrypto) and a random state;
 * 2. `GET /auth/oauth/authorize/{provider}?…&stack_response_mode=json` → `{location}` (every query
 *    parameter the service reads; `token` = the current access token — for `link` one with ≥ 45 s left,
 *    refreshed first if needed);
 * 3. the verifier is kept in the cookie `stack-oauth-outer-{state}` (1 hour), then the page
 *    navigates to `location` (the provider).
 *
 * Callback ({@link handleCallback}), on the page of `redirect_uri`:
 * - `errorCode`/`error` in the query → the known error rebuilt from `errorCode`, `message`,
 *   `details` (those parameters are stripped from the address bar first);
 * - no `code`/`state`, or no verifier cookie → `Option.none()` (nothing to do);
 * - else the cookie is deleted, `code`/`state` are stripped from the address bar, the code is
 *   exchanged at `POST /auth/oauth/token` (code grant, same `redirect_uri`), the tokens are stored,
 *   and the destination is returned: `after_callback_redirect_url` when present, else
 *   after-sign-up for new users, after-sign-in for the others (by default the `afterSignUp` /
 *   `afterSignIn` pages of `HandlerUrls`, else `/`; after-sign-up defaults to after-sign-in).
 *
 * The default callback and error pages are those of the optional `HandlerUrls` service
 * (`{handler}/oauth-callback`, `{handler}/error`), resolved against its `appUrl` when set, else
 * against the current page; without the service, `/handler/oauth-callback` and `/handler/error`.
 *   `MULTI_FACTOR_AUTHENTICATION_REQUIRED` surfaces as that error (its `attempt_code` continues
 *   with the TOTP code); any other failure is {@link OAuthCallbackError} ("Error signing in
 *   during OAuth callback. Please try again.", the cause kept).
 *
 * The page (cookies, URL, navigation) is the {@link OAuthBrowser} service.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import { defaultPaths, HandlerUrls } from "../core/HandlerUrls.js"
import type { HandlerPaths } from "../core/HandlerUrls.js"
import { parseJsonBounded } from "../core/Wire.js"
import { ConnectivityError, HttpError, InvalidResponse, RateLimited, UnsupportedKnownError, UserNotSignedIn } from "../core/Errors.js"
import type { KnownErrorClass } from "../core/KnownError.js"
import {
  byCode,
  ContactChannelAlreadyUsedForAuthBySomeoneElse,
  InvalidTotpCode,
  MultiFactorAuthenticationRequired,
  OauthConnectionAlreadyConnectedToAnotherUser,
  OauthProviderAccessDenied,
  OauthProviderTemporarilyUnavailable,
  SignUpNotEnabled,
  SignUpRejected
} from "../core/KnownErrors.js"
import { StackClient } from "../core/StackClient.js"
import { oauthClientId } from "../core/StackConfig.js"
import * as Cookies from "../session/cookies.js"
import { unverifiedClaims } from "../session/jwtClaims.js"
import { Session } from "../session/Session.js"
import * as Mfa from "./Mfa.js"
import { OAuthBrowser } from "./OAuthBrowser.js"
import { publicClientSentinel } from "../core/Wire.js"
import { authorizeEndpoint, AuthorizeQuery, callbackErrorParams, codeGrantEndpoint, withoutParams } from "./internal/oauth.js"
import { crossDomainAuthorizeEndpoint } from "./internal/crossDomain.js"

/** The domain's schemas, defined with its wire definitions (`internal/oAuth.ts`). */
export { AuthorizeAnswer } from "./internal/oauth.js"

// ---------------------------------------------------------------------------------------------
// PKCE, state, URLs
// ---------------------------------------------------------------------------------------------

const base64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

const randomBytes = (length: number): Effect.Effect<Uint8Array> => Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(length)))

/** A PKCE code verifier: 32 random bytes, base64url (43 characters). */
export const makeCodeVerifier: Effect.Effect<string> = Effect.map(randomBytes(32), base64Url)

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)), WebCrypto. */
export const codeChallengeOf = (verifier: string): Effect.Effect<string> =>
  Effect.map(
    Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
    (digest) => base64Url(new Uint8Array(digest))
  )

/** A random OAuth state: 16 random bytes, base64url (22 characters). */
export const makeState: Effect.Effect<string> = Effect.map(randomBytes(16), base64Url)

/**
 * Default callback page without a `HandlerUrls` service (`/handler/oauth-callback`); with
 * one, its `oauthCallback` page is the default.
 */
export const defaultRedirectPath = defaultPaths.oauthCallback

/** Default error page without a `HandlerUrls` service (`/handler/error`); with one, its `error` page. */
export const defaultErrorRedirectPath = defaultPaths.error

/**
 * The handler pages in effect: those of the optional `HandlerUrls` service, else the defaults;
 * and the base relative URLs resolve against: its `appUrl` when set, else `current`.
 */
const handlerPages = (current: string): Effect.Effect<{ readonly paths: HandlerPaths; readonly base: string }> =>
  Effect.map(Effect.serviceOption(HandlerUrls), (service) =>
    Option.match(service, {
      onNone: () => ({ paths: defaultPaths, base: current }),
      onSome: (urls) => ({ paths: urls.paths, base: Option.getOrElse(urls.appUrl, () => current) })
    }))

/** Minimum remaining validity of the access token sent as `token` for `link` (PROTOCOL.md §2.7). */
export const linkTokenMinimumRemainingMillis = 45_000

/**
 * The `redirect_uri` sent for a callback page: absolute against `base`, no `#hash`, no `code`
 * and `state` (the service appends its own). Used identically at authorize and at exchange time.
 */
export const normalizeRedirectUri = (target: string, base: string): string => {
  const url = withoutParams(new URL(target, base), ["code", "state"])
  url.hash = ""
  return url.href
}

const absolute = (target: string, base: string): string => new URL(target, base).href

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** The callback failed in a way other than a typed known error (PROTOCOL.md §5.5). */
export class OAuthCallbackError extends Data.TaggedError("OAuthCallbackError")<{
  /** "Error signing in during OAuth callback. Please try again." */
  readonly message: string
  /** The underlying failure (a transport error, an unexpected known error, a provider `error`). */
  readonly cause: unknown
}> {
  /** The error with the official message. */
  static readonly make = (cause: unknown) => new OAuthCallbackError({ message: "Error signing in during OAuth callback. Please try again.", cause })
}

/** A URL given to the flow is not a valid URL. */
export class InvalidOAuthUrl extends Data.TaggedError("InvalidOAuthUrl")<{
  readonly message: string
  /** The option (or `currentUrl`) holding it. */
  readonly option: string
}> {}

/** Known errors the service delivers on the callback URL (PROTOCOL.md §3.1.1). */
export const callbackKnownErrorClasses = [
  ContactChannelAlreadyUsedForAuthBySomeoneElse,
  OauthConnectionAlreadyConnectedToAnotherUser,
  SignUpNotEnabled,
  SignUpRejected,
  OauthProviderAccessDenied,
  OauthProviderTemporarilyUnavailable
] as const

/** A known error delivered on the callback URL. */
export type CallbackKnownError = InstanceType<(typeof callbackKnownErrorClasses)[number]>

/** The `details` of a callback URL: JSON nested at most `maxJsonDepth` levels, else `{}`. */
const parseDetails = (text: string | null): unknown => {
  if (text === null || text === "") return {}
  return Result.getOrElse(parseJsonBounded(text), () => ({}))
}

/** Rebuilds the error carried by a callback URL's `errorCode`/`message`/`details` (or a bare `error`). */
export const callbackUrlError = (url: URL): CallbackKnownError | UnsupportedKnownError | OAuthCallbackError => {
  const code = url.searchParams.get("errorCode")
  if (code === null) {
    return OAuthCallbackError.make({ error: url.searchParams.get("error"), description: url.searchParams.get("error_description") })
  }
  const details = parseDetails(url.searchParams.get("details"))
  const cls = (callbackKnownErrorClasses as ReadonlyArray<KnownErrorClass>).find((candidate) => candidate.code === code)
  const known = byCode.get(code)
  const message = url.searchParams.get("message") ?? url.searchParams.get("error_description") ?? code
  if (cls !== undefined) {
    const decoded = Schema.decodeUnknownOption(cls.detailsSchema)(details)
    if (Option.isSome(decoded)) return new cls({ message, details: decoded.value }) as CallbackKnownError
  }
  return new UnsupportedKnownError({ message, code, status: known?.status ?? 400, details })
}

// ---------------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------------

/** Options of {@link signInWithOAuth} and {@link linkAccount}. */
export interface OAuthStartOptions {
  /** The provider config id, e.g. `"github"` (lower-cased). */
  readonly provider: string
  /**
   * The callback page, absolute or relative (to `HandlerUrls`' `appUrl` when set, else the current
   * page). Default: the `oauthCallback` page of `HandlerUrls` (`{handler}/oauth-callback`), else
   * `/handler/oauth-callback`.
   */
  readonly redirectUri?: string | undefined
  /**
   * Where the service sends callback errors it cannot put on `redirectUri`. Default: the `error`
   * page of `HandlerUrls` (`{handler}/error`), else `/handler/error`.
   */
  readonly errorRedirectUrl?: string | undefined
  /** Echoed back by the code exchange as the destination; must be trusted by the project. */
  readonly afterCallbackRedirectUrl?: string | undefined
  /**
   * Extra provider scopes (`provider_scope`), with the provider's `oauthScopesOnSignIn` of
   * `StackConfig` added (each scope once).
   */
  readonly scopes?: ReadonlyArray<string> | undefined
}

/** What a started flow sent (for callers that want to log or test it). */
export interface StartedFlow {
  /** The provider URL the page navigated to. */
  readonly location: string
  readonly state: string
  readonly redirectUri: string
}

const redactedUrl = (url: string): string => {
  const question = url.indexOf("?")
  return question < 0 ? url : `${url.slice(0, question)}?…`
}

/**
 * The authorize URL holds the access token and the key in its query: errors keep the path only.
 */
const withoutQuerySecrets = <E>(error: E): E => {
  if (
    !(error instanceof HttpError || error instanceof InvalidResponse || error instanceof ConnectivityError || error instanceof RateLimited)
  ) {
    return error
  }
  const url = redactedUrl(error.url)
  const message = error.message.split(error.url).join(url)
  if (error instanceof HttpError) {
    return new HttpError({ message, url, status: error.status, body: error.body, method: error.method }) as E
  }
  if (error instanceof InvalidResponse) return new InvalidResponse({ message, url, status: error.status, method: error.method }) as E
  if (error instanceof ConnectivityError) {
    return new ConnectivityError({ message, url, method: error.method, cause: error.cause }) as E
  }
  return new RateLimited({ message, url, method: error.method, retryAfterSeconds: error.retryAfterSeconds }) as E
}

const parseOption = (value: string, base: string | undefined, option: string) =>
  Effect.try({
    try: () => (base === undefined ? new URL(value).href : absolute(value, base)),
    catch: () => new InvalidOAuthUrl({ message: `${option} is not a valid URL: ${value}`, option })
  })

/** The access token for `link`: the current one if ≥ 45 s remain, else a refreshed one. */
const linkToken = Effect.gen(function* () {
  const session = yield* Session
  const tokens = yield* session.requestTokens
  if (Option.isNone(tokens.accessToken)) return yield* Effect.fail(UserNotSignedIn.make())
  const now = yield* Clock.currentTimeMillis
  const remaining = (() => {
    const claims = unverifiedClaims(Redacted.value(tokens.accessToken.value))
    if (claims === undefined) return 0
    const exp = claims["exp"]
    return typeof exp === "number" ? exp * 1000 - now : Number.POSITIVE_INFINITY
  })()
  if (remaining >= linkTokenMinimumRemainingMillis) return tokens.accessToken.value
  const refreshed = yield* session.refresh
  if (Option.isNone(refreshed)) return yield* Effect.fail(UserNotSignedIn.make())
  return refreshed.value
})

/**
 * The provider scopes a flow asks for (the official `mergeScopeStrings`): the call's `scopes`,
 * then the configured `oauthScopesOnSignIn` of the provider, split on white space, each once.
 */
export const providerScopes = (
  options: Pick<OAuthStartOptions, "provider" | "scopes">,
  onSignIn: Readonly<Record<string, ReadonlyArray<string>>> | undefined
): ReadonlyArray<string> => {
  const configured = onSignIn?.[options.provider] ?? onSignIn?.[options.provider.toLowerCase()] ?? []
  return [...new Set([...(options.scopes ?? []), ...configured].flatMap((scope) => scope.split(/\s+/)).filter((scope) => scope.length > 0))]
}

const start = <E, R>(
  type: "authenticate" | "link",
  options: OAuthStartOptions,
  currentToken: Effect.Effect<Option.Option<Redacted.Redacted<string>>, E, R>
) =>
  Effect.gen(function* () {
    const browser = yield* OAuthBrowser
    const client = yield* StackClient
    const current = yield* parseOption(yield* browser.currentUrl, undefined, "currentUrl")
    const { paths, base } = yield* handlerPages(current)
    const redirectUri = yield* Effect.try({
      try: () => normalizeRedirectUri(options.redirectUri ?? paths.oauthCallback, base),
      catch: () => new InvalidOAuthUrl({ message: `redirectUri is not a valid URL: ${options.redirectUri ?? paths.oauthCallback}`, option: "redirectUri" })
    })
    const errorRedirectUrl = yield* parseOption(options.errorRedirectUrl ?? paths.error, base, "errorRedirectUrl")
    // linking returns to the page it started from unless told otherwise
    const afterCallback = options.afterCallbackRedirectUrl ?? (type === "link" ? current : undefined)
    const afterCallbackRedirectUrl = afterCallback === undefined ? undefined : yield* parseOption(afterCallback, base, "afterCallbackRedirectUrl")
    const token = yield* currentToken

    const verifier = yield* makeCodeVerifier
    const codeChallenge = yield* codeChallengeOf(verifier)
    const state = yield* makeState
    const scopes = providerScopes(options, client.config.oauthScopesOnSignIn)

    const query: AuthorizeQuery = {
      clientId: oauthClientId(client.config),
      clientSecret: Option.getOrElse(client.config.publishableClientKey, () => Redacted.make(publicClientSentinel)),
      redirectUri,
      scope: "legacy",
      state,
      grantType: "authorization_code",
      codeChallenge,
      codeChallengeMethod: "S256",
      responseType: "code",
      type,
      ...(Option.isSome(token) ? { token: token.value } : {}),
      ...(scopes.length > 0 ? { providerScope: scopes.join(" ") } : {}),
      errorRedirectUrl,
      ...(afterCallbackRedirectUrl !== undefined ? { afterCallbackRedirectUrl } : {}),
      stackResponseMode: "json"
    }
    const answer = yield* Endpoint.call(authorizeEndpoint, {
      params: { providerId: options.provider.toLowerCase() },
      query
    }).pipe(Effect.mapError(withoutQuerySecrets))
    yield* browser.setCookie(Cookies.serializeOAuthVerifier(state, verifier, new URL(current).protocol === "https:"))
    yield* browser.navigate(answer.location)
    return { location: answer.location, state, redirectUri } satisfies StartedFlow
  })

/**
 * Starts an OAuth sign-in: fetches the provider URL (`GET /auth/oauth/authorize/{provider}` in
 * JSON mode), keeps the PKCE verifier in `stack-oauth-outer-{state}` (1 hour) and navigates the
 * page to the provider. A current access token is sent as `token` (an anonymous user is upgraded).
 *
 * Fails with `OauthProviderNotFoundOrNotEnabled`, `RedirectUrlNotWhitelisted` (redirect, error or
 * after-callback URL not trusted), `OauthExtraScopeNotAvailableWithSharedOauthKeys` (`scopes` with
 * shared keys), key errors, `InvalidOAuthUrl` for a malformed URL option.
 */
export const signInWithOAuth = Effect.fn("OAuth.signInWithOAuth")(function* (options: OAuthStartOptions) {
  return yield* start(
    "authenticate",
    options,
    Effect.flatMap(Session, (session) => Effect.map(session.requestTokens, (tokens) => tokens.accessToken))
  )
})

/**
 * Connects another provider account to the signed-in user: as {@link signInWithOAuth} with
 * `type=link` and the user's access token (one with ≥ 45 s left, refreshed first if needed).
 * `afterCallbackRedirectUrl` defaults to the current page. Fails with `UserNotSignedIn` when
 * nobody is signed in; the service answers 400 text (`HttpError`) for a link without token.
 */
export const linkAccount = Effect.fn("OAuth.linkAccount")(function* (options: OAuthStartOptions) {
  return yield* start("link", options, Effect.map(linkToken, Option.some))
})

// ---------------------------------------------------------------------------------------------
// Callback
// ---------------------------------------------------------------------------------------------

/** Options of {@link handleCallback}. */
export interface HandleCallbackOptions {
  /** The callback URL (default: the page's current URL). */
  readonly url?: string | undefined
  /** Destination of returning users. Default: the `afterSignIn` page of `HandlerUrls`, else `/`. */
  readonly afterSignIn?: string | undefined
  /**
   * Destination of new users. Default: the `afterSignUp` page of `HandlerUrls` when it sets one,
   * else `afterSignIn` (this option, else `HandlerUrls`' `afterSignIn`, else `/`).
   */
  readonly afterSignUp?: string | undefined
  /**
   * A user with MFA (the code grant fails with `MultiFactorAuthenticationRequired`):
   * `"fail"` (default) fails with that error, whose attempt code the app's own form continues
   * (`Mfa.continuable`, `Mfa.MfaChallenge`); `"prompt"` asks `Mfa.MfaPrompt` for the code
   * (`window.prompt` by default, SPEC.md §4) and finishes the sign-in: a wrong or cancelled code
   * fails with `Mfa.OAuthMfaCodeRejected` ("Invalid TOTP code. Please try signing in again."),
   * an attempt the service no longer accepts with {@link OAuthCallbackError}.
   */
  readonly mfa?: "fail" | "prompt" | undefined
}

/** The outcome of a handled callback. */
export interface CallbackResult {
  /** Where to go next: `after_callback_redirect_url`, else after-sign-up / after-sign-in. */
  readonly redirectUrl: string
  readonly isNewUser: boolean
}

/**
 * Completes an OAuth flow on the callback page. `Option.none()` when the URL carries no
 * `code`/`state` or no verifier cookie exists for its state (nothing to do). Otherwise deletes
 * the cookie, strips `code`/`state` from the address bar, exchanges the code
 * (`POST /auth/oauth/token`, code grant), stores the tokens and returns the destination.
 *
 * Fails with the known error named by an `errorCode` parameter (one of
 * {@link callbackKnownErrorClasses}, else `UnsupportedKnownError`), with
 * `MultiFactorAuthenticationRequired` (continue with the TOTP code and `details.attempt_code`),
 * or with {@link OAuthCallbackError} for any other failure.
 */
export const handleCallback = Effect.fn("OAuth.handleCallback")(function* (input?: string | HandleCallbackOptions) {
  const options: HandleCallbackOptions = typeof input === "string" ? { url: input } : (input ?? {})
  const browser = yield* OAuthBrowser
  const client = yield* StackClient
  const session = yield* Session
  const current = yield* browser.currentUrl
  const text = options.url ?? current
  let url: URL
  try {
    url = new URL(text, current)
  } catch {
    return Option.none<CallbackResult>()
  }
  const isCurrentPage = options.url === undefined || url.href === current

  if (url.searchParams.has("errorCode") || url.searchParams.has("error")) {
    if (isCurrentPage) yield* browser.replaceUrl(withoutParams(url, callbackErrorParams).href)
    return yield* Effect.fail(callbackUrlError(url))
  }
  const code = url.searchParams.get("code")
  const state = url.searchParams.get("state")
  if (code === null || state === null || code === "" || state === "") return Option.none<CallbackResult>()
  const cookieName = Cookies.oauthVerifierCookieName(state)
  const verifier = (yield* browser.cookies).get(cookieName)
  if (verifier === undefined || verifier === "") return Option.none<CallbackResult>()

  yield* browser.setCookie(Cookies.serializeDeletion(cookieName, { secure: url.protocol === "https:" }))
  if (isCurrentPage) yield* browser.replaceUrl(withoutParams(url, ["code", "state"]).href)

  const tokens = yield* Endpoint.call(codeGrantEndpoint, {
    payload: {
      redirectUri: normalizeRedirectUri(url.href, url.href),
      codeVerifier: Redacted.make(verifier),
      code: Redacted.make(code),
      grantType: "authorization_code",
      clientId: oauthClientId(client.config),
      clientSecret: Option.getOrElse(client.config.publishableClientKey, () => Redacted.make(publicClientSentinel))
    }
  }).pipe(
    Effect.map(Result.succeed),
    Effect.catch(
      (error): Effect.Effect<Result.Result<never, MultiFactorAuthenticationRequired>, MultiFactorAuthenticationRequired | OAuthCallbackError> =>
        error instanceof MultiFactorAuthenticationRequired
          ? options.mfa === "prompt" ? Effect.succeed(Result.fail(error)) : Effect.fail(error)
          : Effect.fail(OAuthCallbackError.make(error))
    )
  )
  let isNewUser: boolean
  let afterCallbackRedirectUrl: string | undefined = undefined
  if (Result.isFailure(tokens)) {
    // SPEC.md §4: the client prompts for the code and continues with the attempt code
    const code = yield* Effect.flatMap(Mfa.MfaPrompt, (prompt) => prompt.ask)
    const signedIn = yield* Mfa.MfaChallenge.fromError(tokens.failure).submit(Option.getOrElse(code, () => "")).pipe(
      Effect.catch((error) => Effect.fail(error instanceof InvalidTotpCode ? Mfa.OAuthMfaCodeRejected.make(error) : OAuthCallbackError.make(error)))
    )
    isNewUser = signedIn.isNewUser
  } else {
    const granted = tokens.success
    yield* session.signIn({ accessToken: granted.accessToken, refreshToken: Option.fromNullishOr(granted.refreshToken) })
    isNewUser = granted.isNewUser ?? false
    afterCallbackRedirectUrl = granted.afterCallbackRedirectUrl ?? undefined
  }
  const { paths } = yield* handlerPages(current)
  const afterSignIn = options.afterSignIn ?? paths.afterSignIn
  // HandlerUrls' afterSignUp defaults to its afterSignIn: only a page set apart from it beats the option's afterSignIn
  const afterSignUp = options.afterSignUp ?? (paths.afterSignUp !== paths.afterSignIn ? paths.afterSignUp : afterSignIn)
  const redirectUrl = afterCallbackRedirectUrl ?? (isNewUser ? afterSignUp : afterSignIn)
  return Option.some<CallbackResult>({ redirectUrl, isNewUser })
})

// ---------------------------------------------------------------------------------------------
// Cross-domain hand-over (the official SDK's cross-domain sign-in)
// ---------------------------------------------------------------------------------------------

/** What the receiving domain hands to the signed-in one: the state and PKCE challenge of its flow. */
export interface CrossDomainHandOffRequest {
  /** The receiving page's flow state (its verifier is kept in `stack-oauth-outer-{state}` there). */
  readonly state: string
  /** The S256 challenge of that verifier. */
  readonly codeChallenge: string
}

/**
 * On the domain that should receive a sign-in (the official SDK's `saveVerifierAndState`): a new
 * PKCE verifier kept in `stack-oauth-outer-{state}` (1 hour) on this page, and the state and
 * challenge to give the signed-in domain for {@link crossDomainRedirectUrl}. The code it sends
 * back to this domain's callback page is exchanged by {@link handleCallback}.
 */
export const prepareCrossDomainHandOff = Effect.fn("OAuth.prepareCrossDomainHandOff")(function* () {
  const browser = yield* OAuthBrowser
  const current = yield* browser.currentUrl
  const verifier = yield* makeCodeVerifier
  const codeChallenge = yield* codeChallengeOf(verifier)
  const state = yield* makeState
  yield* browser.setCookie(Cookies.serializeOAuthVerifier(state, verifier, current.startsWith("https:")))
  return { state, codeChallenge } satisfies CrossDomainHandOffRequest
})

/**
 * On the signed-in domain: where to send the browser so that another domain of the app signs in
 * as the same user (the official SDK's cross-domain redirect): `redirectUri?code=…&state=…`, a
 * one-time code bound to this session, exchanged with PKCE by the receiving page's
 * {@link handleCallback} (which then holds this session's refresh token).
 * `POST /auth/oauth/cross-domain/authorize` with the session's access and refresh tokens. Fails
 * with `UserNotSignedIn`, `RedirectUrlNotWhitelisted` (`redirectUri` or `afterCallbackRedirectUrl`
 * not trusted by the project), or `HttpError` for the service's plain-text refusals (a refresh
 * token that is not this session's, 401).
 */
export const crossDomainRedirectUrl = Effect.fn("OAuth.crossDomainRedirectUrl")(function* (
  options: CrossDomainHandOffRequest & {
    /** The receiving domain's OAuth callback page (absolute). */
    readonly redirectUri: string
    /** Where the receiving page goes once signed in (answered by its code exchange). */
    readonly afterCallbackRedirectUrl?: string
  }
) {
  const answer = yield* Endpoint.call(crossDomainAuthorizeEndpoint, {
    payload: {
      redirectUri: options.redirectUri,
      state: options.state,
      codeChallenge: options.codeChallenge,
      codeChallengeMethod: "S256",
      ...(options.afterCallbackRedirectUrl !== undefined ? { afterCallbackRedirectUrl: options.afterCallbackRedirectUrl } : {})
    }
  })
  return answer.redirectUrl
})
