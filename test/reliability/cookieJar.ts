/**
 * A browser's cookie jar as RFC 6265 (with the `__Host-` prefix rules of RFC 6265bis) stores it,
 * enough to replay cookie tossing in-process: cookies are keyed by name, domain and path (so a
 * sibling subdomain's `Domain=example.com` cookie lives beside the app's host-only one of the same
 * name), a `Domain` that does not cover the setting host is refused, a deletion removes only the
 * cookie with the same name, domain and path, and the `Cookie` header lists longer paths first,
 * then older cookies first.
 */

interface StoredCookie {
  readonly name: string
  readonly value: string
  /** The host (host-only cookie) or the `Domain` attribute, lower-case, no leading dot. */
  readonly domain: string
  readonly hostOnly: boolean
  readonly path: string
  readonly secure: boolean
  readonly created: number
}

/** Whether `host` is `domain` or one of its subdomains. */
const domainMatches = (host: string, domain: string): boolean => host === domain || host.endsWith(`.${domain}`)

/** A browser's jar, shared by every site of one registrable domain. */
export class CookieJar {
  private readonly cookies: Array<StoredCookie> = []
  private clock = 0
  /** Every `Set-Cookie` the jar refused (a `Domain` outside the host, a broken `__Host-` cookie…). */
  readonly refused: Array<string> = []

  /** Applies a `Set-Cookie` value (or a `document.cookie` assignment) received from `host`. */
  set(setCookie: string, from: { readonly host: string; readonly https: boolean }): void {
    const [pair = "", ...rest] = setCookie.split(";")
    const eq = pair.indexOf("=")
    if (eq < 0 || /[\u0000-\u001f\u007f]/.test(setCookie)) return void this.refused.push(setCookie)
    const name = pair.slice(0, eq).trim()
    const value = pair.slice(eq + 1).trim()
    let domain: string | undefined
    let path = "/"
    let maxAge: number | undefined
    let secure = false
    for (const attribute of rest) {
      const at = attribute.indexOf("=")
      const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase()
      const raw = at < 0 ? "" : attribute.slice(at + 1).trim()
      if (key === "domain") domain = raw.replace(/^\./, "").toLowerCase()
      else if (key === "path") path = raw.startsWith("/") ? raw : "/"
      else if (key === "max-age") maxAge = Number(raw)
      else if (key === "secure") secure = true
    }
    if (domain !== undefined && !domainMatches(from.host, domain)) return void this.refused.push(setCookie)
    if (secure && !from.https) return void this.refused.push(setCookie)
    if (name.startsWith("__Host-") && (!secure || domain !== undefined || path !== "/")) return void this.refused.push(setCookie)
    const key = { name, domain: domain ?? from.host, hostOnly: domain === undefined, path }
    const index = this.cookies.findIndex((cookie) =>
      cookie.name === key.name && cookie.domain === key.domain && cookie.path === key.path && cookie.hostOnly === key.hostOnly
    )
    const previous = index < 0 ? undefined : this.cookies.splice(index, 1)[0]
    if (maxAge !== undefined && !(maxAge > 0)) return
    this.cookies.push({ ...key, value, secure, created: previous?.created ?? this.clock++ })
  }

  /** The `Cookie` header a request to `host` carries (also what `document.cookie` reads there). */
  header(to: { readonly host: string; readonly https: boolean }): string {
    return this.cookies
      .filter((cookie) => (cookie.hostOnly ? cookie.domain === to.host : domainMatches(to.host, cookie.domain)))
      .filter((cookie) => to.https || !cookie.secure)
      .sort((a, b) => b.path.length - a.path.length || a.created - b.created)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ")
  }

  /** How many cookies of that name the jar holds, for any domain. */
  count(name: string): number {
    return this.cookies.filter((cookie) => cookie.name === name).length
  }
}
