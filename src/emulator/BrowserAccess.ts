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
export const isAllowedOrigin = (origin: string | null, ownOrigin: string): boolean =>
  origin === null || origin === ownOrigin || isLoopbackOrigin(origin)
