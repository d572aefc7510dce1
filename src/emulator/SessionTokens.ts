/**
 * Sessions and the tokens handed out for them: a new session (refresh token, one year), an
 * access token minted for a session, the sign-in answer `{access_token, refresh_token, user_id}`.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import type { SignInTokens } from "../auth/Tokens.js"
import { mintAccessToken } from "./AccessTokens.js"
import { endUserIpInfo } from "./EndUserIpInfo.js"
import { randomToken45, randomUuid } from "./Random.js"
import type { RequestContext } from "./RequestContext.js"
import type { ProjectRecord, SessionRecord, UserRecord } from "./State.js"

/** Opens a session for a user. */
export const createSession = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  options: { readonly expiresInMillis?: number; readonly isImpersonation?: boolean } = {}
): SessionRecord => {
  const session: SessionRecord = {
    id: randomUuid(),
    refreshToken: randomToken45(),
    userId: user.id,
    createdAtMillis: context.nowMillis,
    lastUsedAtMillis: context.nowMillis,
    expiresAtMillis: context.nowMillis + (options.expiresInMillis ?? context.env.settings.refreshTokenLifetimeMillis),
    isImpersonation: options.isImpersonation ?? false
  }
  project.sessions.set(session.id, session)
  return session
}

/**
 * Mints an access token for a session of a user, now. As the service, it records where the
 * request's end user is (`EndUserIpInfo`) on the session when the request has one, and keeps the
 * previous record otherwise.
 */
export const accessTokenFor = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  session: SessionRecord
): Effect.Effect<string> => {
  const ipInfo = endUserIpInfo(context.request.headers)
  if (ipInfo !== undefined) session.lastUsedIpInfo = ipInfo
  return mintAccessToken({
    apiBase: context.apiBase,
    project,
    user,
    session,
    nowMillis: context.nowMillis,
    // the project's own lifetime (ProjectOptions.accessTokenLifetimeSeconds), else the emulator's
    lifetimeSeconds: project.accessTokenLifetimeSeconds ?? context.env.settings.accessTokenLifetimeSeconds
  })
}

/** Opens a session and answers as the sign-in endpoints do. */
export const signIn = (context: RequestContext, project: ProjectRecord, user: UserRecord): Effect.Effect<SignInTokens> => {
  const session = createSession(context, project, user)
  user.lastActiveAtMillis = context.nowMillis
  return Effect.map(accessTokenFor(context, project, user, session), (accessToken) => ({
    accessToken: Redacted.make(accessToken),
    refreshToken: Redacted.make(session.refreshToken),
    userId: user.id
  }))
}
