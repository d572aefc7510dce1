/**
 * Team invitations with server access (PROTOCOL.md §3.4): the same calls as `TeamInvitations`
 * (the signed-in member's) without the team permissions a member needs — invite to a team, list
 * and revoke its pending invitations — and the invitations addressed to a user by id (the
 * official SDK has them on a server team, `serverTeam.inviteUser(…)` / `listInvitations()`, and on
 * a server user, `serverUser.listTeamInvitations()`). An unknown team fails with `TeamNotFound`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import { listEndpoint, listMineEndpoint, revokeEndpoint, sendEndpoint } from "./internal/serverTeamInvitations.js"
import type { SendInput } from "./TeamInvitations.js"
import { listKey } from "./TeamInvitations.js"

/**
 * E-mails an invitation to join a team; answers the invitation's id.
 * `POST /team-invitations/send-code`; needs server access (no member permission). The callback URL
 * defaults to the app's `teamInvitation` handler page. Fails with `TeamNotFound`,
 * `RedirectUrlNotWhitelisted`, `CallbackUrlRequired` (no callback URL and no app URL).
 */
export const send = Effect.fn("ServerTeamInvitations.send")(function* (input: SendInput) {
  const url = yield* callbackUrl("teamInvitation", "callbackUrl", input.callbackUrl)
  const answer = yield* Endpoint.call(sendEndpoint, { payload: { teamId: input.teamId, email: input.email, callbackUrl: url } }).pipe(
    QueryCache.invalidating(listKey(input.teamId))
  )
  return answer.id
})

/** A team's pending invitations. `GET /team-invitations?team_id=`; needs server access. Fails with `TeamNotFound`. */
export const list = Effect.fn("ServerTeamInvitations.list")(function* (teamId: string) {
  const answer = yield* Endpoint.call(listEndpoint, { query: { teamId } })
  return answer.items
})

/**
 * Pending invitations addressed to a user's verified e-mail addresses (any team): the user's
 * own list (`TeamInvitations.listMine`) read by id. `GET /team-invitations?user_id=<id>`; needs
 * server access.
 */
export const listMine = Effect.fn("ServerTeamInvitations.listMine")(function* (userId: string) {
  const answer = yield* Endpoint.call(listMineEndpoint, { query: { userId } })
  return answer.items
})

/**
 * Revokes a pending invitation (its code stops working). `DELETE /team-invitations/{id}?team_id=`;
 * needs server access. Fails with `TeamNotFound`.
 */
export const revoke = Effect.fn("ServerTeamInvitations.revoke")(function* (teamId: string, invitationId: string) {
  yield* Endpoint.call(revokeEndpoint, { params: { id: invitationId }, query: { teamId } }).pipe(QueryCache.invalidating(listKey(teamId)))
})
