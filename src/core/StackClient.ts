/**
 * The transport: turns a request description into one HTTP exchange with the service, with the
 * service's request headers for its access level, `credentials: "omit"`, `cache: "no-store"`,
 * the service's `x-stack-override-error-status` handling and the retry policy of `RetryPolicy`.
 *
 * Against a hostile server or network in between:
 * - redirects are never followed (`redirect: "manual"`): the service never answers 3xx to the
 *   SDK's calls, and following one would hand the keys and tokens to another origin; a 3xx (or a
 *   browser's opaque redirect, status 0) is an `HttpError` and nothing further is sent;
 * - an answer body is read up to `RetryPolicy`'s `maxResponseBytes` (8 MiB by default), then the
 *   call fails with `InvalidResponse`;
 * - a request that cannot be built (a header value with CR/LF or text above U+00FF) fails at once
 *   with `ConnectivityError`, never retried, nothing sent;
 * - secrets never reach a span, a log or an error: secret headers are added to the redacted names
 *   (`Headers.CurrentRedactedNames`, the app's own names kept), and secret query values (the OAuth
 *   authorize call's `client_secret` and `token`) are masked in the URL of spans and errors.
 *
 * It knows nothing about endpoints or known errors: `Endpoint.call` decodes what it returns.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type { StackClientShape } from "./internal/exchange.js"
import { makeTransport } from "./internal/transport.js"
import * as RetryPolicy from "./RetryPolicy.js"
import { StackConfig } from "./StackConfig.js"

/** The request, the answer and the service's shape (defined beside the transport, which uses them too). */
export type { HttpMethod, RequestBody, RequestCredentials, SendError, StackClientShape, StackRequest, StackResponse } from "./internal/exchange.js"

/** The transport service. */
export class StackClient extends Context.Service<StackClient, StackClientShape>()("stack-auth-effect/StackClient") {}

/** Header names whose values are secrets, and query parameters whose values are always masked in recorded URLs. */
export { secretHeaderNames, secretQueryParamNames } from "./internal/exchange.js"

/** Builds the transport from the settings, an `HttpClient` and the retry policy. */
export const make: Effect.Effect<StackClientShape, never, StackConfig | HttpClient.HttpClient | RetryPolicy.RetryPolicy> = makeTransport

/**
 * The transport over whatever `HttpClient` and `RetryPolicy` the app provides. The client must not
 * follow redirects (a `FetchHttpClient` gets `redirect: "manual"` per request when its `RequestInit`
 * is in the context; {@link layerFetch} sets it): the transport refuses a 3xx answer, but a client
 * that follows it on its own has already sent the request's keys and tokens to the new origin.
 */
export const layerWithoutDependencies: Layer.Layer<StackClient, never, StackConfig | HttpClient.HttpClient | RetryPolicy.RetryPolicy> = Layer.effect(
  StackClient,
  make
)

/** The `fetch` options of {@link layerFetch}. */
export const fetchRequestInit: globalThis.RequestInit = { credentials: "omit", cache: "no-store", redirect: "manual" }

/**
 * `globalThis.fetch` as it is when each request is sent, not when the client was first used: a
 * `fetch` patched later (msw's interception, a test double, an instrumentation) is the one called.
 * (`FetchHttpClient.Fetch`'s default is read once and kept.)
 */
const currentFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init)

/**
 * `FetchHttpClient` set up as the service expects: `credentials: "omit"`, `cache: "no-store"`, and
 * `redirect: "manual"` (a redirect is never followed: see the module notes). It calls the
 * `FetchHttpClient.Fetch` given to the layer or to a call, else `globalThis.fetch` as it is at
 * each request.
 */
export const layerFetch: Layer.Layer<HttpClient.HttpClient> = Layer.unwrap(
  Effect.map(Effect.context<never>(), (context) => {
    const client = FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, fetchRequestInit)))
    return context.mapUnsafe.has(FetchHttpClient.Fetch.key) ? client : client.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, currentFetch)))
  })
)

/** The transport over `fetch` with the default retry policy; needs only `StackConfig`. */
export const layer: Layer.Layer<StackClient, never, StackConfig> = layerWithoutDependencies.pipe(
  Layer.provide(layerFetch),
  Layer.provide(RetryPolicy.layer)
)

/**
 * A layer adding header names to the HTTP redacted header names (`Headers.CurrentRedactedNames`)
 * of the runtime it builds, the app's own names kept and none added twice: a server's tracer then
 * records those headers of incoming requests as `<redacted>`.
 */
export const layerRedactHeaders = (extra: ReadonlyArray<string>): Layer.Layer<never> =>
  Layer.effect(
    Headers.CurrentRedactedNames,
    Effect.map(Headers.CurrentRedactedNames, (names) => [...names, ...extra.filter((name) => !names.includes(name))])
  )
