/**
 * Teams in the emulator (PROTOCOL.md §3.0 "Team", §3.4): the checks the service makes before
 * touching a team (user exists → membership → permission, in that order), creating a team with
 * its creator, adding members (with the project's default team permissions; removing a member
 * and deleting a team are cascades of `Store.ts`), and the wire views:
 * team (client/server), member profile (client/server) and users whose `selected_team` is real.
 *
 * @module
 */
import { Effect } from "effect"
import { TeamMembershipNotFound, TeamNotFound, TeamPermissionRequired, UserNotFound } from "../core/KnownErrors.js"
import type { ServerTeamMemberProfile, TeamMemberProfile } from "../teams/TeamMemberProfiles.js"
import type { TeamInvitation } from "../teams/TeamInvitations.js"
import type { ClientTeam, CurrentUser, ServerTeam, ServerUser } from "../users/User.js"
import { grantTeamDefaults, hasTeamPermission } from "./Permissions.js"
import { randomUuid } from "./Random.js"
import type { ProjectRecord, TeamMemberProfileRecord, TeamRecord, UserRecord } from "./State.js"
import { memberProfileKey, teamsOf } from "./State.js"
import { toCurrentUser, toServerUser } from "./UserViews.js"

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/** The team, or `TEAM_NOT_FOUND`. */
export const findTeam = (project: ProjectRecord, teamId: string): Effect.Effect<TeamRecord, TeamNotFound> => {
  const team = teamsOf(project).get(teamId)
  return team === undefined ? Effect.fail(TeamNotFound.make({ team_id: teamId })) : Effect.succeed(team)
}

/** The user, or `USER_NOT_FOUND`. */
export const findUser = (project: ProjectRecord, userId: string): Effect.Effect<UserRecord, UserNotFound> => {
  const user = project.users.get(userId)
  return user === undefined ? Effect.fail(UserNotFound.make({})) : Effect.succeed(user)
}

/** Whether a user is a member of a team (false for a team that does not exist). */
export const isMember = (project: ProjectRecord, teamId: string, userId: string): boolean => teamsOf(project).get(teamId)?.memberUserIds.has(userId) ?? false

/**
 * The service's membership check: the user must exist (`USER_NOT_FOUND`) and be a member
 * (`TEAM_MEMBERSHIP_NOT_FOUND`, also when the team does not exist).
 */
export const ensureMember = (
  project: ProjectRecord,
  teamId: string,
  userId: string
): Effect.Effect<void, UserNotFound | TeamMembershipNotFound> =>
  Effect.gen(function* () {
    yield* findUser(project, userId)
    if (!isMember(project, teamId, userId)) return yield* Effect.fail(TeamMembershipNotFound.make({ team_id: teamId, user_id: userId }))
  })

/**
 * The service's permission check: membership first ({@link ensureMember}), then the permission,
 * held directly or through containment (`TEAM_PERMISSION_REQUIRED`).
 */
export const ensurePermission = (
  project: ProjectRecord,
  teamId: string,
  userId: string,
  permissionId: string
): Effect.Effect<void, UserNotFound | TeamMembershipNotFound | TeamPermissionRequired> =>
  Effect.gen(function* () {
    yield* ensureMember(project, teamId, userId)
    if (!hasTeamPermission(project, teamId, userId, permissionId)) {
      return yield* Effect.fail(TeamPermissionRequired.make({ team_id: teamId, user_id: userId, permission_id: permissionId }))
    }
  })

// ---------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------

/** What a new team holds. */
export interface NewTeam {
  readonly displayName: string
  readonly profileImageUrl?: string | null | undefined
  readonly clientMetadata?: unknown
  readonly clientReadOnlyMetadata?: unknown
  readonly serverMetadata?: unknown
}

/** Adds a user to a team with the project's default team permissions for `role`. The caller checks both exist. */
export const addMember = (project: ProjectRecord, team: TeamRecord, userId: string, role: "creator" | "member"): void => {
  team.memberUserIds.add(userId)
  grantTeamDefaults(project, team.id, userId, role)
}

/**
 * Creates a team; with a creator, the creator joins with the team-creator default permissions.
 * The caller checks that the creator exists.
 */
export const createTeam = (project: ProjectRecord, input: NewTeam, nowMillis: number, creatorUserId?: string): TeamRecord => {
  const team: TeamRecord = {
    id: randomUuid(),
    displayName: input.displayName,
    createdAtMillis: nowMillis,
    memberUserIds: new Set(),
    profileImageUrl: input.profileImageUrl ?? null,
    clientMetadata: input.clientMetadata ?? null,
    clientReadOnlyMetadata: input.clientReadOnlyMetadata ?? null,
    serverMetadata: input.serverMetadata ?? null
  }
  teamsOf(project).set(team.id, team)
  if (creatorUserId !== undefined) addMember(project, team, creatorUserId, "creator")
  return team
}

/** Applies the given fields to a team (undefined: unchanged). */
export const applyTeamUpdate = (
  team: TeamRecord,
  update: { readonly displayName?: string | undefined } & Omit<NewTeam, "displayName">
): void => {
  if (update.displayName !== undefined) team.displayName = update.displayName
  if (update.profileImageUrl !== undefined) team.profileImageUrl = update.profileImageUrl
  if (update.clientMetadata !== undefined) team.clientMetadata = update.clientMetadata
  if (update.clientReadOnlyMetadata !== undefined) team.clientReadOnlyMetadata = update.clientReadOnlyMetadata
  if (update.serverMetadata !== undefined) team.serverMetadata = update.serverMetadata
}

/** The name of a personal team created for a user with neither display name nor e-mail (e.g. anonymous). */
export const personalTeamDefaultName = "Personal Team"

/** The display name of a user's personal team (the service's rule). */
export const personalTeamName = (user: Pick<UserRecord, "displayName" | "primaryEmail">): string =>
  user.displayName !== null && user.displayName !== ""
    ? `${user.displayName}'s Team`
    : user.primaryEmail !== null && user.primaryEmail !== ""
    ? `${user.primaryEmail}'s Team`
    : personalTeamDefaultName

/**
 * When an anonymous user is upgraded: its teams still named {@link personalTeamDefaultName} are
 * renamed after the given display name / e-mail (the service's rule).
 */
export const renamePersonalTeams = (
  project: ProjectRecord,
  userId: string,
  names: Pick<UserRecord, "displayName" | "primaryEmail">
): void => {
  for (const team of teamsOf(project).values()) {
    if (team.memberUserIds.has(userId) && team.displayName === personalTeamDefaultName) team.displayName = personalTeamName(names)
  }
}

/**
 * When the project's `create_team_on_sign_up` is on: creates the new user's personal team (the
 * user as creator) and selects it. Call once the user is in `project.users`. Every way a user
 * is created calls it (sign-ups and `POST /users` with server access alike), as the service's
 * `createPersonalTeamIfEnabled` in `users/crud.tsx` runs in the users' `onCreate`.
 */
export const createPersonalTeamIfEnabled = (project: ProjectRecord, user: UserRecord, nowMillis: number): void => {
  if (!project.config.createTeamOnSignUp) return
  const team = createTeam(project, { displayName: personalTeamName(user) }, nowMillis, user.id)
  user.selectedTeamId = team.id
}

/** The profile a member set in a team; an empty one (both fields null) is added when there is none. */
export const profileRecordOf = (project: ProjectRecord, team: TeamRecord, userId: string): TeamMemberProfileRecord => {
  const key = memberProfileKey(team.id, userId)
  const existing = project.teamMemberProfiles.get(key)
  if (existing !== undefined) return existing
  const record: TeamMemberProfileRecord = { teamId: team.id, userId, displayName: null, profileImageUrl: null }
  project.teamMemberProfiles.set(key, record)
  return record
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

/** The client view of a team. */
export const clientTeamView = (team: TeamRecord): ClientTeam => ({
  id: team.id,
  displayName: team.displayName,
  profileImageUrl: team.profileImageUrl ?? null,
  clientMetadata: team.clientMetadata ?? null,
  clientReadOnlyMetadata: team.clientReadOnlyMetadata ?? null
})

/** The server view of a team. */
export const serverTeamView = (team: TeamRecord): ServerTeam => ({
  ...clientTeamView(team),
  createdAt: new Date(team.createdAtMillis),
  serverMetadata: team.serverMetadata ?? null
})

/** A project's teams, oldest first (creation order among equal instants). */
export const teamsInOrder = (project: ProjectRecord): ReadonlyArray<TeamRecord> =>
  [...teamsOf(project).values()].sort((a, b) => a.createdAtMillis - b.createdAtMillis)

/** The team a user has selected, if it still exists and the user is still a member. */
export const selectedTeamOf = (project: ProjectRecord, user: UserRecord): TeamRecord | undefined => {
  if (user.selectedTeamId === null) return undefined
  const team = teamsOf(project).get(user.selectedTeamId)
  return team !== undefined && team.memberUserIds.has(user.id) ? team : undefined
}

/** The client view of a user with its real selected team. */
export const currentUserView = (project: ProjectRecord, user: UserRecord): CurrentUser => {
  const team = selectedTeamOf(project, user)
  return { ...toCurrentUser(user, project.config), selectedTeamId: team?.id ?? null, selectedTeam: team === undefined ? null : clientTeamView(team) }
}

/** The server view of a user with its real selected team (server team view). */
export const serverUserView = (project: ProjectRecord, user: UserRecord): ServerUser => {
  const team = selectedTeamOf(project, user)
  return { ...toServerUser(user, project.config), selectedTeamId: team?.id ?? null, selectedTeam: team === undefined ? null : serverTeamView(team) }
}

/** A member's profile in a team, client view: the team profile's values, else the user's own. */
export const profileView = (project: ProjectRecord, team: TeamRecord, user: UserRecord): TeamMemberProfile => {
  const record = project.teamMemberProfiles.get(memberProfileKey(team.id, user.id))
  return {
    teamId: team.id,
    userId: user.id,
    displayName: record?.displayName ?? user.displayName,
    profileImageUrl: record?.profileImageUrl ?? user.profileImageUrl
  }
}

/** A member's profile in a team, server view (adds the server-view user). */
export const serverProfileView = (project: ProjectRecord, team: TeamRecord, user: UserRecord): ServerTeamMemberProfile => ({
  ...profileView(project, team, user),
  user: serverUserView(project, user)
})

/** The members of a team that still exist, in joining order. */
export const membersOf = (project: ProjectRecord, team: TeamRecord): ReadonlyArray<UserRecord> =>
  [...team.memberUserIds].flatMap((userId) => {
    const user = project.users.get(userId)
    return user === undefined ? [] : [user]
  })

/** A team's pending invitations (unused, unexpired), oldest first. */
export const pendingInvitations = (project: ProjectRecord, team: TeamRecord, nowMillis: number): ReadonlyArray<TeamInvitation> =>
  [...project.codes.values()]
    .filter(
      (record) =>
        record.purpose === "team_invitation" &&
        record.teamId === team.id &&
        record.usedAtMillis === undefined &&
        record.expiresAtMillis >= nowMillis
    )
    .map((record) => ({
      id: record.invitationId ?? record.code,
      teamId: team.id,
      teamDisplayName: team.displayName,
      recipientEmail: record.email ?? "",
      expiresAt: new Date(record.expiresAtMillis)
    }))
