/**
 * The emulator's store: how its state (the tables of `State.ts`) is made, written and kept
 * consistent.
 *
 * - {@link makeState} and {@link makeProject} create every table up front: a project holds its
 *   users, sessions, codes, teams, member profiles, e-mail templates, themes, drafts and queue, API keys, permissions and
 *   config overrides (one per level)
 *   from the start, and the state holds the tables that span projects (CLI attempts, OAuth flows
 *   and codes, the mock provider's codes, the outbox). Nothing is created on first use and
 *   nothing lives beside the state.
 * - {@link serialized}: every handler runs holding the state's one write permit (the router
 *   takes it), so what a handler checks is still true when it writes, even when it yields in
 *   between (hashing a password, generating keys): concurrent conflicting writes are applied one
 *   after the other.
 * - The cascades, in one place: {@link deleteUser}, {@link deleteTeam}, {@link removeMember},
 *   {@link deleteProject}. Nothing that belonged to what was deleted keeps working afterwards.
 *
 * @module
 */
import type { Effect } from "effect"
import { Semaphore } from "effect"
import { attachDerivedConfig, emptyOverrides } from "./ConfigOverrides.js"
import { defaultTemplates } from "./EmailTemplates.js"
import { defaultThemes } from "./rendering/Themes.js"
import { forgetMember, forgetTeam, forgetUser, seedPermissionState } from "./Permissions.js"
import type { ProjectSigningKeys } from "./SigningKeys.js"
import type { EmulatorState, ProjectConfig, ProjectKeySet, ProjectRecord, TeamRecord } from "./State.js"
import { memberProfileKey } from "./State.js"

/** An empty state: no project, every cross-project table empty, the write permit free. */
export const makeState = (): EmulatorState => ({
  projects: new Map(),
  outbox: [],
  cliAttempts: new Map(),
  oauthFlows: new Map(),
  oauthCodes: new Map(),
  providerCodes: new Map(),
  writeLock: Semaphore.makeUnsafe(1)
})

/** What a new project is made of; its tables start empty (templates and permissions seeded). */
export interface NewProject {
  readonly id: string
  readonly displayName: string
  readonly description: string
  readonly createdAtMillis: number
  readonly requiresPublishableClientKey: boolean
  readonly config: ProjectConfig
  readonly keys: ReadonlyArray<ProjectKeySet>
  readonly signingKeys: ProjectSigningKeys
  readonly ownerUserIds?: Iterable<string>
  readonly ownerTeamId?: string | null
  readonly accessTokenLifetimeSeconds?: number
  readonly isProductionMode?: boolean
  readonly onboardingStatus?: string
}

/**
 * A project with every table: no users, sessions, codes, teams, profiles or API keys; the
 * service's default e-mail templates; the system team permissions. Not added to the state.
 */
export const makeProject = (input: NewProject): ProjectRecord => {
  const project: ProjectRecord = {
    id: input.id,
    displayName: input.displayName,
    description: input.description,
    createdAtMillis: input.createdAtMillis,
    requiresPublishableClientKey: input.requiresPublishableClientKey,
    config: input.config,
    keys: [...input.keys],
    signingKeys: input.signingKeys,
    ownerUserIds: new Set(input.ownerUserIds ?? []),
    ownerTeamId: input.ownerTeamId ?? null,
    ...(input.accessTokenLifetimeSeconds !== undefined ? { accessTokenLifetimeSeconds: input.accessTokenLifetimeSeconds } : {}),
    ...(input.isProductionMode !== undefined ? { isProductionMode: input.isProductionMode } : {}),
    ...(input.onboardingStatus !== undefined ? { onboardingStatus: input.onboardingStatus } : {}),
    users: new Map(),
    sessions: new Map(),
    codes: new Map(),
    teams: new Map(),
    teamMemberProfiles: new Map(),
    emailTemplates: new Map(defaultTemplates.map((template) => [template.id, { ...template }])),
    apiKeys: new Map(),
    permissions: seedPermissionState(),
    configOverrides: emptyOverrides(),
    configSource: { type: "unlinked" },
    emailThemes: new Map([...defaultThemes].map(([id, theme]) => [id, { id, displayName: theme.displayName, tsxSource: theme.tsxSource }])),
    emailDrafts: new Map(),
    emailQueue: new Map(),
    managedEmailDomains: new Map()
  }
  // the config lives in the overrides: the starting config is written there, as the service writes a new project's
  attachDerivedConfig(project, input.config, input.requiresPublishableClientKey)
  return project
}

/** Runs `effect` holding the state's write permit: one handler at a time checks and writes. */
export const serialized = <A, Err, R>(state: EmulatorState, effect: Effect.Effect<A, Err, R>): Effect.Effect<A, Err, R> => state.writeLock.withPermit(effect)

/**
 * Removes a member from a team: the membership, their grants in the team, their team profile
 * and, if it was this team, their selection.
 */
export const removeMember = (project: ProjectRecord, team: TeamRecord, userId: string): void => {
  team.memberUserIds.delete(userId)
  project.teamMemberProfiles.delete(memberProfileKey(team.id, userId))
  forgetMember(project, team.id, userId)
  const user = project.users.get(userId)
  if (user !== undefined && user.selectedTeamId === team.id) user.selectedTeamId = null
}

/**
 * Deletes a team with everything that hangs on it: its memberships and member profiles, the
 * grants in it, its pending invitations, its team API keys and every selection of it.
 */
export const deleteTeam = (project: ProjectRecord, teamId: string): void => {
  project.teams.delete(teamId)
  for (const [key, profile] of project.teamMemberProfiles) if (profile.teamId === teamId) project.teamMemberProfiles.delete(key)
  forgetTeam(project, teamId)
  for (const [code, record] of project.codes) if (record.purpose === "team_invitation" && record.teamId === teamId) project.codes.delete(code)
  for (const [id, key] of project.apiKeys) if (key.type === "team" && key.ownerId === teamId) project.apiKeys.delete(id)
  for (const user of project.users.values()) if (user.selectedTeamId === teamId) user.selectedTeamId = null
}

/**
 * Removes a user of `project` and everything that belongs to it (`DELETE /users/{id}`,
 * `DELETE /users/me`): nothing the user held may keep working after it is gone.
 *
 * - the user record itself, and with it its contact channels, OAuth connections (provider
 *   accounts) and passkey;
 * - its sessions (refresh tokens; access tokens already issued stay valid until they expire, as
 *   on the service, but no longer find a user);
 * - every one-time code issued for it (e-mail verification, password reset, magic link, MFA
 *   attempt, passkey challenges);
 * - its user API keys (`/user-api-keys/check` answers `API_KEY_NOT_FOUND` afterwards);
 * - its team memberships and team member profiles, and its team and project permission grants;
 * - its pending OAuth flows (`type=link` / anonymous upgrade) and unused OAuth authorization codes;
 * - CLI login attempts completed with one of its sessions (polling them then answers
 *   `INVALID_POLLING_CODE`), and anonymous sessions offered to a CLI attempt;
 * - for a user of the `internal` project: its ownership of every project (`ownerUserIds`).
 *
 * Team invitations are not the sender's (the service keeps no sender on them) and stay; teams
 * themselves stay, without the member. E-mails already in the outbox stay.
 */
export const deleteUser = (state: EmulatorState, project: ProjectRecord, userId: string): void => {
  project.users.delete(userId)

  const refreshTokens = new Set<string>()
  for (const [id, session] of project.sessions) {
    if (session.userId !== userId) continue
    refreshTokens.add(session.refreshToken)
    project.sessions.delete(id)
  }
  for (const [pollingCode, attempt] of state.cliAttempts) {
    if (attempt.projectId !== project.id) continue
    if (attempt.refreshToken !== null && refreshTokens.has(attempt.refreshToken)) state.cliAttempts.delete(pollingCode)
    else if (attempt.anonRefreshToken !== null && refreshTokens.has(attempt.anonRefreshToken)) {
      state.cliAttempts.set(pollingCode, { ...attempt, anonRefreshToken: null })
    }
  }

  for (const [code, record] of project.codes) if (record.userId === userId) project.codes.delete(code)
  for (const [id, key] of project.apiKeys) if (key.type === "user" && key.ownerId === userId) project.apiKeys.delete(id)

  for (const team of project.teams.values()) team.memberUserIds.delete(userId)
  for (const [key, profile] of project.teamMemberProfiles) if (profile.userId === userId) project.teamMemberProfiles.delete(key)
  forgetUser(project, userId)

  for (const [innerState, flow] of state.oauthFlows) {
    if (flow.projectId === project.id && flow.tokenUserId === userId) state.oauthFlows.delete(innerState)
  }
  for (const [code, record] of state.oauthCodes) {
    if (record.projectId === project.id && record.userId === userId) state.oauthCodes.delete(code)
  }

  if (project.id === "internal") {
    for (const owned of state.projects.values()) owned.ownerUserIds.delete(userId)
  }
}

/**
 * Deletes a project (`DELETE /internal/projects/current`) with the cross-project rows that are
 * its own: its CLI login attempts, OAuth flows and OAuth authorization codes. Its e-mails stay in
 * the outbox.
 */
export const deleteProject = (state: EmulatorState, projectId: string): void => {
  state.projects.delete(projectId)
  for (const [pollingCode, attempt] of state.cliAttempts) if (attempt.projectId === projectId) state.cliAttempts.delete(pollingCode)
  for (const [innerState, flow] of state.oauthFlows) if (flow.projectId === projectId) state.oauthFlows.delete(innerState)
  for (const [code, record] of state.oauthCodes) if (record.projectId === projectId) state.oauthCodes.delete(code)
}
