/**
 * The project config in the service's current schema (the official SDK's `project.getConfig`,
 * `updateConfig`, `pushConfig`, `updatePushedConfig`, `getConfigOverride`, `replaceConfigOverride`,
 * `resetConfigOverrideKeys`, `getPushedConfigSource`, `unlinkPushedConfigSource`), served with the
 * SDK's descriptors (`projects/internal/config.ts`). As the service answers them (stack-auth
 * 2f719903, backend `apps/backend/src/app/api/latest/internal/config/route.tsx`,
 * `.../override/[level]/route.tsx`, `.../override/[level]/reset-keys/route.tsx`,
 * `.../config/source/route.tsx`):
 *
 * - `GET /internal/config` (admin): the rendered config, `{ config_string }`;
 * - `GET|PATCH|PUT /internal/config/override/{level}` (admin for every level; server access for
 *   `branch` only, else 403 "Server access can only manage branch config overrides."): the level's
 *   override as written, a merge (`override`) or a replacement. A config string that is not JSON,
 *   not a plain object, or holds a key the level's schema does not have or a value of the wrong
 *   type is a 400 text (`configOverrideProblem`); a branch `PUT` needs `source`, which becomes the
 *   branch's pushed source;
 * - `POST /internal/config/override/{level}/reset-keys` (admin; `branch`, `environment`);
 * - `GET|DELETE /internal/config/source` (admin): where the branch config was pushed from
 *   (`unlinked` until a push), and unlinking it.
 *
 * Every write changes what the emulator serves at once: the project's config is read from the
 * levels (`ConfigOverrides.ts`).
 *
 * @module
 */
import { Effect } from "effect"
import {
  getConfigEndpoint,
  getOverrideEndpoint,
  getSourceEndpoint,
  type PushedConfigSource,
  replaceOverrideEndpoint,
  resetOverrideKeysEndpoint,
  serverBranchOnlyText,
  sourceRequiredText,
  unlinkSourceEndpoint,
  updateOverrideEndpoint
} from "../../projects/internal/config.js"
import type { OverrideLevel } from "../ConfigOverrides.js"
import { override, parseOverrideString, removeKeys, renderConfig, writeLevel } from "../ConfigOverrides.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { servedAt } from "../Endpoints.js"
import { route } from "../Router.js"
import type { BranchConfigSource } from "../State.js"

export { sourceRequiredText }

/** Server access manages the branch level only (`assertServerAccessAllowed`). */
const checkAccess = (context: RequestContext, level: OverrideLevel) =>
  context.auth?.type === "server" && level !== "branch" ? Effect.fail(new TextFailure({ status: 403, text: serverBranchOnlyText })) : Effect.void

/** Parses a config string for a level, or the service's 400 text. */
const parseOverride = (level: OverrideLevel, text: string) => {
  const parsed = parseOverrideString(level, text)
  return parsed._tag === "Ok" ? Effect.succeed(parsed.override) : Effect.fail(new TextFailure({ status: 400, text: parsed.text }))
}

const overrideOf = (context: RequestContext, level: OverrideLevel) => projectOf(context).configOverrides.get(level) ?? {}

const getOverride = (level: OverrideLevel, context: RequestContext) =>
  Effect.gen(function* () {
    yield* checkAccess(context, level)
    return { config: overrideOf(context, level) }
  })

const updateOverride = (level: OverrideLevel, text: string, context: RequestContext) =>
  Effect.gen(function* () {
    yield* checkAccess(context, level)
    const patch = yield* parseOverride(level, text)
    writeLevel(projectOf(context), level, override(overrideOf(context, level), patch))
    return { success: true as const }
  })

const replaceOverride = (
  { params, payload }: {
    readonly params: { readonly level: OverrideLevel }
    readonly payload: { readonly configString: string; readonly source?: PushedConfigSource | undefined }
  },
  context: RequestContext
) =>
  Effect.gen(function* () {
    yield* checkAccess(context, params.level)
    const next = yield* parseOverride(params.level, payload.configString)
    if (params.level === "branch" && payload.source === undefined) return yield* Effect.fail(new TextFailure({ status: 400, text: sourceRequiredText }))
    const project = projectOf(context)
    writeLevel(project, params.level, next)
    if (params.level === "branch" && payload.source !== undefined) {
      const source = payload.source
      project.configSource = source.type === "pushed-from-github"
        ? {
          type: source.type,
          owner: source.owner,
          repo: source.repo,
          branch: source.branch,
          commit_hash: source.commitHash,
          config_file_path: source.configFilePath
        }
        : { type: source.type } satisfies BranchConfigSource
    }
    return { success: true as const }
  })

/** The config routes (the override routes twice: admin, and server access for the branch level). */
export const routes = [
  route(getConfigEndpoint, (_input, context) => Effect.sync(() => ({ config: renderConfig(projectOf(context)) }))),
  route(getOverrideEndpoint, ({ params }, context) => getOverride(params.level, context)),
  route(servedAt(getOverrideEndpoint, "server", []), ({ params }, context) => getOverride(params.level, context)),
  route(updateOverrideEndpoint, ({ params, payload }, context) => updateOverride(params.level, payload.configOverrideString, context)),
  route(servedAt(updateOverrideEndpoint, "server", []), ({ params, payload }, context) => updateOverride(params.level, payload.configOverrideString, context)),
  route(replaceOverrideEndpoint, replaceOverride),
  route(servedAt(replaceOverrideEndpoint, "server", []), replaceOverride),
  route(resetOverrideKeysEndpoint, ({ params, payload }, context) =>
    Effect.sync(() => {
      writeLevel(projectOf(context), params.level, removeKeys(overrideOf(context, params.level), payload.keys))
      return { success: true as const }
    })),
  route(getSourceEndpoint, (_input, context) =>
    Effect.sync(() => {
      const source = projectOf(context).configSource
      return {
        source: source.type === "pushed-from-github"
          ? {
            type: source.type,
            owner: source.owner,
            repo: source.repo,
            branch: source.branch,
            commitHash: source.commit_hash,
            configFilePath: source.config_file_path
          }
          : { type: source.type }
      }
    })),
  route(unlinkSourceEndpoint, (_input, context) =>
    Effect.sync(() => {
      projectOf(context).configSource = { type: "unlinked" }
      return { success: true as const }
    }))
]
