/**
 * Server code handling one request: which tokens it acts with, and the hand-over header.
 *
 * A request may carry the user's tokens two ways (PROTOCOL.md §5.2):
 * - the `x-stack-auth` header, `{"accessToken": …, "refreshToken": …}`, set by the app's own
 *   browser code with {@link authHeaders} / {@link currentAuthHeaders} when it calls the app's own
 *   backend (the header is never sent to the service);
 * - the SDK's cookies (PROTOCOL.md §5.3), which the browser sends with every request.
 *
 * {@link layerTokenStore} picks the header when present, else the framework's cookie store
 * (`CookieTokenStore`, which also writes refreshed tokens back), else the request's `cookie`
 * header (`RequestTokenStore`, read-only).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { StackClient } from "../core/StackClient.js"
import * as RequestTokenStore from "../session/RequestTokenStore.js"
import * as SessionModule from "../session/Session.js"
import { type RefreshError, Session } from "../session/Session.js"
import type { TokenStore, TokenStoreError } from "../session/TokenStore.js"
import * as CookieTokenStore from "./CookieTokenStore.js"

export { authHeaderName, authHeaders, parseAuthHeader } from "../session/RequestTokenStore.js"

/** Where a request's tokens may come from; give what the framework offers. */
export interface RequestSource {
  /** The incoming request (a Fetch `Request`, a Node request) or its headers (Next's `headers()`). */
  readonly request?: RequestTokenStore.RequestLike | undefined
  /** The framework's cookie store (Next's `cookies()`), which can also write refreshed tokens. */
  readonly cookies?: CookieTokenStore.FrameworkCookies | undefined
}

/** Options of the request helpers. */
export interface RequestSessionOptions {
  /** The project whose cookies are read. */
  readonly projectId: string
  /** HTTPS site, for cookie reads and writes (see `CookieTokenStore`). */
  readonly secure?: boolean | undefined
  /** The domains whose cross-subdomain `--custom-` refresh cookies count (see `CookieTokenStore`); none by default. */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

const hasAuthHeader = (request: RequestTokenStore.RequestLike | undefined): boolean => {
  if (request === undefined) return false
  try {
    const headers: unknown = typeof (request as { readonly get?: unknown }).get === "function"
      ? request
      : (request as { readonly headers?: unknown }).headers
    if (typeof headers !== "object" || headers === null) return false
    if (typeof (headers as { readonly get?: unknown }).get === "function") {
      const value: unknown = (headers as RequestTokenStore.HeadersLike).get(RequestTokenStore.authHeaderName)
      return typeof value === "string" && value.trim() !== ""
    }
    return Object.entries(headers).some(([name, value]) =>
      name.toLowerCase() === RequestTokenStore.authHeaderName &&
      (typeof value === "string" ? value.trim() !== "" : Array.isArray(value) && value.length > 0)
    )
  } catch {
    return false
  }
}

/**
 * The token store for one request: the `x-stack-auth` header when the request carries it, else
 * the framework's cookies, else the request's `cookie` header; with neither, an empty store.
 * Fails with `TokenStoreError` ("Invalid x-stack-auth header: …") for a malformed header.
 */
export const layerTokenStore = (source: RequestSource, options: RequestSessionOptions): Layer.Layer<TokenStore, TokenStoreError> => {
  if (source.request !== undefined && (hasAuthHeader(source.request) || source.cookies === undefined)) {
    return RequestTokenStore.layer(source.request, options)
  }
  if (source.cookies !== undefined) return CookieTokenStore.layer(source.cookies, options)
  return RequestTokenStore.layer({ get: () => undefined }, options)
}

/**
 * A session for one request over {@link layerTokenStore}: provide it to an effect run by an
 * app-wide runtime (built from `Stack.layerServer`), and the effect acts as the request's user.
 */
export const layerSession = (
  source: RequestSource,
  options: RequestSessionOptions
): Layer.Layer<Session | TokenStore, TokenStoreError, StackClient> => SessionModule.layer.pipe(Layer.provideMerge(layerTokenStore(source, options)))

/**
 * The `x-stack-auth` header with the session's tokens — a fresh access token (refreshed when
 * fewer than 20 s remain) and the refresh token — for a call from the browser to the app's own
 * backend: `fetch("/api/x", { headers: yield* currentAuthHeaders })`. Both tokens are `null` when
 * signed out. The value reveals the tokens: send it only to your own server over HTTPS.
 */
export const currentAuthHeaders: Effect.Effect<Record<string, string>, RefreshError, Session> = Effect.flatMap(
  Session,
  (session) => Effect.map(session.requestTokens, RequestTokenStore.authHeaders)
)

/** The object {@link currentAuthHeaders} serialises: `{ accessToken, refreshToken }`, `null` when absent. */
export const currentAuthJson: Effect.Effect<
  { readonly accessToken: string | null; readonly refreshToken: string | null },
  RefreshError,
  Session
> = Effect.map(currentAuthHeaders, (headers) =>
  JSON.parse(headers[RequestTokenStore.authHeaderName]!) as {
    readonly accessToken: string | null
    readonly refreshToken: string | null
  })
