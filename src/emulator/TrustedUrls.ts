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

/**
 * The emulator's hint when it answers REDIRECT_URL_NOT_WHITELISTED (logged as a warning; the wire
 * answer keeps the service's text, which points at a dashboard the emulator does not have): what
 * the project trusts and the emulator's own ways to trust a domain.
 */
export const untrustedUrlHint = (request: { readonly method: string; readonly path: string }, project: ProjectRecord | undefined): string => {
  const trusted = project === undefined
    ? []
    : [...(project.config.allowLocalhost ? ["http(s)://localhost"] : []), ...project.config.domains.map((domain) => domain.domain)]
  return (
    `stack-auth-effect emulator: ${request.method} ${request.path} answered REDIRECT_URL_NOT_WHITELISTED: its callback or redirect URL is not trusted by project ${
      project?.id ?? "(unknown)"
    } ` +
    `(trusted: ${trusted.length === 0 ? "nothing" : trusted.join(", ")}). The emulator has no dashboard: trust your app's domain with ` +
    `\`stack-auth-emulator --trusted-domain https://your.app\` or \`Emulator.make({ demo: { config: { domains: [{ domain: "https://your.app", handlerPath: "/handler" }] } } })\` ` +
    `(\`config.domains\` of any project), or use an http://localhost URL.`
  )
}
