/**
 * The cookie format of the official SDK (PROTOCOL.md §5.3), as pure functions: cookie names,
 * parsing a `Cookie` header or `document.cookie`, reading the token pair with the official rules,
 * and the `Set-Cookie` / `document.cookie` strings that write it.
 *
 * Nothing here touches a browser or a request: the browser store (`BrowserCookieStore`), the
 * request store (`RequestTokenStore`) and the server-rendering helpers (`stack-auth-effect/next`) pass in
 * the project id, whether the site is served over HTTPS (`secure`) and the current time (`now`).
 *
 * Reading rules (stricter than the official SDK's, which lets any legacy cookie, then the largest
 * `updated_at_millis`, win — so a cookie planted by a sibling subdomain, which the browser sends
 * along with the site's own, could outrank the visitor's session):
 * - a cookie this app did not write for this host never outranks one it did: the
 *   `__Host-stack-refresh-{projectId}--default` cookie (which only this host can set) wins, then
 *   (not over HTTPS) `stack-refresh-{projectId}--default`, then the legacy cookies
 *   `stack-refresh-{projectId}` and `stack-refresh`, then the `--custom-` cookies;
 * - over HTTPS (`secure`) only the `__Host-` cookie and `--custom-` cookies count: any other name
 *   can be planted by a sibling subdomain, and this app writes none of them over HTTPS;
 * - a `stack-refresh-{projectId}--custom-{base32(domain)}` cookie counts only when `domain` is one
 *   of `cookieDomains` (the domains this app is served under; none by default); among those, the
 *   one with the largest `updated_at_millis` wins, a timestamp later than `now` not being believed
 *   (it ranks as none);
 * - the access token comes from `stack-access` (`["<refresh>", "<access>"]`) only when element 0
 *   equals the chosen refresh token;
 * - malformed values never throw: they read as absent;
 * - a token text a request header cannot carry (CR/LF, NUL and other control characters,
 *   text above U+00FF) is not a token: it reads as absent, so no request is built from it.
 *
 * Over plain HTTP no name is safe from a sibling subdomain (browsers keep `__Host-` for HTTPS):
 * serve the app over HTTPS.
 *
 * Every cookie string is built by one builder, which encodes names and values and writes a
 * `Domain` only when it is a domain name: nothing read from a request reaches a header unchecked.
 *
 * @example
 * ```ts
 * import { Cookies } from "stack-auth-effect/next"
 *
 * declare const request: Request, projectId: string
 * const existing = Cookies.parseCookieHeader(request.headers.get("cookie"))
 * const now = Date.now()
 * const tokens = Cookies.readTokens(existing, projectId, { now, secure: true })
 * const setCookies = Cookies.writeTokens(tokens, { projectId, secure: true, now, existing })
 * ```
 *
 * @module
 */
import * as PlatformCookies from "effect/http/Cookies"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { crockfordAlphabet, decodeCrockford, encodeBase32, isSendableToken, utf8Text } from "../core/Wire.js"
import { isUsableToken } from "../core/Wire.js"
import * as SetCookie from "./setCookie.js"
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

/**
 * Whether the site is served over HTTPS: `secure` when the app said so, else whether the request's
 * cookies carry the `stack-is-https=true` marker.
 */
export const servedOverHttps = (secure: boolean | undefined, cookies: CookieMap): boolean => secure ?? cookies.get(isHttpsCookieName) === "true"

/** The legacy per-project refresh cookie name `stack-refresh-{projectId}` (raw token value). */
export const legacyRefreshCookieName = (projectId: string): string => `stack-refresh-${projectId}`

/**
 * The refresh cookie name this SDK writes: `__Host-stack-refresh-{projectId}--default` over HTTPS,
 * `stack-refresh-{projectId}--default` otherwise.
 */
export const refreshCookieName = (projectId: string, secure: boolean): string =>
  `${secure ? SetCookie.hostPrefix : ""}${legacyRefreshCookieName(projectId)}--default`

/**
 * The cross-subdomain refresh cookie name `stack-refresh-{projectId}--custom-{base32(domain)}`
 * (upper-case Crockford base32 of the lower-cased domain, as the official SDK), written with
 * `Domain=<domain>`.
 */
export const customRefreshCookieName = (projectId: string, domain: string): string =>
  `${legacyRefreshCookieName(projectId)}${customInfix}${encodeBase32(new TextEncoder().encode(domain.toLowerCase()), upperCrockford)}`

/**
 * The domain encoded in a `--custom-` refresh cookie name, lower-cased, when the name is one and
 * decodes (UTF-8) to a domain name (dot-separated labels of letters, digits and inner hyphens); else `Option.none()` — a name
 * decoding to `a.example; Max-Age=99` or to text with CR/LF is not a domain.
 */
export const customRefreshCookieDomain = (name: string, projectId: string): Option.Option<string> => {
  const prefix = `${legacyRefreshCookieName(projectId)}${customInfix}`
  if (!name.startsWith(prefix)) return Option.none()
  const bytes = decodeCrockford(name.slice(prefix.length))
  return bytes === undefined ? Option.none() : SetCookie.domainName(utf8Text(bytes))
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
 * Parses a `Cookie` request header or a `document.cookie` string into a map, with the platform's
 * parser (`effect/http/Cookies` `parseHeader`, the one the emulator uses too): values are
 * URL-decoded (left as they are when not valid percent-encoding) and unquoted, the first
 * occurrence of a name wins, pieces without `=` are skipped. Names are then URL-decoded as values
 * are (the SDK writes them percent-encoded); an empty name is skipped. A name that is a member of
 * `Object.prototype` (`__proto__`, `constructor`, `valueOf`…) is not read; no cookie the SDK reads
 * has such a name. Never throws.
 */
export const parseCookieHeader = (header: string | null | undefined): CookieMap => {
  const cookies = new Map<string, string>()
  if (typeof header !== "string" || header.length === 0) return cookies
  for (const [raw, value] of Object.entries(PlatformCookies.parseHeader(header))) {
    // a name of `Object.prototype` (`__proto__`, `constructor`…) is never read, as before
    if (raw in Object.prototype) continue
    const name = SetCookie.decodeName(raw)
    if (name.length > 0 && !cookies.has(name)) cookies.set(name, value)
  }
  return cookies
}

/** What the reading rules need to know about the site and the moment. */
export interface ReadOptions {
  /** Current time in milliseconds since the epoch: a later `updated_at_millis` is not believed. */
  readonly now: number
  /**
   * The site is served over HTTPS: only the `__Host-` refresh cookie and the `--custom-` ones of
   * `cookieDomains` count (default `false`).
   */
  readonly secure?: boolean | undefined
  /**
   * The domains this app is served under whose `--custom-` refresh cookies (the official SDK's
   * cross-subdomain sign-in) count; none by default. Entries that are not domain names (a scheme,
   * a port, a path, a leading dot) match nothing.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

/**
 * The refresh token the cookies hold, with its `updated_at_millis` when it came from a structured
 * cookie and is believable (`undefined` for a legacy cookie, a structured one without a usable
 * timestamp, or one later than `now`). See the module's reading rules; without `options`, no
 * `--custom-` cookie counts and the site is taken as not HTTPS.
 */
export const readRefreshToken = (
  cookies: CookieMap,
  projectId: string,
  options?: ReadOptions
): Option.Option<{ readonly refreshToken: string; readonly updatedAtMillis: number | undefined }> => {
  const now = options?.now ?? Number.POSITIVE_INFINITY
  const believed = (found: RefreshCookie): RefreshCookie =>
    found.updatedAtMillis !== undefined && found.updatedAtMillis > now ? { ...found, updatedAtMillis: undefined } : found
  const structured = (name: string) => {
    const parsed = parseRefreshCookieValue(cookies.get(name))
    return parsed === undefined ? undefined : believed(parsed)
  }
  const own = structured(refreshCookieName(projectId, true))
  if (own !== undefined) return Option.some(own)
  if (options?.secure !== true) {
    const http = structured(refreshCookieName(projectId, false))
    if (http !== undefined) return Option.some(http)
    for (const name of [legacyRefreshCookieName(projectId), globalLegacyRefreshCookieName]) {
      const value = cookies.get(name)
      if (isCookieToken(value)) return Option.some({ refreshToken: value, updatedAtMillis: undefined })
    }
  }
  let best: RefreshCookie | undefined
  for (const name of customCookieNames(projectId, options?.cookieDomains).keys()) {
    const parsed = structured(name)
    if (parsed !== undefined && (best === undefined || rank(parsed.updatedAtMillis) > rank(best.updatedAtMillis))) best = parsed
  }
  return Option.fromNullishOr(best)
}

/**
 * The token pair the cookies hold (see the module's reading rules). The access token is read from
 * `stack-access` only when its element 0 equals the chosen refresh token. Never throws.
 */
export const readTokens = (cookies: CookieMap, projectId: string, options?: ReadOptions): StoredTokens => {
  const refresh = readRefreshToken(cookies, projectId, options)
  if (Option.isNone(refresh)) return empty
  const refreshToken = refresh.value.refreshToken
  const pair = parseJson(cookies.get(accessCookieName))
  const accessToken = Array.isArray(pair) && pair.length === 2 && pair[0] === refreshToken && isCookieToken(pair[1]) ? pair[1] : undefined
  return fromStrings(accessToken, refreshToken)
}

/** Attributes of a cookie to write for the current host. */
export interface CookieAttributes {
  /** Lifetime in seconds; `0` deletes the cookie. */
  readonly maxAgeSeconds: number
  /** Adds `Secure` (HTTPS sites). Always added for `__Host-` names, which require it. */
  readonly secure: boolean
}

/**
 * Serialises one cookie for the current host, for a `Set-Cookie` header or a `document.cookie`
 * assignment: `name=<url-encoded value>; Path=/; Max-Age=…; SameSite=Lax[; Secure]` (the name
 * percent-encoded outside the cookie-name characters). Cookies are never `HttpOnly`: the browser
 * code must read them.
 */
export const serializeCookie = (name: string, value: string, attributes: CookieAttributes): string =>
  SetCookie.hostCookie({ name, value, maxAgeSeconds: attributes.maxAgeSeconds, secure: attributes.secure })

/** Serialises the deletion of a cookie of the current host (`Max-Age=0`, empty value, `Path=/`). */
export const serializeDeletion = (name: string, options: { readonly secure: boolean }): string =>
  serializeCookie(name, "", { maxAgeSeconds: 0, secure: options.secure })

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
  /**
   * The domains whose `--custom-` refresh cookies are deleted (with `Domain=<domain>`, as they
   * were set); a `--custom-` cookie of another domain is left alone. None by default.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

/** One cookie to write: a value for `maxAgeSeconds` (`0` deletes), for the current host or a `domain`. */
export interface TokenCookie extends SetCookie.HostCookie {
  /** `Domain` of a `--custom-` cookie's deletion: a domain name from `cookieDomains`. */
  readonly domain?: string | undefined
}

/**
 * The cookies that store a token pair, in order:
 * 1. the refresh cookie `{"refresh_token","updated_at_millis"}` (1 year), or its deletion when the
 *    refresh token is absent;
 * 2. `stack-access` = `["<refresh>","<access>"]` (1 day) when both tokens are present, else its deletion;
 * 3. the deletion of every other refresh cookie of the project found in `existing` that this
 *    deletion really removes: the other `--default` name and the legacy names (set for this
 *    host), the `--custom-` ones of `cookieDomains` (with their `Domain`). A `--custom-` cookie of
 *    another domain is not touched: its `Domain` would come from the request.
 */
export const tokenCookies = (tokens: StoredTokens, options: WriteOptions): ReadonlyArray<TokenCookie> => {
  const { projectId, secure } = options
  const name = refreshCookieName(projectId, secure)
  const refreshToken = Option.getOrUndefined(Option.map(tokens.refreshToken, Redacted.value))
  const accessToken = Option.getOrUndefined(Option.map(tokens.accessToken, Redacted.value))
  const deletion = (cookie: string, domain?: string): TokenCookie => ({ name: cookie, value: "", maxAgeSeconds: 0, secure, domain })
  const out: Array<TokenCookie> = [
    refreshToken === undefined
      ? deletion(name)
      : { name, value: refreshCookieValue(refreshToken, options.now), maxAgeSeconds: refreshCookieMaxAgeSeconds, secure },
    refreshToken !== undefined && accessToken !== undefined
      ? { name: accessCookieName, value: JSON.stringify([refreshToken, accessToken]), maxAgeSeconds: accessCookieMaxAgeSeconds, secure }
      : deletion(accessCookieName)
  ]
  const custom = customCookieNames(projectId, options.cookieDomains)
  for (const existing of options.existing.keys()) {
    if (existing === name) continue
    if (existing === refreshCookieName(projectId, !secure) || isLegacyRefreshCookieName(existing, projectId)) out.push(deletion(existing))
    const domain = custom.get(existing)
    if (domain !== undefined) out.push(deletion(existing, domain))
  }
  return out
}

/** {@link tokenCookies} as cookie strings (names and values percent-encoded), for `Set-Cookie` headers or `document.cookie`. */
export const writeTokens = (tokens: StoredTokens, options: WriteOptions): ReadonlyArray<string> =>
  tokenCookies(tokens, options).flatMap((cookie) => Option.toArray(serializeTokenCookie(cookie)))

/** One {@link TokenCookie} as a cookie string; `Option.none()` when its `domain` is not a domain name. */
export const serializeTokenCookie = (cookie: TokenCookie): Option.Option<string> =>
  cookie.domain === undefined ? Option.some(SetCookie.hostCookie(cookie)) : SetCookie.domainCookie({ ...cookie, domain: cookie.domain })

/** The JSON value of a structured refresh cookie: `{"refresh_token": …, "updated_at_millis": …}`. */
export const refreshCookieValue = (refreshToken: string, now: number): string =>
  JSON.stringify({ refresh_token: refreshToken, updated_at_millis: Math.floor(now) })

/** The cookie string storing an OAuth PKCE verifier under `stack-oauth-outer-{state}` (1 hour). */
export const serializeOAuthVerifier = (state: string, verifier: string, secure: boolean): string =>
  serializeCookie(oauthVerifierCookieName(state), verifier, { maxAgeSeconds: oauthVerifierCookieMaxAgeSeconds, secure })

/** The `stack-is-https=true` marker cookie (1 year, always `Secure`). */
export const serializeIsHttpsMarker = (): string => serializeCookie(isHttpsCookieName, "true", { maxAgeSeconds: refreshCookieMaxAgeSeconds, secure: true })

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

const customInfix = "--custom-"

/** The official SDK writes cookie names in upper-case Crockford base32. */
const upperCrockford = crockfordAlphabet.toUpperCase()

interface RefreshCookie {
  readonly refreshToken: string
  readonly updatedAtMillis: number | undefined
}

/** The `--custom-` cookie names of the configured domains that are domain names, to their domain. */
const customCookieNames = (projectId: string, domains: ReadonlyArray<string> | undefined): ReadonlyMap<string, string> => {
  const names = new Map<string, string>()
  for (const domain of domains ?? []) {
    const valid = SetCookie.domainName(domain)
    if (Option.isSome(valid)) names.set(customRefreshCookieName(projectId, valid.value), valid.value)
  }
  return names
}

const isLegacyRefreshCookieName = (name: string, projectId: string): boolean =>
  name === legacyRefreshCookieName(projectId) || name === globalLegacyRefreshCookieName

const isStructuredRefreshCookieName = (name: string, projectId: string): boolean => {
  const base = name.startsWith(SetCookie.hostPrefix) ? name.slice(SetCookie.hostPrefix.length) : name
  const project = legacyRefreshCookieName(projectId)
  return base === `${project}--default` || base.startsWith(`${project}${customInfix}`)
}

const rank = (updatedAtMillis: number | undefined): number => updatedAtMillis ?? Number.NEGATIVE_INFINITY

const parseRefreshCookieValue = (value: string | undefined): RefreshCookie | undefined => {
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
