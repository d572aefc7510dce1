/**
 * How the emulator answers (PROTOCOL.md §1.1, §1.5): JSON and text bodies, known errors with the
 * `x-stack-known-error` header, plain-text errors, the headers every response carries (request
 * id, `cache-control`, CORS) and the override-error-status rewrite.
 *
 * @module
 */
import { Data } from "effect"
import type { KnownErrorInstance } from "../core/KnownError.js"

/** A failure answered with a `text/plain` body and no known-error header (e.g. 400 "Invalid profile image URL"). */
export class TextFailure extends Data.TaggedError("EmulatorTextFailure")<{
  readonly status: number
  readonly text: string
}> {}

/** A failure answered with a JSON body and no known-error header (e.g. OAuth `invalid_request`). */
export class JsonFailure extends Data.TaggedError("EmulatorJsonFailure")<{
  readonly status: number
  readonly body: unknown
}> {}

/** What a route handler may fail with: a known error of the catalogue, or a plain failure. */
export type HandlerFailure = KnownErrorInstance | TextFailure | JsonFailure

const jsonType = "application/json; charset=utf-8"
const textType = "text/plain; charset=utf-8"

/** CORS headers of every `/api/` response. */
export const corsHeaders: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-max-age": "86400",
  "access-control-expose-headers": "content-type, x-stack-actual-status, x-stack-known-error",
  "access-control-allow-headers": [
    "content-type",
    "authorization",
    "x-stack-project-id",
    "x-stack-branch-id",
    "x-stack-override-error-status",
    "x-stack-random-nonce",
    "x-stack-client-version",
    "x-stack-access-type",
    "x-stack-publishable-client-key",
    "x-stack-secret-server-key",
    "x-stack-super-secret-admin-key",
    "x-stack-admin-access-token",
    "x-stack-refresh-token",
    "x-stack-access-token",
    "x-stack-allow-anonymous-user",
    "x-stack-disable-artificial-development-delay",
    "x-hexclave-project-id",
    "x-hexclave-branch-id",
    "x-hexclave-override-error-status",
    "x-hexclave-random-nonce",
    "x-hexclave-client-version",
    "x-hexclave-access-type",
    "x-hexclave-publishable-client-key",
    "x-hexclave-secret-server-key",
    "x-hexclave-super-secret-admin-key",
    "x-hexclave-admin-access-token",
    "x-hexclave-refresh-token",
    "x-hexclave-access-token",
    "x-hexclave-allow-anonymous-user",
    "baggage",
    "sentry-trace",
    "x-vercel-protection-bypass",
    "ngrok-skip-browser-warning"
  ].join(", ")
}

/** A JSON response (2-space indented when `pretty`). */
export const jsonResponse = (
  status: number,
  body: unknown,
  options: { readonly pretty?: boolean; readonly headers?: Readonly<Record<string, string>> } = {}
): Response =>
  new Response(JSON.stringify(body, undefined, options.pretty === true ? 2 : undefined), {
    status,
    headers: { "content-type": jsonType, ...options.headers }
  })

/** A `text/plain` response. */
export const textResponse = (status: number, text: string, headers: Readonly<Record<string, string>> = {}): Response =>
  new Response(text, { status, headers: { "content-type": textType, ...headers } })

/** The wire body of a known error: `{code, details?, error}`, details omitted when empty. */
export const knownErrorBody = (error: KnownErrorInstance): Record<string, unknown> => {
  const details = error.details as Record<string, unknown> | undefined
  return {
    code: error.code,
    ...(details !== undefined && details !== null && Object.keys(details).length > 0 ? { details } : {}),
    error: error.message
  }
}

/** A known error: its status, `x-stack-known-error`, 2-space indented JSON. */
export const knownErrorResponse = (error: KnownErrorInstance): Response =>
  jsonResponse(error.status, knownErrorBody(error), { pretty: true, headers: { "x-stack-known-error": error.code } })

/** The response for a handler failure. */
export const failureResponse = (failure: HandlerFailure): Response => {
  if (failure instanceof TextFailure) return textResponse(failure.status, failure.text)
  if (failure instanceof JsonFailure) return jsonResponse(failure.status, failure.body)
  return knownErrorResponse(failure)
}

/** The 500 text of an unexpected failure. */
export const internalErrorText = (requestId: string): string =>
  `Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${requestId}`

/** How {@link finalize} completes a response. */
export interface FinalizeOptions {
  readonly requestId: string
  /** Rewrite 4xx to 200 with `x-stack-actual-status` (the request asked for it, and the route allows it). */
  readonly overrideErrorStatus: boolean
  /** `cache-control` unless the response already set one. */
  readonly cacheControl?: string
  /**
   * `access-control-allow-origin`: `"*"` (the default, as the service answers), one origin (echoed
   * with `vary: origin`), or null for no CORS headers at all (see `BrowserAccess.ts`).
   */
  readonly allowOrigin?: string | null
}

const nullBodyStatuses = new Set([101, 204, 205, 304])

/**
 * Adds the headers every response carries (`x-stack-request-id`, `cache-control`, CORS unless
 * `allowOrigin` is null) and applies the override-error-status rewrite (4xx → 200 +
 * `x-stack-actual-status`; 5xx never).
 */
export const finalize = (response: Response, options: FinalizeOptions): Response => {
  const headers = new Headers(response.headers)
  headers.set("x-stack-request-id", options.requestId)
  if (!headers.has("cache-control")) headers.set("cache-control", options.cacheControl ?? "no-store, max-age=0")
  const allowOrigin = options.allowOrigin === undefined ? "*" : options.allowOrigin
  if (allowOrigin !== null) {
    for (const [name, value] of Object.entries(corsHeaders)) headers.set(name, value)
    if (allowOrigin !== "*") {
      headers.set("access-control-allow-origin", allowOrigin)
      headers.append("vary", "origin")
    }
  }
  let status = response.status
  if (options.overrideErrorStatus && status >= 400 && status < 500) {
    headers.set("x-stack-actual-status", String(status))
    status = 200
  }
  return new Response(nullBodyStatuses.has(status) ? null : response.body, { status, headers })
}
