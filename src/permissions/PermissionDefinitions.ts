/**
 * Permission definitions (PROTOCOL.md §3.5), admin access: the permissions a project defines, at
 * team scope (granted within a team) and project scope (granted project-wide). A definition has
 * an `id`, an optional `description` and the ids it contains (`containedPermissionIds`): holding
 * it means holding those too, transitively.
 *
 * - Team scope always lists the six system permissions (`$update_team`, `$delete_team`,
 *   `$read_members`, `$remove_members`, `$invite_members`, `$manage_api_keys`; nothing contained);
 *   they cannot be changed or deleted. New projects also have `team_member` and `team_admin`.
 * - Ids are unique across both scopes; custom ids match `^[a-z0-9_:]+$`, checked before sending
 *   (`InvalidArgument`, nothing sent).
 * - Contained ids must be defined in the same scope (team scope: system ids included).
 * - Renaming (`update` with `id`) carries the grants and every containment over to the new id;
 *   deleting removes the grants and every containment of the id.
 * - Lists and `containedPermissionIds` come sorted by id.
 *
 * Every change invalidates the cached permission lists of its scope (`["team-permissions"]` or
 * `["project-permissions"]`): containment changes what users hold recursively.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidArgument } from "../core/Errors.js"
import { ContainedPermissionNotFound, PermissionIdAlreadyExists, PermissionNotFound } from "../core/KnownErrors.js"
import { field, optionalField, SuccessTrue } from "../core/Wire.js"
import {
  CustomPermissionId,
  customPermissionIdMessage,
  customPermissionIdPattern,
  PermissionId,
  permissionIdProblem
} from "./Permissions.js"

// ---------------------------------------------------------------------------------------------
// Wire objects
// ---------------------------------------------------------------------------------------------

/** A permission definition: `{ id, description?, contained_permission_ids }`. */
export const PermissionDefinition = Schema.Struct({
  id: Schema.String,
  description: optionalField("description", Schema.String),
  containedPermissionIds: field("contained_permission_ids", Schema.Array(Schema.String))
})

/** A permission definition (team or project scope). */
export type PermissionDefinition = typeof PermissionDefinition.Type

/** The list answer `{ items, is_paginated: false }`. */
export const PermissionDefinitionList = Schema.Struct({
  items: Schema.Array(PermissionDefinition),
  isPaginated: field("is_paginated", Schema.Boolean)
})

/** Payload of `POST /{team|project}-permission-definitions`. */
export const CreatePayload = Schema.Struct({
  id: CustomPermissionId,
  description: optionalField("description", Schema.String),
  containedPermissionIds: optionalField("contained_permission_ids", Schema.Array(PermissionId))
})

/** Payload of `PATCH /{team|project}-permission-definitions/{permission_id}`. */
export const UpdatePayload = Schema.Struct({
  id: optionalField("id", CustomPermissionId),
  description: optionalField("description", Schema.String),
  containedPermissionIds: optionalField("contained_permission_ids", Schema.Array(PermissionId))
})

const DefinitionParams = Schema.Struct({ permissionId: field("permission_id", PermissionId) })

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** The two scopes of permission definitions. */
export type Scope = "team" | "project"

const makeEndpoints = <const S extends Scope, const Name extends string>(scope: S, name: Name) => {
  const path = `/${scope}-permission-definitions`
  return {
    list: Endpoint.make({
      name: `PermissionDefinitions.list${name}Definitions`,
      method: "GET",
      path,
      access: "admin",
      session: "none",
      success: PermissionDefinitionList,
      errors: []
    }),
    create: Endpoint.make({
      name: `PermissionDefinitions.create${name}Definition`,
      method: "POST",
      path,
      access: "admin",
      session: "none",
      payload: CreatePayload,
      success: PermissionDefinition,
      successStatus: 201,
      errors: [PermissionIdAlreadyExists, ContainedPermissionNotFound]
    }),
    update: Endpoint.make({
      name: `PermissionDefinitions.update${name}Definition`,
      method: "PATCH",
      path: `${path}/:permission_id`,
      access: "admin",
      session: "none",
      params: DefinitionParams,
      payload: UpdatePayload,
      success: PermissionDefinition,
      errors: [PermissionNotFound, PermissionIdAlreadyExists, ContainedPermissionNotFound]
    }),
    delete: Endpoint.make({
      name: `PermissionDefinitions.delete${name}Definition`,
      method: "DELETE",
      path: `${path}/:permission_id`,
      access: "admin",
      session: "none",
      params: DefinitionParams,
      success: SuccessTrue,
      errors: [PermissionNotFound]
    })
  }
}

const team = makeEndpoints("team", "Team")
const project = makeEndpoints("project", "Project")

/** `GET /team-permission-definitions` (admin; the `$` system permissions included). */
export const listTeamDefinitionsEndpoint = team.list
/** `POST /team-permission-definitions` (admin, 201). */
export const createTeamDefinitionEndpoint = team.create
/** `PATCH /team-permission-definitions/{permission_id}` (admin). */
export const updateTeamDefinitionEndpoint = team.update
/** `DELETE /team-permission-definitions/{permission_id}` (admin). */
export const deleteTeamDefinitionEndpoint = team.delete
/** `GET /project-permission-definitions` (admin). */
export const listProjectDefinitionsEndpoint = project.list
/** `POST /project-permission-definitions` (admin, 201). */
export const createProjectDefinitionEndpoint = project.create
/** `PATCH /project-permission-definitions/{permission_id}` (admin). */
export const updateProjectDefinitionEndpoint = project.update
/** `DELETE /project-permission-definitions/{permission_id}` (admin). */
export const deleteProjectDefinitionEndpoint = project.delete

// ---------------------------------------------------------------------------------------------
// Input checks (before sending)
// ---------------------------------------------------------------------------------------------

/** A new definition. */
export interface CreateInput {
  /** A custom id, `^[a-z0-9_:]+$`, unique across both scopes. */
  readonly id: string
  readonly description?: string
  /** Ids of the same scope this permission contains (team scope: `$` system ids too). */
  readonly containedPermissionIds?: ReadonlyArray<string>
}

/** Changes to a definition; absent fields stay as they are. */
export interface UpdateInput {
  /** A new id (rename): grants and containments follow. */
  readonly id?: string
  readonly description?: string
  /** Replaces the contained ids. */
  readonly containedPermissionIds?: ReadonlyArray<string>
}

const invalid = (argument: string, message: string) => Effect.fail(new InvalidArgument({ argument, message }))

const checkCustomId = (argument: string, id: string): Effect.Effect<void, InvalidArgument> =>
  customPermissionIdPattern.test(id) ? Effect.void : invalid(argument, `Invalid permission id "${id}": ${customPermissionIdMessage}`)

const checkAnyId = (argument: string, id: string): Effect.Effect<void, InvalidArgument> => {
  const problem = permissionIdProblem(id)
  return problem === undefined ? Effect.void : invalid(argument, `Invalid permission id "${id}": ${problem}`)
}

const checkContained = (ids: ReadonlyArray<string> | undefined): Effect.Effect<void, InvalidArgument> =>
  Effect.forEach(ids ?? [], (id) => checkAnyId("containedPermissionIds", id), { discard: true })

const createPayload = (input: CreateInput) => ({
  id: input.id,
  ...(input.description === undefined ? {} : { description: input.description }),
  ...(input.containedPermissionIds === undefined ? {} : { containedPermissionIds: input.containedPermissionIds })
})

const updatePayload = (input: UpdateInput) => ({
  ...(input.id === undefined ? {} : { id: input.id }),
  ...(input.description === undefined ? {} : { description: input.description }),
  ...(input.containedPermissionIds === undefined ? {} : { containedPermissionIds: input.containedPermissionIds })
})

// ---------------------------------------------------------------------------------------------
// Team scope
// ---------------------------------------------------------------------------------------------

/**
 * The team permission definitions, sorted by id, the six `$` system permissions included.
 * `GET /team-permission-definitions`; needs admin access.
 */
export const listTeamDefinitions = Effect.fn("PermissionDefinitions.listTeamDefinitions")(function* () {
  const answer = yield* Endpoint.call(team.list, {})
  return answer.items
})

/**
 * Defines a team permission. `POST /team-permission-definitions` (201); needs admin access.
 * Fails with `PermissionIdAlreadyExists` (in either scope), `ContainedPermissionNotFound` (a
 * contained id that is not a team permission), or `InvalidArgument` (an id of the wrong form,
 * nothing sent).
 */
export const createTeamDefinition = Effect.fn("PermissionDefinitions.createTeamDefinition")(function* (input: CreateInput) {
  yield* checkCustomId("id", input.id)
  yield* checkContained(input.containedPermissionIds)
  const created = yield* Endpoint.call(team.create, { payload: createPayload(input) })
  yield* QueryCache.invalidate(["team-permissions"])
  return created
})

/**
 * Changes a team permission definition: rename (`id`), `description`, contained ids.
 * `PATCH /team-permission-definitions/{permission_id}`; needs admin access. Fails with
 * `PermissionNotFound` (no such team definition; system permissions cannot be changed),
 * `PermissionIdAlreadyExists` (the new id is taken), `ContainedPermissionNotFound`, or
 * `InvalidArgument` (ids of the wrong form, nothing sent).
 */
export const updateTeamDefinition = Effect.fn("PermissionDefinitions.updateTeamDefinition")(function* (
  permissionId: string,
  changes: UpdateInput
) {
  yield* checkAnyId("permissionId", permissionId)
  if (changes.id !== undefined) yield* checkCustomId("id", changes.id)
  yield* checkContained(changes.containedPermissionIds)
  const updated = yield* Endpoint.call(team.update, { params: { permissionId }, payload: updatePayload(changes) })
  yield* QueryCache.invalidate(["team-permissions"])
  return updated
})

/**
 * Deletes a team permission definition with its grants and every containment of it.
 * `DELETE /team-permission-definitions/{permission_id}`; needs admin access. Fails with
 * `PermissionNotFound` (system permissions included), or `InvalidArgument` (nothing sent).
 */
export const deleteTeamDefinition = Effect.fn("PermissionDefinitions.deleteTeamDefinition")(function* (permissionId: string) {
  yield* checkAnyId("permissionId", permissionId)
  yield* Endpoint.call(team.delete, { params: { permissionId } })
  yield* QueryCache.invalidate(["team-permissions"])
})

// ---------------------------------------------------------------------------------------------
// Project scope
// ---------------------------------------------------------------------------------------------

/** The project permission definitions, sorted by id. `GET /project-permission-definitions`; needs admin access. */
export const listProjectDefinitions = Effect.fn("PermissionDefinitions.listProjectDefinitions")(function* () {
  const answer = yield* Endpoint.call(project.list, {})
  return answer.items
})

/**
 * Defines a project permission. `POST /project-permission-definitions` (201); needs admin
 * access. Fails with `PermissionIdAlreadyExists` (in either scope), `ContainedPermissionNotFound`
 * (a contained id that is not a project permission), or `InvalidArgument` (nothing sent).
 */
export const createProjectDefinition = Effect.fn("PermissionDefinitions.createProjectDefinition")(function* (input: CreateInput) {
  yield* checkCustomId("id", input.id)
  yield* checkContained(input.containedPermissionIds)
  const created = yield* Endpoint.call(project.create, { payload: createPayload(input) })
  yield* QueryCache.invalidate(["project-permissions"])
  return created
})

/**
 * Changes a project permission definition: rename (`id`), `description`, contained ids.
 * `PATCH /project-permission-definitions/{permission_id}`; needs admin access. Fails with
 * `PermissionNotFound`, `PermissionIdAlreadyExists`, `ContainedPermissionNotFound`, or
 * `InvalidArgument` (nothing sent).
 */
export const updateProjectDefinition = Effect.fn("PermissionDefinitions.updateProjectDefinition")(function* (
  permissionId: string,
  changes: UpdateInput
) {
  yield* checkAnyId("permissionId", permissionId)
  if (changes.id !== undefined) yield* checkCustomId("id", changes.id)
  yield* checkContained(changes.containedPermissionIds)
  const updated = yield* Endpoint.call(project.update, { params: { permissionId }, payload: updatePayload(changes) })
  yield* QueryCache.invalidate(["project-permissions"])
  return updated
})

/**
 * Deletes a project permission definition with its grants and every containment of it.
 * `DELETE /project-permission-definitions/{permission_id}`; needs admin access. Fails with
 * `PermissionNotFound`, or `InvalidArgument` (nothing sent).
 */
export const deleteProjectDefinition = Effect.fn("PermissionDefinitions.deleteProjectDefinition")(function* (
  permissionId: string
) {
  yield* checkAnyId("permissionId", permissionId)
  yield* Endpoint.call(project.delete, { params: { permissionId } })
  yield* QueryCache.invalidate(["project-permissions"])
})
