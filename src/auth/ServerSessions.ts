/**
 * Any user's sessions, by user id, with server access (PROTOCOL.md §3.1, §5.1): the same calls as
 * `Sessions` (the signed-in user's) taking the user's id first, and sessions a server creates for
 * a user (impersonation, handing tokens to another app). Impersonation sessions are left out of
 * {@link list}; `AdminSessions.list` includes them.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { createEndpoint, listForUserEndpoint, revokeForUserEndpoint } from "./internal/sessions.js"

/** The domain's schemas, defined with its wire definitions (`internal/sessions.ts`). */
export { CreatedSession, maxSessionLifetimeMillis } from "./internal/sessions.js"

/**
 * A user's active sessions, newest first (server access; impersonation sessions are left out, see
 * `AdminSessions.list`). `GET /auth/sessions?user_id=<id>`.
 */
export const list = Effect.fn("ServerSessions.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(listForUserEndpoint, { query: { userId } })
  return answer.items
})

/**
 * Revokes a session of a user (server access). `DELETE /auth/sessions/{id}?user_id=<id>`.
 * An unknown id is a 404 `HttpError` ("Session not found.").
 */
export const revoke = Effect.fn("ServerSessions.revoke")(function* (userId: string, sessionId: string) {
  yield* Endpoint.call(revokeForUserEndpoint, { params: { sessionId }, query: { userId } })
})

// ---------------------------------------------------------------------------------------------
// Server-created sessions
// ---------------------------------------------------------------------------------------------

/** Default lifetime of a server-created session: one year. */
export const defaultSessionLifetimeMillis = 31_536_000_000

/**
 * Creates a session for a user and returns its tokens (not stored: they belong to that user,
 * e.g. for impersonation or to hand over to another app). `POST /auth/sessions`; needs server
 * access. Defaults: one year, not an impersonation. Fails with `UserIdDoesNotExist`, and with
 * `InvalidArgument` before sending for a lifetime outside 0…367 days.
 */
export const create = Effect.fn("ServerSessions.create")(function* (input: {
  readonly userId: string
  readonly expiresInMillis?: number
  readonly isImpersonation?: boolean
}) {
  return yield* Endpoint.call(createEndpoint, {
    payload: {
      userId: input.userId,
      expiresInMillis: input.expiresInMillis ?? defaultSessionLifetimeMillis,
      isImpersonation: input.isImpersonation ?? false
    }
  })
})
