/**
 * Which web pages may use the emulator's privileged surface. The emulator answers every other
 * request with the service's permissive CORS (`access-control-allow-origin: *`), but its outbox
 * (every e-mailed code and link, no authentication) and admin access (with the well-known default
 * keys of the seeded projects) would otherwise let ANY web page the developer visits read the
 * codes and drive the admin API of an emulator running on their machine.
 *
 * Privileged requests are:
 * - every path under `/api/v1/emulator/` (the outbox, the mock OAuth provider's pages);
 * - admin access: `x-stack-access-type: admin` (or `x-hexclave-…`), or a super-secret admin key or
 *   an admin access token header.
 *
 * They are answered only to callers that send no `Origin` (Node, curl, the SDK on a server, the
 * in-process client) or whose `Origin` is a loopback page (`http(s)://localhost:*`,
 * `http(s)://127.x.x.x:*`, `http(s)://[::1]:*`) or the emulator's own origin; any other origin
 * gets a 403 text without CORS headers, and a preflight for them from such an origin is refused
 * the same way. Allowed browser callers get their origin echoed (`vary: origin`), never `*`.
 *
 * A page can also reach the emulator without an `Origin` of its own: after DNS rebinding, a page
 * of `evil.example` whose name now resolves to 127.0.0.1 makes same-origin requests (no `Origin`
 * on a GET) to the emulator's port. Those requests name the page's host in `Host`, so the Node
 * server (`server.ts`) answers only requests whose `Host` is one of its own names
 * ({@link isAllowedHost}): the host of its base URL or listen address, a name it was told to
 * answer to, `localhost` or a name under `.localhost`, or an IP address (a request addressed to an
 * IP address was not resolved from a name), with any port — the rule of Vite's dev server
 * (`server.allowedHosts`). The in-process client and the msw handlers have no socket a page could
 * reach, so they do not check it.
 *
 * @module
 */

/** The 403 text of a privileged request from a page that is not on a loopback origin. */
export const foreignOriginText = (origin: string): string =>
  `The emulator's outbox and admin API answer only non-browser callers and pages on a loopback origin (localhost, 127.x.x.x, [::1]); this request came from ${origin}.`

const loopbackIpv4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** Whether an `Origin` is a page on this machine: `http(s)://localhost`, `127.x.x.x` or `[::1]`, any port. */
export const isLoopbackOrigin = (origin: string): boolean => {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false
  return url.hostname === "localhost" || url.hostname === "[::1]" || loopbackIpv4.test(url.hostname)
}

const emulatorPathPrefix = "/api/v1/emulator"

const isEmulatorPath = (pathname: string): boolean => pathname === emulatorPathPrefix || pathname.startsWith(`${emulatorPathPrefix}/`)

const prefixed = (name: string): ReadonlyArray<string> => [`x-stack-${name}`, `x-hexclave-${name}`]

const adminCredentialHeaders: ReadonlyArray<string> = [...prefixed("super-secret-admin-key"), ...prefixed("admin-access-token")]

/** Whether a request is privileged: an emulator-only path, or admin access (see the module description). */
export const isPrivilegedRequest = (pathname: string, headers: Headers): boolean => {
  if (isEmulatorPath(pathname)) return true
  if (prefixed("access-type").some((name) => headers.get(name)?.trim().toLowerCase() === "admin")) return true
  return adminCredentialHeaders.some((name) => (headers.get(name) ?? "") !== "")
}

/** Whether a CORS preflight asks for a privileged request: an emulator-only path, or admin credential headers. */
export const isPrivilegedPreflight = (pathname: string, headers: Headers): boolean => {
  if (isEmulatorPath(pathname)) return true
  const requested = (headers.get("access-control-request-headers") ?? "").split(",").map((name) => name.trim().toLowerCase())
  return requested.some((name) => adminCredentialHeaders.includes(name))
}

/**
 * Whether a page at `origin` may make privileged requests: no `Origin` (not a browser page), a
 * loopback origin, or the emulator's own origin (its consent page posts back to itself).
 */
export const isAllowedOrigin = (origin: string | null, ownOrigin: string): boolean => origin === null || origin === ownOrigin || isLoopbackOrigin(origin)

/** The host name of a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower case, without a trailing dot; undefined when it is not one. */
const hostNameOf = (host: string): string | undefined => {
  const text = host.trim().toLowerCase()
  const bracketed = /^(\[[0-9a-f:.]+\])(?::\d{1,5})?$/.exec(text)
  if (bracketed !== null) return bracketed[1]!
  const named = /^([a-z0-9._-]+)(?::\d{1,5})?$/.exec(text)
  if (named === null) return undefined
  const name = named[1]!.endsWith(".") ? named[1]!.slice(0, -1) : named[1]!
  return name === "" ? undefined : name
}

const ipv4Literal = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** Whether a host name (as {@link hostNameOf} gives it) is an IP address: `1.2.3.4` or `[…]`. */
const isIpLiteral = (name: string): boolean => ipv4Literal.test(name) || name.startsWith("[")

/**
 * The host name of a URL or of a bare host (`app.test`, `[::1]`, `::1`), lower case, as the
 * `Host` rule compares it; undefined when it is neither.
 */
const hostNameOfUrlOrHost = (text: string): string | undefined => {
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return hostNameOf(new URL(text).host)
  } catch {
    return undefined
  }
  // a bare IPv6 address (a listen address such as `::`) is written in brackets in a Host
  return hostNameOf(!text.startsWith("[") && text.indexOf(":") !== text.lastIndexOf(":") ? `[${text}]` : text)
}

/**
 * Whether a request with this `Host` header may be answered by the Node server (see the module
 * description): no `Host` (HTTP/1.0, not a browser), an IP address, `localhost` or a name under
 * `.localhost`, or one of `ownNames` (its base URL's and listen address's host names, the names
 * it was told to answer to: lower case, without port), with any port. A malformed `Host` is refused.
 */
export const isAllowedHost = (host: string | undefined, ownNames: ReadonlySet<string>): boolean => {
  if (host === undefined) return true
  const name = hostNameOf(host)
  if (name === undefined) return false
  return isIpLiteral(name) || name === "localhost" || name.endsWith(".localhost") || ownNames.has(name)
}

/**
 * The host names of `texts` (URLs or bare hosts) as {@link isAllowedHost} compares them, and the
 * first text that is neither (`undefined` when every text gave a name).
 */
export const ownHostNames = (texts: ReadonlyArray<string>): { readonly names: ReadonlySet<string>; readonly invalid: string | undefined } => {
  const names = new Set<string>()
  let invalid: string | undefined
  for (const text of texts) {
    const name = hostNameOfUrlOrHost(text)
    if (name !== undefined) names.add(name)
    else if (invalid === undefined) invalid = text
  }
  return { names, invalid }
}

/** The 403 text for a foreign `Host`: which names the emulator answers to, and how to add one. */
export const blockedHostText = (host: string, answersTo: string, howToAllow: string): string =>
  `Blocked request: the Host ${
    JSON.stringify(host)
  } is not a name of this emulator. It answers requests addressed to ${answersTo}, so that a web page cannot reach it through DNS rebinding. To reach it by this name, ${howToAllow}.`

/** The 403 text of the Node server for a request whose `Host` is not one of its names. */
export const foreignHostText = (host: string, baseUrl: string): string =>
  blockedHostText(
    host,
    `its base URL (${baseUrl}), localhost, a name under .localhost or an IP address`,
    "start it with --allowed-host <name> or --base-url <its URL> (serve({ allowedHosts }) or serve({ baseUrl }))"
  )
