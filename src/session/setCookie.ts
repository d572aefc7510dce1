/**
 * The one place that builds a `Set-Cookie` header value (or a `document.cookie` assignment): every
 * cookie writer of the SDK outside the emulator goes through {@link hostCookie} or
 * {@link domainCookie}, so no text — a token, a name read from a request, a domain decoded from a
 * cookie name — reaches a header unchecked:
 *
 * - the name is percent-encoded outside the RFC 6265 token characters (`%`, `(` and `)` included),
 *   as js-cookie (the official SDK's browser cookie library) writes names, so `;`, `=`, spaces,
 *   CR/LF and other control characters can never end the name or start an attribute;
 *   `parseCookieHeader` (`cookies.ts`) decodes it back;
 * - the value is percent-encoded (`encodeURIComponent`; a lone UTF-16 surrogate, which cannot be
 *   encoded, is written as U+FFFD);
 * - `Max-Age` is a whole number of seconds, at least 0 (a value that is not a finite number writes 0);
 * - `Domain` is written only for a valid domain name ({@link domainName}), never for a `__Host-`
 *   name (browsers refuse those with a `Domain`); otherwise the cookie is not written at all;
 * - attributes are always `Path=/` and `SameSite=Lax`, `Secure` on HTTPS sites and for `__Host-`
 *   names, never `HttpOnly` (the SDK's browser code reads its cookies).
 *
 * {@link parseSetCookie} reads such a string back (what a page stores when it is written): the
 * in-memory pages of the OAuth flow keep their cookies with it.
 *
 * @module
 */
import * as Duration from "effect/Duration"
import * as PlatformCookies from "effect/http/Cookies"
import * as Option from "effect/Option"

/** A cookie for the current host only (no `Domain` attribute). */
export interface HostCookie {
  /** The cookie's name (encoded as needed). */
  readonly name: string
  /** The cookie's value (always percent-encoded). */
  readonly value: string
  /** Lifetime in seconds; `0` deletes the cookie. */
  readonly maxAgeSeconds: number
  /** Adds `Secure` (HTTPS sites). Always added for `__Host-` names, which require it. */
  readonly secure: boolean
}

/** A cookie shared with the subdomains of `domain` (`Domain=<domain>`). */
export interface DomainCookie extends HostCookie {
  /** The `Domain` attribute: must be a domain name ({@link domainName}). */
  readonly domain: string
}

/** The name prefix browsers accept only for `Secure`, `Path=/` cookies without a `Domain`. */
export const hostPrefix = "__Host-"

/** The longest domain name (RFC 1035: 253 characters without the trailing dot). */
const maxDomainLength = 253

/** One label of a domain name: letters, digits and inner hyphens, 1 to 63 characters. */
const label = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/

/**
 * The text as a lower-case domain name when it is one: dot-separated labels of ASCII letters,
 * digits and inner hyphens (1 to 63 characters each), 253 characters at most, no leading or
 * trailing dot; `Option.none()` for anything else (spaces, `;`, `=`, control characters,
 * non-ASCII text, an empty label). Checked before lower-casing, so no character outside ASCII can
 * turn into an ASCII letter.
 */
export const domainName = (text: unknown): Option.Option<string> => {
  if (typeof text !== "string" || text.length === 0 || text.length > maxDomainLength) return Option.none()
  return text.split(".").every((part) => label.test(part)) ? Option.some(text.toLowerCase()) : Option.none()
}

/** Builds the `Set-Cookie` value of a cookie for the current host only. Never throws. */
export const hostCookie = (cookie: HostCookie): string => build(cookie, undefined)

/**
 * Builds the `Set-Cookie` value of a cookie with a `Domain` attribute; `Option.none()` (write
 * nothing) when the domain is not a domain name or the name starts with `__Host-`. Never throws.
 */
export const domainCookie = (cookie: DomainCookie): Option.Option<string> =>
  cookie.name.startsWith(hostPrefix) ? Option.none() : Option.map(domainName(cookie.domain), (domain) => build(cookie, domain))

/**
 * A cookie name as written: percent-encoded outside the RFC 6265 token characters, with `%`
 * encoded too so that decoding gives the name back.
 */
export const encodeName = (name: string): string =>
  encodeURIComponent(wellFormed(name)).replace(/[()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * A cookie name as read: percent-decoded ({@link encodeName} in reverse), or left as it is when it
 * is not valid percent-encoding.
 */
export const decodeName = (name: string): string => {
  if (!name.includes("%")) return name
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

/** What one `Set-Cookie` value (or `document.cookie` assignment) sets, as a page stores it. */
export interface WrittenCookie {
  /** The cookie's name, decoded ({@link decodeName}). */
  readonly name: string
  /** The cookie's value, percent-decoded (left as it is when not valid percent-encoding). */
  readonly value: string
  /** `Max-Age` in whole seconds (`0` or less deletes the cookie); `undefined` without one. */
  readonly maxAgeSeconds: number | undefined
  /** The `Domain` attribute, without a leading dot; `undefined` for a host-only cookie. */
  readonly domain: string | undefined
  /** Whether `Secure` is set. */
  readonly secure: boolean
}

/**
 * Reads a `Set-Cookie` value (or a `document.cookie` assignment) with the platform's parser
 * (`effect/http/Cookies` `fromSetCookie`): `Option.none()` when it sets no cookie (no `=`, a
 * name outside the cookie-name characters, an empty name). Never throws.
 */
export const parseSetCookie = (text: string): Option.Option<WrittenCookie> => {
  const parsed = Object.values(PlatformCookies.fromSetCookie(text).cookies)[0]
  if (parsed === undefined) return Option.none()
  const name = decodeName(parsed.name)
  if (name.length === 0) return Option.none()
  const maxAge = parsed.options?.maxAge
  return Option.some({
    name,
    value: parsed.value,
    maxAgeSeconds: maxAge === undefined ? undefined : Math.floor(Duration.toSeconds(maxAge)),
    domain: parsed.options?.domain,
    secure: parsed.options?.secure === true
  })
}

/** A cookie value as written: percent-encoded. */
export const encodeValue = (value: string): string => encodeURIComponent(wellFormed(value))

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

const build = (cookie: HostCookie, domain: string | undefined): string => {
  const maxAge = Number.isFinite(cookie.maxAgeSeconds) ? Math.max(0, Math.floor(cookie.maxAgeSeconds)) : 0
  const parts = [`${encodeName(cookie.name)}=${encodeValue(cookie.value)}`, "Path=/", `Max-Age=${maxAge}`, "SameSite=Lax"]
  if (domain !== undefined) parts.push(`Domain=${domain}`)
  if (cookie.secure || cookie.name.startsWith(hostPrefix)) parts.push("Secure")
  return parts.join("; ")
}

/** Lone UTF-16 surrogates (which `encodeURIComponent` refuses) replaced by U+FFFD. */
const wellFormed = (text: string): string => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
