/**
 * The wire definitions of `ProjectConfig` and of the project transfer (docs/ARCHITECTURE.md): the
 * endpoint descriptors of the config API (`/internal/config`, `/internal/config/override/{level}`,
 * `/internal/config/source`) and of `POST /internal/projects/transfer`, used by
 * `ProjectConfig.ts`, `Projects.ts`, the emulator and tests; not part of the public surface.
 *
 * Read from the service's routes at stack-auth/stack-auth 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/internal/config/route.tsx`, `.../config/override/[level]/route.tsx`
 * (server access for the branch level, admin for every level), `.../[level]/reset-keys/route.tsx`,
 * `.../config/source/route.tsx` and `.../internal/projects/transfer/route.tsx`.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { ProjectNotFound, TeamMembershipNotFound, TeamPermissionRequired, UserAuthenticationRequired } from "../../core/KnownErrors.js"
import { field, optionalField, SuccessTrue, wireStruct } from "../../core/Wire.js"
import { configLevels } from "./configSchema.js"

/** `{ config_string }`: a config or override as a JSON string holding an object, read as `config`. */
export const ConfigString = wireStruct({
  config: field("config_string", Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown)))
})

/** The level of an override route (`levelSchema`: `project`, `branch`, `environment`). */
export const LevelParams = Schema.Struct({ level: Schema.Literals(configLevels) })

/** Where a branch config was pushed from (`branchConfigSourceSchema`), camelCase. */
export const PushedConfigSource = Schema.Union([
  wireStruct({
    type: Schema.Literal("pushed-from-github"),
    owner: Schema.String,
    repo: Schema.String,
    branch: Schema.String,
    commitHash: field("commit_hash", Schema.String),
    configFilePath: field("config_file_path", Schema.String)
  }),
  Schema.Struct({ type: Schema.Literal("pushed-from-unknown") }),
  Schema.Struct({ type: Schema.Literal("unlinked") })
])

/** Where a branch config was pushed from. */
export type PushedConfigSource = typeof PushedConfigSource.Type

/** The service's 403 text when server access writes or reads another level than `branch`. */
export const serverBranchOnlyText = "Server access can only manage branch config overrides."

/** The service's 400 text of a branch-level `PUT` without `source`. */
export const sourceRequiredText = "source is required for branch level config"

/** The service's 400 text of a transfer of a project without owner team. */
export const noOwnerTeamText = "Project must have an owner team to be transferred"

/** `GET /internal/config` (admin): the rendered config. */
export const getConfigEndpoint = Endpoint.make({
  name: "ProjectConfig.get",
  method: "GET",
  path: "/internal/config",
  access: "admin",
  session: "none",
  success: ConfigString,
  errors: []
})

/**
 * `GET /internal/config/override/{level}` (admin; the service also lets server access manage the
 * branch level, which the emulator serves with its own descriptor).
 */
export const getOverrideEndpoint = Endpoint.make({
  name: "ProjectConfig.getOverride",
  method: "GET",
  path: "/internal/config/override/:level",
  access: "admin",
  session: "none",
  params: LevelParams,
  success: ConfigString,
  errors: []
})

/** `PATCH /internal/config/override/{level}` `{ config_override_string }`: merges keys into the level's override. */
export const updateOverrideEndpoint = Endpoint.make({
  name: "ProjectConfig.updateOverride",
  method: "PATCH",
  path: "/internal/config/override/:level",
  access: "admin",
  session: "none",
  params: LevelParams,
  payload: wireStruct({ configOverrideString: field("config_override_string", Schema.String) }),
  success: SuccessTrue,
  errors: []
})

/** `PUT /internal/config/override/{level}` `{ config_string, source? }`: replaces the level's override (branch: `source` needed). */
export const replaceOverrideEndpoint = Endpoint.make({
  name: "ProjectConfig.replaceOverride",
  method: "PUT",
  path: "/internal/config/override/:level",
  access: "admin",
  session: "none",
  params: LevelParams,
  payload: wireStruct({
    configString: field("config_string", Schema.String),
    source: optionalField("source", PushedConfigSource)
  }),
  success: SuccessTrue,
  errors: []
})

/** `POST /internal/config/override/{level}/reset-keys` `{ keys }` (admin; branch and environment levels). */
export const resetOverrideKeysEndpoint = Endpoint.make({
  name: "ProjectConfig.resetOverrideKeys",
  method: "POST",
  path: "/internal/config/override/:level/reset-keys",
  access: "admin",
  session: "none",
  params: Schema.Struct({ level: Schema.Literals(["branch", "environment"]) }),
  payload: Schema.Struct({ keys: Schema.Array(Schema.String) }),
  success: SuccessTrue,
  errors: []
})

/** `GET /internal/config/source` (admin): where the branch config was pushed from (`unlinked` when never pushed). */
export const getSourceEndpoint = Endpoint.make({
  name: "ProjectConfig.getPushedSource",
  method: "GET",
  path: "/internal/config/source",
  access: "admin",
  session: "none",
  success: Schema.Struct({ source: PushedConfigSource }),
  errors: []
})

/** `DELETE /internal/config/source` (admin): sets the source to `unlinked`. */
export const unlinkSourceEndpoint = Endpoint.make({
  name: "ProjectConfig.unlinkPushedSource",
  method: "DELETE",
  path: "/internal/config/source",
  access: "admin",
  session: "none",
  success: SuccessTrue,
  errors: []
})

/**
 * `POST /internal/projects/transfer` `{ project_id, new_team_id }` (the `internal` project, a
 * signed-in user): moves an owned project to another team. Answers `{ success: "true" }`.
 */
export const transferEndpoint = Endpoint.make({
  name: "Projects.transfer",
  method: "POST",
  path: "/internal/projects/transfer",
  access: "client",
  session: "required",
  payload: wireStruct({ projectId: field("project_id", Schema.String), newTeamId: field("new_team_id", Schema.String) }),
  success: Schema.Struct({ success: Schema.Literal("true") }),
  errors: [ProjectNotFound, TeamMembershipNotFound, TeamPermissionRequired, UserAuthenticationRequired]
})
