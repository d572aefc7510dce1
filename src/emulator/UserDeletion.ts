/**
 * Deleting a user removes everything that belongs to it, in one place (`DELETE /users/{id}`,
 * `DELETE /users/me`): nothing the user held may keep working after it is gone.
 *
 * What goes with the user:
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
 *
 * @module
 */
import { apiKeysOf } from "./ApiKeys.js"
import { forgetUser as forgetGrants } from "./Permissions.js"
import { forgetOAuthUser } from "./routes/oauth.js"
import type { EmulatorState, ProjectRecord } from "./State.js"

/** Removes a user of `project` and everything that belongs to it (see the module description). */
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

  if (project.apiKeys !== undefined) {
    const keys = apiKeysOf(project)
    for (const [id, key] of keys) if (key.type === "user" && key.ownerId === userId) keys.delete(id)
  }

  for (const team of project.teams?.values() ?? []) {
    team.memberUserIds.delete(userId)
    team.memberProfiles?.delete(userId)
  }
  if (project.permissions !== undefined) forgetGrants(project, userId)

  forgetOAuthUser(state, project.id, userId)

  if (project.id === "internal") {
    for (const owned of state.projects.values()) owned.ownerUserIds.delete(userId)
  }
}
