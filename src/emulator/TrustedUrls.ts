/**
 * Whether a callback or redirect URL is trusted by a project: localhost / 127.0.0.1 when
 * `allow_localhost`, else one of the project's domains (a base URL; `*` matches one host label,
 * `**` any number of labels). Untrusted URLs are answered with REDIRECT_URL_NOT_WHITELISTED.
 *
 * @module
 */
import type { ProjectRecord } from "./State.js"

const localHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

const hostPattern = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split(".")
      .map((label) => (label === "**" ? "[^/]+" : label === "*" ? "[^./]+" : label.replace(/[-[\]{}()+?,\\^$|#\s]/g, "\\$&")))
      .join("\\.")}$`,
    "i"
  )

const matchesDomain = (url: URL, domain: string): boolean => {
  const match = /^(https?):\/\/([^/:]+)(?::(\d+))?(\/.*)?$/i.exec(domain.trim())
  if (match === null) return false
  const [, protocol, host, port] = match
  if (`${protocol!.toLowerCase()}:` !== url.protocol) return false
  if (!hostPattern(host!).test(url.hostname)) return false
  const defaultPort = url.protocol === "https:" ? "443" : "80"
  return (port ?? defaultPort) === (url.port === "" ? defaultPort : url.port)
}

/** Whether a project trusts a URL (an unparsable URL is never trusted). */
export const isTrustedUrl = (project: ProjectRecord, candidate: string): boolean => {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return false
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false
  if (project.config.allowLocalhost && localHosts.has(url.hostname)) return true
  return project.config.domains.some((domain) => matchesDomain(url, domain.domain))
}
