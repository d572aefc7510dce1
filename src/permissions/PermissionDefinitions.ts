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
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidArgument } from "../core/Errors.js"
import { customPermissionIdMessage, customPermissionIdPattern, permissionIdProblem } from "./Permissions.js"
import { createPayload, maxPageSize, project, team, updatePayload } from "./internal/permissionDefinitions.js"
import type { CreateInput, PermissionDefinition, UpdateInput } from "./internal/permissionDefinitions.js"

/** The domain's schemas, defined with its wire definitions (`internal/permissionDefinitions.ts`). */
export { PermissionDefinition } from "./internal/permissionDefinitions.js"
export type { CreateInput, Scope, UpdateInput } from "./internal/permissionDefinitions.js"

const invalid = (argument: string, message: string) => Effect.fail(new InvalidArgument({ argument, message }))

const checkCustomId = (argument: string, id: string): Effect.Effect<void, InvalidArgument> =>
  customPermissionIdPattern.test(id) ? Effect.void : invalid(argument, `Invalid permission id "${id}": ${customPermissionIdMessage}`)

const checkAnyId = (argument: string, id: string): Effect.Effect<void, InvalidArgument> => {
  const problem = permissionIdProblem(id)
  return problem === undefined ? Effect.void : invalid(argument, `Invalid permission id "${id}": ${problem}`)
}

const checkContained = (ids: ReadonlyArray<string> | undefined): Effect.Effect<void, InvalidArgument> =>
  Effect.forEach(ids ?? [], (id) => checkAnyId("containedPermissionIds", id), { discard: true })

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

/** Options of {@link listTeamDefinitionsPaginated} (the official `listTeamPermissionDefinitionsPaginated`'s). */
export interface DefinitionPageOptions {
  /** How many definitions the page holds at most: an integer from 1 to 200. */
  readonly limit: number
  /** Where the page starts: the previous page's `nextCursor` (the id of its last definition). */
  readonly cursor?: string
  /** Keeps definitions whose id or description contains this text (case-insensitive). */
  readonly query?: string
}

/** One page of definitions and the cursor of the next page (`none` on the last page). */
export interface DefinitionPage {
  readonly items: ReadonlyArray<PermissionDefinition>
  readonly nextCursor: Option.Option<string>
}

/**
 * One page of the team permission definitions, by id, the `$` system permissions included;
 * `query` filters ids and descriptions (case-insensitive). Pass `nextCursor` as `cursor` for the
 * next page; a cursor whose definition was deleted meanwhile starts after the first id greater
 * than it. `GET /team-permission-definitions?limit=&cursor=&query=`; needs admin access. Fails with
 * `InvalidArgument` (`limit` not an integer from 1 to 200) before any request.
 */
export const listTeamDefinitionsPaginated = Effect.fn("PermissionDefinitions.listTeamDefinitionsPaginated")(function* (
  options: DefinitionPageOptions
) {
  if (!Number.isInteger(options.limit) || options.limit < 1 || options.limit > maxPageSize) {
    return yield* invalid("limit", `limit must be an integer from 1 to ${maxPageSize}, got ${options.limit}`)
  }
  const answer = yield* Endpoint.call(team.listPage, {
    query: {
      limit: options.limit,
      ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
      ...(options.query === undefined ? {} : { query: options.query })
    }
  })
  const page: DefinitionPage = { items: answer.items, nextCursor: Option.fromNullishOr(answer.pagination?.nextCursor ?? null) }
  return page
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
