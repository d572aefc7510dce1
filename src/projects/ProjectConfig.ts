/**
 * The project config in the service's current schema (the official SDK's `project.getConfig`,
 * `useConfig`, `updateConfig`, `pushConfig`, `updatePushedConfig`, `getPushedConfigSource`,
 * `unlinkPushedConfigSource`, `resetConfigOverrideKeys`, `getConfigOverride`,
 * `replaceConfigOverride`): the rendered config, and the overrides written at each level
 * (`project`, `branch` — what is pushed from a repository —, `environment` — what the dashboard
 * and {@link update} write, which wins over the branch).
 *
 * Overrides are typed by the service's keys (`ConfigOverride`: nested objects or dotted keys,
 * `null` resets a key) and checked before sending against the level's schema as the service
 * checks them: an unknown key, an unknown property of an object value or a value of the wrong
 * type fails with {@link InvalidConfigOverride} and nothing is sent. The service's own refusals
 * (its 400 texts) are {@link ConfigOverrideRefused}.
 *
 * Every call needs `AdminAccess` (the admin key, or an owner's admin access token).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import type { ConfigLevel, ConfigOverrideOf, ConfigValueOf } from "./internal/configSchema.js"
import { branchLevelSchema, configOverrideProblem, environmentLevelSchema, projectLevelSchema } from "./internal/configSchema.js"
import type { PushedConfigSource } from "./internal/config.js"
import {
  getConfigEndpoint,
  getOverrideEndpoint,
  getSourceEndpoint,
  replaceOverrideEndpoint,
  resetOverrideKeysEndpoint,
  unlinkSourceEndpoint,
  updateOverrideEndpoint
} from "./internal/config.js"

/** The domain's schemas and key lists, defined with its wire definitions (`internal/config.ts`, `internal/configSchema.ts`). */
export { PushedConfigSource } from "./internal/config.js"
export { configLevels } from "./internal/configSchema.js"
export type { ConfigLevel } from "./internal/configSchema.js"

/** An override of the project level (`sourceOfTruth`, `project.requirePublishableClientKey`). */
export type ProjectConfigOverride = ConfigOverrideOf<typeof projectLevelSchema>

/** An override of the branch level (everything pushed from a repository: auth, teams, rbac, e-mail templates, payments…). */
export type BranchConfigOverride = ConfigOverrideOf<typeof branchLevelSchema>

/** An override of the environment level (the branch's keys and the secrets: OAuth keys, e-mail server, trusted domains…). */
export type EnvironmentConfigOverride = ConfigOverrideOf<typeof environmentLevelSchema>

/** The override type of each level. */
export interface ConfigOverrideByLevel {
  readonly project: ProjectConfigOverride
  readonly branch: BranchConfigOverride
  readonly environment: EnvironmentConfigOverride
}

/**
 * The rendered config (`GET /internal/config`): every level merged, with the service's defaults.
 * Typed by the keys the service defines; keys it adds later are kept as given.
 */
export type RenderedConfig = ConfigValueOf<typeof environmentLevelSchema> & ConfigValueOf<typeof projectLevelSchema>

/** An override refused before sending: a key the level's schema does not have, or a value of the wrong type. */
export class InvalidConfigOverride extends Data.TaggedError("InvalidConfigOverride")<{
  /** The service's text for the same override (e.g. `The key "x" is not valid (…).`). */
  readonly message: string
  readonly level: ConfigLevel
}> {}

/** The service refused an override (its 400 text, e.g. `Invalid config JSON`). */
export class ConfigOverrideRefused extends Data.TaggedError("ConfigOverrideRefused")<{
  readonly message: string
}> {}

/** The cache key of the rendered config. */
export const cacheKey: QueryCache.Key = ["project", "config"]

/** The override as the service's text, or {@link InvalidConfigOverride} before anything is sent. */
const checked = (level: ConfigLevel, override: unknown) =>
  Effect.suspend(() => {
    const problem = configOverrideProblem(level, override)
    return problem === undefined ? Effect.succeed(JSON.stringify(override)) : Effect.fail(new InvalidConfigOverride({ message: problem, level }))
  })

/** The service's plain-text refusals of an override (400) as {@link ConfigOverrideRefused}. */
const refusals = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(
    effect,
    (error): E | ConfigOverrideRefused => error instanceof HttpError && error.status === 400 ? new ConfigOverrideRefused({ message: error.body.trim() }) : error
  )

/**
 * The rendered config (every level merged, with the service's defaults). `GET /internal/config`,
 * through the query cache (key {@link cacheKey}); needs `AdminAccess`. Official: `project.getConfig()`.
 */
export const get = Effect.fn("ProjectConfig.get")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(getConfigEndpoint, {}))
  return answer.config as RenderedConfig
})

/**
 * The override written at a level, as written (dotted or nested keys). `GET
 * /internal/config/override/{level}`; needs `AdminAccess`. Official:
 * `project.getConfigOverride(level)`.
 */
export const getOverride = Effect.fn("ProjectConfig.getOverride")(function* (level: ConfigLevel) {
  const answer = yield* QueryCache.cached([...cacheKey, "override", level], Endpoint.call(getOverrideEndpoint, { params: { level } }))
  return answer.config
})

/**
 * Merges keys into a level's override (a key replaces itself and every key below it; `null`
 * resets). `PATCH /internal/config/override/{level}`; needs `AdminAccess`.
 * The interface call behind the official `updateConfig` / `updatePushedConfig`.
 */
export const updateOverride = Effect.fn("ProjectConfig.updateOverride")(function* <L extends ConfigLevel>(
  level: L,
  override: ConfigOverrideByLevel[L]
) {
  const text = yield* checked(level, override)
  yield* Endpoint.call(updateOverrideEndpoint, { params: { level }, payload: { configOverrideString: text } }).pipe(
    refusals,
    QueryCache.invalidating(["project"])
  )
})

/**
 * Merges keys into the environment's override, which wins over the pushed (branch) config: for
 * environment-specific values and secrets. Official: `project.updateConfig(config)`.
 *
 * @example
 * ```ts
 * import { ProjectConfig } from "stack-auth-effect"
 *
 * const closeSignUps = ProjectConfig.update({ "auth.allowSignUp": false, teams: { createPersonalTeamOnSignUp: true } })
 * ```
 */
export const update = Effect.fn("ProjectConfig.update")(function* (override: EnvironmentConfigOverride) {
  return yield* updateOverride("environment", override)
})

/**
 * Replaces the pushed (branch) config and records where it came from. `PUT
 * /internal/config/override/branch` with `source`. Official: `project.pushConfig(config, { source })`.
 */
export const push = Effect.fn("ProjectConfig.push")(function* (config: BranchConfigOverride, options: { readonly source: PushedConfigSource }) {
  const text = yield* checked("branch", config)
  yield* Endpoint.call(replaceOverrideEndpoint, { params: { level: "branch" }, payload: { configString: text, source: options.source } }).pipe(
    refusals,
    QueryCache.invalidating(["project"])
  )
})

/** Merges keys into the pushed (branch) config until the next {@link push}. Official: `project.updatePushedConfig(config)`. */
export const updatePushed = Effect.fn("ProjectConfig.updatePushed")(function* (override: BranchConfigOverride) {
  return yield* updateOverride("branch", override)
})

/** Where the pushed config came from (`unlinked` when never pushed). `GET /internal/config/source`. Official: `project.getPushedConfigSource()`. */
export const getPushedSource = Effect.fn("ProjectConfig.getPushedSource")(function* () {
  const answer = yield* QueryCache.cached([...cacheKey, "source"], Endpoint.call(getSourceEndpoint, {}))
  return answer.source
})

/** Sets the pushed config's source to `unlinked` (editable on the dashboard). `DELETE /internal/config/source`. Official: `project.unlinkPushedConfigSource()`. */
export const unlinkPushedSource = Effect.fn("ProjectConfig.unlinkPushedSource")(function* () {
  yield* Endpoint.call(unlinkSourceEndpoint, {}).pipe(QueryCache.invalidating(["project"]))
})

/**
 * Removes keys (and every key below them) from the branch or environment override. `POST
 * /internal/config/override/{level}/reset-keys`. Official: `project.resetConfigOverrideKeys(level, keys)`.
 */
export const resetOverrideKeys = Effect.fn("ProjectConfig.resetOverrideKeys")(function* (
  level: "branch" | "environment",
  keys: ReadonlyArray<string>
) {
  yield* Endpoint.call(resetOverrideKeysEndpoint, { params: { level }, payload: { keys } }).pipe(QueryCache.invalidating(["project"]))
})

/**
 * Replaces a level's whole override. `PUT /internal/config/override/{level}`; at the branch level
 * the current pushed source is sent along (read first), as the official
 * `project.replaceConfigOverride(level, config)` does.
 */
export const replaceOverride = Effect.fn("ProjectConfig.replaceOverride")(function* <L extends ConfigLevel>(
  level: L,
  config: ConfigOverrideByLevel[L]
) {
  const text = yield* checked(level, config)
  const source = level === "branch" ? (yield* Endpoint.call(getSourceEndpoint, {})).source : undefined
  yield* Endpoint.call(replaceOverrideEndpoint, {
    params: { level },
    payload: source === undefined ? { configString: text } : { configString: text, source }
  }).pipe(refusals, QueryCache.invalidating(["project"]))
})
