/**
 * The project config in the service's current schema (the official SDK's `project.getConfig`,
 * `project.updateConfig`, `getConfigOverride`, `replaceConfigOverride`, `resetConfigOverrideKeys`):
 * `GET /internal/config`, `GET|PATCH|PUT /internal/config/override/{level}` and
 * `POST /internal/config/override/{level}/reset-keys` (levels `branch` and `environment` only),
 * admin access. As the service answers them (backend
 * `apps/backend/src/app/api/latest/internal/config/override/[level]/route.tsx` and
 * `.../reset-keys/route.tsx`): a write answers 200 `{ success: true }`; a config string that is
 * not valid JSON, not an object, or holds a refused value is a 400 text (`ConfigOverrides.parseOverrideString`);
 * `PUT` at the branch level needs `source` (400 text after the config is checked). An override is
 * kept as dotted keys (nested objects are flattened); the keys the emulator knows change its
 * switches (see `ConfigOverrides.ts`). Keys outside the service's schema are kept, not refused
 * (the emulator does not hold that schema).
 *
 * @module
 */
import { Effect } from "effect"
import type { OverrideLevel } from "../ConfigOverrides.js"
import { applyOverride, parseOverrideString, renderConfig } from "../ConfigOverrides.js"
import * as Endpoints from "../Endpoints.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"

/** The service's 400 text of a branch-level `PUT` without `source`. */
export const sourceRequiredText = "source is required for branch level config"

/** Parses a config string into dotted keys, or the service's 400 text. */
const parseOverride = (text: string) => {
  const parsed = parseOverrideString(text)
  return parsed._tag === "Ok" ? Effect.succeed(parsed.flat) : Effect.fail(new TextFailure({ status: 400, text: parsed.text }))
}

/** The override of a level (every level's table exists from the project's creation: `Store.makeProject`). */
const overrideOf = (context: RequestContext, level: OverrideLevel): Map<string, unknown> => projectOf(context).configOverrides.get(level)!

/** The config routes. */
export const routes = [
  route(Endpoints.getConfig, (_input, context) => Effect.sync(() => ({ config_string: JSON.stringify(renderConfig(projectOf(context))) }))),
  route(
    Endpoints.getConfigOverride,
    ({ params }, context) => Effect.sync(() => ({ config_string: JSON.stringify(Object.fromEntries(overrideOf(context, params.level))) }))
  ),
  route(Endpoints.updateConfigOverride, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const flat = yield* parseOverride(payload.config_override_string)
      const project = projectOf(context)
      const stored = overrideOf(context, params.level)
      for (const [key, value] of flat) stored.set(key, value)
      project.config = applyOverride(project.config, flat)
      return { success: true as const }
    })),
  route(Endpoints.setConfigOverride, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const flat = yield* parseOverride(payload.config_string)
      if (params.level === "branch" && payload.source === undefined) return yield* Effect.fail(new TextFailure({ status: 400, text: sourceRequiredText }))
      const project = projectOf(context)
      const stored = overrideOf(context, params.level)
      stored.clear()
      for (const [key, value] of flat) stored.set(key, value)
      project.config = applyOverride(project.config, flat)
      return { success: true as const }
    })),
  route(Endpoints.resetConfigOverrideKeys, ({ params, payload }, context) =>
    Effect.sync(() => {
      const stored = overrideOf(context, params.level)
      for (const key of payload.keys) {
        for (const existing of [...stored.keys()]) if (existing === key || existing.startsWith(`${key}.`)) stored.delete(existing)
      }
      return { success: true as const }
    }))
]
