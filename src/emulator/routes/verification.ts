/**
 * Verifying the primary e-mail (PROTOCOL.md §3.2), served from the SDK's endpoint definitions:
 * the legacy `send-verification-code` for the signed-in user's primary e-mail, and the
 * check-code / verify routes of e-mail verification codes (also those password sign-up sends).
 * Codes live in the one code store (`VerificationCodes.ts`).
 *
 * @module
 */
import { Effect } from "effect"
import { checkVerificationCodeEndpoint, sendVerificationCodeEndpoint, verifyEndpoint } from "../../auth/internal/emailVerification.js"
import { EmailAlreadyVerified, EmailIsNotPrimaryEmail, RedirectUrlNotWhitelisted } from "../../core/KnownErrors.js"
import { projectOf, requireUser, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import * as VerificationCodes from "../VerificationCodes.js"
import { verifyChannelCode } from "../ContactChannels.js"
import { isEmail, urlProblems } from "../Validation.js"
import { sendVerificationEmail } from "../VerificationEmail.js"

/** The service's 400 text when the verified e-mail is no longer the user's. */
export const channelGoneText = "Contact channel not found. Was your contact channel deleted?"

/** The e-mail verification routes. */
export const routes = [
  route(sendVerificationCodeEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = yield* requireUser(context)
      const problems = [
        ...(isEmail(payload.email) ? [] : ["body.email must be a valid email"]),
        ...urlProblems("body.callback_url", payload.callbackUrl)
      ]
      if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
      if (user.primaryEmail !== payload.email) {
        return yield* Effect.fail(EmailIsNotPrimaryEmail.make({ email: payload.email, primary_email: user.primaryEmail }))
      }
      if (user.primaryEmailVerified) return yield* Effect.fail(EmailAlreadyVerified.make({}))
      if (!isTrustedUrl(project, payload.callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      yield* sendVerificationEmail(context, project, user, payload.email, payload.callbackUrl)
      return { success: true } as const
    })),
  route(
    checkVerificationCodeEndpoint,
    ({ payload }, context) =>
      Effect.as(
        VerificationCodes.redeem(context, projectOf(context), payload.code, "email_verification", "check"),
        {
          isCodeValid: true
        } as const
      )
  ),
  route(verifyEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = yield* VerificationCodes.redeem(context, project, payload.code, "email_verification", "use")
      // a code sent for one contact channel verifies that channel (primary or not)
      const { contactChannelId } = record
      if (contactChannelId !== undefined) {
        if (!verifyChannelCode(project, { ...record, contactChannelId })) {
          return yield* Effect.fail(new TextFailure({ status: 400, text: channelGoneText }))
        }
        return { success: true } as const
      }
      const user = record.userId === null ? undefined : project.users.get(record.userId)
      // the e-mail was changed (or the user deleted) after the code was sent
      if (user === undefined || user.primaryEmail !== record.email) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: channelGoneText }))
      }
      user.primaryEmailVerified = true
      return { success: true } as const
    }))
]
