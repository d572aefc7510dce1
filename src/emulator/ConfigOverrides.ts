/**
 * The project config in the service's current config schema (`/internal/config`,
 * `/internal/config/override/{level}`, what the official SDK's `project.updateConfig` and
 * `getConfig` use): dotted keys such as `auth.allowSignUp`, stored per level as the override
 * object the caller wrote, and mapped onto the emulator's switches (`ProjectConfig`).
 *
 * The keys mapped (a faithful subset of the service's schema, `@stackframe/stack-shared`'s
 * `config/schema`): `auth.allowSignUp`, `auth.password.allowSignIn`, `auth.otp.allowSignIn`,
 * `auth.passkey.allowSignIn`, `auth.oauth.accountMergeStrategy`,
 * `teams.createPersonalTeamOnSignUp`, `teams.allowClientTeamCreation`,
 * `users.allowClientUserDeletion`, `apiKeys.enabled.user`, `apiKeys.enabled.team`,
 * `domains.allowLocalhost`, `onboarding.requireEmailVerification`. Other keys are kept in the override (and read back) but change
 * nothing the emulator serves.
 *
 * @module
 */
import { maxJsonDepth, parseJson } from "./Json.js"
import type { ProjectConfig, ProjectRecord } from "./State.js"

/** The config levels an override is written at. */
export const overrideLevels = ["project", "branch", "environment"] as const

/** A config level. */
export type OverrideLevel = (typeof overrideLevels)[number]

type Switch =
  | "requireEmailVerification"
  | "signUpEnabled"
  | "credentialEnabled"
  | "magicLinkEnabled"
  | "passkeyEnabled"
  | "createTeamOnSignUp"
  | "clientTeamCreationEnabled"
  | "clientUserDeletionEnabled"
  | "allowUserApiKeys"
  | "allowTeamApiKeys"
  | "allowLocalhost"

/** The dotted keys of the service's schema that are emulator switches. */
export const switchKeys: Readonly<Record<string, Switch>> = {
  "auth.allowSignUp": "signUpEnabled",
  "auth.password.allowSignIn": "credentialEnabled",
  "auth.otp.allowSignIn": "magicLinkEnabled",
  "auth.passkey.allowSignIn": "passkeyEnabled",
  "teams.createPersonalTeamOnSignUp": "createTeamOnSignUp",
  "teams.allowClientTeamCreation": "clientTeamCreationEnabled",
  "users.allowClientUserDeletion": "clientUserDeletionEnabled",
  "apiKeys.enabled.user": "allowUserApiKeys",
  "apiKeys.enabled.team": "allowTeamApiKeys",
  "domains.allowLocalhost": "allowLocalhost",
  "onboarding.requireEmailVerification": "requireEmailVerification"
}

const mergeStrategyKey = "auth.oauth.accountMergeStrategy"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** An override as dotted keys: nested objects are flattened (`{auth: {allowSignUp: x}}` → `auth.allowSignUp`). */
export const flatten = (override: Readonly<Record<string, unknown>>): Map<string, unknown> => {
  const flat = new Map<string, unknown>()
  const pending: Array<readonly [string, unknown]> = Object.entries(override)
  while (pending.length > 0) {
    const [key, value] = pending.pop()!
    if (isRecord(value) && Object.keys(value).length > 0) {
      for (const [inner, innerValue] of Object.entries(value)) pending.push([`${key}.${inner}`, innerValue])
    } else flat.set(key, value)
  }
  return flat
}

/** The project's switches after applying an override's mapped keys (others unchanged). */
export const applyOverride = (config: ProjectConfig, override: ReadonlyMap<string, unknown>): ProjectConfig => {
  const next: { -readonly [K in keyof ProjectConfig]: ProjectConfig[K] } = { ...config }
  for (const [key, value] of override) {
    const target = switchKeys[key]
    if (target !== undefined && typeof value === "boolean") next[target] = value
    if (key === mergeStrategyKey && (value === "link_method" || value === "raise_error" || value === "allow_duplicates")) {
      next.oauthAccountMergeStrategy = value
    }
  }
  return next
}

const mergeStrategies = ["link_method", "raise_error", "allow_duplicates"] as const

/** A value as the service's schema library prints it in a message (strings quoted). */
const printed = (value: unknown): string => (typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value, null, 2) ?? String(value))

/**
 * The service's refusal of an override's value for a key the emulator maps, if any (backend
 * `getConfigOverrideErrors`, a yup check per key, `null` allowed): a non-boolean switch is
 * "`key` must be a \`boolean\` type, but the final value was: …", an unknown merge strategy
 * "`key` must be one of the following values: …". Keys the emulator does not map are kept as given.
 */
export const overrideProblem = (override: ReadonlyMap<string, unknown>): string | undefined => {
  for (const [key, value] of override) {
    if (value === null) continue
    if (switchKeys[key] !== undefined && typeof value !== "boolean") {
      return `${key} must be a \`boolean\` type, but the final value was: \`${printed(value)}\`.`
    }
    if (key === mergeStrategyKey && !(mergeStrategies as ReadonlyArray<unknown>).includes(value)) {
      return `${key} must be one of the following values: ${mergeStrategies.join(", ")}`
    }
  }
  return undefined
}

// a key of an override: dot-separated segments of letters, digits, `_`, `:`, `$`, `-`, none starting with `-`
const keyPattern = /^[\w:$][\w:$-]*(\.[\w:$][\w:$-]*)*$/

/** Why a value of an override has the wrong shape (the service's "Invalid config format" reasons), if it does. */
const valueShapeProblem = (value: unknown, name: string): string | undefined => {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const element: unknown = value[index]
      if (element === null) return `${name}[${index}] is null; tuple elements cannot be null`
      const problem = valueShapeProblem(element, `${name}[${index}]`)
      if (problem !== undefined) return problem
    }
    return undefined
  }
  return typeof value === "object" && value !== null ? shapeProblem(value as Record<string, unknown>, name) : undefined
}

const shapeProblem = (override: Record<string, unknown>, name: string): string | undefined => {
  for (const [key, value] of Object.entries(override)) {
    if (!keyPattern.test(key)) {
      return `All keys of ${name} must consist of only alphanumeric characters, dots, underscores, colons, dollar signs, or hyphens and start with a character other than a hyphen (found: ${key})`
    }
    const problem = valueShapeProblem(value, `${name}.${key}`)
    if (problem !== undefined) return problem
  }
  return undefined
}

/** The first key with a dot inside a nested object of an override (only top-level keys may be dotted). */
const dottedNestedKey = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes(".")) return key
    const found = dottedNestedKey(inner)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The 400 text of a config string nested more than `maxJsonDepth` levels deep, answered like
 * the other refusals of a config string. The service's own answer to such a config is not known
 * (its checks walk the parsed value recursively); this text says what the emulator checked.
 */
export const tooDeepConfigText = `Invalid config format: the config nests objects and arrays more than ${maxJsonDepth} levels deep`

/**
 * Parses a config override string as the service does (backend `internal/config/override/[level]/route.tsx`
 * `parseAndValidateConfig`, then `getConfigOverrideErrors`), answering the dotted keys or the
 * service's 400 text: "Invalid config JSON", "Config override must be a non-null object.",
 * "Config override must be plain old JavaScript object." (an array), "Key … contains a dot, which
 * is not allowed in config override.", "Invalid config format: …", or a value refused for a key
 * the emulator maps ({@link overrideProblem}). A config nested more than `maxJsonDepth` levels
 * deep is refused first ({@link tooDeepConfigText}), before anything walks it.
 */
export const parseOverrideString = (
  text: string
): { readonly _tag: "Ok"; readonly flat: Map<string, unknown> } | { readonly _tag: "Refused"; readonly text: string } => {
  const json = parseJson(text)
  if (json._tag === "Invalid") return { _tag: "Refused", text: "Invalid config JSON" }
  if (json._tag === "TooDeep") return { _tag: "Refused", text: tooDeepConfigText }
  const parsed = json.value
  if (typeof parsed !== "object" || parsed === null) return { _tag: "Refused", text: "Config override must be a non-null object." }
  if (Array.isArray(parsed)) return { _tag: "Refused", text: "Config override must be plain old JavaScript object." }
  const override = parsed as Record<string, unknown>
  for (const value of Object.values(override)) {
    const dotted = dottedNestedKey(value)
    if (dotted !== undefined) return { _tag: "Refused", text: `Key ${dotted} contains a dot, which is not allowed in config override.` }
  }
  const shape = shapeProblem(override, "override")
  if (shape !== undefined) return { _tag: "Refused", text: `Invalid config format: ${shape}` }
  const flat = flatten(override)
  const problem = overrideProblem(flat)
  return problem === undefined ? { _tag: "Ok", flat } : { _tag: "Refused", text: problem }
}

/** The project's config rendered in the service's schema (the mapped keys), nested. */
export const renderConfig = (project: ProjectRecord): Record<string, unknown> => {
  const { config } = project
  return {
    auth: {
      allowSignUp: config.signUpEnabled,
      password: { allowSignIn: config.credentialEnabled },
      otp: { allowSignIn: config.magicLinkEnabled },
      passkey: { allowSignIn: config.passkeyEnabled },
      oauth: {
        accountMergeStrategy: config.oauthAccountMergeStrategy ?? "link_method",
        providers: Object.fromEntries(
          config.oauthProviders.map((provider) => [
            provider.id,
            { type: provider.provider, isShared: provider.type === "shared", allowSignIn: true, allowConnectedAccounts: true }
          ])
        )
      }
    },
    teams: { createPersonalTeamOnSignUp: config.createTeamOnSignUp, allowClientTeamCreation: config.clientTeamCreationEnabled },
    users: { allowClientUserDeletion: config.clientUserDeletionEnabled },
    apiKeys: { enabled: { user: config.allowUserApiKeys, team: config.allowTeamApiKeys } },
    onboarding: { requireEmailVerification: config.requireEmailVerification ?? false },
    domains: {
      allowLocalhost: config.allowLocalhost,
      trustedDomains: Object.fromEntries(
        config.domains.map((domain, index) => [`domain-${index}`, { baseUrl: domain.domain, handlerPath: domain.handlerPath }])
      )
    }
  }
}
