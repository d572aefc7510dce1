/**
 * Magic-link / OTP sign-in (PROTOCOL.md §3.1), served from the SDK's endpoint definitions.
 *
 * `send-sign-in-code` stores one 45-character code and e-mails the link `callback_url?code=…`
 * together with the code's first 6 characters (upper case) to type; it answers the `nonce`, the
 * code's last 39 characters, so a typed code + nonce is the same code. Signing in with a new
 * e-mail creates a user with that e-mail verified and usable for sign-in (`is_new_user: true`);
 * an existing user whose contact channel used for auth with that e-mail is verified gets OTP
 * sign-in switched on; a channel that is not verified (even when the user's primary e-mail is) is
 * refused (USER_EMAIL_ALREADY_EXISTS), as is a new e-mail while sign-up is off. A new e-mail
 * signed in by an anonymous user upgrades that user in place (same id; `is_new_user: true`).
 *
 * @module
 */
import { Effect } from "effect"
import { checkSignInCodeEndpoint, otpNotEnabledText, sendSignInCodeEndpoint, signInEndpoint } from "../../auth/internal/magicLink.js"
import { RedirectUrlNotWhitelisted, SignUpNotEnabled, UserEmailAlreadyExists } from "../../core/KnownErrors.js"
import { emailFromTemplate, escapeHtml } from "../EmailTemplates.js"
import * as Outbox from "../Outbox.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import type { ProjectRecord, UserRecord } from "../State.js"
import { grantUserDefaults } from "../Permissions.js"
import { createPersonalTeamIfEnabled, renamePersonalTeams } from "../Teams.js"
import { findAuthChannel, makeUser } from "../State.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import * as VerificationCodes from "../VerificationCodes.js"
import { requireSecondFactor } from "../SecondFactor.js"
import { emailProblems, urlProblems } from "../Validation.js"

/** The user an OTP sign-in with this e-mail would sign in (null: a new user), or why it may not. */
const userAllowingOtp = (
  project: ProjectRecord,
  email: string
): Effect.Effect<UserRecord | null, UserEmailAlreadyExists | SignUpNotEnabled> => {
  const channel = findAuthChannel(project, email)
  if (channel !== undefined) {
    // the channel that matched must be verified (not merely the user's primary e-mail): an
    // unverified channel is only what its owner typed in, and the code would go to someone else
    if (!channel.isVerified) {
      return Effect.fail(UserEmailAlreadyExists.make({ email, would_work_if_email_was_verified: true }))
    }
    // a verified e-mail: OTP sign-in joins the existing account
    channel.user.otpAuthEnabled = true
    return Effect.succeed(channel.user)
  }
  return project.config.signUpEnabled ? Effect.succeed(null) : Effect.fail(SignUpNotEnabled.make({}))
}

const sendMagicLinkEmail = (
  context: RequestContext,
  project: ProjectRecord,
  code: string,
  email: string,
  callbackUrl: string,
  user: { readonly displayName: string | null } | null
): Effect.Effect<void> => {
  const link = Outbox.linkWithCode(callbackUrl, code)
  const otp = VerificationCodes.otpOf(code)
  return Effect.map(
    emailFromTemplate(project, "magic_link", user, { magicLink: link, otp }, {
      subject: `Sign in to ${project.displayName}: your code is ${otp}`,
      text: `Your sign-in code is ${otp}. Or open this link to sign in:\n\n${link}\n\nIf you did not ask to sign in, you can ignore this e-mail.`,
      html: `<p>Your sign-in code is <strong>${otp}</strong>.</p><p>Or open this link to sign in: <a href="${
        escapeHtml(link)
      }">Sign in</a></p><p>If you did not ask to sign in, you can ignore this e-mail.</p>`
    }, context.env.settings.emailRenderLimits),
    (rendered) =>
      Outbox.send(context.env.state, {
        projectId: project.id,
        to: email,
        ...rendered,
        kind: "magic_link",
        code,
        link,
        sentAtMillis: context.nowMillis
      })
  )
}

/** The magic-link / OTP routes. */
export const routes = [
  route(sendSignInCodeEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const problems = [
        ...emailProblems("body.email", payload.email),
        ...urlProblems("body.callback_url", payload.callbackUrl)
      ]
      if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
      if (!project.config.magicLinkEnabled) return yield* Effect.fail(new TextFailure({ status: 403, text: otpNotEnabledText }))
      const user = yield* userAllowingOtp(project, payload.email)
      if (!isTrustedUrl(project, payload.callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      const { code } = VerificationCodes.create(context, project, {
        purpose: "magic_link",
        userId: user?.id ?? null,
        email: payload.email
      })
      yield* sendMagicLinkEmail(context, project, code, payload.email, payload.callbackUrl, user)
      return { nonce: VerificationCodes.nonceOf(code) }
    })),
  route(
    checkSignInCodeEndpoint,
    ({ payload }, context) =>
      Effect.as(
        VerificationCodes.redeem(context, projectOf(context), payload.code, "magic_link", "check"),
        {
          isCodeValid: true
        } as const
      )
  ),
  route(signInEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = yield* VerificationCodes.redeem(context, project, payload.code, "magic_link", "use")
      const email = record.email ?? ""
      let user = yield* userAllowingOtp(project, email)
      let isNewUser = false
      if (user === null) {
        isNewUser = true
        const current = context.auth?.user
        // as on the service, a signed-in anonymous user is upgraded in place (same id, its teams kept)
        const upgraded = current !== undefined && current.isAnonymous ? current : undefined
        user = upgraded ?? makeUser(randomUuid(), context.nowMillis)
        user.primaryEmail = email
        user.primaryEmailVerified = true
        user.primaryEmailAuthEnabled = true
        user.otpAuthEnabled = true
        if (upgraded !== undefined) {
          upgraded.isAnonymous = false
          renamePersonalTeams(project, upgraded.id, upgraded)
        } else {
          project.users.set(user.id, user)
          grantUserDefaults(project, user.id)
          createPersonalTeamIfEnabled(project, user, context.nowMillis)
        }
      }
      yield* requireSecondFactor(context, project, user)
      const tokens = yield* signIn(context, project, user)
      return { ...tokens, isNewUser }
    }))
]
