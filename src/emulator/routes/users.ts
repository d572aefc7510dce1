/**
 * Users (PROTOCOL.md §3.3): `GET`/`PATCH`/`DELETE /users/me` (client view from the SDK's
 * definitions, server view for server/admin access), and the server reads `GET /users/{user_id}`
 * and `GET /users`.
 *
 * @module
 */
import { Effect } from "effect"
import { TeamMembershipNotFound, UserEmailAlreadyExists, UserNotFound } from "../../core/KnownErrors.js"
import { deleteEndpoint, getByIdEndpoint, getCurrentServerEndpoint, listEndpoint } from "../../users/internal/serverUsers.js"
import * as Endpoints from "../Endpoints.js"
import type { ServerUserUpdateOfService } from "../Endpoints.js"
import { deleteCurrentEndpoint, getCurrentEndpoint, updateCurrentEndpoint } from "../../users/internal/users.js"
import { demotePrimary, promote } from "../ContactChannels.js"
import { hashPassword } from "../Passwords.js"
import { base64ToBytes, isUuid, randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ProjectRecord, UserRecord } from "../State.js"
import { grantUserDefaults } from "../Permissions.js"
import { findAuthChannel, makeUser, restrictionOf, sameEmail } from "../State.js"
import { deleteUser } from "../Store.js"
import { createPersonalTeamIfEnabled, currentUserView, isMember, renamePersonalTeams, serverUserView } from "../Teams.js"
import { checkPassword, isBase64Image, isEmail } from "../Validation.js"

const isBase64 = (value: string): boolean => {
  try {
    base64ToBytes(value)
    return /^[A-Za-z0-9+/]*={0,2}$/.test(value)
  } catch {
    return false
  }
}

/** The 400 text of `primary_email_verified: true` for a user left without a primary e-mail. */
export const verifiedWithoutEmailText = "primary_email_verified cannot be true without primary_email"

/** The 400 text of `primary_email_auth_enabled: true` for a user left without a primary e-mail (the service's `checkAuthData`). */
export const authEnabledWithoutEmailText = "primary_email_auth_enabled cannot be true without primary_email"

/** The 400 text of `password` and `password_hash` together (backend `users/crud.tsx` `getPasswordHashFromData` at 2f719903). */
export const passwordAndHashText = "Cannot set both password and password_hash at the same time."

/** The 400 text of a `password_hash` that is not a bcrypt hash (backend `users/crud.tsx` `getPasswordHashFromData` at 2f719903). */
export const invalidPasswordHashText = "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format."

/** A bcrypt hash in Modular-Crypt form (`$2a$`/`$2b$`/`$2y$`, two-digit cost, 53 characters of salt and hash). */
const bcryptHash = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/

/**
 * Validates and applies an update to a user. Client access: `profile_image_url` must be a base64
 * image. `display_name: ""` is stored as null, as the service does. A duplicate primary e-mail is
 * refused only when both users would sign in with it (`primary_email_auth_enabled`), and
 * `primary_email_auth_enabled: true` for a user left without one is a 400 text. A new
 * password (or `password_hash`, a bcrypt hash the emulator stores but cannot check: sign-in with
 * it fails) revokes every session of the user, as the service does.
 */
export const applyUpdate = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  update: ServerUserUpdateOfService,
  access: "client" | "server"
) =>
  Effect.gen(function* () {
    const problems: Array<string> = []
    if (update.selectedTeamId != null && !isUuid(update.selectedTeamId)) problems.push("body.selected_team_id must be a valid UUID")
    if (update.totpSecretBase64 != null && !isBase64(update.totpSecretBase64)) {
      problems.push("body.totp_secret_base64 is not valid base64")
    }
    if (update.primaryEmail != null && !isEmail(update.primaryEmail)) problems.push("body.primary_email must be a valid email")
    if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
    if (update.password !== undefined && update.passwordHash !== undefined) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: passwordAndHashText }))
    }
    if (update.passwordHash !== undefined && !bcryptHash.test(update.passwordHash)) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: invalidPasswordHashText }))
    }
    const emailAfter = update.primaryEmail !== undefined ? update.primaryEmail : user.primaryEmail
    // as the service's checkAuthData, before the verified check; removing the e-mail (null) turns e-mail auth off instead
    if (update.primaryEmailAuthEnabled === true && emailAfter === null && update.primaryEmail !== null) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: authEnabledWithoutEmailText }))
    }
    if (update.primaryEmailVerified === true && emailAfter === null) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: verifiedWithoutEmailText }))
    }
    if (access === "client" && update.profileImageUrl != null && !isBase64Image(update.profileImageUrl)) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: "Invalid profile image URL" }))
    }
    if (update.password != null) yield* checkPassword(update.password)
    const newEmail = update.primaryEmail
    const emailChanges = newEmail != null && (user.primaryEmail === null || !sameEmail(newEmail, user.primaryEmail))
    // `primary_email_auth_enabled ?? !!<the old primary channel>?.usedForAuth` (users/crud.tsx
    // onUpdate at 2f719903; onCreate: `primary_email_auth_enabled ? TRUE : null`): a user without a
    // primary e-mail does not sign in with a new one unless asked
    const authEnabledAfter = update.primaryEmailAuthEnabled ?? (user.primaryEmail !== null && user.primaryEmailAuthEnabled)
    // the service refuses a duplicate only when both users would sign in with the e-mail
    if (emailAfter !== null && authEnabledAfter && (emailChanges || (update.primaryEmailAuthEnabled === true && !user.primaryEmailAuthEnabled))) {
      const owner = findAuthChannel(project, emailAfter)
      // checkAuthData (users/crud.tsx at 2f719903) looks for any channel used for auth with the new
      // value, the user's own non-primary ones included (an old primary e-mail kept for sign-in)
      if (owner !== undefined && (owner.user.id !== user.id || (emailChanges && !owner.isPrimary))) {
        return yield* Effect.fail(UserEmailAlreadyExists.make({ email: emailAfter, would_work_if_email_was_verified: false }))
      }
    }
    if (update.selectedTeamId != null && !isMember(project, update.selectedTeamId, user.id)) {
      return yield* Effect.fail(TeamMembershipNotFound.make({ team_id: update.selectedTeamId, user_id: user.id }))
    }
    const passwordHash = update.passwordHash !== undefined
      ? update.passwordHash
      : update.password == null
      ? update.password
      : yield* hashPassword(update.password, context.env.settings.passwordHashIterations)

    if (update.displayName !== undefined) user.displayName = update.displayName === "" ? null : update.displayName
    if (update.profileImageUrl !== undefined) user.profileImageUrl = update.profileImageUrl
    if (update.clientMetadata !== undefined) user.clientMetadata = update.clientMetadata
    if (update.clientReadOnlyMetadata !== undefined) user.clientReadOnlyMetadata = update.clientReadOnlyMetadata
    if (update.serverMetadata !== undefined) user.serverMetadata = update.serverMetadata
    // as the service's onUpdate (users/crud.tsx and lib/contact-channel.tsx at 2f719903): the old
    // primary e-mail stays as a non-primary channel with its verified state and `used_for_auth`; a
    // new value the user already has as a channel is promoted (keeping its verified state), any
    // other gets a new unverified channel; `null` demotes the primary channel without deleting it
    if (newEmail === null) {
      demotePrimary(user)
    } else if (newEmail !== undefined && emailChanges) {
      const existing = user.contactChannels.find((channel) => sameEmail(channel.value, newEmail))
      if (existing !== undefined) {
        promote(user, existing)
      } else {
        demotePrimary(user)
        user.primaryEmail = newEmail
        user.primaryEmailVerified = false
      }
      user.primaryEmailAuthEnabled = authEnabledAfter
    } else if (newEmail !== undefined) {
      user.primaryEmail = newEmail
    }
    if (user.primaryEmail !== null) {
      if (update.primaryEmailVerified !== undefined) user.primaryEmailVerified = update.primaryEmailVerified
      if (update.primaryEmailAuthEnabled !== undefined) user.primaryEmailAuthEnabled = update.primaryEmailAuthEnabled
    }
    if (update.otpAuthEnabled !== undefined) user.otpAuthEnabled = update.otpAuthEnabled
    if (update.passkeyAuthEnabled !== undefined) user.passkeyAuthEnabled = update.passkeyAuthEnabled
    if (update.totpSecretBase64 !== undefined) user.totpSecretBase64 = update.totpSecretBase64
    if (update.selectedTeamId !== undefined) user.selectedTeamId = update.selectedTeamId
    if (update.isAnonymous === false && user.isAnonymous) {
      // upgrading an anonymous user renames its personal team (the service names it from the update's values)
      renamePersonalTeams(project, user.id, { displayName: update.displayName ?? null, primaryEmail: update.primaryEmail ?? null })
    }
    if (update.isAnonymous === false) user.isAnonymous = false
    if (update.restrictedByAdmin !== undefined) user.restrictedByAdmin = update.restrictedByAdmin
    if (update.restrictedByAdminReason !== undefined) user.restrictedByAdminReason = update.restrictedByAdminReason
    if (update.restrictedByAdminPrivateDetails !== undefined) {
      user.restrictedByAdminPrivateDetails = update.restrictedByAdminPrivateDetails
    }
    if (update.countryCode !== undefined) user.countryCode = update.countryCode
    if (update.riskScores !== undefined) user.riskScores = update.riskScores
    if (passwordHash !== undefined) {
      user.passwordHash = passwordHash
      // as on the service, a password set through a server update revokes every session of the user
      for (const [id, session] of project.sessions) {
        if (session.userId === user.id) project.sessions.delete(id)
      }
    }
  })

const compareUsers = (a: UserRecord, b: UserRecord): number => a.signedUpAtMillis - b.signedUpAtMillis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const findUser = (context: RequestContext, userId: string): Effect.Effect<UserRecord, UserNotFound> => {
  const user = projectOf(context).users.get(userId)
  return user === undefined ? Effect.fail(UserNotFound.make({})) : Effect.succeed(user)
}

/** The user routes. */
export const routes = [
  route(getCurrentEndpoint, (_input, context) => Effect.map(requireMe(context), (user) => currentUserView(projectOf(context), user))),
  route(getCurrentServerEndpoint, (_input, context) => Effect.map(requireMe(context), (user) => serverUserView(projectOf(context), user))),
  route(updateCurrentEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const user = yield* requireMe(context)
      yield* applyUpdate(context, projectOf(context), user, payload, "client")
      return currentUserView(projectOf(context), user)
    })),
  route(Endpoints.updateCurrentServerUser, ({ payload }, context) =>
    Effect.gen(function* () {
      const user = yield* requireMe(context)
      yield* applyUpdate(context, projectOf(context), user, payload, "server")
      return serverUserView(projectOf(context), user)
    })),
  route(deleteCurrentEndpoint, (_input, context) =>
    Effect.gen(function* () {
      const user = yield* requireMe(context)
      const project = projectOf(context)
      if (context.auth?.type === "client" && !project.config.clientUserDeletionEnabled) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "Client user deletion is not enabled for this project" }))
      }
      deleteUser(context.env.state, project, user.id)
      return { success: true as const }
    })),
  route(getByIdEndpoint, ({ params }, context) => Effect.map(findUser(context, params.userId), (user) => serverUserView(projectOf(context), user))),
  route(Endpoints.createUser, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = makeUser(randomUuid(), context.nowMillis)
      const { oauthProviders, isAnonymous, ...update } = payload
      // onCreate's checkAuthData: no primary e-mail (absent or null) cannot be used for auth
      if (update.primaryEmailAuthEnabled === true && update.primaryEmail == null) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: authEnabledWithoutEmailText }))
      }
      // validated and applied before the user joins the project: a failure leaves no trace
      yield* applyUpdate(context, project, user, update, "server")
      if (isAnonymous === true) user.isAnonymous = true
      for (const link of oauthProviders ?? []) {
        const config = project.config.oauthProviders.find((provider) => provider.id === link.id)
        user.oauthAccounts.push({
          id: randomUuid(),
          providerConfigId: link.id,
          provider: config?.provider ?? link.id,
          accountId: link.accountId,
          email: link.email ?? null,
          allowSignIn: true,
          allowConnectedAccounts: true,
          grantedScopes: []
        })
      }
      project.users.set(user.id, user)
      grantUserDefaults(project, user.id)
      // as on the service (users/crud.tsx onCreate), the answer is built before the personal team
      // of `create_team_on_sign_up` is created and selected: it shows no selected team, later reads do
      const answer = serverUserView(project, user)
      createPersonalTeamIfEnabled(project, user, context.nowMillis)
      return answer
    })),
  route(Endpoints.updateUser, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const user = yield* findUser(context, params.userId)
      yield* applyUpdate(context, projectOf(context), user, payload, "server")
      return serverUserView(projectOf(context), user)
    })),
  route(deleteEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      yield* findUser(context, params.userId)
      deleteUser(context.env.state, projectOf(context), params.userId)
      return { success: true as const }
    })),
  route(listEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      const includeAnonymous = query.includeAnonymous ?? false
      const includeRestricted = includeAnonymous || (query.includeRestricted ?? false)
      if (query.onlyAnonymous === true && !includeAnonymous) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "only_anonymous=true requires include_anonymous=true" }))
      }
      const search = query.query?.toLowerCase()
      const project = projectOf(context)
      const users = [...project.users.values()]
        .filter((user) => {
          if (query.onlyAnonymous === true && !user.isAnonymous) return false
          if (user.isAnonymous && !includeAnonymous) return false
          if (restrictionOf(user, project.config) !== null && !includeRestricted) return false
          if (query.teamId !== undefined && !isMember(project, query.teamId, user.id)) return false
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
      // The cursor is the first user of the page: the page starts at its place in the order, so
      // users inserted meanwhile (later sign-up) neither shift nor repeat what was already listed.
      const start = query.cursor === undefined ? 0 : users.findIndex((user) => user.id === query.cursor)
      const from = start < 0 ? users.length : start
      const end = query.limit === undefined ? users.length : Math.min(users.length, from + query.limit)
      return {
        items: users.slice(from, end).map((user) => serverUserView(project, user)),
        isPaginated: true as const,
        pagination: { nextCursor: end < users.length ? users[end]!.id : null }
      }
    }))
]
