/**
 * Sessions (PROTOCOL.md §3.0 "Session", §3.1): sign-out (`DELETE /auth/sessions/current`),
 * anonymous sign-up, the user's active sessions (`GET /auth/sessions?user_id=`,
 * `DELETE /auth/sessions/{id}?user_id=`) and server-created sessions (`POST /auth/sessions`),
 * all from the SDK's definitions.
 *
 * Lists are newest first and leave out expired sessions; impersonation sessions are listed only
 * with admin access. Client access reaches only its own user (`me` or its id; another id is a
 * 403 text). The current session cannot be deleted by id (`CANNOT_DELETE_CURRENT_SESSION`); an
 * unknown id is a 404 text "Session not found.".
 *
 * A session lists `last_used_at_end_user_ip_info` (`{ ip, countryCode?, regionCode?, cityName?,
 * latitude?, longitude?, tzIdentifier? }`) once an access token was minted for it by a request
 * with an end user (`EndUserIpInfo`: a browser's request through a proxy that names its IP); the
 * backend's sessions crud reads it from the refresh token's `lastActiveAtIpInfo`, which
 * `lib/tokens.tsx` sets at every access-token mint whose request has an end user and keeps
 * otherwise. A local request without proxy headers (127.0.0.1) leaves it out.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import { signUpEndpoint as anonymousSignUpEndpoint } from "../../auth/internal/anonymous.js"
import { defaultSessionLifetimeMillis } from "../../auth/ServerSessions.js"
import {
  adminListForUserEndpoint,
  createEndpoint,
  deleteCurrentEndpoint,
  listEndpoint,
  listForUserEndpoint,
  revokeEndpoint,
  revokeForUserEndpoint
} from "../../auth/internal/sessions.js"
import type { ActiveSession } from "../../auth/Sessions.js"
import { CannotDeleteCurrentSession, CannotGetOwnUserWithoutUser, RefreshTokenNotFoundOrExpired, UserIdDoesNotExist } from "../../core/KnownErrors.js"
import { accessTokenExpired } from "../ProjectAuth.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { accessTokenFor, createSession, signIn } from "../SessionTokens.js"
import type { UserRecord } from "../State.js"
import { grantUserDefaults } from "../Permissions.js"
import { createPersonalTeamIfEnabled } from "../Teams.js"
import { makeUser } from "../State.js"

/**
 * The user a session route addresses: `me` (the signed-in user) or an id. Client access may
 * only address its own user. `undefined` for an id no user has.
 */
const addressedUser = (
  context: RequestContext,
  userId: string
): Effect.Effect<UserRecord | undefined, CannotGetOwnUserWithoutUser | TextFailure> => {
  if (userId === "me") return requireMe(context)
  if (context.auth?.type === "client" && context.auth.user?.id !== userId) {
    return Effect.fail(new TextFailure({ status: 403, text: "Client can only list sessions for their own user." }))
  }
  return Effect.succeed(projectOf(context).users.get(userId))
}

const listSessions = ({ query }: { readonly query: { readonly userId: string } }, context: RequestContext) =>
  Effect.gen(function* () {
    const user = yield* addressedUser(context, query.userId)
    const currentId = context.auth?.accessToken?.refresh_token_id
    const admin = context.auth?.type === "admin"
    const items: Array<ActiveSession> = user === undefined ? [] : [...projectOf(context).sessions.values()]
      .filter((session) => session.userId === user.id && session.expiresAtMillis > context.nowMillis)
      .filter((session) => admin || !session.isImpersonation)
      .sort((a, b) => b.createdAtMillis - a.createdAtMillis || (a.id < b.id ? 1 : -1))
      .map((session) => ({
        id: session.id,
        userId: session.userId,
        createdAt: new Date(session.createdAtMillis),
        lastUsedAt: new Date(session.lastUsedAtMillis),
        isImpersonation: session.isImpersonation,
        isCurrentSession: session.id === currentId,
        ...(session.lastUsedIpInfo === undefined ? {} : { geoInfo: session.lastUsedIpInfo })
      }))
    return { items, isPaginated: false as const }
  })

const revokeSession = (
  { params, query }: { readonly params: { readonly sessionId: string }; readonly query: { readonly userId: string } },
  context: RequestContext
) =>
  Effect.gen(function* () {
    const project = projectOf(context)
    // the service resolves `me` (CANNOT_GET_OWN_USER_WITHOUT_USER without a user), then looks the
    // session up by id alone; client access may only revoke its user's (`auth/sessions/crud.tsx` onDelete at 2f719903)
    if (query.userId === "me") yield* requireMe(context)
    const session = project.sessions.get(params.sessionId)
    const owner = context.auth?.type === "client" ? context.auth.user?.id : session?.userId
    if (session === undefined || session.userId !== owner || session.expiresAtMillis <= context.nowMillis) {
      return yield* Effect.fail(new TextFailure({ status: 404, text: "Session not found." }))
    }
    if (session.id === context.auth?.accessToken?.refresh_token_id) return yield* Effect.fail(CannotDeleteCurrentSession.make({}))
    project.sessions.delete(session.id)
    return { success: true as const }
  })

/** The session routes. */
export const routes = [
  route(
    deleteCurrentEndpoint,
    (_input, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        const claims = context.auth?.accessToken
        if (claims === undefined) {
          // The service answers this way when the request carries no session to delete.
          return yield* Effect.fail(
            accessTokenExpired({ expired_at_millis: context.nowMillis, project_id: null, user_id: null, refresh_token_id: null })
          )
        }
        if (!project.sessions.delete(claims.refresh_token_id)) {
          return yield* Effect.fail(RefreshTokenNotFoundOrExpired.make({}))
        }
        return { success: true }
      }),
    { emptyBody: {} }
  ),
  route(anonymousSignUpEndpoint, (_input, context) =>
    Effect.suspend(() => {
      const project = projectOf(context)
      const user = makeUser(randomUuid(), context.nowMillis)
      user.isAnonymous = true
      project.users.set(user.id, user)
      grantUserDefaults(project, user.id)
      createPersonalTeamIfEnabled(project, user, context.nowMillis)
      return signIn(context, project, user)
    })),
  route(listEndpoint, listSessions),
  route(listForUserEndpoint, listSessions),
  route(adminListForUserEndpoint, listSessions),
  route(revokeEndpoint, revokeSession),
  route(revokeForUserEndpoint, revokeSession),
  route(createEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = payload.userId === "me" ? yield* requireMe(context) : project.users.get(payload.userId)
      if (user === undefined) return yield* Effect.fail(UserIdDoesNotExist.make({ user_id: payload.userId }))
      const session = createSession(context, project, user, {
        expiresInMillis: payload.expiresInMillis ?? defaultSessionLifetimeMillis,
        isImpersonation: payload.isImpersonation ?? false
      })
      const accessToken = yield* accessTokenFor(context, project, user, session)
      return { accessToken: Redacted.make(accessToken), refreshToken: Redacted.make(session.refreshToken) }
    }))
]
