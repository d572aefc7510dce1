/**
 * Password sign-up and sign-in (PROTOCOL.md §3.1), served from the SDK's endpoint definitions.
 * Sign-up upgrades a current anonymous user in place (same id) and, with a verification
 * callback URL, "sends" a verification e-mail to the outbox.
 *
 * @module
 */
import { Effect } from "effect"
import { signInEndpoint, signUpEndpoint } from "../../auth/Password.js"
import {
  EmailPasswordMismatch,
  MultiFactorAuthenticationRequired,
  PasswordAuthenticationNotEnabled,
  PasswordTooLong,
  PasswordTooShort,
  RedirectUrlNotWhitelisted,
  SignUpNotEnabled,
  UserEmailAlreadyExists
} from "../../core/KnownErrors.js"
import * as Outbox from "../Outbox.js"
import { hashPassword, verifyPassword } from "../Passwords.js"
import { randomToken45, randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import type { ProjectRecord, UserRecord } from "../State.js"
import { findUserByAuthEmail, makeUser } from "../State.js"
import { isTrustedUrl } from "../TrustedUrls.js"

/** Minimum and maximum password lengths of the service. */
export const passwordLimits = { min: 8, max: 70 } as const

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Whether a text looks like an e-mail address. */
export const isEmail = (text: string): boolean => emailPattern.test(text)

/** PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG for a password outside the limits. */
export const checkPassword = (password: string): Effect.Effect<void, PasswordTooShort | PasswordTooLong> =>
  password.length < passwordLimits.min
    ? Effect.fail(PasswordTooShort.make({ min_length: passwordLimits.min }))
    : password.length > passwordLimits.max
      ? Effect.fail(PasswordTooLong.make({ maxLength: passwordLimits.max }))
      : Effect.void

const isUrl = (text: string): boolean => {
  try {
    new URL(text)
    return true
  } catch {
    return false
  }
}

/** "Sends" the verification e-mail of a user's primary e-mail, linking to `callbackUrl?code=…`. */
export const sendVerificationEmail = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  email: string,
  callbackUrl: string
): void => {
  const code = randomToken45()
  project.codes.set(code, {
    code,
    purpose: "email_verification",
    userId: user.id,
    email,
    createdAtMillis: context.nowMillis,
    expiresAtMillis: context.nowMillis + context.env.settings.emailCodeLifetimeMillis,
    usedAtMillis: undefined,
    attempts: 0
  })
  const link = Outbox.linkWithCode(callbackUrl, code)
  Outbox.send(context.env.state, {
    projectId: project.id,
    to: email,
    subject: `Verify your email at ${project.displayName}`,
    text: `Please verify your email address by opening this link:\n\n${link}\n\nIf you did not sign up, you can ignore this e-mail.`,
    html: `<p>Please verify your email address by opening this link:</p><p><a href="${link}">Verify my e-mail</a></p><p>If you did not sign up, you can ignore this e-mail.</p>`,
    kind: "email_verification",
    code,
    link,
    sentAtMillis: context.nowMillis
  })
}

/** The password routes. */
export const routes = [
  route(signUpEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      if (!isEmail(payload.email)) return yield* Effect.fail(schemaError(context, ["body.email must be a valid email"]))
      const callbackUrl = payload.verificationCallbackUrl
      if (callbackUrl !== undefined) {
        if (!isUrl(callbackUrl)) {
          return yield* Effect.fail(schemaError(context, ["body.verification_callback_url must be a valid URL"]))
        }
        if (!isTrustedUrl(project, callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      }
      yield* checkPassword(payload.password)
      if (!project.config.signUpEnabled) return yield* Effect.fail(SignUpNotEnabled.make({}))
      const emailTaken = () =>
        findUserByAuthEmail(project, payload.email) === undefined
          ? Effect.void
          : Effect.fail(UserEmailAlreadyExists.make({ email: payload.email, would_work_if_email_was_verified: false }))
      yield* emailTaken()
      const passwordHash = yield* hashPassword(payload.password, context.env.settings.passwordHashIterations)
      // hashing yielded: another sign-up may have taken the e-mail meanwhile
      yield* emailTaken()
      const current = context.auth?.user
      let user: UserRecord
      if (current !== undefined && current.isAnonymous) {
        user = current
        user.isAnonymous = false
      } else {
        user = makeUser(randomUuid(), context.nowMillis)
        project.users.set(user.id, user)
      }
      user.primaryEmail = payload.email
      user.primaryEmailVerified = false
      user.primaryEmailAuthEnabled = true
      user.passwordHash = passwordHash
      const tokens = yield* signIn(context, project, user)
      if (callbackUrl !== undefined) sendVerificationEmail(context, project, user, payload.email, callbackUrl)
      return tokens
    })
  ),
  route(signInEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (!project.config.credentialEnabled) return yield* Effect.fail(PasswordAuthenticationNotEnabled.make({}))
      if (payload.password.length > passwordLimits.max) {
        return yield* Effect.fail(schemaError(context, [`body.password must be at most ${passwordLimits.max} characters`]))
      }
      const user = findUserByAuthEmail(project, payload.email)
      if (user === undefined || user.passwordHash === null) return yield* Effect.fail(EmailPasswordMismatch.make({}))
      const matches = yield* verifyPassword(payload.password, user.passwordHash)
      if (!matches) return yield* Effect.fail(EmailPasswordMismatch.make({}))
      if (user.totpSecretBase64 !== null) {
        const code = randomToken45()
        project.codes.set(code, {
          code,
          purpose: "mfa_attempt",
          userId: user.id,
          email: null,
          createdAtMillis: context.nowMillis,
          expiresAtMillis: context.nowMillis + context.env.settings.mfaAttemptLifetimeMillis,
          usedAtMillis: undefined,
          attempts: 0
        })
        return yield* Effect.fail(MultiFactorAuthenticationRequired.make({ attempt_code: code }))
      }
      return yield* signIn(context, project, user)
    })
  )
]
