/**
 * Users (PROTOCOL.md §3.3): `GET`/`PATCH`/`DELETE /users/me` (client view from the SDK's
 * definitions, server view for server/admin access), and the server reads `GET /users/{user_id}`
 * and `GET /users`.
 *
 * @module
 */
import { Effect } from "effect"
import { TeamMembershipNotFound, UserEmailAlreadyExists, UserNotFound } from "../../core/KnownErrors.js"
import { getByIdEndpoint, getCurrentEndpoint, updateCurrentEndpoint } from "../../users/Users.js"
import type { CurrentUserUpdate } from "../../users/Users.js"
import type { ServerUserUpdate } from "../Endpoints.js"
import * as Endpoints from "../Endpoints.js"
import { hashPassword } from "../Passwords.js"
import { base64ToBytes, isUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe, schemaError } from "../RequestContext.js"
import type { HandlerFailure } from "../Responses.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ProjectRecord, UserRecord } from "../State.js"
import { deleteUser, findUserByAuthEmail, restrictionOf } from "../State.js"
import { toCurrentUser, toServerUser } from "../UserViews.js"
import { checkPassword, isEmail } from "./password.js"

const imageDataUrl = /^data:image\/(png|jpg|jpeg|gif|bmp|webp);base64,([A-Za-z0-9+/]+={0,2})$/
const bareBase64 = /^[A-Za-z0-9+/]+={0,2}$/

/** Whether a profile image URL is acceptable from client access: a base64 image (data URL or bare base64). */
export const isBase64Image = (value: string): boolean => imageDataUrl.test(value) || bareBase64.test(value)

const isBase64 = (value: string): boolean => {
  try {
    base64ToBytes(value)
    return /^[A-Za-z0-9+/]*={0,2}$/.test(value)
  } catch {
    return false
  }
}

/** The client update in the server update's wire terms (only the keys that were given). */
const fromClientUpdate = (update: CurrentUserUpdate): ServerUserUpdate => ({
  ...(update.displayName !== undefined ? { display_name: update.displayName } : {}),
  ...(update.clientMetadata !== undefined ? { client_metadata: update.clientMetadata } : {}),
  ...(update.selectedTeamId !== undefined ? { selected_team_id: update.selectedTeamId } : {}),
  ...(update.profileImageUrl !== undefined ? { profile_image_url: update.profileImageUrl } : {}),
  ...(update.totpSecretBase64 !== undefined ? { totp_secret_base64: update.totpSecretBase64 } : {}),
  ...(update.otpAuthEnabled !== undefined ? { otp_auth_enabled: update.otpAuthEnabled } : {}),
  ...(update.passkeyAuthEnabled !== undefined ? { passkey_auth_enabled: update.passkeyAuthEnabled } : {}),
  ...(update.primaryEmail !== undefined ? { primary_email: update.primaryEmail } : {})
})

/**
 * Validates and applies an update to a user. Client access: `profile_image_url` must be a base64
 * image. A new password revokes every session but the current one.
 */
export const applyUpdate = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  update: ServerUserUpdate,
  access: "client" | "server"
): Effect.Effect<void, HandlerFailure> =>
  Effect.gen(function* () {
    const problems: Array<string> = []
    if (update.selected_team_id != null && !isUuid(update.selected_team_id)) problems.push("body.selected_team_id must be a valid UUID")
    if (update.totp_secret_base64 != null && !isBase64(update.totp_secret_base64)) {
      problems.push("body.totp_secret_base64 must be valid base64")
    }
    if (update.primary_email != null && !isEmail(update.primary_email)) problems.push("body.primary_email must be a valid email")
    if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
    if (access === "client" && update.profile_image_url != null && !isBase64Image(update.profile_image_url)) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: "Invalid profile image URL" }))
    }
    if (update.password != null) yield* checkPassword(update.password)
    const newEmail = update.primary_email
    if (newEmail != null && newEmail !== user.primaryEmail) {
      const owner = findUserByAuthEmail(project, newEmail)
      if (owner !== undefined && owner.id !== user.id) {
        return yield* Effect.fail(UserEmailAlreadyExists.make({ email: newEmail, would_work_if_email_was_verified: false }))
      }
    }
    if (update.selected_team_id != null) {
      // teams are not emulated yet: the user belongs to no team
      return yield* Effect.fail(TeamMembershipNotFound.make({ team_id: update.selected_team_id, user_id: user.id }))
    }
    const passwordHash =
      update.password == null ? update.password : yield* hashPassword(update.password, context.env.settings.passwordHashIterations)

    if (update.display_name !== undefined) user.displayName = update.display_name
    if (update.profile_image_url !== undefined) user.profileImageUrl = update.profile_image_url
    if (update.client_metadata !== undefined) user.clientMetadata = update.client_metadata
    if (update.client_read_only_metadata !== undefined) user.clientReadOnlyMetadata = update.client_read_only_metadata
    if (update.server_metadata !== undefined) user.serverMetadata = update.server_metadata
    if (newEmail !== undefined && newEmail !== user.primaryEmail) {
      const hadEmail = user.primaryEmail !== null
      user.primaryEmail = newEmail
      user.primaryEmailVerified = false
      user.primaryEmailAuthEnabled = newEmail !== null && (hadEmail ? user.primaryEmailAuthEnabled : true)
    }
    if (update.primary_email_verified !== undefined) user.primaryEmailVerified = update.primary_email_verified
    if (update.primary_email_auth_enabled !== undefined) user.primaryEmailAuthEnabled = update.primary_email_auth_enabled
    if (update.otp_auth_enabled !== undefined) user.otpAuthEnabled = update.otp_auth_enabled
    if (update.passkey_auth_enabled !== undefined) user.passkeyAuthEnabled = update.passkey_auth_enabled
    if (update.totp_secret_base64 !== undefined) user.totpSecretBase64 = update.totp_secret_base64
    if (update.selected_team_id !== undefined) user.selectedTeamId = update.selected_team_id
    if (update.is_anonymous === false) user.isAnonymous = false
    if (update.restricted_by_admin !== undefined) user.restrictedByAdmin = update.restricted_by_admin
    if (update.restricted_by_admin_reason !== undefined) user.restrictedByAdminReason = update.restricted_by_admin_reason
    if (update.restricted_by_admin_private_details !== undefined) {
      user.restrictedByAdminPrivateDetails = update.restricted_by_admin_private_details
    }
    if (update.country_code !== undefined) user.countryCode = update.country_code
    if (update.risk_scores !== undefined) {
      user.riskScores = { signUp: { bot: update.risk_scores.sign_up.bot, freeTrialAbuse: update.risk_scores.sign_up.free_trial_abuse } }
    }
    if (passwordHash !== undefined) {
      user.passwordHash = passwordHash
      const keep = context.auth?.user?.id === user.id ? context.auth.accessToken?.refresh_token_id : undefined
      for (const [id, session] of project.sessions) {
        if (session.userId === user.id && id !== keep) project.sessions.delete(id)
      }
    }
  })

const compareUsers = (a: UserRecord, b: UserRecord): number =>
  a.signedUpAtMillis - b.signedUpAtMillis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The user routes. */
export const routes = [
  route(getCurrentEndpoint, (_input, context) => Effect.map(requireMe(context), toCurrentUser)),
  route(Endpoints.getCurrentUserServer, (_input, context) => Effect.map(requireMe(context), toServerUser)),
  route(updateCurrentEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const user = yield* requireMe(context)
      yield* applyUpdate(context, projectOf(context), user, fromClientUpdate(payload), "client")
      return toCurrentUser(user)
    })
  ),
  route(Endpoints.updateCurrentUserServer, ({ payload }, context) =>
    Effect.gen(function* () {
      const user = yield* requireMe(context)
      yield* applyUpdate(context, projectOf(context), user, payload, "server")
      return toServerUser(user)
    })
  ),
  route(Endpoints.deleteCurrentUser, (_input, context) =>
    Effect.gen(function* () {
      const user = yield* requireMe(context)
      const project = projectOf(context)
      if (context.auth?.type === "client" && !project.config.clientUserDeletionEnabled) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "Client user deletion is not enabled for this project" }))
      }
      deleteUser(project, user.id)
      return { success: true as const }
    })
  ),
  route(getByIdEndpoint, ({ params }, context) => {
    const user = projectOf(context).users.get(params.userId)
    return user === undefined ? Effect.fail(UserNotFound.make({})) : Effect.succeed(toServerUser(user))
  }),
  route(Endpoints.listUsers, ({ query }, context) =>
    Effect.gen(function* () {
      const includeAnonymous = query.include_anonymous ?? false
      const includeRestricted = includeAnonymous || (query.include_restricted ?? false)
      if (query.only_anonymous === true && !includeAnonymous) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "only_anonymous=true requires include_anonymous=true" }))
      }
      const search = query.query?.toLowerCase()
      const users = [...projectOf(context).users.values()]
        .filter((user) => {
          if (query.only_anonymous === true && !user.isAnonymous) return false
          if (user.isAnonymous && !includeAnonymous) return false
          if (restrictionOf(user) !== null && !includeRestricted) return false
          if (query.team_id !== undefined) return false // teams are not emulated yet: no user is a member
          if (search !== undefined && search !== "") {
            return (
              user.id === query.query ||
              (user.displayName?.toLowerCase().includes(search) ?? false) ||
              (user.primaryEmail?.toLowerCase().includes(search) ?? false)
            )
          }
          return true
        })
        .sort(compareUsers)
      if (query.desc === true) users.reverse()
      const start = query.cursor === undefined ? 0 : users.findIndex((user) => user.id === query.cursor)
      const from = start < 0 ? users.length : start
      const end = query.limit === undefined ? users.length : Math.min(users.length, from + query.limit)
      return {
        items: users.slice(from, end).map(toServerUser),
        is_paginated: true as const,
        pagination: { next_cursor: end < users.length ? users[end]!.id : null }
      }
    })
  )
]
