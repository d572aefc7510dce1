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
 * A path is checked after percent-decoding (until stable) and dot-segment removal: a target whose
 * percent-encoding is malformed (`/%2F%2Fevil.com/%`, `/x%ff`) is refused, and so is one whose
 * decoded, normalised path is scheme-relative (`/..%2f%2fevil.com`, `/%252e%252e//evil.com`) or
 * holds a backslash, a control character or a look-alike of a slash (`／`, `∕`).
 *
 * Trusted-domain patterns follow the service's rules, and the emulator's `TrustedUrls` uses the
 * same function ({@link matchesTrustedDomain}): a base URL `https://app.example.com[:port]`
 * (`http` or `https`; a path after it does not restrict the match); in the host, `*` matches one
 * or more characters within one label (`https://*.example.com`, `https://api-*.example.com`,
 * `https://*-api.example.com`), `**` one or more labels (`https://**.example.com`); every other
 * character is literal (the host is lower-cased and IDN labels become punycode, as the URL parser
 * does); the scheme must match; without an explicit port only the default port matches, `:*`
 * matches any port.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Result from "effect/Result"

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
export const assess = (candidate: string, options: TrustOptions = {}): Result.Result<string, string> => {
  if (typeof candidate !== "string" || candidate.length === 0) return Result.fail("empty")
  if (forbiddenCharacter.test(candidate)) return Result.fail("contains whitespace, a control character or a backslash")
  if (candidate.startsWith("/")) return assessPath(candidate)
  const scheme = /^(https?):\/\/([^/?#]*)/i.exec(candidate)
  if (scheme === null) return Result.fail("neither a path starting with one slash nor an http(s) URL")
  const authority = scheme[2]!
  if (authority.length === 0) return Result.fail("no host")
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(authority)) return Result.fail("user info, an encoded or a non-ASCII host")
  const url = parse(candidate)
  if (url === undefined) return Result.fail("not a valid URL")
  if (url.username !== "" || url.password !== "") return Result.fail("user info")
  const pathProblem = pathnameProblem(url.pathname)
  if (pathProblem !== undefined) return Result.fail(pathProblem)
  if (options.appOrigin !== undefined && sameOrigin(url, options.appOrigin)) return Result.succeed(url.href)
  if (options.allowLocalhost === true && isLocalhost(url)) return Result.succeed(url.href)
  if ((options.trustedDomains ?? []).some((pattern) => matchesTrustedDomain(url, pattern))) return Result.succeed(url.href)
  return Result.fail("another origin that is not a trusted domain")
}

/** Whether a redirect target is trusted (see {@link assess}). */
export const isTrusted = (candidate: string, options: TrustOptions = {}): boolean => Result.isSuccess(assess(candidate, options))

/** {@link assess}, failing with {@link UntrustedRedirectUrl}. */
export const check = (candidate: string, options: TrustOptions = {}): Result.Result<string, UntrustedRedirectUrl> =>
  Result.mapError(assess(candidate, options), (reason) => UntrustedRedirectUrl.make(candidate, reason))

/**
 * Whether an absolute URL matches a trusted-domain pattern (`https://app.example.com`,
 * `https://*.example.com`, `https://**.example.com:*`…; see the module documentation). An invalid
 * pattern matches nothing; so does a pattern with user info, a character that is not allowed in a
 * host name (`+`, `(`, `[`, `_`…), an empty label, or a `*` inside a non-ASCII label. The same
 * function decides for the emulator, so both give the same answer for the same pattern.
 */
export const matchesTrustedDomain = (url: URL, pattern: string): boolean => {
  const compiled = compilePattern(pattern)
  if (compiled === undefined || compiled.protocol !== url.protocol) return false
  if (typeof compiled.host === "string" ? compiled.host !== url.hostname : !compiled.host.test(url.hostname)) return false
  return compiled.port === "*" || compiled.port === portOf(url)
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
const forbiddenCharacter = /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/

const sentinelOrigin = "https://relative.stack-auth-effect.invalid"

const parse = (text: string, base?: string): URL | undefined => {
  try {
    return base === undefined ? new URL(text) : new URL(text, base)
  } catch {
    return undefined
  }
}

const assessPath = (candidate: string): Result.Result<string, string> => {
  if (candidate.startsWith("//")) return Result.fail("scheme-relative URL")
  const url = parse(candidate, sentinelOrigin)
  if (url === undefined || url.origin !== sentinelOrigin) return Result.fail("not a same-origin path")
  const problem = pathnameProblem(url.pathname) ?? rawPathProblem(candidate)
  if (problem !== undefined) return Result.fail(problem)
  return Result.succeed(`${url.pathname}${url.search}${url.hash}`)
}

/** The path of the raw input (before `?` / `#`) must pass the same decoded-path rule. */
const rawPathProblem = (candidate: string): string | undefined => {
  const end = candidate.search(/[?#]/)
  return decodedProblem(end < 0 ? candidate : candidate.slice(0, end))
}

/** A normalised pathname must not start with `//` nor decode to something dangerous. */
const pathnameProblem = (pathname: string): string | undefined => {
  if (pathname.startsWith("//")) return "path starting with two slashes"
  return decodedProblem(pathname)
}

/** How many rounds of percent-decoding a path may need before it is stable. */
const maxDecodingRounds = 5

/**
 * The decoded-path rule. The path itself must be well-formed percent-encoding (every `%` starts
 * an escape, the escapes are UTF-8): `/%2F%2Fevil.com/%` is refused, since a lenient decoder
 * (many servers fall back to one) would still turn it into `//evil.com/%`. What it decodes to is
 * decoded again, leniently (a `%` left by `%25` stays literal), until stable (at most
 * {@link maxDecodingRounds} rounds). Every form — also after NFKC normalisation (`／` → `/`) and
 * after removing dot segments (`/..//evil.com` → `//evil.com`) — must stay a plain path: no
 * whitespace, control character or backslash (or a look-alike of a slash), no leading `//`, no
 * scheme.
 */
const decodedProblem = (path: string): string | undefined => {
  let next: string
  try {
    next = decodeURIComponent(path)
  } catch {
    return "malformed percent-encoding"
  }
  let current = path
  for (let round = 0; round < maxDecodingRounds; round++) {
    const problem = decodedFormProblem(next)
    if (problem !== undefined) return problem
    if (next === current) return undefined
    current = next
    next = decodeLeniently(current)
  }
  return "too deeply percent-encoded"
}

/** Characters that look like a slash or a backslash (and no decoder maps to one). */
const slashLookAlike = /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\ufe68\uff0f\uff3c]/

const decodedFormProblem = (decoded: string): string | undefined => {
  for (const form of new Set([decoded, decoded.normalize("NFKC")])) {
    if (forbiddenCharacter.test(form)) return "encoded whitespace, control character or backslash"
    if (slashLookAlike.test(form)) return "a look-alike of a slash"
    if (/^\/\//.test(form) || /^[a-z][a-z0-9+.-]*:/i.test(form)) return "encoded scheme-relative URL or scheme"
    if (/^\/\//.test(removeDotSegments(form))) return "scheme-relative URL after removing dot segments"
  }
  return undefined
}

/**
 * RFC 3986 §5.2.4 on a decoded path: `.` and `..` segments removed (also `..;x`, which some
 * servers read as `..`), never above the root.
 */
const removeDotSegments = (path: string): string => {
  const output: Array<string> = []
  const segments = path.split("/")
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    const bare = segment.split(";")[0]!
    const last = i === segments.length - 1
    if (bare === ".") {
      if (last) output.push("")
    } else if (bare === "..") {
      if (output.length > 1) output.pop()
      if (last) output.push("")
    } else {
      output.push(segment)
    }
  }
  return output.join("/")
}

/**
 * Percent-decoding that never fails: runs of valid escapes are decoded as UTF-8; a run that is not
 * UTF-8 has its ASCII escapes decoded and the others kept; a `%` without two hex digits stays.
 */
const decodeLeniently = (text: string): string =>
  text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run.replace(/%([0-7][0-9a-f])/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    }
  })

const defaultPorts: Record<string, string> = { "http:": "80", "https:": "443" }

const portOf = (url: URL): string => (url.port === "" ? (defaultPorts[url.protocol] ?? "") : url.port)

const sameOrigin = (url: URL, origin: string): boolean => {
  const base = parse(origin)
  return base !== undefined && base.protocol === url.protocol && base.hostname === url.hostname && portOf(base) === portOf(url)
}

/** A trusted-domain pattern, ready to match: the scheme, the host (exact or a RegExp), the port (or `*`). */
interface CompiledPattern {
  readonly protocol: string
  readonly host: string | RegExp
  readonly port: string
}

/** Stand-ins for the wildcards while the URL parser normalises the host (`_` is refused in patterns). */
const oneLabel = "_1_"
const anyLabels = "_2_"

const compilePattern = (pattern: string): CompiledPattern | undefined => {
  if (typeof pattern !== "string") return undefined
  const trimmed = pattern.trim()
  if (forbiddenCharacter.test(trimmed)) return undefined
  // the base URL's scheme and authority; a path, query or hash after them does not restrict the match
  const match = /^(https?):\/\/([^/?#]*)/i.exec(trimmed)
  if (match === null) return undefined
  const protocol = `${match[1]!.toLowerCase()}:`
  const authority = match[2]!
  if (authority.includes("@")) return undefined
  const split = /^(\[[^\]]*\]|[^:]*)(?::(\*|\d*))?$/.exec(authority)
  if (split === null) return undefined
  const hostPattern = split[1]!
  const portPattern = split[2]
  const port = portPattern === undefined || portPattern === ""
    ? defaultPorts[protocol]!
    : portPattern === "*"
    ? "*"
    : Number(portPattern) <= 65535
    ? String(Number(portPattern))
    : undefined
  if (port === undefined || hostPattern.length === 0) return undefined
  if (hostPattern.startsWith("[")) {
    // an IPv6 address: no wildcards, compared as the URL parser writes it
    if (hostPattern.includes("*")) return undefined
    const host = parse(`http://${hostPattern}/`)?.hostname
    return host === undefined ? undefined : { protocol, host, port }
  }
  // ASCII letters, digits, `-`, `.` and wildcards; anything else ASCII (`+`, `(`, `%`, `_`…) is no host
  if (!/^(?:[A-Za-z0-9.*-]|[^\u0000-\u007f])+$/.test(hostPattern)) return undefined
  const marked = hostPattern.replace(/\*\*/g, anyLabels).replace(/\*/g, oneLabel)
  // the URL parser lower-cases, maps full-width dots and converts IDN labels to punycode
  const host = parse(`http://${marked}/`)?.hostname
  if (host === undefined || !/^[a-z0-9._-]+$/.test(host)) return undefined
  const count = (text: string, part: string) => text.split(part).length - 1
  if (count(host, oneLabel) !== count(marked, oneLabel) || count(host, anyLabels) !== count(marked, anyLabels)) return undefined
  const labels = host.split(".")
  if (labels.some((label) => label.length === 0)) return undefined
  // a wildcard inside a punycode label would match encoded bytes, not characters
  if (labels.some((label) => label.startsWith("xn--") && label.includes("_"))) return undefined
  if (!host.includes("_")) return { protocol, host, port }
  const source = host
    .split(/(_1_|_2_)/)
    .map((part) => (part === oneLabel ? "[^.]+" : part === anyLabels ? ".+" : part.replace(/[.]/g, "\\.")))
    .join("")
  return { protocol, host: new RegExp(`^${source}$`), port }
}
