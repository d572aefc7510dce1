/**
 * The token store for server code handling one request (PROTOCOL.md §5.2, request-like stores):
 *
 * - when the request carries `Authorization: Bearer stackauth_<base64 JSON>` (see
 *   {@link authorizationHeader}: the official SDK's `getAuthorizationHeader()` hand-over, read first
 *   as the official SDK 2.8.108 does), the tokens come from that JSON `{ accessToken, refreshToken }`;
 *   any other `Authorization` value (a plain bearer token, Basic…) is not this store's and is skipped;
 * - else when the request carries an `x-stack-auth` header (see {@link authHeaders}: a browser forwarding
 *   its tokens to the app's own backend), the tokens come from that JSON object
 *   `{ accessToken, refreshToken }`; it must hold both tokens, or neither (a signed-out browser);
 * - otherwise they are read from the `cookie` header with the cookie rules of `cookies.ts` (the
 *   `__Host-` refresh cookie first; over HTTPS no other name but the `--custom-` cookies of
 *   `cookieDomains`, so a cookie planted by a sibling subdomain never signs the request in).
 *
 * Writes (a refreshed access token, a sign-out) are kept in memory for the life of the store: a
 * server cannot write the browser's cookies from here (the framework helpers of `stack-auth-effect/next` can).
 * Build one store per request (its layer is cheap), as the official SDK caches one per request.
 *
 * A token a request header cannot carry (CR/LF, NUL or other control characters, text above
 * U+00FF — JSON escapes let `x-stack-auth` hold them) is not a token: the request reads as signed
 * out, and no call is sent with it.
 *
 * Error messages never contain the header value or any token text.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { isSendableToken } from "../core/Wire.js"
import * as Cookies from "./cookies.js"
import { empty, isUsableToken, type StoredTokens, token, TokenStore, TokenStoreError, type TokenStoreShape } from "./TokenStore.js"

/** Headers as the Fetch API (`Headers`) and most frameworks expose them. */
export interface HeadersLike {
  readonly get: (name: string) => string | null | undefined
}

/** Headers as Node's `IncomingMessage` exposes them (lower-case names). */
export type HeaderRecord = { readonly [name: string]: string | ReadonlyArray<string> | undefined }

/** A request-like object (a Fetch `Request`, a Node request) or its headers. */
export type RequestLike = { readonly headers: HeadersLike | HeaderRecord } | HeadersLike

/** Options of the request store. */
export interface RequestTokenStoreOptions {
  /** The project whose refresh cookie is read from the `cookie` header. */
  readonly projectId: string
  /**
   * The site is served over HTTPS: only the `__Host-` refresh cookie (and the `--custom-` ones of
   * `cookieDomains`) count. Default: the browser set the `stack-is-https` marker cookie.
   */
  readonly secure?: boolean | undefined
  /**
   * The domains this app is served under whose cross-subdomain `--custom-` refresh cookies (the
   * official SDK's, for a trusted parent domain) count; none by default. Entries that are not
   * domain names (a scheme, a port, a leading dot) match nothing.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

/** Name of the header carrying forwarded tokens. */
export const authHeaderName = "x-stack-auth"

/**
 * Makes a store seeded from a request: the `x-stack-auth` header when present, else the cookies.
 * Fails with {@link TokenStoreError} `Invalid x-stack-auth header: <reason>` when that header is
 * not a JSON object of two tokens (strings or null), holds only one token, or a token that is not
 * usable (the text `"undefined"`, `"null"` or empty).
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import { Session, Users } from "stack-auth-effect"
 * import { RequestTokenStore } from "stack-auth-effect/next"
 *
 * declare const projectId: string // your project's id
 * const handler = (request: Request) =>
 *   Users.getCurrent().pipe(Effect.provide(Session.layer.pipe(Layer.provide(RequestTokenStore.layer(request, { projectId })))))
 * ```
 */
export const make = (
  request: RequestLike,
  options: RequestTokenStoreOptions
): Effect.Effect<TokenStoreShape, TokenStoreError> =>
  Effect.gen(function* () {
    // the request's tokens in one variable (nobody else writes to them: no changes)
    let tokens = yield* readRequestTokens(request, options)
    return {
      get: Effect.sync(() => tokens),
      set: (next) =>
        Effect.sync(() => {
          tokens = sanitize(next)
        }),
      changes: Stream.empty
    } satisfies TokenStoreShape
  })

/** The request store as the {@link TokenStore} service. */
export const layer = (request: RequestLike, options: RequestTokenStoreOptions): Layer.Layer<TokenStore, TokenStoreError> =>
  Layer.effect(TokenStore, make(request, options))

/**
 * The tokens a request carries, without making a store (`Authorization: Bearer stackauth_…` first,
 * then `x-stack-auth`, then the cookies). Fails as {@link make}, and with `Invalid Authorization
 * header: <reason>` for a `stackauth_` credential that does not decode.
 */
export const readRequestTokens = (
  request: RequestLike,
  options: RequestTokenStoreOptions
): Effect.Effect<StoredTokens, TokenStoreError> =>
  Effect.suspend(() => {
    const fromOtherHeaders = Effect.suspend(() => {
      const header = headerValue(request, authHeaderName)
      // An empty header counts as absent, as in the official SDK.
      if (header !== undefined && header.trim() !== "") return parseAuthHeader(header)
      return readCookieTokens(request, options)
    })
    const authorization = headerValue(request, "authorization")
    if (authorization === undefined || authorization.trim() === "") return fromOtherHeaders
    return Effect.flatMap(parseAuthorizationHeader(authorization), Option.match({ onNone: () => fromOtherHeaders, onSome: Effect.succeed }))
  })

/** The tokens of the request's `cookie` header (see the module notes). */
const readCookieTokens = (request: RequestLike, options: RequestTokenStoreOptions): Effect.Effect<StoredTokens, TokenStoreError> =>
  Effect.map(Clock.currentTimeMillis, (now) => {
    const cookies = Cookies.parseCookieHeader(headerValue(request, "cookie"))
    return Cookies.readTokens(cookies, options.projectId, {
      now,
      secure: Cookies.servedOverHttps(options.secure, cookies),
      cookieDomains: options.cookieDomains
    })
  })

/**
 * The credential prefixes of the official SDK's `Authorization` hand-over: it writes `stackauth_`
 * and reads both (`@stackframe/js` 2.8.108).
 */
export const authorizationPrefixes: ReadonlyArray<string> = ["stackauth_", "hexclave_"]

/**
 * Parses an `Authorization` value in the official SDK's hand-over form, `Bearer stackauth_` +
 * base64 of the JSON `{ accessToken, refreshToken }` (strings or null; either may be null, as the
 * official SDK reads it). Another form (a plain bearer access token, another scheme) is
 * `Option.none()`: not this hand-over. A `stackauth_` credential that does not decode fails with
 * {@link TokenStoreError} (the message never holds the header's text); a token a request header
 * cannot carry makes it read as signed out, as for `x-stack-auth`.
 */
export const parseAuthorizationHeader = (value: string): Effect.Effect<Option.Option<StoredTokens>, TokenStoreError> => {
  const fail = (reason: string) => Effect.fail(new TokenStoreError({ message: `Invalid Authorization header: ${reason}` }))
  const match = /^Bearer\s+(.+)$/i.exec(value.trim())
  if (match === null) return Effect.succeed(Option.none())
  const credential = match[1]!.trim()
  const prefix = authorizationPrefixes.find((candidate) => credential.startsWith(candidate))
  if (prefix === undefined) return Effect.succeed(Option.none())
  const encoded = credential.slice(prefix.length)
  if (encoded.length === 0) return fail(`expected Bearer ${prefix}<base64 of the tokens' JSON>`)
  let parsed: unknown
  try {
    const binary = atob(encoded)
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
  } catch {
    return fail("not base64 of a JSON text")
  }
  const members = tokenMembers(parsed)
  return typeof members === "string" ? fail(members) : Effect.succeed(Option.some(storedTokens(members)))
}

/**
 * The `Authorization` value that hands these tokens to another server, in the official SDK's
 * form (`getAuthorizationHeader()`): `Bearer stackauth_` + base64 of
 * `{"accessToken","refreshToken"}`; `Option.none()` when there is no token. The value reveals the
 * tokens: send it only over HTTPS to your own servers, never log it.
 */
export const authorizationHeader = (tokens: StoredTokens): Option.Option<string> =>
  Option.fromNullishOr(
    authorizationValue({
      accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
      refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
    })
  )

/** {@link authorizationHeader} over token texts (the official `getAuthJson()` shape): `null` when both are absent. */
export const authorizationValue = (json: { readonly accessToken: string | null; readonly refreshToken: string | null }): string | null => {
  if (json.accessToken === null && json.refreshToken === null) return null
  let binary = ""
  for (const byte of new TextEncoder().encode(JSON.stringify({ accessToken: json.accessToken, refreshToken: json.refreshToken }))) {
    binary += String.fromCharCode(byte)
  }
  return `Bearer ${authorizationPrefixes[0]}${btoa(binary)}`
}

/**
 * Parses an `x-stack-auth` header value: a JSON object `{ accessToken?, refreshToken? }` whose
 * members are strings or null, both present or both absent. A member a request header cannot
 * carry (see the module notes) makes the header read as signed out.
 */
export const parseAuthHeader = (value: string): Effect.Effect<StoredTokens, TokenStoreError> => {
  const fail = (reason: string) => Effect.fail(new TokenStoreError({ message: `Invalid ${authHeaderName} header: ${reason}` }))
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return fail("not valid JSON")
  }
  const members = tokenMembers(parsed)
  if (typeof members === "string") return fail(members)
  const { accessToken, refreshToken } = members
  if (accessToken === null && refreshToken === null) return Effect.succeed(empty)
  if (accessToken === null || refreshToken === null) return fail("both accessToken and refreshToken are required")
  return Effect.succeed(storedTokens(members))
}

/**
 * The header that hands a browser's tokens to the app's own backend:
 * `{ "x-stack-auth": JSON.stringify({ accessToken, refreshToken }) }`, absent tokens as `null`.
 * The value reveals the tokens: send it only over HTTPS to your own server, never log it.
 */
export const authHeaders = (tokens: StoredTokens): Record<string, string> => ({
  [authHeaderName]: JSON.stringify({
    accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
    refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
  })
})

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

/** The two token texts of a hand-over's JSON object (absent or null as `null`). */
interface TokenTexts {
  readonly accessToken: string | null
  readonly refreshToken: string | null
}

/**
 * The members of a hand-over's JSON (`x-stack-auth` or the `Authorization` form): each a usable
 * token text or null; a problem is answered as its text (never holding the value).
 */
const tokenMembers = (parsed: unknown): TokenTexts | string => {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "not a JSON object"
  const record = parsed as Record<string, unknown>
  const accessToken = record["accessToken"] ?? null
  const refreshToken = record["refreshToken"] ?? null
  for (const [name, member] of [["accessToken", accessToken], ["refreshToken", refreshToken]] as const) {
    if (member !== null && typeof member !== "string") return `${name} must be a string or null`
    if (member !== null && !isUsableToken(member)) return `${name} is not a usable token`
  }
  return { accessToken: accessToken as string | null, refreshToken: refreshToken as string | null }
}

/**
 * Stored tokens from checked texts. A text no request header could carry makes the whole
 * hand-over read as signed out, at once, without a request.
 */
const storedTokens = ({ accessToken, refreshToken }: TokenTexts): StoredTokens =>
  (accessToken !== null && !isSendableToken(accessToken)) || (refreshToken !== null && !isSendableToken(refreshToken))
    ? empty
    : {
      accessToken: accessToken === null ? Option.none() : token(accessToken),
      refreshToken: refreshToken === null ? Option.none() : token(refreshToken)
    }

const isHeadersLike = (value: unknown): value is HeadersLike =>
  typeof value === "object" && value !== null && typeof (value as { readonly get?: unknown }).get === "function"

/**
 * One header of a request-like value (`name` lower-case): the first one if repeated (repeated
 * `cookie` headers joined with "; ", as Node does), `undefined` when absent; never throws.
 */
export const headerValue = (request: RequestLike, name: string): string | undefined => {
  try {
    const headers: unknown = isHeadersLike(request) ? request : (request as { readonly headers?: unknown }).headers
    if (isHeadersLike(headers)) {
      const value = headers.get(name)
      return typeof value === "string" ? value : undefined
    }
    if (typeof headers !== "object" || headers === null) return undefined
    for (const [key, value] of Object.entries(headers)) {
      if (key.toLowerCase() !== name) continue
      if (typeof value === "string") return value
      if (Array.isArray(value)) {
        // Node joins repeated Cookie headers with "; "; other repeated headers: the first one.
        const strings = value.filter((item): item is string => typeof item === "string")
        return strings.length === 0 ? undefined : name === "cookie" ? strings.join("; ") : strings[0]
      }
    }
    return undefined
  } catch {
    return undefined
  }
}

/** A token text that is usable and sendable as a header value, else none. */
const sendable = (value: Redacted.Redacted<string>): Option.Option<Redacted.Redacted<string>> => {
  const text = Redacted.value(value)
  return isSendableToken(text) ? token(text) : Option.none()
}

/** Drops unusable or unsendable texts a hand-built `StoredTokens` may carry. */
const sanitize = (tokens: StoredTokens): StoredTokens => ({
  accessToken: Option.flatMap(tokens.accessToken, sendable),
  refreshToken: Option.flatMap(tokens.refreshToken, sendable)
})
