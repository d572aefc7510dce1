/**
 * Whether a redirect target is trusted (SPEC.md §2, PROTOCOL.md §5.4): the SDK only ever
 * navigates to
 *
 * - a same-origin path: a string starting with exactly one `/` (`/dashboard?tab=1#top`), or
 * - an absolute `http(s)://` URL whose origin (scheme, host, port) is the app's own, or that
 *   matches one of the configured trusted domains, or (when allowed) a localhost URL.
 *
 * Everything else is refused, with no attempt to "repair" it. The check is deliberately stricter
 * than the URL parser, because the same string may later be read by a browser, a framework router
 * or a server that decodes it differently. Refused are, among others:
 *
 * - any whitespace, control character, zero-width or bidi character, or backslash anywhere
 *   (`java\tscript:`, ` /path`, `/\evil.com`);
 * - scheme-relative and triple-slash forms (`//evil.com`, `///evil.com`), also after
 *   percent-decoding or dot-segment normalisation (`/%2F%2Fevil.com`, `/..//evil.com`);
 * - every scheme but `http:` / `https:` (`javascript:`, `data:`, `vbscript:`) and the
 *   slash-less `https:evil.com`;
 * - relative references that do not start with `/` (`evil.com`, `%2F%2Fevil.com`, `?x`, `#x`);
 * - user info (`https://app.example.com@evil.com`), percent-encoded or non-ASCII hosts
 *   (homoglyphs, full-width dots);
 * - another origin: another host (`https://app.example.com.evil.com`), port or scheme
 *   (`http://` when the app is served over `https://`).
 *
 * Trusted-domain patterns follow the service's rules (and the emulator's `TrustedUrls`): a base
 * URL `https://app.example.com[:port]`; in the host, `*` matches within one label
 * (`https://*.example.com`, `https://api-*.example.com`), `**` any number of labels
 * (`https://**.example.com`); the scheme must match; without an explicit port only the default
 * port matches, `:*` matches any port.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Either from "effect/Either"

/** The redirect target is not trusted. The message is the official SDK's wording. */
export class UntrustedRedirectUrl extends Data.TaggedError("UntrustedRedirectUrl")<{
  /** `"Redirect URL {url} is not trusted; should be relative."` */
  readonly message: string
  /** The refused target, as given. */
  readonly url: string
  /** Why it was refused (for diagnostics; not part of the official message). */
  readonly reason: string
}> {
  /** The error for a refused URL. */
  static readonly make = (url: string, reason: string) =>
    new UntrustedRedirectUrl({ message: `Redirect URL ${url} is not trusted; should be relative.`, url, reason })
}

/** What the check needs to know besides the URL. */
export interface TrustOptions {
  /** The app's own origin (`https://app.example.com`); absolute URLs of this origin are trusted. */
  readonly appOrigin?: string | undefined
  /** Trusted-domain patterns (see the module documentation). */
  readonly trustedDomains?: ReadonlyArray<string> | undefined
  /** Trust `localhost`, `*.localhost`, `127.x.x.x` and `[::1]` on any port (default false). */
  readonly allowLocalhost?: boolean | undefined
}

/**
 * Checks a redirect target. Succeeds with the normalised target — a same-origin path
 * (`pathname + search + hash`) for relative input, the absolute `href` otherwise — or fails with
 * the reason it was refused.
 */
export const assess = (candidate: string, options: TrustOptions = {}): Either.Either<string, string> => {
  if (typeof candidate !== "string" || candidate.length === 0) return Either.left("empty")
  if (forbiddenCharacter.test(candidate)) return Either.left("contains whitespace, a control character or a backslash")
  if (candidate.startsWith("/")) return assessPath(candidate)
  const scheme = /^(https?):\/\/([^/?#]*)/i.exec(candidate)
  if (scheme === null) return Either.left("neither a path starting with one slash nor an http(s) URL")
  const authority = scheme[2]!
  if (authority.length === 0) return Either.left("no host")
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(authority)) return Either.left("user info, an encoded or a non-ASCII host")
  const url = parse(candidate)
  if (url === undefined) return Either.left("not a valid URL")
  if (url.username !== "" || url.password !== "") return Either.left("user info")
  const pathProblem = pathnameProblem(url.pathname)
  if (pathProblem !== undefined) return Either.left(pathProblem)
  if (options.appOrigin !== undefined && sameOrigin(url, options.appOrigin)) return Either.right(url.href)
  if (options.allowLocalhost === true && isLocalhost(url)) return Either.right(url.href)
  if ((options.trustedDomains ?? []).some((pattern) => matchesTrustedDomain(url, pattern))) return Either.right(url.href)
  return Either.left("another origin that is not a trusted domain")
}

/** Whether a redirect target is trusted (see {@link assess}). */
export const isTrusted = (candidate: string, options: TrustOptions = {}): boolean => Either.isRight(assess(candidate, options))

/** {@link assess}, failing with {@link UntrustedRedirectUrl}. */
export const check = (candidate: string, options: TrustOptions = {}): Either.Either<string, UntrustedRedirectUrl> =>
  Either.mapLeft(assess(candidate, options), (reason) => UntrustedRedirectUrl.make(candidate, reason))

/**
 * Whether an absolute URL matches a trusted-domain pattern (`https://app.example.com`,
 * `https://*.example.com`, `https://**.example.com:*`…). An invalid pattern matches nothing.
 */
export const matchesTrustedDomain = (url: URL, pattern: string): boolean => {
  const trimmed = pattern.trim()
  if (!trimmed.includes("*")) {
    const base = parse(trimmed)
    return base !== undefined && base.protocol === url.protocol && base.hostname === url.hostname && portOf(base) === portOf(url)
  }
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)/i.exec(trimmed)
  if (match === null) return false
  if (`${match[1]!.toLowerCase()}:` !== url.protocol) return false
  const hostPattern = match[2]!.toLowerCase()
  const portMatch = /:(\*|\d+)$/.exec(hostPattern)
  const hostOnly = portMatch === null ? hostPattern : hostPattern.slice(0, portMatch.index)
  if (!hostRegExp(hostOnly).test(url.hostname)) return false
  if (portMatch === null) return url.port === ""
  return portMatch[1] === "*" || portMatch[1] === portOf(url)
}

/** Whether a URL points at the local machine (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`). */
export const isLocalhost = (url: URL): boolean =>
  url.hostname === "localhost" || url.hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(url.hostname) ||
  url.hostname === "[::1]"

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

/**
 * Whitespace (ASCII and Unicode), C0/C1 controls, DEL, zero-width and bidi controls, the BOM,
 * and the backslash, which the URL parser treats as a slash.
 */
const forbiddenCharacter =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/

const sentinelOrigin = "https://relative.stack-auth-effect.invalid"

const parse = (text: string, base?: string): URL | undefined => {
  try {
    return base === undefined ? new URL(text) : new URL(text, base)
  } catch {
    return undefined
  }
}

const assessPath = (candidate: string): Either.Either<string, string> => {
  if (candidate.startsWith("//")) return Either.left("scheme-relative URL")
  const url = parse(candidate, sentinelOrigin)
  if (url === undefined || url.origin !== sentinelOrigin) return Either.left("not a same-origin path")
  const problem = pathnameProblem(url.pathname) ?? rawPathProblem(candidate)
  if (problem !== undefined) return Either.left(problem)
  return Either.right(`${url.pathname}${url.search}${url.hash}`)
}

/** The path of the raw input (before `?` / `#`), percent-decoded until stable, must stay a plain path. */
const rawPathProblem = (candidate: string): string | undefined => {
  const end = candidate.search(/[?#]/)
  return decodedProblem(end < 0 ? candidate : candidate.slice(0, end))
}

/** A normalised pathname must not start with `//` nor decode to something dangerous. */
const pathnameProblem = (pathname: string): string | undefined => {
  if (pathname.startsWith("//")) return "path starting with two slashes"
  return decodedProblem(pathname)
}

const decodedProblem = (path: string): string | undefined => {
  let current = path
  for (let round = 0; round < 5; round++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      // not percent-encoding a decoder would undo (e.g. a literal "%"): nothing more to decode
      return undefined
    }
    if (forbiddenCharacter.test(next)) return "encoded whitespace, control character or backslash"
    if (/^\/\//.test(next) || /^[a-z][a-z0-9+.-]*:/i.test(next)) return "encoded scheme-relative URL or scheme"
    if (next === current) return undefined
    current = next
  }
  return "too deeply percent-encoded"
}

const defaultPorts: Record<string, string> = { "http:": "80", "https:": "443" }

const portOf = (url: URL): string => (url.port === "" ? (defaultPorts[url.protocol] ?? "") : url.port)

const sameOrigin = (url: URL, origin: string): boolean => {
  const base = parse(origin)
  return base !== undefined && base.protocol === url.protocol && base.hostname === url.hostname && portOf(base) === portOf(url)
}

const hostRegExp = (pattern: string): RegExp => {
  let source = ""
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    if (char === "*" && pattern[i + 1] === "*") {
      source += ".+"
      i++
    } else if (char === "*") {
      source += "[^.]+"
    } else {
      source += char.replace(/[.+?^${}()|[\]\\-]/g, "\\$&")
    }
  }
  return new RegExp(`^${source}$`)
}
