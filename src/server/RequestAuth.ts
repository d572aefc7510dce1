/**
 * Authenticating an incoming request on the app's own server, once, for any framework: a plain
 * `Request → Effect` helper ({@link authenticate}, {@link verify}) and the services a handler
 * reads ({@link CurrentUser}, {@link CurrentClaims}). `HttpApiAuth` builds `@effect/platform`'s
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
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { HttpApiSchema } from "@effect/platform"
import * as AccessTokenVerifier from "../session/AccessTokenVerifier.js"
import type { AccessTokenClaims } from "../session/AccessTokenVerifier.js"
import * as RequestTokenStore from "../session/RequestTokenStore.js"
import * as Session from "../session/Session.js"
import { token, type StoredTokens } from "../session/TokenStore.js"
import * as ServerUsers from "../users/ServerUsers.js"
import type { ServerUser } from "../users/User.js"

/** The authenticated user of the request, server view (provided by the middleware). */
export class CurrentUser extends Context.Tag("stack-auth-effect/server/CurrentUser")<CurrentUser, ServerUser>() {}

/** The verified access-token claims of the request (provided by the local-verification middleware). */
export class CurrentClaims extends Context.Tag("stack-auth-effect/server/CurrentClaims")<CurrentClaims, AccessTokenClaims>() {}

/** 401: no credentials, or credentials that are not (or no longer) valid. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  {
    message: Schema.String,
    /** `"missing"`: none sent; `"invalid"`: malformed or rejected; `"expired"`: an expired access token and nothing to refresh it with. */
    reason: Schema.Literal("missing", "invalid", "expired")
  },
  HttpApiSchema.annotations({ status: 401 })
) {}

/** 403: a valid user this route does not admit (restricted or anonymous). */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  {
    message: Schema.String,
    reason: Schema.Literal("restricted", "anonymous")
  },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** Who a route admits besides normal users (default: neither). */
export interface Admission {
  /** Admit restricted users (e.g. e-mail not verified). */
  readonly allowRestricted?: boolean | undefined
  /** Admit anonymous users (implies `allowRestricted`: anonymous users are restricted). */
  readonly allowAnonymous?: boolean | undefined
}

/** Options of the helpers. */
export interface RequestAuthOptions extends Admission {
  /** The project whose cookies are read. */
  readonly projectId: string
}

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
  options: { readonly projectId: string }
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
    return RequestTokenStore.readRequestTokens(request, options).pipe(
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
 * The request's user, server view: `GET /users/me` with server access, in a session made for this
 * request from its credentials (see the module). Fails with {@link Unauthorized} (no credentials;
 * a session the service does not accept, e.g. a revoked refresh token or an expired bearer
 * token), {@link Forbidden} (restricted / anonymous users unless admitted), or a transport error.
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
  const session = yield* Session.makeForRequest(credentials.tokens)
  const user = yield* ServerUsers.getCurrent().pipe(
    Effect.provideService(Session.Session, session),
    // the service rejected the request's tokens (a revoked refresh token, an unusable access token)
    Effect.catchTag("SessionError", (error) => Effect.fail(invalid(error.message)))
  )
  if (Option.isNone(user)) {
    return yield* Effect.fail(
      credentials._tag === "Bearer"
        ? new Unauthorized({ message: "The access token is expired or revoked.", reason: "expired" })
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
export type AuthenticateError = Effect.Effect.Error<ReturnType<typeof authenticate>>

/**
 * The request's access-token claims, verified locally against the project's JWKS (no request per
 * call once the keys are cached). Needs an access token (bearer, `x-stack-auth` or cookie): a
 * request with only a refresh token, or an expired token, fails with {@link Unauthorized}
 * `"expired"` (the client refreshes and retries); a bad signature, audience or issuer with
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
    Effect.catchAll((error): Effect.Effect<never, VerifyError> => {
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
