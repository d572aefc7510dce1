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
import type { ProjectConfig, ProjectRecord } from "./State.js"

/** The config levels an override is written at. */
export const overrideLevels = ["project", "branch", "environment"] as const

/** A config level. */
export type OverrideLevel = (typeof overrideLevels)[number]

type Switch = "requireEmailVerification" | "signUpEnabled" | "credentialEnabled" | "magicLinkEnabled" | "passkeyEnabled" | "createTeamOnSignUp" | "clientTeamCreationEnabled" | "clientUserDeletionEnabled" | "allowUserApiKeys" | "allowTeamApiKeys" | "allowLocalhost"

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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

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

/** Whether an override only holds values the emulator accepts for its mapped keys (booleans, merge strategies). */
export const overrideProblem = (override: ReadonlyMap<string, unknown>): string | undefined => {
  for (const [key, value] of override) {
    if (switchKeys[key] !== undefined && typeof value !== "boolean" && value !== null) return `${key} must be a boolean`
  }
  return undefined
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
