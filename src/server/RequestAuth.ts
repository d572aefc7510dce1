/**
 * Authenticating an incoming request on the app's own server, once, for any framework: a plain
 * `Request → Effect` helper ({@link authenticate}, {@link verify}) and the services a handler
 * reads ({@link CurrentUser}, {@link CurrentClaims}). `HttpApiAuth` builds `effect/http-api`'s
 * middleware on them.
 *
 * Where the credentials come from, first match wins:
 * 1. `Authorization: Bearer stackauth_<base64 JSON>` (the official SDK's and this SDK's
 *    `getAuthorizationHeader()`: both tokens), else `Authorization: Bearer <access token>` (an API
 *    client, a mobile app): the access token only, so nothing can be refreshed;
 * 2. `x-stack-auth: {"accessToken","refreshToken"}` (the app's browser code, `useAuthHeaders`);
 * 3. the SDK's cookies (`stack-access`, the refresh cookie of the project).
 *
 * Two ways to check them:
 * - {@link authenticate}: the full user, `GET /users/me` with server access through a session
 *   made for this request (an expired access token is refreshed with the request's refresh
 *   token; the refresh stays in that session);
 * - {@link verify}: local JWT verification against the project's JWKS (`AccessTokenVerifier`,
 *   cached: no request per call), when the claims (user id, project, expiry, restrictions)
 *   suffice.
 *
 * Typed failures: {@link Unauthorized} (401: no credentials, or credentials the service or the
 * signature check rejects) and {@link Forbidden} (403: a restricted or anonymous user where
 * those are not allowed). Failures of the service itself (network, 5xx, rate limits) stay as the
 * SDK's transport errors: they are not the client's fault.
 *
 * `Unauthorized`'s `"expired"` tells the client to refresh and retry, so it is given only for an
 * access token whose signature checked (by the service for {@link authenticate}, against the JWKS
 * for {@link verify}) and whose `exp` has passed; a forged, foreign or unreadable token, or a
 * refresh token sent as an access token, is `"invalid"`.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { SessionShape } from "../core/Session.js"
import { StackClient } from "../core/StackClient.js"
import type { StackClientShape } from "../core/StackClient.js"
import * as AccessTokenVerifier from "../session/AccessTokenVerifier.js"
import { unverifiedClaims } from "../session/AccessTokenVerifier.js"
import type { AccessTokenClaims } from "../session/AccessTokenVerifier.js"
import * as RequestTokenStore from "../session/RequestTokenStore.js"
import * as Session from "../session/Session.js"
import * as TokenStore from "../session/TokenStore.js"
import { type StoredTokens, token } from "../session/TokenStore.js"
import * as ServerUsers from "../users/ServerUsers.js"
import type { ServerUser } from "../users/User.js"

/** The authenticated user of the request, server view (provided by the middleware). */
export class CurrentUser extends Context.Service<CurrentUser, ServerUser>()("stack-auth-effect/server/CurrentUser") {}

/** The verified access-token claims of the request (provided by the local-verification middleware). */
export class CurrentClaims extends Context.Service<CurrentClaims, AccessTokenClaims>()("stack-auth-effect/server/CurrentClaims") {}

/** 401: no credentials, or credentials that are not (or no longer) valid. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  {
    message: Schema.String,
    /**
     * `"missing"`: none sent; `"invalid"`: malformed, forged, another project's, or rejected;
     * `"expired"`: an access token whose signature checked and whose `exp` has passed, with
     * nothing to refresh it with (the client refreshes and retries).
     */
    reason: Schema.Literals(["missing", "invalid", "expired"])
  },
  { httpApiStatus: 401 }
) {}

/** 403: a valid user this route does not admit (restricted or anonymous). */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  {
    message: Schema.String,
    reason: Schema.Literals(["restricted", "anonymous"])
  },
  { httpApiStatus: 403 }
) {}

/** Who a route admits besides normal users (default: neither). */
export interface Admission {
  /** Admit restricted users (e.g. e-mail not verified). */
  readonly allowRestricted?: boolean | undefined
  /** Admit anonymous users (implies `allowRestricted`: anonymous users are restricted). */
  readonly allowAnonymous?: boolean | undefined
}

/** Where the helpers read the SDK's cookies: the project, and which refresh cookies count. */
export interface CookieOptions {
  /** The project whose cookies are read. */
  readonly projectId: string
  /**
   * The site is served over HTTPS: only the `__Host-` refresh cookie (and the `--custom-` ones of
   * `cookieDomains`) count, as no other name is safe from a sibling subdomain. Default: the
   * request carries the `stack-is-https=true` marker cookie.
   */
  readonly secure?: boolean | undefined
  /**
   * The domains this app is served under, whose `--custom-` refresh cookies count; none by
   * default. Such cookies are the official SDK's cross-subdomain sessions (written for a parent
   * domain such as `example.com` when the app runs on `app.example.com`): list that domain to read
   * them. A `--custom-` cookie of a domain not listed is ignored, so a sibling subdomain cannot
   * plant a session. Entries that are not domain names (a scheme, a port, a leading dot) match
   * nothing.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

/** Options of the helpers: where the cookies are read, and who is admitted. */
export interface RequestAuthOptions extends Admission, CookieOptions {}

/** Which credentials a request carries (see the module for the order). */
export type Credentials =
  | { readonly _tag: "Bearer"; readonly tokens: StoredTokens }
  | { readonly _tag: "StackAuthHeader"; readonly tokens: StoredTokens }
  | { readonly _tag: "Cookies"; readonly tokens: StoredTokens }

const missing = () => new Unauthorized({ message: "Sign in to use this route.", reason: "missing" })
const invalid = (message: string) => new Unauthorized({ message, reason: "invalid" })

/**
 * The credentials of a request: `Authorization: Bearer`, else `x-stack-auth`, else the cookies.
 * Fails with {@link Unauthorized} `"missing"` when it carries none, `"invalid"` for a malformed
 * `Authorization` or `x-stack-auth` header.
 */
export const credentialsOf = (
  request: RequestTokenStore.RequestLike,
  options: CookieOptions
): Effect.Effect<Credentials, Unauthorized> =>
  Effect.suspend(() => {
    const authorization = RequestTokenStore.headerValue(request, "authorization")
    if (authorization !== undefined && authorization.trim() !== "") {
      const plainBearer = (): Effect.Effect<Credentials, Unauthorized> => {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim())
        const accessToken = match === null ? Option.none() : token(match[1]!)
        if (Option.isNone(accessToken)) return Effect.fail(invalid("The Authorization header is not 'Bearer <access token>'."))
        return Effect.succeed<Credentials>({ _tag: "Bearer", tokens: { accessToken, refreshToken: Option.none() } })
      }
      // the official SDK's hand-over (`getAuthorizationHeader()`): `Bearer stackauth_<base64 JSON>`
      return RequestTokenStore.parseAuthorizationHeader(authorization).pipe(
        Effect.mapError((error) => invalid(error.message)),
        Effect.flatMap(
          Option.match({
            onNone: plainBearer,
            onSome: (tokens) =>
              Option.isNone(tokens.accessToken) && Option.isNone(tokens.refreshToken)
                ? Effect.fail(missing())
                : Effect.succeed<Credentials>({ _tag: "Bearer", tokens })
          })
        )
      )
    }
    const forwarded = RequestTokenStore.headerValue(request, RequestTokenStore.authHeaderName)
    if (forwarded !== undefined && forwarded.trim() !== "") {
      return RequestTokenStore.parseAuthHeader(forwarded).pipe(
        Effect.mapError((error) => invalid(error.message)),
        Effect.flatMap((tokens) =>
          Option.isNone(tokens.accessToken) && Option.isNone(tokens.refreshToken)
            ? Effect.fail(missing())
            : Effect.succeed<Credentials>({ _tag: "StackAuthHeader", tokens })
        )
      )
    }
    const { cookieDomains, projectId, secure } = options
    return RequestTokenStore.readRequestTokens(request, { projectId, secure, cookieDomains }).pipe(
      Effect.mapError((error) => invalid(error.message)),
      Effect.flatMap((tokens) =>
        Option.isNone(tokens.accessToken) && Option.isNone(tokens.refreshToken)
          ? Effect.fail(missing())
          : Effect.succeed<Credentials>({ _tag: "Cookies", tokens })
      )
    )
  })

const admit = (user: { readonly isAnonymous: boolean; readonly isRestricted: boolean }, admission: Admission): Effect.Effect<void, Forbidden> => {
  if (user.isAnonymous && admission.allowAnonymous !== true) {
    return Effect.fail(new Forbidden({ message: "Anonymous users may not use this route.", reason: "anonymous" }))
  }
  if (user.isRestricted && admission.allowRestricted !== true && admission.allowAnonymous !== true) {
    return Effect.fail(new Forbidden({ message: "Finish signing up (e.g. verify your e-mail) to use this route.", reason: "restricted" }))
  }
  return Effect.void
}

/**
 * A session over one access token and nothing to refresh it with: the token is sent as it is,
 * whatever its (unverified) `exp` says, so the service judges it (only a signature check tells an
 * expired token of the service from a forged one), until the service rejects it; then none.
 */
const singleTokenSession = (accessToken: Redacted.Redacted<string>): SessionShape => {
  let tokens: StoredTokens = { accessToken: Option.some(accessToken), refreshToken: Option.none() }
  const set = (next: StoredTokens) =>
    Effect.sync(() => {
      tokens = next
    })
  return {
    requestTokens: Effect.sync(() => tokens),
    refresh: Effect.succeed(Option.none()),
    markAccessTokenExpired: () => set(TokenStore.empty),
    signIn: (signedIn) => set({ accessToken: Option.some(signedIn.accessToken), refreshToken: signedIn.refreshToken }),
    clear: set(TokenStore.empty),
    current: Effect.sync(() => tokens),
    changes: Stream.empty
  }
}

/**
 * The transport `client` with the known-error code (`x-stack-known-error`, PROTOCOL.md §1.5) of
 * its last answer kept in `seen.code`: how the service judged a token the call then dropped.
 */
const recordingKnownErrors = (client: StackClientShape, seen: { code: string | undefined }): StackClientShape => ({
  config: client.config,
  send: (request) =>
    Effect.tap(client.send(request), (response) =>
      Effect.sync(() => {
        seen.code = response.headers["x-stack-known-error"]
      }))
})

/**
 * Whether a token's claims name `projectId`: its audience (`<id>`, `<id>:restricted`,
 * `<id>:anon`), or a legacy token's `projectId` claim (PROTOCOL.md §2.3).
 */
const isForProject = (claims: Readonly<Record<string, unknown>>, projectId: string): boolean => {
  const audience = claims["aud"] ?? claims["projectId"]
  return typeof audience === "string" && (audience === projectId || audience.startsWith(`${projectId}:`))
}

/** The known error the service answers for an access token whose signature checked and whose `exp` has passed. */
const accessTokenExpiredCode = "ACCESS_TOKEN_EXPIRED"

/**
 * The request's user, server view: `GET /users/me` with server access, in a session made for this
 * request from its credentials (see the module). Fails with {@link Unauthorized} (no credentials;
 * a session the service does not accept, e.g. a revoked refresh token or a forged token:
 * `"invalid"`; an access token the service issued whose `exp` has passed, with no refresh token:
 * `"expired"`), {@link Forbidden} (restricted / anonymous users unless admitted), or a transport
 * error.
 *
 * A request with an access token and no refresh token has that token judged by the service (one
 * `GET /users/me`, the token sent as it is): only its `ACCESS_TOKEN_EXPIRED` makes `"expired"`. A
 * token that is not a JWT at all (garbage, a refresh token) is `"invalid"` with no request.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { RequestAuth } from "stack-auth-effect/server"
 *
 * declare const projectId: string // your project's id
 * const handler = (request: Request) =>
 *   RequestAuth.authenticate(request, { projectId }).pipe(Effect.map((user) => Response.json({ hello: user.displayName })))
 * ```
 */
export const authenticate = Effect.fn("RequestAuth.authenticate")(function* (
  request: RequestTokenStore.RequestLike,
  options: RequestAuthOptions
) {
  const credentials = yield* credentialsOf(request, options)
  const { accessToken, refreshToken } = credentials.tokens
  // an access token and nothing to refresh it with: the service judges it as it is
  const single = Option.isSome(accessToken) && Option.isNone(refreshToken) ? accessToken.value : undefined
  const claims = single === undefined ? undefined : unverifiedClaims(Redacted.value(single))
  if (single !== undefined && claims === undefined) return yield* Effect.fail(invalid("The access token is not a JWT."))
  const service = yield* StackClient
  const seen: { code: string | undefined } = { code: undefined }
  const user = yield* ServerUsers.getCurrent().pipe(
    Effect.provideService(Session.Session, single === undefined ? yield* Session.makeForRequest(credentials.tokens) : singleTokenSession(single)),
    Effect.provideService(StackClient, single === undefined ? service : recordingKnownErrors(service, seen)),
    // the service rejected the request's tokens (a revoked refresh token, an unusable access token)
    Effect.catchTag("SessionError", (error) => Effect.fail(invalid(error.message)))
  )
  if (Option.isNone(user)) {
    return yield* Effect.fail(
      // the service says "expired" only once the signature checked, so the audience is genuine:
      // another project's expired token is still not one this app can refresh
      seen.code === accessTokenExpiredCode && claims !== undefined && isForProject(claims, service.config.projectId)
        ? new Unauthorized({ message: "The access token is expired: refresh and retry.", reason: "expired" })
        : single !== undefined
        ? invalid("The access token was rejected by the service (forged, another project's, or revoked).")
        // the refresh token was rejected (or refreshed nothing): the session is over, refreshing cannot help
        : invalid("The session is expired or was signed out.")
    )
  }
  yield* admit(user.value, options)
  return user.value
})

/** The errors of {@link verify}. */
export type VerifyError = Unauthorized | Forbidden | AccessTokenVerifier.JwksUnavailable

/**
 * The errors of {@link authenticate}: {@link Unauthorized}, {@link Forbidden}, and the service's
 * own failures (transport errors, a misconfigured key: `ConfigurationError`).
 */
export type AuthenticateError = Effect.Error<ReturnType<typeof authenticate>>

/**
 * The request's access-token claims, verified locally against the project's JWKS (no request per
 * call once the keys are cached). Needs an access token (bearer, `x-stack-auth` or cookie): a
 * request with only a refresh token, or a token whose signature verified and whose `exp` has
 * passed, fails with {@link Unauthorized} `"expired"` (the client refreshes and retries); a bad
 * signature (whatever its `exp`), audience or issuer, or a token that is not a JWT, with
 * `"invalid"`; a restricted or anonymous user not admitted with {@link Forbidden}; an unreachable
 * JWKS with `JwksUnavailable`.
 */
export const verify = Effect.fn("RequestAuth.verify")(function* (
  request: RequestTokenStore.RequestLike,
  options: RequestAuthOptions
) {
  const credentials = yield* credentialsOf(request, options)
  const accessToken = credentials.tokens.accessToken
  if (Option.isNone(accessToken)) {
    return yield* Effect.fail(new Unauthorized({ message: "The request carries no access token: refresh and retry.", reason: "expired" }))
  }
  return yield* AccessTokenVerifier.verifyAccessToken(Redacted.value(accessToken.value), {
    allowRestricted: options.allowRestricted === true || options.allowAnonymous === true,
    allowAnonymous: options.allowAnonymous === true
  }).pipe(
    Effect.catch((error): Effect.Effect<never, VerifyError> => {
      switch (error._tag) {
        case "JwksUnavailable":
          return Effect.fail(error)
        case "TokenExpired":
          return Effect.fail(new Unauthorized({ message: "The access token is expired: refresh and retry.", reason: "expired" }))
        case "TokenUserNotAllowed":
          return Effect.fail(
            new Forbidden({ message: error.message, reason: error.userKind })
          )
        default:
          return Effect.fail(invalid(error.message))
      }
    })
  )
})
