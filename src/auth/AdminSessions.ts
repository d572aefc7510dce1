/**
 * Any user's sessions with admin access (PROTOCOL.md §3.1): the same call as `Sessions.list` and
 * `ServerSessions.list`, including impersonation sessions, which only admin access lists.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { adminListForUserEndpoint } from "./internal/sessions.js"

/**
 * A user's active sessions including impersonation sessions, newest first (admin access).
 * `GET /auth/sessions?user_id=<id>`.
 */
export const list = Effect.fn("AdminSessions.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(adminListForUserEndpoint, { query: { userId } })
  return answer.items
})
