/**
 * The request and answer of one exchange with the service, and the names of secret headers and
 * query parameters: what both `StackClient` (the public service) and the transport behind it
 * (`internal/transport.ts`) need, in a leaf module so that neither imports the other back
 * (docs/ARCHITECTURE.md). `StackClient` re-exports all of it.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import type { AccessLevel } from "../Access.js"
import type { ConnectivityError, HttpError, InvalidResponse, RateLimited } from "../Errors.js"
import type { StackConfigShape } from "../StackConfig.js"

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
