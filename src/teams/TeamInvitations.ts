/**
 * Team invitations (PROTOCOL.md §3.0 "Team invitation", §3.4): a member holding
 * `$invite_members` e-mails an invitation link (`callback_url?code=<45 chars>`, valid 7 days);
 * the team's pending invitations are listed (`$read_members` and `$invite_members`) and revoked
 * (`$remove_members`); the invitee, signed in, checks the code, reads its details (the team's
 * name) and accepts it, joining the team with the project's member default permissions. A
 * signed-in user also lists the invitations addressed to its verified e-mails and accepts one by id.
 *
 * The callback URL defaults to the app's `teamInvitation` handler page
 * (`/handler/team-invitation`, see `HandlerUrls`). The team's list is cached
 * (`["team-invitations", teamId]`); sending and revoking invalidate it, accepting invalidates the
 * invitee's teams.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import {
  acceptByIdEndpoint,
  acceptEndpoint,
  checkCodeEndpoint,
  detailsEndpoint,
  listEndpoint,
  listMineEndpoint,
  revokeEndpoint,
  sendEndpoint
} from "./internal/teamInvitations.js"

/** The domain's schemas, defined with its wire definitions (`internal/teamInvitations.ts`). */
export { InvitationDetails, TeamInvitation } from "./internal/teamInvitations.js"

/** The cache key of a team's pending invitations. */
export const listKey = (teamId: string): QueryCache.Key => ["team-invitations", teamId]

/** What to send. */
export interface SendInput {
  readonly teamId: string
  /** The invitee's e-mail address. */
  readonly email: string
  /** Where the e-mailed link points; default the `teamInvitation` handler page. */
  readonly callbackUrl?: string | URL
}

/**
 * E-mails an invitation to join a team; answers the invitation's id.
 * `POST /team-invitations/send-code`; needs `$invite_members`. Fails with
 * `TeamPermissionRequired`, `TeamMembershipNotFound` (not a member), `RedirectUrlNotWhitelisted`,
 * `CallbackUrlRequired` (no callback URL and no app URL to resolve the handler page against).
 */
export const send = Effect.fn("TeamInvitations.send")(function* (input: SendInput) {
  const url = yield* callbackUrl("teamInvitation", "callbackUrl", input.callbackUrl)
  const answer = yield* Endpoint.call(sendEndpoint, { payload: { teamId: input.teamId, email: input.email, callbackUrl: url } }).pipe(
    QueryCache.invalidating(listKey(input.teamId))
  )
  return answer.id
})

/**
 * A team's pending invitations. `GET /team-invitations?team_id=`; cached. Needs `$read_members`
 * and `$invite_members`: fails with `TeamPermissionRequired`, `TeamMembershipNotFound`.
 */
export const list = Effect.fn("TeamInvitations.list")(function* (teamId: string) {
  const answer = yield* QueryCache.cached(listKey(teamId), Endpoint.call(listEndpoint, { query: { teamId } }))
  return answer.items
})

/** The cache key of the invitations addressed to the signed-in user. */
export const mineKey: QueryCache.Key = ["team-invitations", "me"]

/**
 * Pending invitations addressed to the signed-in user's verified e-mail addresses (any team).
 * `GET /team-invitations?user_id=me`; cached (`["team-invitations", "me"]`).
 */
export const listMine = Effect.fn("TeamInvitations.listMine")(function* () {
  const answer = yield* QueryCache.cached(mineKey, Endpoint.call(listMineEndpoint, { query: { userId: "me" } }))
  return answer.items
})

/**
 * Accepts an invitation by its id (from {@link listMine}): the signed-in user joins the team with
 * the member default permissions. `POST /team-invitations/{id}/accept?user_id=me`. Fails with
 * `VerificationCodeNotFound` (unknown, used or expired invitation, or no verified e-mail of the
 * user is its recipient), `TeamInvitationRestrictedUserNotAllowed`.
 */
export const acceptById = Effect.fn("TeamInvitations.acceptById")(function* (invitationId: string) {
  yield* Endpoint.call(acceptByIdEndpoint, { params: { id: invitationId }, query: { userId: "me" } }).pipe(
    QueryCache.invalidating(["teams"], ["team-members"], ["team-invitations"], ["user"])
  )
})

/**
 * Revokes a pending invitation (its code stops working). `DELETE /team-invitations/{id}?team_id=`;
 * needs `$remove_members`. Fails with `TeamPermissionRequired`, `TeamMembershipNotFound`.
 */
export const revoke = Effect.fn("TeamInvitations.revoke")(function* (teamId: string, invitationId: string) {
  yield* Endpoint.call(revokeEndpoint, { params: { id: invitationId }, query: { teamId } }).pipe(
    QueryCache.invalidating(listKey(teamId))
  )
})

/**
 * Checks an invitation code without using it (counts as an attempt).
 * `POST /team-invitations/accept/check-code`. Fails with the verification-code error saying why
 * the code is not usable.
 */
export const checkCode = Effect.fn("TeamInvitations.checkCode")(function* (code: string) {
  yield* Endpoint.call(checkCodeEndpoint, { payload: { code } })
})

/**
 * The team an invitation code is for (id and display name), without using the code.
 * `POST /team-invitations/accept/details`. Fails with a verification-code error,
 * `TeamInvitationRestrictedUserNotAllowed` (anonymous or restricted user), `UserNotSignedIn`.
 */
export const details = Effect.fn("TeamInvitations.details")(function* (code: string) {
  return yield* Endpoint.call(detailsEndpoint, { payload: { code } })
})

/**
 * Accepts an invitation: the signed-in user joins the team with the project's member default
 * permissions (already a member: nothing changes) and the code is used.
 * `POST /team-invitations/accept`. Fails with a verification-code error (`…AlreadyUsed` the
 * second time), `TeamInvitationRestrictedUserNotAllowed`, `UserNotSignedIn`.
 */
export const accept = Effect.fn("TeamInvitations.accept")(function* (code: string) {
  yield* Endpoint.call(acceptEndpoint, { payload: { code } }).pipe(
    QueryCache.invalidating(["teams"], ["team-members"], ["team-invitations"], ["user"])
  )
})
