/**
 * Whether a callback or redirect URL is trusted by a project: an absolute `http(s)` URL that is
 * local (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`) when `allow_localhost`, else one that
 * matches one of the project's domains. Untrusted URLs are answered with
 * REDIRECT_URL_NOT_WHITELISTED.
 *
 * The decision is the SDK's `UrlTrust` check with the project's domains as trusted domains (and no
 * app origin), so the emulator and the SDK give the same answer for the same pattern: a domain is
 * a base URL whose host may hold `*` (one or more characters within one label, also inside a label:
 * `https://*-api.example.com`) and `**` (one or more labels); every other character is literal; the
 * scheme must match; without a port only the default port matches, `:*` any port. An invalid
 * pattern trusts nothing (and never makes a trust check fail).
 *
 * @module
 */
import * as UrlTrust from "../urls/UrlTrust.js"
import type { ProjectRecord } from "./State.js"

/** Whether a project trusts a URL (an unparsable or relative URL is never trusted). */
export const isTrustedUrl = (project: ProjectRecord, candidate: string): boolean => {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return false
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false
  return UrlTrust.isTrusted(candidate, {
    trustedDomains: project.config.domains.map((domain) => domain.domain),
    allowLocalhost: project.config.allowLocalhost
  })
}
