/**
 * Production-mode checks (SPEC.md §5): what keeps a project from being safe in production, each
 * problem with the service's exact message and a link to the project's domain settings.
 *
 * @module
 */
import type { AdminProject } from "./Projects.js"

/** One problem: the message and the dashboard page that fixes it (relative URL). */
export interface ProductionModeProblem {
  readonly message: string
  readonly relativeFixUrl: string
}

const isLocalhost = (hostname: string): boolean =>
  hostname === "localhost" || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "[::1]"

const isDirectIp = (hostname: string): boolean => /^\d+(\.\d+)*$/.test(hostname) || hostname.startsWith("[")

const parseUrl = (text: string): URL | undefined => {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/**
 * Every production-mode problem of a project, in order: `Allow localhost` on, then per trusted
 * domain (in list order) the first of: not a valid URL, a localhost domain, a direct IP, not HTTPS.
 * Each links to `/projects/{projectId}/domains`. Pure; an empty array means ready for production.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { AdminProjects, ProductionMode } from "stack-auth-effect"
 *
 * const problems = Effect.map(AdminProjects.getCurrent(), ProductionMode.check)
 * ```
 */
export const check = (
  project: Pick<AdminProject, "id"> & { readonly config: Pick<AdminProject["config"], "allowLocalhost" | "domains"> }
): ReadonlyArray<ProductionModeProblem> => {
  const relativeFixUrl = `/projects/${project.id}/domains`
  const problems: Array<ProductionModeProblem> = []
  if (project.config.allowLocalhost) {
    problems.push({
      message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      relativeFixUrl
    })
  }
  for (const { domain } of project.config.domains) {
    const url = parseUrl(domain)
    if (url === undefined) {
      problems.push({ message: `Trusted domain is not a valid URL: ${domain}`, relativeFixUrl })
    } else if (isLocalhost(url.hostname)) {
      problems.push({ message: `Localhost domains are not allowed to be trusted in production mode: ${domain}`, relativeFixUrl })
    } else if (isDirectIp(url.hostname)) {
      problems.push({ message: `Direct IPs are not valid for trusted domains in production mode: ${domain}`, relativeFixUrl })
    } else if (url.protocol !== "https:") {
      problems.push({ message: `Trusted domains should be HTTPS: ${domain}`, relativeFixUrl })
    }
  }
  return problems
}
