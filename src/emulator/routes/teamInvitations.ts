/**
 * Team invitations (PROTOCOL.md §3.4, wire samples teams/16–24): sending e-mails a link
 * `callback_url?code=<45 chars>` through the outbox (client: `$invite_members`; the callback URL
 * must be trusted); a team's pending invitations are listed (client: `$read_members` and
 * `$invite_members`) and revoked (client: `$remove_members`); the code is checked, described
 * (team id and name, for a signed-in unrestricted user) and accepted (joins with the member
 * default permissions; already a member: nothing changes; the code is used either way).
 * Invitation codes live 7 days and are checked like every other code (VerificationCodes.ts).
 * A user lists the pending invitations addressed to its verified e-mails (`user_id`) and accepts
 * one by id; a list query with both or neither of `team_id` / `user_id`, and a revoke without
 * `team_id`, answer the service's 400 texts.
 *
 * @module
 */
import { Effect } from "effect"
import {
  CannotGetOwnUserWithoutUser,
  RedirectUrlNotWhitelisted,
  TeamInvitationRestrictedUserNotAllowed,
  UserAuthenticationRequired,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import * as TeamInvitations from "../../teams/internal/teamInvitations.js"
import { emailFromTemplate, escapeHtml } from "../EmailTemplates.js"
import * as Outbox from "../Outbox.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { route } from "../Router.js"
import * as Endpoints from "../Endpoints.js"
import { TextFailure } from "../Responses.js"
import type { CodeRecord, UserRecord } from "../State.js"
import { restrictionOf, teamsOf } from "../State.js"
import { addMember, ensureMember, ensurePermission, findTeam, isMember, pendingInvitations } from "../Teams.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import * as VerificationCodes from "../VerificationCodes.js"

/** A user's verified e-mail addresses: the primary one if verified, and every verified contact channel. */
const verifiedEmailsOf = (user: UserRecord): Set<string> => {
  const emails = new Set<string>()
  if (user.primaryEmail !== null && user.primaryEmailVerified) emails.add(user.primaryEmail)
  for (const channel of user.contactChannels ?? []) if (channel.isVerified) emails.add(channel.value)
  return emails
}

/** The signed-in user who may act on an invitation code: not anonymous, not restricted. */
const invitee = (context: RequestContext) =>
  Effect.gen(function* () {
    const user = context.auth?.user
    if (user === undefined) return yield* Effect.fail(UserAuthenticationRequired.make({}))
    const restriction = restrictionOf(user, projectOf(context).config)
    if (restriction !== null) return yield* Effect.fail(TeamInvitationRestrictedUserNotAllowed.make({ restricted_reason: restriction }))
    return user
  })

/** A valid (unused, unexpired) invitation code, counted as an attempt. */
const validCode = (context: RequestContext, code: string) => VerificationCodes.redeem(context, projectOf(context), code, "team_invitation", "check")

/** The team an invitation code is for; a code whose team is gone is "not found". */
const teamOfCode = (context: RequestContext, record: CodeRecord) =>
  Effect.mapError(findTeam(projectOf(context), record.teamId ?? ""), () => VerificationCodeNotFound.make({}))

/** The team invitation routes. */
export const routes = [
  route(TeamInvitations.sendEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (context.auth?.type === "client") {
        const me = context.auth.user
        if (me === undefined) return yield* Effect.fail(UserAuthenticationRequired.make({}))
        yield* ensurePermission(project, payload.teamId, me.id, "$invite_members")
      }
      const team = yield* findTeam(project, payload.teamId)
      if (!isTrustedUrl(project, payload.callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      const record = VerificationCodes.create(context, project, { purpose: "team_invitation", userId: null, email: payload.email })
      record.teamId = team.id
      record.invitationId = randomUuid()
      const link = Outbox.linkWithCode(payload.callbackUrl, record.code)
      yield* Effect.map(
        emailFromTemplate(project, "team_invitation", null, { teamDisplayName: team.displayName, teamInvitationLink: link }, {
          subject: `You have been invited to join ${team.displayName}`,
          text:
            `You have been invited to join the team ${team.displayName} at ${project.displayName}. Open this link to accept:\n\n${link}\n\nThe invitation expires in 7 days.`,
          html: `<p>You have been invited to join the team <b>${escapeHtml(team.displayName)}</b> at ${escapeHtml(project.displayName)}.</p><p><a href="${
            escapeHtml(link)
          }">Join the team</a></p><p>The invitation expires in 7 days.</p>`
        }, context.env.settings.emailRenderLimits),
        (rendered) =>
          Outbox.send(context.env.state, {
            projectId: project.id,
            to: payload.email,
            ...rendered,
            kind: "team_invitation",
            code: record.code,
            link,
            sentAtMillis: context.nowMillis
          })
      )
      return { success: true as const, id: record.invitationId }
    })),
  route(TeamInvitations.listEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (context.auth?.type === "client") {
        const me = context.auth.user
        if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
        yield* ensureMember(project, query.teamId, me.id)
        for (const permission of ["$read_members", "$invite_members"]) yield* ensurePermission(project, query.teamId, me.id, permission)
      }
      const team = yield* findTeam(project, query.teamId)
      return { items: pendingInvitations(project, team, context.nowMillis), isPaginated: false }
    })),
  route(TeamInvitations.listMineEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = context.auth?.user
      if (context.auth?.type === "client" && (me === undefined || (query.userId !== "me" && query.userId !== me.id))) {
        return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      }
      const userId = query.userId === "me" ? me?.id : query.userId
      const user = userId === undefined ? undefined : project.users.get(userId)
      if (userId === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      const emails = user === undefined ? new Set<string>() : verifiedEmailsOf(user)
      const items = [...teamsOf(project).values()].flatMap((team) =>
        pendingInvitations(project, team, context.nowMillis).filter((invitation) => emails.has(invitation.recipientEmail))
      )
      return { items, isPaginated: false }
    })),
  route(Endpoints.teamInvitationsListAnyQuery, ({ query }) =>
    Effect.fail(
      new TextFailure({
        status: 400,
        text: query.team_id !== undefined && query.user_id !== undefined ? "Cannot specify both team_id and user_id" : "Must specify either team_id or user_id"
      })
    )),
  route(TeamInvitations.acceptByIdEndpoint, ({ params, query }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = context.auth?.user
      let userId = query.userId
      if (context.auth?.type === "client") {
        if (me === undefined || (userId !== "me" && userId !== me.id)) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
        const restriction = restrictionOf(me, project.config)
        if (restriction !== null) return yield* Effect.fail(TeamInvitationRestrictedUserNotAllowed.make({ restricted_reason: restriction }))
      }
      if (userId === "me") {
        if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
        userId = me.id
      }
      const record = [...project.codes.values()].find(
        (code) =>
          code.purpose === "team_invitation" &&
          code.invitationId === params.id &&
          code.usedAtMillis === undefined &&
          code.expiresAtMillis > context.nowMillis
      )
      const user = project.users.get(userId)
      if (record === undefined || user === undefined || !verifiedEmailsOf(user).has(record.email ?? "")) {
        return yield* Effect.fail(VerificationCodeNotFound.make({}))
      }
      const team = yield* teamOfCode(context, record)
      if (!isMember(project, team.id, user.id)) addMember(project, team, user.id, "member")
      record.usedAtMillis = context.nowMillis
      return {}
    })),
  route(TeamInvitations.revokeEndpoint, ({ params, query }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (context.auth?.type === "client") {
        const me = context.auth.user
        if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
        yield* ensureMember(project, query.teamId, me.id)
        yield* ensurePermission(project, query.teamId, me.id, "$remove_members")
      }
      yield* findTeam(project, query.teamId)
      for (const [code, record] of project.codes) {
        if (record.purpose === "team_invitation" && record.invitationId === params.id && record.teamId === query.teamId) project.codes.delete(code)
      }
      return { success: true as const }
    })),
  route(
    Endpoints.teamInvitationRevokeWithoutTeam,
    () => Effect.fail(new TextFailure({ status: 400, text: "team_id is required for deleting a team invitation" }))
  ),
  route(TeamInvitations.checkCodeEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const record = yield* validCode(context, payload.code)
      yield* teamOfCode(context, record)
      return { isCodeValid: true as const }
    })),
  route(TeamInvitations.detailsEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const record = yield* validCode(context, payload.code)
      yield* invitee(context)
      const team = yield* teamOfCode(context, record)
      return { teamId: team.id, teamDisplayName: team.displayName }
    })),
  route(TeamInvitations.acceptEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = yield* validCode(context, payload.code)
      const user = yield* invitee(context)
      const team = yield* teamOfCode(context, record)
      record.usedAtMillis = context.nowMillis
      if (!isMember(project, team.id, user.id)) addMember(project, team, user.id, "member")
      return {}
    }))
]
