/**
 * The cookie format of the official SDK (PROTOCOL.md §5.3), as pure functions: cookie names,
 * parsing a `Cookie` header or `document.cookie`, reading the token pair with the official rules,
 * and the `Set-Cookie` / `document.cookie` strings that write it.
 *
 * Nothing here touches a browser or a request: the browser store (`BrowserCookieStore.ts`), the
 * request store (`RequestTokenStore.ts`) and the server-rendering helpers (`stack-auth-effect/next`) pass in
 * the project id, whether the site is served over HTTPS (`secure`) and the current time (`now`).
 *
 * Reading rules:
 * - the legacy refresh cookies `stack-refresh-{projectId}` then `stack-refresh` win when present;
 * - otherwise, among `stack-refresh-{projectId}--default`, `__Host-stack-refresh-{projectId}--default`
 *   and `stack-refresh-{projectId}--custom-…`, the one with the largest `updated_at_millis` wins;
 * - the access token comes from `stack-access` (`["<refresh>", "<access>"]`) only when element 0
 *   equals the chosen refresh token;
 * - malformed values never throw: they read as absent;
 * - a token text a request header cannot carry (CR/LF, NUL and other control characters,
 *   text above U+00FF) is not a token: it reads as absent, so no request is built from it.
 *
 * @example
 * ```ts
 * import { Cookies } from "stack-auth-effect/next"
 *
 * declare const request: Request, projectId: string
 * const existing = Cookies.parseCookieHeader(request.headers.get("cookie"))
 * const tokens = Cookies.readTokens(existing, projectId)
 * const setCookies = Cookies.writeTokens(tokens, { projectId, secure: true, now: Date.now(), existing })
 * ```
 *
 * @module
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { isSendableToken } from "../core/internal/headerText.js"
import { isUsableToken } from "../core/Wire.js"
import { empty, fromStrings, type StoredTokens } from "./TokenStore.js"

/** A token read from a cookie: usable (not empty, `"undefined"`, `"null"`) and sendable as a header. */
const isCookieToken = (value: unknown): value is string => isUsableToken(value) && isSendableToken(value)

// ---------------------------------------------------------------------------------------------
// Public surface
// ---------------------------------------------------------------------------------------------

/** Cookies by name, values already URL-decoded. */
export type CookieMap = ReadonlyMap<string, string>

/** Lifetime of the refresh token cookie, in seconds (1 year). */
export const refreshCookieMaxAgeSeconds = 31_536_000

/** Lifetime of the access token cookie, in seconds (1 day). */
export const accessCookieMaxAgeSeconds = 86_400

/** Lifetime of the OAuth PKCE verifier cookie, in seconds (1 hour). */
export const oauthVerifierCookieMaxAgeSeconds = 3_600

/** Name of the access token cookie, shared by every project on the domain. */
export const accessCookieName = "stack-access"

/** Name of the oldest legacy refresh cookie, not scoped to a project. */
export const globalLegacyRefreshCookieName = "stack-refresh"

/** Name of the marker cookie telling server code that the site is served over HTTPS. */
export const isHttpsCookieName = "stack-is-https"

/** The legacy per-project refresh cookie name `stack-refresh-{projectId}` (raw token value). */
export const legacyRefreshCookieName = (projectId: string): string => `stack-refresh-${projectId}`

/**
 * The refresh cookie name this SDK writes: `__Host-stack-refresh-{projectId}--default` over HTTPS,
 * `stack-refresh-{projectId}--default` otherwise.
 */
export const refreshCookieName = (projectId: string, secure: boolean): string =>
  `${secure ? hostPrefix : ""}${legacyRefreshCookieName(projectId)}--default`

/**
 * The cross-subdomain refresh cookie name `stack-refresh-{projectId}--custom-{base32(domain)}`
 * (Crockford base32 of the lower-cased domain, as the official SDK), written with `Domain=<domain>`.
 */
export const customRefreshCookieName = (projectId: string, domain: string): string =>
  `${legacyRefreshCookieName(projectId)}${customInfix}${encodeBase32(new TextEncoder().encode(domain.toLowerCase()))}`

/** The domain encoded in a `--custom-` refresh cookie name, if the name is one and decodes. */
export const customRefreshCookieDomain = (name: string, projectId: string): Option.Option<string> => {
  const prefix = `${legacyRefreshCookieName(projectId)}${customInfix}`
  if (!name.startsWith(prefix)) return Option.none()
  const bytes = decodeBase32(name.slice(prefix.length))
  if (bytes === undefined || bytes.length === 0) return Option.none()
  try {
    return Option.some(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
  } catch {
    return Option.none()
  }
}

/** The OAuth PKCE verifier cookie name `stack-oauth-outer-{state}`. */
export const oauthVerifierCookieName = (state: string): string => `stack-oauth-outer-${state}`

/**
 * Whether a cookie name is one of the project's refresh cookies: a legacy name, the `--default`
 * name with or without `__Host-`, or a `--custom-` name.
 */
export const isRefreshCookieName = (name: string, projectId: string): boolean =>
  isLegacyRefreshCookieName(name, projectId) || isStructuredRefreshCookieName(name, projectId)

/**
 * Parses a `Cookie` request header or a `document.cookie` string into a map. Values are URL-decoded
 * (left as they are when not valid percent-encoding) and unquoted; pieces without `=` or with an
 * empty name are skipped; the first occurrence of a name wins. Never throws.
 */
export const parseCookieHeader = (header: string | null | undefined): CookieMap => {
  const cookies = new Map<string, string>()
  if (typeof header !== "string" || header.length === 0) return cookies
  for (const piece of header.split(";")) {
    const eq = piece.indexOf("=")
    if (eq < 0) continue
    const name = safeDecode(piece.slice(0, eq).trim())
    if (name.length === 0 || cookies.has(name)) continue
    let raw = piece.slice(eq + 1).trim()
    if (raw.length >= 2 && raw.startsWith("\"") && raw.endsWith("\"")) raw = raw.slice(1, -1)
    cookies.set(name, safeDecode(raw))
  }
  return cookies
}

/**
 * The refresh token the cookies hold, with its `updated_at_millis` when it came from a structured
 * cookie (`undefined` for a legacy cookie or a structured one without a usable timestamp).
 * Legacy names win; otherwise the structured cookie with the largest `updated_at_millis` wins
 * (one without a timestamp loses to any with one; on a tie the first one read wins).
 */
export const readRefreshToken = (
  cookies: CookieMap,
  projectId: string
): Option.Option<{ readonly refreshToken: string; readonly updatedAtMillis: number | undefined }> => {
  for (const name of [legacyRefreshCookieName(projectId), globalLegacyRefreshCookieName]) {
    const value = cookies.get(name)
    if (isCookieToken(value)) return Option.some({ refreshToken: value, updatedAtMillis: undefined })
  }
  let best: { readonly refreshToken: string; readonly updatedAtMillis: number | undefined } | undefined
  for (const [name, value] of cookies) {
    if (!isStructuredRefreshCookieName(name, projectId)) continue
    const parsed = parseRefreshCookieValue(value)
    if (parsed === undefined) continue
    if (best === undefined || rank(parsed.updatedAtMillis) > rank(best.updatedAtMillis)) best = parsed
  }
  return Option.fromNullable(best)
}

/**
 * The token pair the cookies hold (by the official SDK's reading rules). The access token is read from
 * `stack-access` only when its element 0 equals the chosen refresh token. Never throws.
 */
export const readTokens = (cookies: CookieMap, projectId: string): StoredTokens => {
  const refresh = readRefreshToken(cookies, projectId)
  if (Option.isNone(refresh)) return empty
  const refreshToken = refresh.value.refreshToken
  const pair = parseJson(cookies.get(accessCookieName))
  const accessToken =
    Array.isArray(pair) && pair.length === 2 && pair[0] === refreshToken && isCookieToken(pair[1]) ? pair[1] : undefined
  return fromStrings(accessToken, refreshToken)
}

/** Attributes of a cookie to write. */
export interface CookieAttributes {
  /** Lifetime in seconds; `0` deletes the cookie. */
  readonly maxAgeSeconds: number
  /** Adds `Secure` (HTTPS sites). Always added for `__Host-` names, which require it. */
  readonly secure: boolean
  /** Adds `Domain=…` (cross-subdomain cookies only; never for `__Host-` names). */
  readonly domain?: string | undefined
}

/**
 * Serialises one cookie for a `Set-Cookie` header or a `document.cookie` assignment:
 * `name=<url-encoded value>; Path=/; Max-Age=…; SameSite=Lax[; Domain=…][; Secure]`.
 * Cookies are never `HttpOnly`: the browser code must read them.
 */
export const serializeCookie = (name: string, value: string, attributes: CookieAttributes): string => {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", `Max-Age=${Math.max(0, Math.floor(attributes.maxAgeSeconds))}`, "SameSite=Lax"]
  if (attributes.domain !== undefined && !name.startsWith(hostPrefix)) parts.push(`Domain=${attributes.domain}`)
  if (attributes.secure || name.startsWith(hostPrefix)) parts.push("Secure")
  return parts.join("; ")
}

/** Serialises the deletion of a cookie (`Max-Age=0`, empty value, same path and domain). */
export const serializeDeletion = (name: string, options: { readonly secure: boolean; readonly domain?: string | undefined }): string =>
  serializeCookie(name, "", { maxAgeSeconds: 0, secure: options.secure, domain: options.domain })

/** What {@link writeTokens} needs to know about the site and the moment. */
export interface WriteOptions {
  /** The project whose refresh cookie is written. */
  readonly projectId: string
  /** The site is served over HTTPS: `__Host-` name and `Secure` attribute. */
  readonly secure: boolean
  /** Current time in milliseconds since the epoch, stored as `updated_at_millis`. */
  readonly now: number
  /** The cookies currently present; every refresh cookie among them but the one written is deleted. */
  readonly existing: CookieMap
}

/**
 * The cookie strings that store a token pair, in order:
 * 1. the refresh cookie `{"refresh_token","updated_at_millis"}` (1 year), or its deletion when the
 *    refresh token is absent;
 * 2. `stack-access` = `["<refresh>","<access>"]` (1 day) when both tokens are present, else its deletion;
 * 3. the deletion of every other refresh cookie of the project found in `existing` (legacy,
 *    the other `--default` name, `--custom-` ones with their `Domain`).
 */
export const writeTokens = (tokens: StoredTokens, options: WriteOptions): ReadonlyArray<string> => {
  const { projectId, secure } = options
  const name = refreshCookieName(projectId, secure)
  const refreshToken = Option.getOrUndefined(Option.map(tokens.refreshToken, Redacted.value))
  const accessToken = Option.getOrUndefined(Option.map(tokens.accessToken, Redacted.value))
  const out: Array<string> = []
  out.push(
    refreshToken === undefined
      ? serializeDeletion(name, { secure })
      : serializeCookie(name, refreshCookieValue(refreshToken, options.now), { maxAgeSeconds: refreshCookieMaxAgeSeconds, secure })
  )
  out.push(
    refreshToken !== undefined && accessToken !== undefined
      ? serializeCookie(accessCookieName, JSON.stringify([refreshToken, accessToken]), { maxAgeSeconds: accessCookieMaxAgeSeconds, secure })
      : serializeDeletion(accessCookieName, { secure })
  )
  for (const existing of options.existing.keys()) {
    if (existing === name || !isRefreshCookieName(existing, projectId)) continue
    out.push(serializeDeletion(existing, { secure, domain: Option.getOrUndefined(customRefreshCookieDomain(existing, projectId)) }))
  }
  return out
}

/** The JSON value of a structured refresh cookie: `{"refresh_token": …, "updated_at_millis": …}`. */
export const refreshCookieValue = (refreshToken: string, now: number): string =>
  JSON.stringify({ refresh_token: refreshToken, updated_at_millis: Math.floor(now) })

/** The cookie string storing an OAuth PKCE verifier under `stack-oauth-outer-{state}` (1 hour). */
export const serializeOAuthVerifier = (state: string, verifier: string, secure: boolean): string =>
  serializeCookie(oauthVerifierCookieName(state), verifier, { maxAgeSeconds: oauthVerifierCookieMaxAgeSeconds, secure })

/** The `stack-is-https=true` marker cookie (1 year, always `Secure`). */
export const serializeIsHttpsMarker = (): string =>
  serializeCookie(isHttpsCookieName, "true", { maxAgeSeconds: refreshCookieMaxAgeSeconds, secure: true })

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

const hostPrefix = "__Host-"
const customInfix = "--custom-"

const isLegacyRefreshCookieName = (name: string, projectId: string): boolean =>
  name === legacyRefreshCookieName(projectId) || name === globalLegacyRefreshCookieName

const isStructuredRefreshCookieName = (name: string, projectId: string): boolean => {
  const base = name.startsWith(hostPrefix) ? name.slice(hostPrefix.length) : name
  const project = legacyRefreshCookieName(projectId)
  return base === `${project}--default` || base.startsWith(`${project}${customInfix}`)
}

const rank = (updatedAtMillis: number | undefined): number => updatedAtMillis ?? Number.NEGATIVE_INFINITY

const parseRefreshCookieValue = (
  value: string
): { readonly refreshToken: string; readonly updatedAtMillis: number | undefined } | undefined => {
  const parsed = parseJson(value)
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined
  const record = parsed as Record<string, unknown>
  const refreshToken = record["refresh_token"]
  if (!isCookieToken(refreshToken)) return undefined
  const updatedAt = record["updated_at_millis"]
  return {
    refreshToken,
    updatedAtMillis: typeof updatedAt === "number" && Number.isFinite(updatedAt) ? updatedAt : undefined
  }
}

const parseJson = (text: string | undefined): unknown => {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const safeDecode = (text: string): string => {
  if (!text.includes("%")) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Crockford base32, the alphabet of the official SDK's `encodeBase32`. */
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

const encodeBase32 = (bytes: Uint8Array): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += crockford[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += crockford[(value << (5 - bits)) & 31]
  return out
}

const decodeBase32 = (text: string): Uint8Array | undefined => {
  const out: Array<number> = []
  let bits = 0
  let value = 0
  for (const raw of text.toUpperCase()) {
    const char = raw === "O" ? "0" : raw === "I" || raw === "L" ? "1" : raw
    const index = crockford.indexOf(char)
    if (index < 0) return undefined
    value = ((value << 5) | index) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}
