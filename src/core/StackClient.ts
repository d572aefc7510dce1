/**
 * The transport: turns a request description into one HTTP exchange with the service, with the
 * headers of PROTOCOL.md §1.2 for its access level, `credentials: "omit"`, `cache: "no-store"`,
 * the override-error-status handling of §1.5 and the retry policy of `RetryPolicy`.
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
 *   (`Headers.currentRedactedNames`, the app's own names kept), and secret query values (the OAuth
 *   authorize call's `client_secret` and `token`) are masked in the URL of spans and errors.
 *
 * It knows nothing about endpoints or known errors: `Endpoint.call` decodes what it returns.
 *
 * @module
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as Redacted from "effect/Redacted"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { AccessLevel } from "./Access.js"
import type { ConnectivityError, HttpError, InvalidResponse, RateLimited } from "./Errors.js"
import { makeTransport } from "./internal/transport.js"
import * as RetryPolicy from "./RetryPolicy.js"
import { StackConfig } from "./StackConfig.js"
import type { StackConfigShape } from "./StackConfig.js"

/** HTTP methods the service uses. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE"

/** A request body. */
export type RequestBody =
  | { readonly _tag: "Json"; readonly value: unknown }
  | { readonly _tag: "Form"; readonly value: Readonly<Record<string, string>> }

/** Credentials a request carries besides the project's own (access-level keys, user tokens). */
export interface RequestCredentials {
  readonly accessToken?: Redacted.Redacted<string> | undefined
  readonly refreshToken?: Redacted.Redacted<string> | undefined
  readonly secretServerKey?: Redacted.Redacted<string> | undefined
  readonly superSecretAdminKey?: Redacted.Redacted<string> | undefined
  readonly adminAccessToken?: Redacted.Redacted<string> | undefined
}

/** One request to the service. */
export interface StackRequest {
  readonly method: HttpMethod
  /** Path below `/api/v1`, query string included (e.g. `/users?limit=10`). */
  readonly path: string
  /**
   * The access level sent as `X-Stack-Access-Type`, or `"none"` for endpoints that take no
   * `x-stack-*` headers at all (the OAuth token endpoint).
   */
  readonly access: AccessLevel | "none"
  readonly body?: RequestBody | undefined
  readonly credentials?: RequestCredentials | undefined
  /**
   * Names of query parameters whose values are secrets, masked as `<redacted>` in every URL the
   * SDK records (span attributes, error messages and `url` fields), besides
   * {@link secretQueryParamNames}.
   */
  readonly secretQueryParams?: ReadonlyArray<string> | undefined
}

/** The answer, with the actual status already restored from `x-stack-actual-status`. */
export interface StackResponse {
  readonly status: number
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly method: string
  readonly url: string
}

/**
 * Failures of the exchange itself (after the retry policy): no answer, rate limited, a redirect or
 * a loop marker, an answer larger than the policy's `maxResponseBytes`.
 */
export type SendError = ConnectivityError | RateLimited | HttpError | InvalidResponse

/** The transport service. */
export interface StackClientShape {
  readonly config: StackConfigShape
  /** Sends one logical request (retrying per the policy) and returns the raw answer. */
  readonly send: (request: StackRequest) => Effect.Effect<StackResponse, SendError>
}

/** The transport service. */
export class StackClient extends /* @__PURE__ */ Context.Tag("stack-auth-effect/StackClient")<StackClient, StackClientShape>() {}

/** Header names whose values are secrets: redacted in every log line and span. */
export const secretHeaderNames: ReadonlyArray<string> = [
  "x-stack-access-token",
  "x-stack-refresh-token",
  "x-stack-publishable-client-key",
  "x-stack-secret-server-key",
  "x-stack-super-secret-admin-key",
  "x-stack-admin-access-token",
  "x-stack-auth",
  "authorization",
  "cookie",
  "set-cookie"
]

/** Query parameters whose values are always masked in recorded URLs (see {@link StackRequest}). */
export const secretQueryParamNames: ReadonlyArray<string> = [
  "client_secret",
  "token",
  "code",
  "code_verifier",
  "access_token",
  "refresh_token"
]

/** Builds the transport from the settings, an `HttpClient` and the retry policy. */
export const make: Effect.Effect<StackClientShape, never, StackConfig | HttpClient.HttpClient | RetryPolicy.RetryPolicy> =
  makeTransport

/**
 * The transport over whatever `HttpClient` and `RetryPolicy` the app provides. The client must not
 * follow redirects (a `FetchHttpClient` gets `redirect: "manual"` per request when its `RequestInit`
 * is in the context; {@link layerFetch} sets it): the transport refuses a 3xx answer, but a client
 * that follows it on its own has already sent the request's keys and tokens to the new origin.
 */
export const layerWithoutDependencies: Layer.Layer<StackClient, never, StackConfig | HttpClient.HttpClient | RetryPolicy.RetryPolicy> =
  /* @__PURE__ */ Layer.effect(StackClient, make)

/** The `fetch` options of {@link layerFetch}. */
export const fetchRequestInit: globalThis.RequestInit = { credentials: "omit", cache: "no-store", redirect: "manual" }

/**
 * `FetchHttpClient` set up as the service expects: `credentials: "omit"`, `cache: "no-store"`, and
 * `redirect: "manual"` (a redirect is never followed: see the module notes).
 */
export const layerFetch: Layer.Layer<HttpClient.HttpClient> = /* @__PURE__ */ FetchHttpClient.layer.pipe(
  /* @__PURE__ */ Layer.provide(/* @__PURE__ */ Layer.succeed(FetchHttpClient.RequestInit, fetchRequestInit))
)

/** The transport over `fetch` with the default retry policy; needs only `StackConfig`. */
export const layer: Layer.Layer<StackClient, never, StackConfig> = /* @__PURE__ */ layerWithoutDependencies.pipe(
  /* @__PURE__ */ Layer.provide(layerFetch),
  /* @__PURE__ */ Layer.provide(RetryPolicy.layer)
)
