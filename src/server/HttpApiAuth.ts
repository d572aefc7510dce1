/**
 * `effect/http-api` and `effect/http` middleware over `RequestAuth`: authenticate an incoming
 * request once and give the handler the user as a service.
 *
 * - {@link Authentication}: an `HttpApiMiddleware` for `HttpApi` endpoints, with the security
 *   schemes the SDK reads (bearer, the `x-stack-auth` header, the `stack-access` cookie; they show
 *   in the OpenAPI document), providing `RequestAuth.CurrentUser` and failing with the typed
 *   `Unauthorized` (401) / `Forbidden` (403). {@link layer} implements it with full user data;
 * - {@link ClaimsAuthentication} / {@link layerClaims}: the same with local JWT verification,
 *   providing `RequestAuth.CurrentClaims` (no request to the service per call);
 * - {@link middleware}: for an `HttpRouter` route or any HTTP handler effect: runs it with
 *   `CurrentUser`, or answers 401 / 403 with `{ _tag, message, reason }` as JSON.
 *
 * The schemes are tried in order, but the request is authenticated once (the first scheme's
 * attempt reads every source in `RequestAuth`'s order; the others reuse its result). A failure of
 * the service itself (network, 5xx) is a defect here: the server answers 500.
 *
 * @example
 * ```ts
 * import { Effect, Schema } from "effect"
 * import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
 * import { HttpApiAuth, RequestAuth } from "stack-auth-effect/server"
 *
 * class Me extends HttpApiGroup.make("me")
 *   .add(HttpApiEndpoint.get("me", "/me", { success: Schema.Struct({ id: Schema.String }) }))
 *   .middleware(HttpApiAuth.Authentication) {}
 * class Api extends HttpApi.make("api").add(Me) {}
 * // handler: Effect.map(RequestAuth.CurrentUser, (user) => ({ id: user.id })); provide HttpApiAuth.layer({ projectId })
 * ```
 *
 * @module
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { ServerAccess } from "../core/Access.js"
import { layerRedactHeaders } from "../core/StackClient.js"
import type { StackClient } from "../core/StackClient.js"
import { authHeaderName } from "../session/RequestTokenStore.js"
import type { AccessTokenVerifier } from "../session/AccessTokenVerifier.js"
import { authenticate, CurrentClaims, CurrentUser, Forbidden, Unauthorized, verify } from "./RequestAuth.js"
import type { AuthenticateError, RequestAuthOptions } from "./RequestAuth.js"

/** The security schemes the SDK's credentials use (for the OpenAPI document). */
export const security = {
  /** `Authorization: Bearer <access token>`. */
  bearer: HttpApiSecurity.bearer,
  /** `x-stack-auth: {"accessToken","refreshToken"}` (the app's own browser code). */
  stackAuth: HttpApiSecurity.apiKey({ in: "header", key: authHeaderName }),
  /** The SDK's `stack-access` cookie (with the project's refresh cookie). */
  cookie: HttpApiSecurity.apiKey({ in: "cookie", key: "stack-access" })
} as const

/** The failure of the middleware: `Unauthorized` (401) or `Forbidden` (403). */
export const AuthFailure = Schema.Union([Unauthorized, Forbidden])

/** `HttpApi` middleware providing the request's user ({@link CurrentUser}); implemented by {@link layer}. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentUser }>()(
  "stack-auth-effect/server/Authentication",
  { error: [Unauthorized, Forbidden], security }
) {}

/** `HttpApi` middleware providing the request's verified claims ({@link CurrentClaims}); implemented by {@link layerClaims}. */
export class ClaimsAuthentication extends HttpApiMiddleware.Service<ClaimsAuthentication, { provides: CurrentClaims }>()(
  "stack-auth-effect/server/ClaimsAuthentication",
  { error: [Unauthorized, Forbidden], security }
) {}

/**
 * The result of one authentication per request object, shared by the schemes tried after the
 * first (they only run when it failed, and would fail the same way).
 */
const oncePerRequest = <A, E>(run: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, E>) => {
  const results = new WeakMap<HttpServerRequest.HttpServerRequest, Effect.Effect<A, E>>()
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const known = results.get(request)
    if (known !== undefined) return known
    return Effect.flatMap(Effect.cached(run(request)), (result) => {
      results.set(request, result)
      return result
    })
  })
}

/**
 * The same handler for every scheme: it authenticates the request (once, see
 * {@link oncePerRequest}) and runs the endpoint with what it found as the service `key`.
 */
const schemes = <I, A, E>(key: Context.Key<I, A>, authenticated: Effect.Effect<A, E, HttpServerRequest.HttpServerRequest>) => {
  const handle = <B, F, R>(httpEffect: Effect.Effect<B, F, R>) => Effect.flatMap(authenticated, (found) => Effect.provideService(httpEffect, key, found))
  return { bearer: handle, stackAuth: handle, cookie: handle }
}

/**
 * The SDK's credential header (`x-stack-auth`, both tokens) added to the platform's redacted
 * header names (`authorization` and `cookie` are there by default), so the server's tracer
 * records it as `<redacted>`. Part of {@link layer} and {@link layerClaims}.
 */
const redactCredentialHeaders = layerRedactHeaders([authHeaderName])

/** A refusal as the typed failure; any other failure (the service's own) as a defect. */
const refusalsOnly = <A, E, R>(effect: Effect.Effect<A, E | Unauthorized | Forbidden, R>): Effect.Effect<A, Unauthorized | Forbidden, R> =>
  Effect.catchIf(effect, (error): error is E => !(error instanceof Unauthorized || error instanceof Forbidden), Effect.die)

/**
 * {@link Authentication} with full user data (`RequestAuth.authenticate`: `GET /users/me` with
 * server access for each request). Needs the app's server layer (`Stack.layerServer`). Also adds
 * `x-stack-auth` to the platform's redacted header names (the server tracer's request headers).
 */
export const layer = (options: RequestAuthOptions): Layer.Layer<Authentication, never, StackClient | ServerAccess> =>
  Layer.effect(
    Authentication,
    Effect.map(Effect.context<StackClient | ServerAccess>(), (context) =>
      Authentication.of(schemes(
        CurrentUser,
        oncePerRequest((request) => refusalsOnly(authenticate(request, options)).pipe(Effect.provide(context)))
      )))
  ).pipe(Layer.merge(redactCredentialHeaders))

/**
 * {@link ClaimsAuthentication} with local JWT verification (`RequestAuth.verify`). Needs the
 * `AccessTokenVerifier` service (`AccessTokenVerifier.layer()` over the app's layer).
 */
export const layerClaims = (options: RequestAuthOptions): Layer.Layer<ClaimsAuthentication, never, AccessTokenVerifier> =>
  Layer.effect(
    ClaimsAuthentication,
    Effect.map(Effect.context<AccessTokenVerifier>(), (context) =>
      ClaimsAuthentication.of(schemes(
        CurrentClaims,
        oncePerRequest((request) => refusalsOnly(verify(request, options)).pipe(Effect.provide(context)))
      )))
  ).pipe(Layer.merge(redactCredentialHeaders))

/** The JSON answer of a refused request: `{ _tag, message, reason }` with status 401 or 403. */
export const refusal = (error: Unauthorized | Forbidden): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(
    { _tag: error._tag, message: error.message, reason: error.reason },
    { status: error._tag === "Unauthorized" ? 401 : 403 }
  )

/**
 * Middleware for an `HttpRouter` route or any HTTP handler effect (what effect 4 serves where
 * effect 3 had an `HttpApp`): authenticates the request (`RequestAuth.authenticate`) and runs the
 * handler with {@link CurrentUser}, or answers {@link refusal} (401 / 403) without running it.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { HttpRouter, HttpServerResponse } from "effect/http"
 * import { HttpApiAuth, RequestAuth } from "stack-auth-effect/server"
 *
 * declare const projectId: string // your project's id
 * const me = Effect.map(RequestAuth.CurrentUser, (user) => HttpServerResponse.jsonUnsafe({ id: user.id }))
 * const route = HttpRouter.add("GET", "/me", HttpApiAuth.middleware({ projectId })(me))
 * ```
 */
export const middleware = (options: RequestAuthOptions) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  E | Exclude<AuthenticateError, Unauthorized | Forbidden>,
  Exclude<R, CurrentUser> | StackClient | ServerAccess | HttpServerRequest.HttpServerRequest
> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    authenticate(request, options).pipe(
      Effect.matchEffect({
        onFailure: (error) => error instanceof Unauthorized || error instanceof Forbidden ? Effect.succeed(refusal(error)) : Effect.fail(error),
        onSuccess: (user) => Effect.provideService(app, CurrentUser, user)
      })
    ))
