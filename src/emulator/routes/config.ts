/**
 * The project config in the service's current schema (the official SDK's `project.getConfig`,
 * `project.updateConfig`, `getConfigOverride`, `replaceConfigOverride`, `resetConfigOverrideKeys`):
 * `GET /internal/config`, `GET|PATCH|PUT /internal/config/override/{level}` and
 * `POST /internal/config/override/{level}/reset-keys`, admin access. An override is a JSON
 * object of dotted keys (nested objects are flattened); the keys the emulator knows change its
 * switches (see `ConfigOverrides.ts`); a body whose string is not a JSON object is a
 * SCHEMA_ERROR. The service's answer to PATCH, PUT and reset-keys is not recorded: the emulator
 * answers 200 `{}`.
 *
 * @module
 */
import { Effect } from "effect"
import type { OverrideLevel } from "../ConfigOverrides.js"
import { applyOverride, flatten, overrideProblem, renderConfig } from "../ConfigOverrides.js"
import * as Endpoints from "../Endpoints.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { route } from "../Router.js"

/** Parses a config string (a JSON object) into dotted keys, or SCHEMA_ERROR naming the field. */
const parseOverride = (context: RequestContext, field: string, text: string) => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Effect.fail(schemaError(context, [`body.${field} must be a JSON object`]))
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return Effect.fail(schemaError(context, [`body.${field} must be a JSON object`]))
  }
  const flat = flatten(parsed as Record<string, unknown>)
  const problem = overrideProblem(flat)
  return problem === undefined ? Effect.succeed(flat) : Effect.fail(schemaError(context, [`body.${field}: ${problem}`]))
}

/** The override of a level (every level's table exists from the project's creation: `Store.makeProject`). */
const overrideOf = (context: RequestContext, level: OverrideLevel): Map<string, unknown> => projectOf(context).configOverrides.get(level)!

/** The config routes. */
export const routes = [
  route(Endpoints.getConfig, (_input, context) => Effect.sync(() => ({ config_string: JSON.stringify(renderConfig(projectOf(context))) }))),
  route(Endpoints.getConfigOverride, ({ params }, context) =>
    Effect.sync(() => ({ config_string: JSON.stringify(Object.fromEntries(overrideOf(context, params.level))) }))
  ),
  route(Endpoints.updateConfigOverride, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const flat = yield* parseOverride(context, "config_override_string", payload.config_override_string)
      const project = projectOf(context)
      const stored = overrideOf(context, params.level)
      for (const [key, value] of flat) stored.set(key, value)
      project.config = applyOverride(project.config, flat)
      return {}
    })
  ),
  route(Endpoints.setConfigOverride, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const flat = yield* parseOverride(context, "config_string", payload.config_string)
      const project = projectOf(context)
      const stored = overrideOf(context, params.level)
      stored.clear()
      for (const [key, value] of flat) stored.set(key, value)
      project.config = applyOverride(project.config, flat)
      return {}
    })
  ),
  route(Endpoints.resetConfigOverrideKeys, ({ params, payload }, context) =>
    Effect.sync(() => {
      const stored = overrideOf(context, params.level)
      for (const key of payload.keys) {
        for (const existing of [...stored.keys()]) if (existing === key || existing.startsWith(`${key}.`)) stored.delete(existing)
      }
      return {}
    })
  )
]
