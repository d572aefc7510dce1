/**
 * The project config as the service keeps it: one override per level (`project`, `branch`,
 * `environment`), each the object its writers gave (top-level keys may be dotted), and the config
 * every part of the emulator reads (`ProjectRecord.config`, `requiresPublishableClientKey`)
 * **derived** from them: the levels are merged (`override`), normalized (dotted keys into missing
 * record entries are dropped) and read as the service's project view reads its rendered config.
 * Nothing else holds config: the admin project update (`PATCH /internal/projects/current`), a new
 * project and `Emulator.make`'s `config` write the environment level, as the service's
 * `createOrUpdateProjectWithLegacyConfig` does.
 *
 * Written from stack-auth/stack-auth at 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `packages/stack-shared/src/config/format.ts` (`override`, `normalize`, `removeKeysFromConfig`),
 * `config/schema.ts` (the organization defaults), `apps/backend/src/lib/config.tsx`
 * (`renderedOrganizationConfigToProjectCrud`) and `apps/backend/src/lib/projects.tsx` (the legacy
 * config written as an environment override).
 *
 * @module
 */
import type { ConfigLevel, ConfigNode } from "../projects/internal/configSchema.js"
import { configLevels, configOverrideProblem, environmentLevelSchema, nodeAt, projectLevelSchema } from "../projects/internal/configSchema.js"
import { maxJsonDepth, parseJson } from "./Json.js"
import { randomUuid } from "./Random.js"
import type { EmailConfig, OAuthProviderConfig, ProjectConfig, ProjectRecord, TrustedDomain } from "./State.js"
import { defaultEmailTheme } from "./State.js"

/** The config levels an override is written at. */
export const overrideLevels = configLevels

/** A config level. */
export type OverrideLevel = ConfigLevel

/** An override as stored: the keys its writer gave (maybe dotted), never mutated (a write stores a new object). */
export type Override = Readonly<Record<string, unknown>>

/** A new project's overrides: every level empty. */
export const emptyOverrides = (): Map<OverrideLevel, Override> => new Map(overrideLevels.map((level) => [level, {}]))

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * `override(c1, c2)` of `config/format.ts`: every key of `c2` (undefined skipped) replaces the
 * same key of `c1` and every key below it (`a` removes `a.b`).
 */
export const override = (base: Override, patch: Override): Override => {
  const result: Record<string, unknown> = {}
  const keys = Object.keys(patch).filter((key) => patch[key] !== undefined)
  for (const [key, value] of Object.entries(base)) {
    if (!keys.some((k) => key === k || key.startsWith(`${k}.`))) result[key] = value
  }
  for (const key of keys) result[key] = patch[key]
  return result
}

/** `removeKeysFromConfig` of `config/format.ts`: removes keys and their descendants, dotted or nested. */
export const removeKeys = (config: Override, keysToRemove: ReadonlyArray<string>): Override => {
  if (keysToRemove.length === 0) return config
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue
    if (keysToRemove.some((k) => key === k || key.startsWith(`${k}.`))) continue
    const inner = keysToRemove.filter((k) => k.startsWith(`${key}.`)).map((k) => k.slice(key.length + 1))
    if (inner.length > 0 && isRecord(value)) {
      const cleaned = removeKeys(value, inner)
      if (Object.keys(cleaned).length > 0) result[key] = cleaned
    } else result[key] = value
  }
  return result
}

/** Every key of every level: the organization's schema (project and environment keys). */
const fullSchema: ConfigNode = { kind: "object", fields: { ...projectLevelSchema.fields, ...environmentLevelSchema.fields } }

/** A deep copy of a config value with `null` entries dropped (`normalize`), objects of the schema filled with `{}` where missing (the defaults' structure). */
const filled = (node: ConfigNode | undefined, value: unknown): unknown => {
  if (Array.isArray(value)) return value.map((element) => filled(undefined, element))
  if (!isRecord(value)) return value
  const result: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null || inner === undefined) continue
    const innerNode = node === undefined ? undefined : node.kind === "object" ? node.fields[key] : node.kind === "record" ? node.value : undefined
    result[key] = filled(innerNode, inner)
  }
  if (node?.kind === "object") {
    for (const [key, innerNode] of Object.entries(node.fields)) {
      if (result[key] === undefined && (innerNode.kind === "object" || innerNode.kind === "record")) result[key] = filled(innerNode, {})
    }
  }
  return result
}

/**
 * The rendered config of overrides (`override` of the levels in order, then `normalize` with
 * `onDotIntoNonObject: "ignore"` over the defaults' structure): a dotted key into an object the
 * schema has always works, into a record entry only when the entry exists, else it is dropped;
 * `null` removes a key.
 */
export const renderOverrides = (levels: ReadonlyArray<Override>): Record<string, unknown> => {
  const merged = levels.reduce<Override>((acc, level) => override(acc, level), {})
  const result = filled(fullSchema, {}) as Record<string, unknown>
  const keys = Object.keys(merged).sort((a, b) => a.split(".").length - b.split(".").length)
  outer: for (const key of keys) {
    const value = merged[key]
    if (value === undefined) continue
    const parts = key.split(".")
    const last = parts.pop()!
    let current = result
    for (const part of parts) {
      const next = current[part]
      if (!isRecord(next)) continue outer
      current = next
    }
    if (value === null) delete current[last]
    else current[last] = filled(nodeAt(fullSchema, key), value)
  }
  return result
}

const at = (config: Record<string, unknown>, path: string): unknown => {
  let current: unknown = config
  for (const part of path.split(".")) current = isRecord(current) ? current[part] : undefined
  return current
}

const entriesAt = (config: Record<string, unknown>, path: string): Array<[string, Record<string, unknown>]> => {
  const value = at(config, path)
  return isRecord(value) ? Object.entries(value).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1])) : []
}

const bool = (value: unknown, fallback: boolean): boolean => (typeof value === "boolean" ? value : fallback)
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const grantedIds = (config: Record<string, unknown>, path: string): ReadonlyArray<string> => {
  const value = at(config, path)
  return isRecord(value) ? Object.keys(value).filter((id) => value[id] === true).sort(compare) : []
}

const mergeStrategies = ["link_method", "raise_error", "allow_duplicates"] as const

const emailConfigOf = (server: Record<string, unknown>): EmailConfig => {
  if (server.isShared !== false) return { type: "shared" }
  const managed = server.provider === "managed"
  const subdomain = str(server.managedSubdomain)
  const localPart = str(server.managedSenderLocalPart)
  return {
    type: "standard",
    host: managed ? "smtp.resend.com" : str(server.host) ?? "",
    port: managed ? 465 : typeof server.port === "number" ? server.port : 0,
    username: managed ? "resend" : str(server.username) ?? "",
    password: str(server.password) ?? "",
    senderName: str(server.senderName) ?? "",
    senderEmail: managed && subdomain !== undefined && localPart !== undefined ? `${localPart}@${subdomain}` : str(server.senderEmail) ?? ""
  }
}

/**
 * The emulator's config read from a rendered config, as the service's project view reads it
 * (`renderedOrganizationConfigToProjectCrud`, with the schema's defaults for absent keys): OAuth
 * providers with a type and sign-in allowed, sorted by type; trusted domains with a base URL,
 * sorted; the e-mail server (shared unless `isShared: false`); default permissions granted `true`.
 */
export const projectConfigOf = (rendered: Record<string, unknown>): ProjectConfig => {
  const strategy = at(rendered, "auth.oauth.accountMergeStrategy")
  const providers: Array<OAuthProviderConfig> = entriesAt(rendered, "auth.oauth.providers")
    .filter(([, provider]) => typeof provider.type === "string" && provider.allowSignIn === true)
    .map(([id, provider]): OAuthProviderConfig => {
      const appleBundles = isRecord(provider.appleBundles)
        ? Object.values(provider.appleBundles).flatMap((bundle) => (isRecord(bundle) && typeof bundle.bundleId === "string" ? [bundle.bundleId] : []))
        : undefined
      const clientId = str(provider.clientId)
      const clientSecret = str(provider.clientSecret)
      const facebookConfigId = str(provider.facebookConfigId)
      const microsoftTenantId = str(provider.microsoftTenantId)
      return {
        id,
        provider: provider.type as string,
        type: provider.isShared === false ? "standard" : "shared",
        ...(clientId !== undefined ? { clientId } : {}),
        ...(clientSecret !== undefined ? { clientSecret } : {}),
        ...(facebookConfigId !== undefined ? { facebookConfigId } : {}),
        ...(microsoftTenantId !== undefined ? { microsoftTenantId } : {}),
        ...(appleBundles !== undefined ? { appleBundleIds: appleBundles } : {})
      }
    })
    .sort((a, b) => compare(a.provider, b.provider))
  const domains: Array<TrustedDomain> = entriesAt(rendered, "domains.trustedDomains")
    .flatMap(([, domain]) => typeof domain.baseUrl === "string" ? [{ domain: domain.baseUrl, handlerPath: str(domain.handlerPath) ?? "/handler" }] : [])
    .sort((a, b) => compare(a.domain, b.domain))
  const server = at(rendered, "emails.server")
  return {
    signUpEnabled: bool(at(rendered, "auth.allowSignUp"), true),
    credentialEnabled: bool(at(rendered, "auth.password.allowSignIn"), false),
    magicLinkEnabled: bool(at(rendered, "auth.otp.allowSignIn"), false),
    passkeyEnabled: bool(at(rendered, "auth.passkey.allowSignIn"), false),
    clientTeamCreationEnabled: bool(at(rendered, "teams.allowClientTeamCreation"), false),
    clientUserDeletionEnabled: bool(at(rendered, "users.allowClientUserDeletion"), false),
    allowUserApiKeys: bool(at(rendered, "apiKeys.enabled.user"), false),
    allowTeamApiKeys: bool(at(rendered, "apiKeys.enabled.team"), false),
    allowLocalhost: bool(at(rendered, "domains.allowLocalhost"), false),
    domains,
    createTeamOnSignUp: bool(at(rendered, "teams.createPersonalTeamOnSignUp"), false),
    oauthProviders: providers,
    oauthAccountMergeStrategy: (mergeStrategies as ReadonlyArray<unknown>).includes(strategy) ? (strategy as (typeof mergeStrategies)[number]) : "link_method",
    emailConfig: emailConfigOf(isRecord(server) ? server : {}),
    emailTheme: str(at(rendered, "emails.selectedThemeId")) ?? defaultEmailTheme,
    teamCreatorDefaultPermissions: grantedIds(rendered, "rbac.defaultPermissions.teamCreator"),
    teamMemberDefaultPermissions: grantedIds(rendered, "rbac.defaultPermissions.teamMember"),
    userDefaultPermissions: grantedIds(rendered, "rbac.defaultPermissions.signUp"),
    requireEmailVerification: bool(at(rendered, "onboarding.requireEmailVerification"), false)
  }
}

const dropUndefined = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined))

/**
 * The environment override the service writes for a config given in the legacy shape (the admin
 * project update and creation: `createOrUpdateProjectWithLegacyConfig`): one dotted key per field
 * given; lists replace the whole record (trusted domains and Apple bundles under fresh uuids).
 * `creating` adds what the service writes for a new project when not given (default team
 * permissions, the two team permissions, password sign-in, the authentication and e-mail apps).
 */
export const legacyOverride = (config: Partial<ProjectConfig>, creating: boolean): Record<string, unknown> => {
  const permissions = (ids: ReadonlyArray<string> | undefined) => (ids === undefined ? undefined : Object.fromEntries(ids.map((id) => [id, true])))
  const email = config.emailConfig
  const result = dropUndefined({
    "auth.allowSignUp": config.signUpEnabled,
    "auth.password.allowSignIn": config.credentialEnabled,
    "auth.otp.allowSignIn": config.magicLinkEnabled,
    "auth.passkey.allowSignIn": config.passkeyEnabled,
    "auth.oauth.accountMergeStrategy": config.oauthAccountMergeStrategy,
    "auth.oauth.providers": config.oauthProviders === undefined ? undefined : Object.fromEntries(config.oauthProviders.map((provider) => [
      provider.id,
      dropUndefined({
        type: provider.provider,
        isShared: provider.type === "shared",
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        facebookConfigId: provider.facebookConfigId,
        microsoftTenantId: provider.microsoftTenantId,
        appleBundles: provider.appleBundleIds === undefined
          ? undefined
          : Object.fromEntries(provider.appleBundleIds.map((bundleId) => [randomUuid(), { bundleId }])),
        allowSignIn: true,
        allowConnectedAccounts: true
      })
    ])),
    "users.allowClientUserDeletion": config.clientUserDeletionEnabled,
    "teams.allowClientTeamCreation": config.clientTeamCreationEnabled,
    "teams.createPersonalTeamOnSignUp": config.createTeamOnSignUp,
    "domains.allowLocalhost": config.allowLocalhost,
    "domains.trustedDomains": config.domains === undefined
      ? undefined
      : Object.fromEntries(config.domains.map((domain) => [randomUuid(), { baseUrl: domain.domain, handlerPath: domain.handlerPath }])),
    "apiKeys.enabled.user": config.allowUserApiKeys,
    "apiKeys.enabled.team": config.allowTeamApiKeys,
    "emails.server": email === undefined
      ? undefined
      : email.type === "shared"
      ? { isShared: true, provider: "smtp" }
      : {
        isShared: false,
        host: email.host,
        port: email.port,
        username: email.username,
        password: email.password,
        senderName: email.senderName,
        senderEmail: email.senderEmail,
        provider: "smtp"
      },
    "emails.selectedThemeId": config.emailTheme,
    "rbac.defaultPermissions.teamMember": permissions(config.teamMemberDefaultPermissions),
    "rbac.defaultPermissions.teamCreator": permissions(config.teamCreatorDefaultPermissions),
    "rbac.defaultPermissions.signUp": permissions(config.userDefaultPermissions),
    "onboarding.requireEmailVerification": config.requireEmailVerification
  })
  if (creating) {
    result["rbac.permissions.team_member"] ??= {
      description: "Default permission for team members",
      scope: "team",
      containedPermissionIds: { $read_members: true, $invite_members: true }
    }
    result["rbac.permissions.team_admin"] ??= {
      description: "Default permission for team admins",
      scope: "team",
      containedPermissionIds: {
        $update_team: true,
        $delete_team: true,
        $read_members: true,
        $remove_members: true,
        $invite_members: true,
        $manage_api_keys: true
      }
    }
    result["rbac.defaultPermissions.teamCreator"] ??= { team_admin: true }
    result["rbac.defaultPermissions.teamMember"] ??= { team_member: true }
    result["auth.password.allowSignIn"] ??= true
    result["apps.installed.authentication.enabled"] ??= true
    result["apps.installed.emails.enabled"] ??= true
  }
  return result
}

const levelsOf = (project: ProjectRecord): ReadonlyArray<Override> => overrideLevels.map((level) => project.configOverrides.get(level) ?? {})

/** What a project's config is read from and what was read. */
interface Derived {
  readonly levels: ReadonlyArray<Override>
  readonly rendered: Record<string, unknown>
  readonly config: ProjectConfig
}

/** The rendered config and the config read from a project's levels (reusing `last` while no level was written). */
const derive = (project: ProjectRecord, last: Derived | undefined): Derived => {
  const levels = levelsOf(project)
  if (last !== undefined && last.levels.every((level, index) => level === levels[index])) return last
  const rendered = renderOverrides(levels)
  return { levels, rendered, config: projectConfigOf(rendered) }
}

/** The rendered config of a project's levels. */
const renderedOf = (project: ProjectRecord): Record<string, unknown> => renderOverrides(levelsOf(project))

/** Writes a level's override (a new object; the derived config follows). */
export const writeLevel = (project: ProjectRecord, level: OverrideLevel, next: Override): void => {
  project.configOverrides.set(level, next)
}

/** Merges keys into a level's override (`override`, as `PATCH` does). */
export const overrideLevel = (project: ProjectRecord, level: OverrideLevel, patch: Override): void =>
  writeLevel(project, level, override(project.configOverrides.get(level) ?? {}, patch))

/**
 * Makes a project's `config` and `requiresPublishableClientKey` read from its overrides, and
 * writing them write its overrides (`config`: the legacy update of every field given, at the
 * environment level; `requiresPublishableClientKey`: `project.requirePublishableClientKey` at the
 * project level), then writes the project's starting config as the service writes a new
 * project's. Called once, by `Store.makeProject`.
 */
export const attachDerivedConfig = (project: ProjectRecord, initial: ProjectConfig, requiresPublishableClientKey: boolean): void => {
  // what was last read, reused while no level is written (the levels are replaced, never mutated)
  let last: Derived | undefined
  const current = () => (last = derive(project, last))
  Object.defineProperty(project, "config", {
    enumerable: true,
    get: () => current().config,
    set: (config: ProjectConfig) => overrideLevel(project, "environment", legacyOverride(config, false))
  })
  Object.defineProperty(project, "requiresPublishableClientKey", {
    enumerable: true,
    get: () => at(current().rendered, "project.requirePublishableClientKey") === true,
    set: (value: boolean) => overrideLevel(project, "project", { "project.requirePublishableClientKey": value })
  })
  if (requiresPublishableClientKey) overrideLevel(project, "project", { "project.requirePublishableClientKey": true })
  overrideLevel(project, "environment", legacyOverride(initial, true))
}

/** The schema's defaults of the keys the emulator reads, under the rendered values (`GET /internal/config`). */
const withDefaults = (rendered: Record<string, unknown>): Record<string, unknown> => {
  const defaults: Record<string, unknown> = {
    sourceOfTruth: { type: "hosted" },
    project: { requirePublishableClientKey: false },
    apiKeys: { enabled: { team: false, user: false } },
    teams: { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false },
    users: { allowClientUserDeletion: false },
    onboarding: { requireEmailVerification: false },
    domains: { allowLocalhost: false },
    auth: {
      allowSignUp: true,
      password: { allowSignIn: false },
      otp: { allowSignIn: false },
      passkey: { allowSignIn: false },
      oauth: { accountMergeStrategy: "link_method" },
      signUpRulesDefaultAction: "allow"
    },
    emails: { server: { isShared: true, provider: "smtp" }, selectedThemeId: defaultEmailTheme },
    payments: { blockNewPurchases: false, testMode: true }
  }
  const entryDefaults: Readonly<Record<string, Record<string, unknown>>> = {
    "auth.oauth.providers": { isShared: true, allowSignIn: false, allowConnectedAccounts: false },
    "domains.trustedDomains": { handlerPath: "/handler" },
    "auth.signUpRules": { enabled: false, priority: 0, action: { type: "allow" } }
  }
  const merge = (base: unknown, over: unknown): unknown => {
    if (!isRecord(base) || !isRecord(over)) return over === undefined ? base : over
    const result: Record<string, unknown> = { ...base }
    for (const [key, value] of Object.entries(over)) result[key] = merge(base[key], value)
    return result
  }
  const result = merge(defaults, rendered) as Record<string, unknown>
  for (const [path, entryDefault] of Object.entries(entryDefaults)) {
    const parts = path.split(".")
    const parent = at(result, parts.slice(0, -1).join("."))
    const records = at(result, path)
    if (isRecord(parent) && isRecord(records)) {
      parent[parts.at(-1)!] = Object.fromEntries(Object.entries(records).map(([id, entry]) => [id, merge(entryDefault, entry)]))
    }
  }
  return result
}

/** The project's config as `GET /internal/config` answers it: the rendered levels with the schema's defaults of the keys the emulator reads. */
export const renderConfig = (project: ProjectRecord): Record<string, unknown> => withDefaults(renderedOf(project))

/**
 * The 400 text of a config string nested more than `maxJsonDepth` levels deep, answered like
 * the other refusals of a config string. The service's own answer to such a config is not known
 * (its checks walk the parsed value recursively); this text says what the emulator checked.
 */
export const tooDeepConfigText = `Invalid config format: the config nests objects and arrays more than ${maxJsonDepth} levels deep`

/**
 * Parses a config override string for a level as the service does (backend
 * `internal/config/override/[level]/route.tsx` `parseAndValidateConfig`, then
 * `getConfigOverrideErrors` against the level's schema: `configOverrideProblem`), answering the
 * override or the service's 400 text. A config nested more than `maxJsonDepth` levels deep is
 * refused first ({@link tooDeepConfigText}), before anything walks it.
 */
export const parseOverrideString = (
  level: OverrideLevel,
  text: string
): { readonly _tag: "Ok"; readonly override: Override } | { readonly _tag: "Refused"; readonly text: string } => {
  const json = parseJson(text)
  if (json._tag === "Invalid") return { _tag: "Refused", text: "Invalid config JSON" }
  if (json._tag === "TooDeep") return { _tag: "Refused", text: tooDeepConfigText }
  const problem = configOverrideProblem(level, json.value)
  return problem === undefined ? { _tag: "Ok", override: json.value as Override } : { _tag: "Refused", text: problem }
}
