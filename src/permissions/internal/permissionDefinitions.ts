/**
 * The wire definitions of `PermissionDefinitions` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `PermissionDefinitions.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { ContainedPermissionNotFound, PermissionIdAlreadyExists, PermissionNotFound } from "../../core/KnownErrors.js"
import { field, optionalField, SuccessTrue, wireStruct } from "../../core/Wire.js"
import { CustomPermissionId, PermissionId } from "./permissionIds.js"

// ---------------------------------------------------------------------------------------------
// Wire objects
// ---------------------------------------------------------------------------------------------

/** A permission definition: `{ id, description?, contained_permission_ids }`. */
export const PermissionDefinition = wireStruct({
  id: Schema.String,
  description: optionalField("description", Schema.String),
  containedPermissionIds: field("contained_permission_ids", Schema.Array(Schema.String))
})

/** A permission definition (team or project scope). */
export type PermissionDefinition = typeof PermissionDefinition.Type

/**
 * The list answer: `{ items, is_paginated: false }`, or with `limit` one page
 * `{ items, is_paginated: true, pagination: { next_cursor } }` (`next_cursor`: the id of the
 * page's last item, null on the last page).
 */
export const PermissionDefinitionList = wireStruct({
  items: Schema.Array(PermissionDefinition),
  isPaginated: field("is_paginated", Schema.Boolean),
  pagination: optionalField("pagination", wireStruct({ nextCursor: field("next_cursor", Schema.NullOr(Schema.String)) }))
})

/** The most definitions one page may hold (the service's `limit` maximum). */
export const maxPageSize = 200

/**
 * Query of the definition lists (the service's, backend `permission-definitions-pagination.ts`):
 * `limit` (1 to 200) pages the answer by id, `cursor` (the previous page's last id; only with
 * `limit`) starts after it, `query` keeps ids or descriptions containing the text (case-insensitive).
 */
export const ListQuery = wireStruct({
  limit: optionalField(
    "limit",
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: maxPageSize }))
  ),
  cursor: optionalField("cursor", Schema.String),
  query: optionalField("query", Schema.String)
})

/** The 400 text of a `cursor` without `limit`. */
export const cursorWithoutLimitText = "`cursor` requires `limit` to also be set."

/** Payload of `POST /{team|project}-permission-definitions`. */
export const CreatePayload = wireStruct({
  id: CustomPermissionId,
  description: optionalField("description", Schema.String),
  containedPermissionIds: optionalField("contained_permission_ids", Schema.Array(PermissionId))
})

/** Payload of `PATCH /{team|project}-permission-definitions/{permission_id}`. */
export const UpdatePayload = wireStruct({
  id: optionalField("id", CustomPermissionId),
  description: optionalField("description", Schema.String),
  containedPermissionIds: optionalField("contained_permission_ids", Schema.Array(PermissionId))
})

const DefinitionParams = wireStruct({ permissionId: field("permission_id", PermissionId) })

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
    /** The same list with a query: a page (`limit`, `cursor`) and a text filter (`query`). */
    listPage: Endpoint.make({
      name: `PermissionDefinitions.list${name}DefinitionsPaginated`,
      method: "GET",
      path,
      access: "admin",
      session: "none",
      query: ListQuery,
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

export const team = makeEndpoints("team", "Team")
export const project = makeEndpoints("project", "Project")

/** `GET /team-permission-definitions` (admin; the `$` system permissions included). */
export const listTeamDefinitionsEndpoint = team.list
/** `GET /team-permission-definitions?limit=&cursor=&query=` (admin; one page by id). */
export const listTeamDefinitionsPaginatedEndpoint = team.listPage
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

export const createPayload = (input: CreateInput) => ({
  id: input.id,
  ...(input.description === undefined ? {} : { description: input.description }),
  ...(input.containedPermissionIds === undefined ? {} : { containedPermissionIds: input.containedPermissionIds })
})

export const updatePayload = (input: UpdateInput) => ({
  ...(input.id === undefined ? {} : { id: input.id }),
  ...(input.description === undefined ? {} : { description: input.description }),
  ...(input.containedPermissionIds === undefined ? {} : { containedPermissionIds: input.containedPermissionIds })
})
