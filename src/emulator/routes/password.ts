/**
 * Password routes (PROTOCOL.md §3.1), served from the SDK's endpoint definitions: sign-up,
 * sign-in, update and set for the signed-in user, and the forgotten-password flow (send reset
 * code, check it, reset). Sign-up upgrades a current anonymous user in place (same id) and, with
 * a verification callback URL, "sends" a verification e-mail to the outbox.
 *
 * Codes live in the one code store (`VerificationCodes.ts`). The service waits 2–3 s before
 * answering `send-reset-code` for an unknown e-mail (so timing does not tell whether the e-mail
 * exists); the emulator answers at once.
 *
 * @module
 */
import { Effect } from "effect"
import { setPasswordEndpoint, signInEndpoint, signUpEndpoint, updatePasswordEndpoint, userAlreadyHasPasswordText } from "../../auth/internal/password.js"
import { checkResetCodeEndpoint, maybeSent, resetEndpoint, sendResetCodeEndpoint } from "../../auth/internal/passwordReset.js"
import {
  EmailPasswordMismatch,
  PasswordAuthenticationNotEnabled,
  PasswordConfirmationMismatch,
  RedirectUrlNotWhitelisted,
  SignUpNotEnabled,
  UserDoesNotHavePassword,
  UserEmailAlreadyExists,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import { emailFromTemplate, escapeHtml } from "../EmailTemplates.js"
import * as Outbox from "../Outbox.js"
import { hashPassword, verifyPassword } from "../Passwords.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireUser, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import type { ProjectRecord, UserRecord } from "../State.js"
import { grantUserDefaults } from "../Permissions.js"
import { createPersonalTeamIfEnabled, renamePersonalTeams } from "../Teams.js"
import { findUserByAuthChannel, makeUser } from "../State.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import { requireSecondFactor } from "../SecondFactor.js"
import { checkPassword, emailProblems, passwordLimits, urlProblems } from "../Validation.js"
import { sendVerificationEmail } from "../VerificationEmail.js"
import * as VerificationCodes from "../VerificationCodes.js"

/** "Sends" the password-reset e-mail of a user, linking to `callbackUrl?code=…`. */
const sendResetEmail = (context: RequestContext, project: ProjectRecord, user: UserRecord, email: string, callbackUrl: string): Effect.Effect<void> => {
  const { code } = VerificationCodes.create(context, project, { purpose: "password_reset", userId: user.id, email })
  const link = Outbox.linkWithCode(callbackUrl, code)
  return Effect.map(
    emailFromTemplate(project, "password_reset", user, { passwordResetLink: link }, {
      subject: `Reset your password at ${project.displayName}`,
      text:
        `Somebody asked to reset the password of your account. To choose a new password, open this link:\n\n${link}\n\nIf it was not you, you can ignore this e-mail.`,
      html: `<p>Somebody asked to reset the password of your account. To choose a new password, open this link:</p><p><a href="${
        escapeHtml(link)
      }">Reset my password</a></p><p>If it was not you, you can ignore this e-mail.</p>`
    }, context.env.settings.emailRenderLimits),
    (rendered) =>
      Outbox.send(context.env.state, {
        projectId: project.id,
        to: email,
        ...rendered,
        kind: "password_reset",
        code,
        link,
        sentAtMillis: context.nowMillis
      })
  )
}

/** Removes every session of a user except the one holding `keepRefreshToken`. */
const revokeSessions = (project: ProjectRecord, userId: string, keepRefreshToken: string | undefined): void => {
  for (const [id, session] of project.sessions) {
    if (session.userId === userId && session.refreshToken !== keepRefreshToken) project.sessions.delete(id)
  }
}

/** The password routes. */
export const routes = [
  route(signUpEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      const problems = emailProblems("body.email", payload.email)
      if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
      const callbackUrl = payload.verificationCallbackUrl
      if (callbackUrl !== undefined) {
        if (urlProblems("body.verification_callback_url", callbackUrl).length > 0) {
          return yield* Effect.fail(schemaError(context, urlProblems("body.verification_callback_url", callbackUrl)))
        }
        if (!isTrustedUrl(project, callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      }
      yield* checkPassword(payload.password)
      if (!project.config.signUpEnabled) return yield* Effect.fail(SignUpNotEnabled.make({}))
      if (findUserByAuthChannel(project, payload.email) !== undefined) {
        return yield* Effect.fail(UserEmailAlreadyExists.make({ email: payload.email, would_work_if_email_was_verified: false }))
      }
      // the handler holds the write permit (Store.serialized): no other sign-up runs while hashing yields
      const passwordHash = yield* hashPassword(payload.password, context.env.settings.passwordHashIterations)
      const current = context.auth?.user
      let user: UserRecord
      if (current !== undefined && current.isAnonymous) {
        user = current
        user.isAnonymous = false
      } else {
        user = makeUser(randomUuid(), context.nowMillis)
        project.users.set(user.id, user)
        grantUserDefaults(project, user.id)
      }
      const isNewUser = user !== current
      user.primaryEmail = payload.email
      user.primaryEmailVerified = false
      user.primaryEmailAuthEnabled = true
      user.passwordHash = passwordHash
      // a new user gets the personal team of `create_team_on_sign_up`; an upgraded anonymous user's team takes its name
      if (isNewUser) createPersonalTeamIfEnabled(project, user, context.nowMillis)
      else renamePersonalTeams(project, user.id, user)
      const tokens = yield* signIn(context, project, user)
      if (callbackUrl !== undefined) yield* sendVerificationEmail(context, project, user, payload.email, callbackUrl)
      return tokens
    })),
  route(signInEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      if (payload.email === "") return yield* Effect.fail(schemaError(context, ["body.email must not be empty"]))
      if (payload.password.length > passwordLimits.max) {
        return yield* Effect.fail(schemaError(context, [`body.password must be at most ${passwordLimits.max} characters`]))
      }
      const user = findUserByAuthChannel(project, payload.email)
      if (user === undefined || user.passwordHash === null) return yield* Effect.fail(EmailPasswordMismatch.make({}))
      const matches = yield* verifyPassword(payload.password, user.passwordHash)
      if (!matches) return yield* Effect.fail(EmailPasswordMismatch.make({}))
      yield* requireSecondFactor(context, project, user)
      return yield* signIn(context, project, user)
    })),
  route(updatePasswordEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = yield* requireUser(context)
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      yield* checkPassword(payload.newPassword)
      if (user.passwordHash === null) return yield* Effect.fail(UserDoesNotHavePassword.make({}))
      const matches = yield* verifyPassword(payload.oldPassword, user.passwordHash)
      if (!matches) return yield* Effect.fail(PasswordConfirmationMismatch.make({}))
      user.passwordHash = yield* hashPassword(payload.newPassword, context.env.settings.passwordHashIterations)
      // the session of the X-Stack-Refresh-Token header survives; without it, every session goes
      revokeSessions(project, user.id, context.header("refresh-token"))
      return { success: true } as const
    })),
  route(setPasswordEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = yield* requireUser(context)
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      yield* checkPassword(payload.password)
      if (user.passwordHash !== null) return yield* Effect.fail(new TextFailure({ status: 400, text: userAlreadyHasPasswordText }))
      user.passwordHash = yield* hashPassword(payload.password, context.env.settings.passwordHashIterations)
      return { success: true } as const
    })),
  route(sendResetCodeEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const problems = [
        ...emailProblems("body.email", payload.email),
        ...urlProblems("body.callback_url", payload.callbackUrl)
      ]
      if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      const user = findUserByAuthChannel(project, payload.email)
      // no user: the same answer, no e-mail (and, as on the service, the callback URL is not checked)
      if (user !== undefined) {
        if (!isTrustedUrl(project, payload.callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
        yield* sendResetEmail(context, project, user, payload.email, payload.callbackUrl)
      }
      return { success: maybeSent } as const
    })),
  route(
    checkResetCodeEndpoint,
    ({ payload }, context) =>
      Effect.as(
        VerificationCodes.redeem(context, projectOf(context), payload.code, "password_reset", "check"),
        {
          isCodeValid: true
        } as const
      )
  ),
  route(resetEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      // as on the service, the code is marked used before the password is looked at
      const record = yield* VerificationCodes.redeem(context, project, payload.code, "password_reset", "use")
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      yield* checkPassword(payload.password)
      const user = record.userId === null ? undefined : project.users.get(record.userId)
      if (user === undefined) return yield* Effect.fail(VerificationCodeNotFound.make({}))
      user.passwordHash = yield* hashPassword(payload.password, context.env.settings.passwordHashIterations)
      // a password set through the server's user update revokes every session of the user
      revokeSessions(project, user.id, undefined)
      return { success: true } as const
    }))
]
