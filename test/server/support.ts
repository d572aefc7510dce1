/**
 * Shared pieces of the server-middleware tests (in process and over HTTP): a server runtime over a
 * given HTTP client, users signed in through a client runtime, requests carrying their tokens in
 * each of the three ways, and an `HttpApi` / `HttpRouter` app behind the middleware.
 */
import { Effect, Layer, ManagedRuntime, Option, Redacted, Schema } from "effect"
import type { HttpClient } from "effect/http"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Password from "../../src/auth/Password.js"
import { Session } from "../../src/core/Session.js"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import * as Cookies from "../../src/session/cookies.js"
import * as Stack from "../../src/Stack.js"
import { HttpApiAuth, RequestAuth } from "../../src/server/index.js"

export const password = "correct horse battery"

/** The project's keys and an HTTP client (in-process emulator or real fetch), with a base URL. */
export interface Target {
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  readonly baseUrl?: string
  readonly httpClient: Layer.Layer<HttpClient.HttpClient>
}

const keys = (target: Target) => ({
  projectId: target.projectId,
  publishableClientKey: target.publishableClientKey,
  httpClient: target.httpClient,
  tokenStore: "memory" as const,
  ...(target.baseUrl === undefined ? {} : { baseUrl: target.baseUrl })
})

/** The app server's runtime: server access plus a JWKS verifier. */
export const serverRuntime = (target: Target) =>
  ManagedRuntime.make(
    AccessTokenVerifier.layer().pipe(Layer.provideMerge(Stack.layerServer({ ...keys(target), secretServerKey: target.secretServerKey })))
  )

/** A user signed in on a browser of their own; returns the session's tokens as texts. */
export const signedInUser = async (target: Target, options: { readonly anonymous?: boolean } = {}) => {
  const email = `server-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  return Effect.runPromise(
    Effect.gen(function* () {
      const { userId } = options.anonymous === true
        ? yield* Anonymous.signUp()
        : yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
      const tokens = yield* Effect.flatMap(Session, (session) => session.current)
      return {
        userId,
        email,
        accessToken: Redacted.value(Option.getOrThrow(tokens.accessToken)),
        refreshToken: Redacted.value(Option.getOrThrow(tokens.refreshToken))
      }
    }).pipe(Effect.provide(Stack.layerClient(keys(target))))
  )
}

/** The three ways a request carries the user's tokens. */
export const requestWith = (
  target: Target,
  user: { readonly accessToken: string; readonly refreshToken: string },
  how: "bearer" | "x-stack-auth" | "cookies",
  url = "http://app.test/me"
): Request => {
  if (how === "bearer") return new Request(url, { headers: { authorization: `Bearer ${user.accessToken}` } })
  if (how === "x-stack-auth") {
    return new Request(url, { headers: { "x-stack-auth": JSON.stringify({ accessToken: user.accessToken, refreshToken: user.refreshToken }) } })
  }
  const cookies = Cookies.writeTokens(
    { accessToken: Option.some(Redacted.make(user.accessToken)), refreshToken: Option.some(Redacted.make(user.refreshToken)) },
    { projectId: target.projectId, secure: false, now: Date.now(), existing: new Map() }
  ).map((cookie) => cookie.split(";")[0]!)
  return new Request(url, { headers: { cookie: cookies.join("; ") } })
}

/** An `HttpApi` with `GET /me` behind `HttpApiAuth.Authentication` and `GET /claims` behind `ClaimsAuthentication`. */
class MeGroup extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("me", "/me", { success: Schema.Struct({ id: Schema.String, email: Schema.NullOr(Schema.String) }) }))
  .middleware(HttpApiAuth.Authentication)
{}

class ClaimsGroup extends HttpApiGroup.make("claims")
  .add(HttpApiEndpoint.get("claims", "/claims", { success: Schema.Struct({ userId: Schema.String }) }))
  .middleware(HttpApiAuth.ClaimsAuthentication)
{}

class Api extends HttpApi.make("api").add(MeGroup).add(ClaimsGroup) {}

/** The API as a web handler (`Request → Response`) over the server's runtime layer. */
export const apiHandler = (target: Target, options: Omit<RequestAuth.RequestAuthOptions, "projectId"> = {}) => {
  const app = AccessTokenVerifier.layer().pipe(Layer.provideMerge(Stack.layerServer({ ...keys(target), secretServerKey: target.secretServerKey })))
  const meLive = HttpApiBuilder.group(
    Api,
    "me",
    (handlers) => handlers.handle("me", () => Effect.map(RequestAuth.CurrentUser, (user) => ({ id: user.id, email: user.primaryEmail })))
  )
  const claimsLive = HttpApiBuilder.group(
    Api,
    "claims",
    (handlers) => handlers.handle("claims", () => Effect.map(RequestAuth.CurrentClaims, (claims) => ({ userId: claims.userId })))
  )
  const auth = Layer.mergeAll(
    HttpApiAuth.layer({ projectId: target.projectId, ...options }),
    HttpApiAuth.layerClaims({ projectId: target.projectId, ...options })
  ).pipe(Layer.provide(app))
  const live = HttpApiBuilder.layer(Api).pipe(Layer.provide(Layer.mergeAll(meLive, claimsLive)), Layer.provide(auth))
  return HttpRouter.toWebHandler(live.pipe(Layer.provide(HttpServer.layerServices)), { disableLogger: true })
}

/** An `HttpRouter` app with `GET /me` behind `HttpApiAuth.middleware`, as a web handler over the runtime's services. */
export const routerHandler = async (
  runtime: ReturnType<typeof serverRuntime>,
  projectId: string,
  options: Omit<RequestAuth.RequestAuthOptions, "projectId"> = {}
) => {
  const me = Effect.map(RequestAuth.CurrentUser, (user) => HttpServerResponse.jsonUnsafe({ id: user.id }))
  const route = HttpRouter.add("GET", "/me", HttpApiAuth.middleware({ projectId, ...options })(me))
  const { handler } = HttpRouter.toWebHandler(route.pipe(Layer.provideMerge(Layer.succeedContext(await runtime.context()))), { disableLogger: true })
  return (request: Request) => handler(request)
}
