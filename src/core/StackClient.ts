/**
 * The transport: turns a request description into one HTTP exchange with the service, with the
 * headers of PROTOCOL.md §1.2 for its access level, `credentials: "omit"`, `cache: "no-store"`,
 * the override-error-status handling of §1.5 and the retry policy of `RetryPolicy`.
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
import type { ConnectivityError, HttpError, RateLimited } from "./Errors.js"
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

/** Failures of the exchange itself (after the retry policy). */
export type SendError = ConnectivityError | RateLimited | HttpError

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

/** Builds the transport from the settings, an `HttpClient` and the retry policy. */
export const make: Effect.Effect<StackClientShape, never, StackConfig | HttpClient.HttpClient | RetryPolicy.RetryPolicy> =
  makeTransport

/** The transport over whatever `HttpClient` and `RetryPolicy` the app provides. */
export const layerWithoutDependencies: Layer.Layer<StackClient, never, StackConfig | HttpClient.HttpClient | RetryPolicy.RetryPolicy> =
  /* @__PURE__ */ Layer.effect(StackClient, make)

/**
 * `FetchHttpClient` set up as the service expects: `credentials: "omit"`, `cache: "no-store"`.
 */
export const layerFetch: Layer.Layer<HttpClient.HttpClient> = /* @__PURE__ */ FetchHttpClient.layer.pipe(
  /* @__PURE__ */ Layer.provide(/* @__PURE__ */ Layer.succeed(FetchHttpClient.RequestInit, { credentials: "omit", cache: "no-store" }))
)

/** The transport over `fetch` with the default retry policy; needs only `StackConfig`. */
export const layer: Layer.Layer<StackClient, never, StackConfig> = /* @__PURE__ */ layerWithoutDependencies.pipe(
  /* @__PURE__ */ Layer.provide(layerFetch),
  /* @__PURE__ */ Layer.provide(RetryPolicy.layer)
)
