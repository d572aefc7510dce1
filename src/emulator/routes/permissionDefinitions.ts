/**
 * Permission definitions (PROTOCOL.md §3.5), admin access: list, create, update (rename,
 * description, contained ids) and delete, at team scope (`/team-permission-definitions`) and
 * project scope (`/project-permission-definitions`). Served from the SDK's own endpoint
 * definitions (`permissions/PermissionDefinitions.ts`), so a malformed id is a SCHEMA_ERROR.
 *
 * The service's semantics, kept here:
 * - Lists are sorted by id; team scope lists the six `$` system permissions (fixed descriptions,
 *   nothing contained); `contained_permission_ids` are sorted and without duplicates.
 * - Ids are unique across both scopes: creating (or renaming to) an id defined at either scope
 *   is PERMISSION_ID_ALREADY_EXISTS (checked before the contained ids).
 * - Contained ids must be defined at the same scope (team: system ids too), else
 *   CONTAINED_PERMISSION_NOT_FOUND naming the first missing one.
 * - Update and delete address a custom definition of the route's scope: anything else (the
 *   other scope, a `$` system permission, nothing) is PERMISSION_NOT_FOUND. A rename carries
 *   grants and containments over (`Permissions.renameDefinition`); a delete drops them.
 * - An empty description counts as none (the key is left out of the answer).
 * - Lists take `limit` (1 to 200), `cursor` and `query` (backend
 *   `apps/backend/src/app/api/latest/permission-definitions-pagination.ts`): `query` keeps ids or
 *   descriptions containing the trimmed text (case-insensitive); with `limit` the answer is one page
 *   by id (`is_paginated: true`, `pagination.next_cursor` = the page's last id while more follow,
 *   else null) starting after `cursor` (a cursor no longer listed: after the first id greater
 *   than it); `cursor` without `limit` is a 400 text.
 *
 * Deviation: PATCH keeps the fields it does not name (description, contained ids) as they were.
 *
 * @module
 */
import { Effect } from "effect"
import { ContainedPermissionNotFound, PermissionIdAlreadyExists, PermissionNotFound } from "../../core/KnownErrors.js"
import type { PermissionDefinition } from "../../permissions/PermissionDefinitions.js"
import * as Definitions from "../../permissions/internal/permissionDefinitions.js"
import * as Permissions from "../Permissions.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { PermissionDefinitionRecord, ProjectRecord } from "../State.js"

const isSystem = (id: string) => id.startsWith("$")

/** The wire view of a definition: contained ids sorted, no empty description. */
export const toDefinition = (record: PermissionDefinitionRecord): PermissionDefinition => ({
  id: record.id,
  ...(record.description === undefined || record.description === "" ? {} : { description: record.description }),
  containedPermissionIds: [...record.containedPermissionIds].sort()
})

/** Whether a custom id is defined at either scope. */
const isTaken = (project: ProjectRecord, id: string): boolean =>
  Permissions.definitionsOf(project, "team").has(id) || Permissions.definitionsOf(project, "project").has(id)

/** Checks contained ids against the scope's definitions; answers them sorted without duplicates. */
const checkContained = (
  project: ProjectRecord,
  scope: Permissions.PermissionScope,
  ids: ReadonlyArray<string>
): Effect.Effect<Array<string>, ContainedPermissionNotFound> => {
  const definitions = Permissions.definitionsOf(project, scope)
  const missing = ids.find((id) => !definitions.has(id))
  return missing === undefined
    ? Effect.succeed([...new Set(ids)].sort())
    : Effect.fail(ContainedPermissionNotFound.make({ permission_id: missing }))
}

/** The custom definition `id` of a scope, or PERMISSION_NOT_FOUND. */
const existing = (
  project: ProjectRecord,
  scope: Permissions.PermissionScope,
  id: string
): Effect.Effect<PermissionDefinitionRecord, PermissionNotFound> => {
  const record = isSystem(id) ? undefined : Permissions.definitionsOf(project, scope).get(id)
  return record === undefined ? Effect.fail(PermissionNotFound.make({ permission_id: id })) : Effect.succeed(record)
}

/** The index of the first definition whose id sorts after `cursor` (`found` sorted by id). */
const firstIndexAfter = (found: ReadonlyArray<PermissionDefinition>, cursor: string): number => {
  const index = found.findIndex((d) => d.id > cursor)
  return index === -1 ? found.length : index
}

const scopeRoutes = (
  scope: Permissions.PermissionScope,
  endpoints: {
    readonly listPage: typeof Definitions.team.listPage | typeof Definitions.project.listPage
    readonly create: typeof Definitions.createTeamDefinitionEndpoint | typeof Definitions.createProjectDefinitionEndpoint
    readonly update: typeof Definitions.updateTeamDefinitionEndpoint | typeof Definitions.updateProjectDefinitionEndpoint
    readonly delete: typeof Definitions.deleteTeamDefinitionEndpoint | typeof Definitions.deleteProjectDefinitionEndpoint
  }
) => [
  route(endpoints.listPage, ({ query }, context) =>
    Effect.gen(function* () {
      if (query.cursor !== undefined && query.limit === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: Definitions.cursorWithoutLimitText }))
      }
      const definitions = [...Permissions.definitionsOf(projectOf(context), scope).values()]
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(toDefinition)
      const search = query.query?.trim().toLowerCase() ?? ""
      const found = search === ""
        ? definitions
        : definitions.filter((d) => d.id.toLowerCase().includes(search) || (d.description?.toLowerCase().includes(search) ?? false))
      if (query.limit === undefined) return { items: found, isPaginated: false }
      const cursor = query.cursor
      // after the cursor's id; a cursor no longer listed starts at the first id after it
      const at = cursor === undefined ? -1 : found.findIndex((d) => d.id === cursor)
      const start = cursor === undefined ? 0 : at !== -1 ? at + 1 : firstIndexAfter(found, cursor)
      const items = found.slice(start, start + query.limit)
      const more = start + query.limit < found.length
      return {
        items,
        isPaginated: true,
        pagination: { nextCursor: more && items.length > 0 ? items[items.length - 1]!.id : null }
      }
    })),
  route(endpoints.create, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (isTaken(project, payload.id)) return yield* Effect.fail(PermissionIdAlreadyExists.make({ permission_id: payload.id }))
      const contained = yield* checkContained(project, scope, payload.containedPermissionIds ?? [])
      const record: PermissionDefinitionRecord = {
        id: payload.id,
        description: payload.description === "" ? undefined : payload.description,
        containedPermissionIds: contained
      }
      Permissions.definitionsOf(project, scope).set(record.id, record)
      return toDefinition(record)
    })),
  route(endpoints.update, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = yield* existing(project, scope, params.permissionId)
      const newId = payload.id ?? record.id
      if (newId !== record.id && isTaken(project, newId)) {
        return yield* Effect.fail(PermissionIdAlreadyExists.make({ permission_id: newId }))
      }
      const contained = payload.containedPermissionIds === undefined ? undefined : yield* checkContained(project, scope, payload.containedPermissionIds)
      Permissions.renameDefinition(project, scope, record.id, newId)
      if (payload.description !== undefined) record.description = payload.description === "" ? undefined : payload.description
      // contained ids naming the old id follow the rename
      if (contained !== undefined) {
        record.containedPermissionIds = [...new Set(contained.map((id) => (id === params.permissionId ? newId : id)))].sort()
      }
      return toDefinition(record)
    })),
  route(endpoints.delete, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = yield* existing(project, scope, params.permissionId)
      Permissions.deleteDefinition(project, scope, record.id)
      return { success: true as const }
    }))
]

/** The routes of this module. */
export const routes = [
  ...scopeRoutes("team", {
    listPage: Definitions.team.listPage,
    create: Definitions.createTeamDefinitionEndpoint,
    update: Definitions.updateTeamDefinitionEndpoint,
    delete: Definitions.deleteTeamDefinitionEndpoint
  }),
  ...scopeRoutes("project", {
    listPage: Definitions.project.listPage,
    create: Definitions.createProjectDefinitionEndpoint,
    update: Definitions.updateProjectDefinitionEndpoint,
    delete: Definitions.deleteProjectDefinitionEndpoint
  })
]
