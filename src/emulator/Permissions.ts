/**
 * The emulator's permission model (PROTOCOL.md §3.5 and "Permissions" of §3.0): definitions per
 * scope, direct grants, recursive containment and the default grants of project config.
 *
 * - Team scope starts with the six system permissions (`$update_team`, `$delete_team`,
 *   `$read_members`, `$remove_members`, `$invite_members`, `$manage_api_keys`; no contained ids)
 *   and the two seeded definitions `team_member` (`$read_members`, `$invite_members`) and
 *   `team_admin` (all six system permissions). Project scope starts empty.
 * - A grant is direct; the permissions a user holds *recursively* are the direct ones plus every
 *   permission they contain, transitively (cycles are harmless: each id is visited once).
 * - Team creators get `team_creator_default_permissions` (default `team_admin`), members
 *   `team_member_default_permissions` (default `team_member`), every new user
 *   `user_default_permissions` (default none). Ids the project no longer defines are skipped.
 *
 * A new project's state is {@link seedPermissionState}. Lists of the service are sorted by id;
 * callers sort (`[...ids].sort()`).
 *
 * @module
 */
import { systemTeamPermissionIds as domainSystemTeamPermissionIds } from "../permissions/internal/permissionIds.js"
import type { PermissionDefinitionRecord, PermissionState, ProjectRecord } from "./State.js"

/** The two scopes of permission definitions. */
export type PermissionScope = "team" | "project"

/** The system team permissions, in the service's order (the domain's list: one source for both sides). */
export const systemTeamPermissionIds: ReadonlyArray<string> = domainSystemTeamPermissionIds

/** The service's descriptions of the system team permissions. */
export const systemPermissionDescriptions: Readonly<Record<string, string>> = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team"
}

/** The team-scope definitions a new project has besides the system ones. */
export const seededTeamDefinitions: ReadonlyArray<PermissionDefinitionRecord> = [
  { id: "team_member", description: "Default permission for team members", containedPermissionIds: ["$invite_members", "$read_members"] },
  {
    id: "team_admin",
    description: "Default permission for team admins",
    containedPermissionIds: ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"]
  }
]

/** Custom permission ids (`^[a-z0-9_:]+$`). */
export const customPermissionIdPattern = /^[a-z0-9_:]+$/

/** The permission state of a new project: the system team permissions and the seeded team definitions, no grants. */
export const seedPermissionState = (): PermissionState => {
  const teamDefinitions = new Map<string, PermissionDefinitionRecord>()
  for (const id of systemTeamPermissionIds) {
    teamDefinitions.set(id, { id, description: systemPermissionDescriptions[id], containedPermissionIds: [] })
  }
  for (const definition of seededTeamDefinitions) {
    teamDefinitions.set(definition.id, { ...definition, containedPermissionIds: [...definition.containedPermissionIds] })
  }
  return { teamDefinitions, projectDefinitions: new Map(), teamGrants: new Map(), projectGrants: new Map() }
}

/** The permission state of a project (its `permissions` table). */
export const permissionsOf = (project: ProjectRecord): PermissionState => project.permissions

/** The definitions of a scope, by id. */
export const definitionsOf = (project: ProjectRecord, scope: PermissionScope): Map<string, PermissionDefinitionRecord> => {
  const state = permissionsOf(project)
  return scope === "team" ? state.teamDefinitions : state.projectDefinitions
}

/**
 * The ids reachable from `ids` through containment in one scope, `ids` included (each id once;
 * ids without a definition are kept but contain nothing).
 */
export const closure = (definitions: ReadonlyMap<string, PermissionDefinitionRecord>, ids: Iterable<string>): Set<string> => {
  const seen = new Set<string>()
  const pending = [...ids]
  while (pending.length > 0) {
    const id = pending.pop() as string
    if (seen.has(id)) continue
    seen.add(id)
    for (const contained of definitions.get(id)?.containedPermissionIds ?? []) pending.push(contained)
  }
  return seen
}

/** The permission ids granted directly to a user in a team (a fresh set). */
export const directTeamPermissions = (project: ProjectRecord, teamId: string, userId: string): Set<string> =>
  new Set(permissionsOf(project).teamGrants.get(teamId)?.get(userId) ?? [])

/** The permission ids granted directly to a user at project scope (a fresh set). */
export const directProjectPermissions = (project: ProjectRecord, userId: string): Set<string> => new Set(permissionsOf(project).projectGrants.get(userId) ?? [])

/** The permission ids a user holds in a team: direct only, or with everything they contain. */
export const teamPermissions = (project: ProjectRecord, teamId: string, userId: string, recursive: boolean): Set<string> => {
  const direct = directTeamPermissions(project, teamId, userId)
  return recursive ? closure(permissionsOf(project).teamDefinitions, direct) : direct
}

/** The project permission ids a user holds: direct only, or with everything they contain. */
export const projectPermissions = (project: ProjectRecord, userId: string, recursive: boolean): Set<string> => {
  const direct = directProjectPermissions(project, userId)
  return recursive ? closure(permissionsOf(project).projectDefinitions, direct) : direct
}

/** Whether a user holds a team permission, directly or through containment. */
export const hasTeamPermission = (project: ProjectRecord, teamId: string, userId: string, permissionId: string): boolean =>
  teamPermissions(project, teamId, userId, true).has(permissionId)

/** Whether a user holds a project permission, directly or through containment. */
export const hasProjectPermission = (project: ProjectRecord, userId: string, permissionId: string): boolean =>
  projectPermissions(project, userId, true).has(permissionId)

/** Grants a team permission directly (idempotent). The caller checks membership and the definition. */
export const grantTeam = (project: ProjectRecord, teamId: string, userId: string, permissionId: string): void => {
  const grants = permissionsOf(project).teamGrants
  let byUser = grants.get(teamId)
  if (byUser === undefined) grants.set(teamId, byUser = new Map())
  let ids = byUser.get(userId)
  if (ids === undefined) byUser.set(userId, ids = new Set())
  ids.add(permissionId)
}

/** Removes a direct team grant; whether there was one. */
export const revokeTeam = (project: ProjectRecord, teamId: string, userId: string, permissionId: string): boolean =>
  permissionsOf(project).teamGrants.get(teamId)?.get(userId)?.delete(permissionId) ?? false

/** Grants a project permission directly (idempotent). The caller checks the user and the definition. */
export const grantProject = (project: ProjectRecord, userId: string, permissionId: string): void => {
  const grants = permissionsOf(project).projectGrants
  let ids = grants.get(userId)
  if (ids === undefined) grants.set(userId, ids = new Set())
  ids.add(permissionId)
}

/** Removes a direct project grant; whether there was one. */
export const revokeProject = (project: ProjectRecord, userId: string, permissionId: string): boolean =>
  permissionsOf(project).projectGrants.get(userId)?.delete(permissionId) ?? false

/**
 * Grants the project's default team permissions to a new member: `creator` for the user who
 * created the team, `member` for everyone who joins. Ids without a definition are skipped.
 */
export const grantTeamDefaults = (project: ProjectRecord, teamId: string, userId: string, role: "creator" | "member"): void => {
  const configured = role === "creator" ? project.config.teamCreatorDefaultPermissions : project.config.teamMemberDefaultPermissions
  const ids = configured ?? [role === "creator" ? "team_admin" : "team_member"]
  const definitions = permissionsOf(project).teamDefinitions
  for (const id of ids) if (definitions.has(id)) grantTeam(project, teamId, userId, id)
}

/** Grants the project's default user permissions (`user_default_permissions`) to a new user. */
export const grantUserDefaults = (project: ProjectRecord, userId: string): void => {
  const definitions = permissionsOf(project).projectDefinitions
  for (const id of project.config.userDefaultPermissions ?? []) if (definitions.has(id)) grantProject(project, userId, id)
}

/** Drops every team grant of a user in a team (on leaving or removal). */
export const forgetMember = (project: ProjectRecord, teamId: string, userId: string): void => {
  permissionsOf(project).teamGrants.get(teamId)?.delete(userId)
}

/** Drops every grant in a team (on team deletion). */
export const forgetTeam = (project: ProjectRecord, teamId: string): void => {
  permissionsOf(project).teamGrants.delete(teamId)
}

/** Drops every grant of a user, team and project scope (on user deletion). */
export const forgetUser = (project: ProjectRecord, userId: string): void => {
  const state = permissionsOf(project)
  state.projectGrants.delete(userId)
  for (const byUser of state.teamGrants.values()) byUser.delete(userId)
}

/**
 * Renames a definition of a scope: the new id replaces the old one in every contained list and
 * every grant. The caller checks that the new id is free.
 */
export const renameDefinition = (project: ProjectRecord, scope: PermissionScope, fromId: string, toId: string): void => {
  const definitions = definitionsOf(project, scope)
  const definition = definitions.get(fromId)
  if (definition === undefined || fromId === toId) return
  definitions.delete(fromId)
  definition.id = toId
  definitions.set(toId, definition)
  for (const other of definitions.values()) {
    other.containedPermissionIds = other.containedPermissionIds.map((id) => (id === fromId ? toId : id))
  }
  for (const ids of grantSets(project, scope)) {
    if (ids.delete(fromId)) ids.add(toId)
  }
}

/** Deletes a definition of a scope with its grants and every containment of it. */
export const deleteDefinition = (project: ProjectRecord, scope: PermissionScope, id: string): boolean => {
  const definitions = definitionsOf(project, scope)
  if (!definitions.delete(id)) return false
  for (const other of definitions.values()) {
    other.containedPermissionIds = other.containedPermissionIds.filter((contained) => contained !== id)
  }
  for (const ids of grantSets(project, scope)) ids.delete(id)
  return true
}

const grantSets = (project: ProjectRecord, scope: PermissionScope): Array<Set<string>> => {
  const state = permissionsOf(project)
  return scope === "project"
    ? [...state.projectGrants.values()]
    : [...state.teamGrants.values()].flatMap((byUser) => [...byUser.values()])
}
