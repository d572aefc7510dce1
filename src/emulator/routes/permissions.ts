/**
 * Team and project permissions of users (PROTOCOL.md §3.5): list (client: own only; server and
 * admin: any user, every filter optional), grant and revoke (server and admin). The permission
 * model is `../Permissions.ts`; team membership is `TeamRecord.memberUserIds` (`teamsOf`).
 *
 * The service's semantics, kept here:
 * - `recursive` defaults to **false** when the query omits it; a recursive list adds every
 *   contained permission, transitively. Ids without a definition (deleted meanwhile) are skipped.
 * - Lists are grouped by (team, user), sorted by team id, user id, permission id; `permission_id`
 *   filters the result. A client may only list its own (`me` or its id): else 403 text.
 * - Grant: USER_NOT_FOUND, then (team) TEAM_MEMBERSHIP_NOT_FOUND (also for an unknown team), then
 *   PERMISSION_NOT_FOUND, or WRONG_PERMISSION_SCOPE for a permission of the other scope (the `$`
 *   system permissions are not project permissions: PERMISSION_NOT_FOUND). Idempotent, 201.
 * - Revoke removes a direct grant: USER_NOT_FOUND, (team) TEAM_MEMBERSHIP_NOT_FOUND, then
 *   TEAM_PERMISSION_NOT_FOUND (401) / PERMISSION_NOT_FOUND when not granted directly.
 *
 * The definitions served here are emulator-only (wire terms): the SDK's client (`me`) and server
 * (`<uuid>`) list endpoints share one route, as do `me` and ids in grant paths.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  PermissionNotFound,
  TeamMembershipNotFound,
  TeamPermissionNotFound,
  UserNotFound,
  WrongPermissionScope
} from "../../core/KnownErrors.js"
import { QueryBoolean, SuccessTrue, Uuid } from "../../core/Wire.js"
import { PermissionId } from "../../permissions/internal/permissionIds.js"
import { ProjectPermission, TeamPermission } from "../../permissions/internal/permissions.js"
import { ProjectPermissionList, TeamPermissionList } from "../../permissions/internal/permissions.js"
import * as Permissions from "../Permissions.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe, resolveUserId } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ProjectRecord } from "../State.js"
import { teamsOf } from "../State.js"

// ---------------------------------------------------------------------------------------------
// Definitions (wire terms)
// ---------------------------------------------------------------------------------------------

const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

/** `GET /team-permissions?team_id=&user_id=&permission_id=&recursive=` (client+). */
export const listTeamPermissions = Endpoint.make({
  name: "Emulator.listTeamPermissions",
  method: "GET",
  path: "/team-permissions",
  access: "client",
  session: "optional",
  query: Schema.Struct({
    team_id: Schema.optional(Uuid),
    user_id: Schema.optional(UserIdOrMe),
    permission_id: Schema.optional(PermissionId),
    recursive: Schema.optional(QueryBoolean)
  }),
  success: TeamPermissionList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `GET /project-permissions?user_id=&permission_id=&recursive=` (client+). */
export const listProjectPermissions = Endpoint.make({
  name: "Emulator.listProjectPermissions",
  method: "GET",
  path: "/project-permissions",
  access: "client",
  session: "optional",
  query: Schema.Struct({
    user_id: Schema.optional(UserIdOrMe),
    permission_id: Schema.optional(PermissionId),
    recursive: Schema.optional(QueryBoolean)
  }),
  success: ProjectPermissionList,
  errors: [CannotGetOwnUserWithoutUser]
})

const TeamGrantParams = Schema.Struct({ team_id: Uuid, user_id: UserIdOrMe, permission_id: PermissionId })
const ProjectGrantParams = Schema.Struct({ user_id: UserIdOrMe, permission_id: PermissionId })

/** `POST /team-permissions/{team_id}/{user_id|me}/{permission_id}` (server+, 201). */
export const grantTeamPermission = Endpoint.make({
  name: "Emulator.grantTeamPermission",
  method: "POST",
  path: "/team-permissions/:team_id/:user_id/:permission_id",
  access: "server",
  session: "optional",
  params: TeamGrantParams,
  payload: Schema.Struct({}),
  success: TeamPermission,
  successStatus: 201,
  errors: [CannotGetOwnUserWithoutUser, UserNotFound, TeamMembershipNotFound, PermissionNotFound, WrongPermissionScope]
})

/** `DELETE /team-permissions/{team_id}/{user_id|me}/{permission_id}` (server+). */
export const revokeTeamPermission = Endpoint.make({
  name: "Emulator.revokeTeamPermission",
  method: "DELETE",
  path: "/team-permissions/:team_id/:user_id/:permission_id",
  access: "server",
  session: "optional",
  params: TeamGrantParams,
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser, UserNotFound, TeamMembershipNotFound, TeamPermissionNotFound]
})

/** `POST /project-permissions/{user_id|me}/{permission_id}` (server+, 201). */
export const grantProjectPermission = Endpoint.make({
  name: "Emulator.grantProjectPermission",
  method: "POST",
  path: "/project-permissions/:user_id/:permission_id",
  access: "server",
  session: "optional",
  params: ProjectGrantParams,
  payload: Schema.Struct({}),
  success: ProjectPermission,
  successStatus: 201,
  errors: [CannotGetOwnUserWithoutUser, UserNotFound, PermissionNotFound, WrongPermissionScope]
})

/** `DELETE /project-permissions/{user_id|me}/{permission_id}` (server+). */
export const revokeProjectPermission = Endpoint.make({
  name: "Emulator.revokeProjectPermission",
  method: "DELETE",
  path: "/project-permissions/:user_id/:permission_id",
  access: "server",
  session: "optional",
  params: ProjectGrantParams,
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser, UserNotFound, PermissionNotFound]
})

// ---------------------------------------------------------------------------------------------
// Texts and helpers
// ---------------------------------------------------------------------------------------------

/** 403 text of a client listing another user's permissions. */
export const foreignUserText = "Client can only list permissions for their own user. user_id must be either \"me\" or the ID of the current user"

/** The user filter of a list: a client must name itself (403 text otherwise); server/admin may omit it. */
const listUserFilter = (context: RequestContext, userId: string | undefined) =>
  Effect.gen(function* () {
    const resolved = userId === undefined ? undefined : yield* resolveUserId(context, userId)
    if (context.auth?.type === "client") {
      const me = yield* requireMe(context)
      if (resolved !== me.id) return yield* Effect.fail(new TextFailure({ status: 403, text: foreignUserText }))
    }
    return resolved
  })

/** The user of a grant path, which must exist (USER_NOT_FOUND). */
const existingUser = (context: RequestContext, project: ProjectRecord, userId: string) =>
  Effect.flatMap(resolveUserId(context, userId), (id) => project.users.has(id) ? Effect.succeed(id) : Effect.fail(UserNotFound.make({})))

const requireMembership = (project: ProjectRecord, teamId: string, userId: string): Effect.Effect<void, TeamMembershipNotFound> =>
  teamsOf(project).get(teamId)?.memberUserIds.has(userId) === true
    ? Effect.void
    : Effect.fail(TeamMembershipNotFound.make({ team_id: teamId, user_id: userId }))

/** The ids held from a set of direct grants: defined ones only, with their containment when recursive; sorted. */
const heldIds = (
  definitions: ReadonlyMap<string, unknown>,
  closureOf: (ids: Iterable<string>) => Set<string>,
  direct: Iterable<string>,
  recursive: boolean
): Array<string> => {
  const defined = [...direct].filter((id) => definitions.has(id))
  const held = recursive ? closureOf(defined) : new Set(defined)
  return [...held].filter((id) => definitions.has(id)).sort()
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The team permissions of `(team, user)` pairs with direct grants, filtered and sorted as the service does. */
export const listTeam = (
  project: ProjectRecord,
  filter: { readonly teamId?: string | undefined; readonly userId?: string | undefined; readonly permissionId?: string | undefined },
  recursive: boolean
): Array<TeamPermission> => {
  const state = Permissions.permissionsOf(project)
  const closureOf = (ids: Iterable<string>) => Permissions.closure(state.teamDefinitions, ids)
  const items: Array<TeamPermission> = []
  const teamIds = [...state.teamGrants.keys()].filter((id) => filter.teamId === undefined || id === filter.teamId).sort(compare)
  for (const teamId of teamIds) {
    const byUser = state.teamGrants.get(teamId)!
    const userIds = [...byUser.keys()].filter((id) => filter.userId === undefined || id === filter.userId).sort(compare)
    for (const userId of userIds) {
      for (const id of heldIds(state.teamDefinitions, closureOf, byUser.get(userId)!, recursive)) {
        if (filter.permissionId === undefined || id === filter.permissionId) items.push({ id, userId, teamId })
      }
    }
  }
  return items
}

/** The project permissions of users with direct grants, filtered and sorted as the service does. */
export const listProject = (
  project: ProjectRecord,
  filter: { readonly userId?: string | undefined; readonly permissionId?: string | undefined },
  recursive: boolean
): Array<ProjectPermission> => {
  const state = Permissions.permissionsOf(project)
  const closureOf = (ids: Iterable<string>) => Permissions.closure(state.projectDefinitions, ids)
  const items: Array<ProjectPermission> = []
  const userIds = [...state.projectGrants.keys()].filter((id) => filter.userId === undefined || id === filter.userId).sort(compare)
  for (const userId of userIds) {
    for (const id of heldIds(state.projectDefinitions, closureOf, state.projectGrants.get(userId)!, recursive)) {
      if (filter.permissionId === undefined || id === filter.permissionId) items.push({ id, userId })
    }
  }
  return items
}

/** Checks that `permissionId` is defined at `scope` (PERMISSION_NOT_FOUND / WRONG_PERMISSION_SCOPE). */
const requireDefinition = (
  project: ProjectRecord,
  scope: Permissions.PermissionScope,
  permissionId: string
): Effect.Effect<void, PermissionNotFound | WrongPermissionScope> => {
  if (Permissions.definitionsOf(project, scope).has(permissionId)) return Effect.void
  const other: Permissions.PermissionScope = scope === "team" ? "project" : "team"
  // the `$` system permissions are not definitions of the project's config: not found at project scope
  if (!permissionId.startsWith("$") && Permissions.definitionsOf(project, other).has(permissionId)) {
    return Effect.fail(WrongPermissionScope.make({ permission_id: permissionId, expected_scope: scope, actual_scope: other }))
  }
  return Effect.fail(PermissionNotFound.make({ permission_id: permissionId }))
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/** The routes of this module. */
export const routes = [
  route(listTeamPermissions, ({ query }, context) =>
    Effect.gen(function* () {
      const userId = yield* listUserFilter(context, query.user_id)
      const items = listTeam(
        projectOf(context),
        { teamId: query.team_id, userId, permissionId: query.permission_id },
        query.recursive === true
      )
      return { items, isPaginated: false }
    })),
  route(listProjectPermissions, ({ query }, context) =>
    Effect.gen(function* () {
      const userId = yield* listUserFilter(context, query.user_id)
      const items = listProject(projectOf(context), { userId, permissionId: query.permission_id }, query.recursive === true)
      return { items, isPaginated: false }
    })),
  route(
    grantTeamPermission,
    ({ params }, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        const userId = yield* existingUser(context, project, params.user_id)
        yield* requireMembership(project, params.team_id, userId)
        yield* requireDefinition(project, "team", params.permission_id)
        Permissions.grantTeam(project, params.team_id, userId, params.permission_id)
        return { id: params.permission_id, userId, teamId: params.team_id }
      }),
    { emptyBody: {} }
  ),
  route(revokeTeamPermission, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const userId = yield* existingUser(context, project, params.user_id)
      yield* requireMembership(project, params.team_id, userId)
      const held = listTeam(project, { teamId: params.team_id, userId, permissionId: params.permission_id }, false)
      if (held.length === 0) {
        return yield* Effect.fail(
          TeamPermissionNotFound.make({ team_id: params.team_id, user_id: userId, permission_id: params.permission_id })
        )
      }
      Permissions.revokeTeam(project, params.team_id, userId, params.permission_id)
      return { success: true as const }
    })),
  route(
    grantProjectPermission,
    ({ params }, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        const userId = yield* existingUser(context, project, params.user_id)
        yield* requireDefinition(project, "project", params.permission_id)
        Permissions.grantProject(project, userId, params.permission_id)
        return { id: params.permission_id, userId }
      }),
    { emptyBody: {} }
  ),
  route(revokeProjectPermission, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const userId = yield* existingUser(context, project, params.user_id)
      const held = listProject(project, { userId, permissionId: params.permission_id }, false)
      if (held.length === 0) return yield* Effect.fail(PermissionNotFound.make({ permission_id: params.permission_id }))
      Permissions.revokeProject(project, userId, params.permission_id)
      return { success: true as const }
    }))
]
