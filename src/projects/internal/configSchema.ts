/**
 * The keys of the service's project config (the override API, `/internal/config/override/{level}`)
 * as data, with the service's check of an override (`getConfigOverrideErrors`), shared by the SDK
 * (`ProjectConfig`, which refuses unknown keys before sending) and the emulator (which refuses them
 * as the service does). Written from `packages/stack-shared/src/config/schema.ts` and
 * `config/format.ts` of stack-auth/stack-auth at 2f719903b181c20940159e9f3aaaa99bc3ec3b0f.
 *
 * A node says what a key holds: an object with known fields, a record (any key, one kind of value),
 * a boolean, a string (maybe one of a list), a number, or `mixed` (tuples and unions the service
 * checks further, kept as given). The per-level trees follow the service's: the project level
 * holds `sourceOfTruth` and `project`; the branch level everything else pushed from a repository;
 * the environment level adds the secrets (OAuth client ids and secrets, the e-mail server, trusted
 * domains, `payments.testMode`, analytics, custom dashboards).
 *
 * @module
 */
import { OAuthProviderId } from "./projects.js"

/** What a config key holds. */
export type ConfigNode =
  | { readonly kind: "object"; readonly fields: Readonly<Record<string, ConfigNode>> }
  | { readonly kind: "record"; readonly value: ConfigNode }
  | { readonly kind: "boolean" }
  | { readonly kind: "string"; readonly oneOf?: ReadonlyArray<string> }
  | { readonly kind: "number" }
  | { readonly kind: "mixed" }

const object = <F extends Readonly<Record<string, ConfigNode>>>(fields: F) => ({ kind: "object", fields }) as const
const record = <V extends ConfigNode>(value: V) => ({ kind: "record", value }) as const
const boolean = { kind: "boolean" } as const
const string = { kind: "string" } as const
const oneOf = <const L extends ReadonlyArray<string>>(values: L) => ({ kind: "string", oneOf: values }) as const
const number = { kind: "number" } as const
const mixed = { kind: "mixed" } as const

/** The OAuth provider types the service knows (`allProviders` of stack-shared's `utils/oauth`). */
export const oauthProviderTypes = OAuthProviderId.literals

/** The apps a project can install (`ALL_APPS` of stack-shared's `apps/apps-config`). */
export const appIds = [
  "authentication",
  "fraud-protection",
  "onboarding",
  "teams",
  "rbac",
  "api-keys",
  "payments",
  "emails",
  "email-api",
  "data-vault",
  "webhooks",
  "tv-mode",
  "launch-checklist",
  "catalyst",
  "neon",
  "convex",
  "vercel",
  "analytics"
] as const

const defaultPermissions = record(boolean)

const branchFields = {
  rbac: object({
    permissions: record(object({ description: string, scope: oneOf(["team", "project"]), containedPermissionIds: record(boolean) })),
    defaultPermissions: object({ teamCreator: defaultPermissions, teamMember: defaultPermissions, signUp: defaultPermissions })
  }),
  teams: object({ createPersonalTeamOnSignUp: boolean, allowClientTeamCreation: boolean }),
  users: object({ allowClientUserDeletion: boolean }),
  onboarding: object({ requireEmailVerification: boolean }),
  apiKeys: object({ enabled: object({ team: boolean, user: boolean }) }),
  apps: object({ installed: record(object({ enabled: boolean })) }),
  domains: object({}),
  auth: object({
    allowSignUp: boolean,
    password: object({ allowSignIn: boolean }),
    otp: object({ allowSignIn: boolean }),
    passkey: object({ allowSignIn: boolean }),
    oauth: object({
      accountMergeStrategy: oneOf(["link_method", "raise_error", "allow_duplicates"]),
      providers: record(object({ type: oneOf(oauthProviderTypes), allowSignIn: boolean, allowConnectedAccounts: boolean }))
    }),
    signUpRules: record(object({
      enabled: boolean,
      displayName: string,
      priority: number,
      condition: string,
      action: object({ type: oneOf(["allow", "reject", "restrict", "log"]), message: string })
    })),
    signUpRulesDefaultAction: oneOf(["allow", "reject"])
  }),
  emails: object({
    selectedThemeId: string,
    themes: record(object({ displayName: string, tsxSource: string })),
    templates: record(object({ displayName: string, tsxSource: string, themeId: mixed }))
  }),
  payments: object({
    blockNewPurchases: boolean,
    autoPay: object({ interval: mixed }),
    productLines: record(object({ displayName: string, customerType: oneOf(["user", "team", "custom"]) })),
    products: record(object({
      displayName: string,
      productLineId: string,
      isAddOnTo: mixed,
      customerType: oneOf(["user", "team", "custom"]),
      freeTrial: mixed,
      serverOnly: boolean,
      stackable: boolean,
      prices: mixed,
      includedItems: record(object({ quantity: number, repeat: mixed, expires: oneOf(["never", "when-purchase-expires", "when-repeated"]) }))
    })),
    items: record(object({ displayName: string, customerType: oneOf(["user", "team", "custom"]) }))
  }),
  dbSync: object({ externalDatabases: record(object({ type: oneOf(["postgres"]), connectionString: string })) }),
  dataVault: object({ stores: record(object({ displayName: string })) })
} as const

/** The keys of the project level (`projectConfigSchema`). */
export const projectLevelSchema = object({
  sourceOfTruth: object({ type: oneOf(["hosted", "neon", "postgres"]), connectionStrings: record(string), connectionString: string }),
  project: object({ requirePublishableClientKey: boolean })
})

/** The keys of the branch level (`branchConfigSchema`: what is pushed from a repository). */
export const branchLevelSchema = object(branchFields)

/** The keys of the environment level (`environmentConfigSchema`: the branch's keys and the environment's secrets). */
export const environmentLevelSchema = object({
  ...branchFields,
  auth: object({
    ...branchFields.auth.fields,
    oauth: object({
      ...branchFields.auth.fields.oauth.fields,
      providers: record(object({
        type: oneOf(oauthProviderTypes),
        isShared: boolean,
        clientId: string,
        clientSecret: string,
        facebookConfigId: string,
        microsoftTenantId: string,
        appleBundles: record(object({ bundleId: string })),
        allowSignIn: boolean,
        allowConnectedAccounts: boolean
      }))
    })
  }),
  emails: object({
    ...branchFields.emails.fields,
    server: object({
      isShared: boolean,
      provider: oneOf(["resend", "smtp", "managed"]),
      host: string,
      port: number,
      username: string,
      password: string,
      senderName: string,
      senderEmail: string,
      managedSubdomain: string,
      managedSenderLocalPart: string
    })
  }),
  domains: object({ allowLocalhost: boolean, trustedDomains: record(object({ baseUrl: string, handlerPath: string })) }),
  payments: object({ ...branchFields.payments.fields, testMode: boolean }),
  analytics: object({
    queryFolders: record(object({
      displayName: string,
      sortOrder: number,
      queries: record(object({ displayName: string, sqlQuery: string, description: string }))
    }))
  }),
  customDashboards: record(object({ displayName: string, tsxSource: string }))
})

/** The config levels an override is written at (`levelSchema` of the override route). */
export const configLevels = ["project", "branch", "environment"] as const

/** A config level. */
export type ConfigLevel = (typeof configLevels)[number]

/** The key tree of each level. */
export const levelSchemas = {
  project: projectLevelSchema,
  branch: branchLevelSchema,
  environment: environmentLevelSchema
} as const

/** The value a node describes, every key optional and `null` allowed (an override resets a key with `null`). */
export type ConfigValueOf<N> = N extends { readonly kind: "object"; readonly fields: infer F } ? { readonly [K in keyof F]?: ConfigValueOf<F[K]> | null }
  : N extends { readonly kind: "record"; readonly value: infer V } ? { readonly [key: string]: ConfigValueOf<V> | null }
  : N extends { readonly kind: "boolean" } ? boolean
  : N extends { readonly kind: "string"; readonly oneOf: ReadonlyArray<infer L> } ? L
  : N extends { readonly kind: "string" } ? string
  : N extends { readonly kind: "number" } ? number
  : unknown

type Join<P extends string, K extends string> = P extends "" ? K : `${P}.${K}`

/**
 * The dotted keys of a node and the values they take: every object field at any depth
 * (`auth.password.allowSignIn`), and every record entry (`auth.oauth.providers.${string}`, whose
 * value is the whole entry: write an entry's fields in the nested form, as the service asks).
 */
export type ConfigPaths<N, P extends string = ""> = N extends { readonly kind: "object"; readonly fields: infer F }
  ? { [K in keyof F & string]: { readonly [Q in Join<P, K>]?: ConfigValueOf<F[K]> | null } & ConfigPaths<F[K], Join<P, K>> }[keyof F & string]
  : N extends { readonly kind: "record"; readonly value: infer V } ? { readonly [Q in Join<P, string>]?: ConfigValueOf<V> | null }
  : unknown

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** An override of a level: its keys nested or dotted (`{ auth: { allowSignUp: false } }` or `{ "auth.allowSignUp": false }`). */
export type ConfigOverrideOf<N> = UnionToIntersection<ConfigPaths<N>>

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

// `getInvalidConfigReason` of `config/format.ts`: a key is dot-separated segments of letters, digits, `_`, `:`, `$`, `-`, none starting with `-`
const keyPattern = /^[a-zA-Z0-9_:$][a-zA-Z_:$0-9-]*(?:\.[a-zA-Z0-9_:$][a-zA-Z_:$0-9-]*)*$/

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
  return isRecord(value) ? shapeProblem(value, name) : undefined
}

const shapeProblem = (config: Readonly<Record<string, unknown>>, name: string): string | undefined => {
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue
    if (!keyPattern.test(key)) {
      return `All keys of ${name} must consist of only alphanumeric characters, dots, underscores, colons, dollar signs, or hyphens and start with a character other than a hyphen (found: ${key})`
    }
    const problem = valueShapeProblem(value, `${name}.${key}`)
    if (problem !== undefined) return problem
  }
  return undefined
}

const dottedNestedKey = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes(".")) return key
    const found = dottedNestedKey(inner)
    if (found !== undefined) return found
  }
  return undefined
}

/** The node a dotted key leads to, if the schema has it (`getSubSchema`: objects by field, records by any key). */
export const nodeAt = (root: ConfigNode, key: string): ConfigNode | undefined => {
  let node: ConfigNode | undefined = root
  for (const part of key.split(".")) {
    if (node === undefined) return undefined
    if (node.kind === "object") node = Object.hasOwn(node.fields, part) ? node.fields[part] : undefined
    else if (node.kind === "record") node = node.value
    else return undefined
  }
  return node
}

/** A value as yup prints it in a message (`printValue`: strings quoted, objects as JSON). */
const printed = (value: unknown): string => (typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value, null, 2) ?? String(value))

/** Why a value does not fit a node (yup's messages under the restricted schema: `null` allowed everywhere), if it does not. */
const valueProblem = (node: ConfigNode, value: unknown, path: string): string | undefined => {
  if (value === null || value === undefined) return undefined
  switch (node.kind) {
    case "mixed":
      return undefined
    case "boolean":
    case "number":
      return typeof value === node.kind ? undefined : `${path} must be a \`${node.kind}\` type, but the final value was: \`${printed(value)}\`.`
    case "string":
      if (typeof value !== "string") return `${path} must be a \`string\` type, but the final value was: \`${printed(value)}\`.`
      return node.oneOf === undefined || node.oneOf.includes(value) ? undefined : `${path} must be one of the following values: ${node.oneOf.join(", ")}`
    case "object": {
      if (!isRecord(value)) return `${path} must be a \`object\` type, but the final value was: \`${printed(value)}\`.`
      const unknown = Object.keys(value).filter((key) => !Object.hasOwn(node.fields, key))
      if (unknown.length > 0) return `${path} contains unknown properties: ${unknown.join(", ")}`
      for (const [key, inner] of Object.entries(value)) {
        const problem = valueProblem(node.fields[key]!, inner, `${path}.${key}`)
        if (problem !== undefined) return problem
      }
      return undefined
    }
    case "record": {
      if (!isRecord(value)) return `${path} must be a \`object\` type, but the final value was: \`${printed(value)}\`.`
      for (const [key, inner] of Object.entries(value)) {
        const problem = valueProblem(node.value, inner, `${path}.${key}`)
        if (problem !== undefined) return problem
      }
      return undefined
    }
  }
}

/**
 * Why an override is refused at a level, with the service's text (`getConfigOverrideErrors`), or
 * `undefined` when it is accepted: not a non-null object, not a plain object, a dotted key nested
 * in a value, a malformed key ("Invalid config format: …"), a key the level's schema does not have
 * (`The key "…" is not valid (nested object not found in schema: "…").`), an object value with
 * unknown properties (`… contains unknown properties: …`), or a value of the wrong type.
 */
export const configOverrideProblem = (level: ConfigLevel, override: unknown): string | undefined => {
  if (typeof override !== "object" || override === null) return "Config override must be a non-null object."
  if (Array.isArray(override) || Object.getPrototypeOf(override) !== Object.prototype) return "Config override must be plain old JavaScript object."
  const entries = Object.entries(override as Record<string, unknown>)
  for (const [, value] of entries) {
    const dotted = dottedNestedKey(value)
    if (dotted !== undefined) return `Key ${dotted} contains a dot, which is not allowed in config override.`
  }
  const shape = shapeProblem(override as Record<string, unknown>, "override")
  if (shape !== undefined) return `Invalid config format: ${shape}`
  const root = levelSchemas[level]
  for (const [key, value] of entries) {
    if (value === undefined) continue
    const node = nodeAt(root, key)
    if (node === undefined) {
      const parts = key.split(".")
      let prefix = parts[0]!
      for (let index = 1; index <= parts.length; index++) {
        prefix = parts.slice(0, index).join(".")
        if (nodeAt(root, prefix) === undefined) break
      }
      return `The key ${JSON.stringify(key)} is not valid (nested object not found in schema: ${JSON.stringify(prefix)}).`
    }
    const problem = valueProblem(node, value, key)
    if (problem !== undefined) return problem
  }
  return undefined
}
