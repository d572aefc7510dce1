/**
 * Type tests of the password, reset, e-mail verification and magic-link functions: pinned error
 * unions, and HandlerUrls stays out of the requirements (read with Effect.serviceOption).
 */
import { describe, expectTypeOf, it } from "vitest"
import * as EmailVerification from "../../src/auth/EmailVerification.js"
import * as MagicLink from "../../src/auth/MagicLink.js"
import * as Password from "../../src/auth/Password.js"
import * as PasswordReset from "../../src/auth/PasswordReset.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type { CallbackUrlRequired } from "../../src/core/HandlerUrls.js"
import type { ClientCommon, ErrorOf, RequirementsOf, SessionCommon, Transport, VerificationCodeErrors } from "./support.js"

/** A call on the signed-in session: the access token's errors, a failed refresh, no user. */
type SignedInCommon = SessionCommon | UserNotSignedIn

describe("error unions of the password flows", () => {
  it("Password.updatePassword", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Password.updatePassword>>>().toEqualTypeOf<
      | KnownErrors.PasswordAuthenticationNotEnabled
      | KnownErrors.PasswordTooShort
      | KnownErrors.PasswordTooLong
      | KnownErrors.UserDoesNotHavePassword
      | KnownErrors.PasswordConfirmationMismatch
      | ClientCommon
      | SignedInCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("Password.setPassword adds the typed UserAlreadyHasPassword", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Password.setPassword>>>().toEqualTypeOf<
      | KnownErrors.PasswordAuthenticationNotEnabled
      | KnownErrors.PasswordTooShort
      | KnownErrors.PasswordTooLong
      | Password.UserAlreadyHasPassword
      | ClientCommon
      | SignedInCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("PasswordReset: send adds CallbackUrlRequired; check and reset carry the code errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof PasswordReset.sendPasswordResetCode>>>().toEqualTypeOf<
      KnownErrors.PasswordAuthenticationNotEnabled | KnownErrors.RedirectUrlNotWhitelisted | CallbackUrlRequired | ClientCommon | Transport | InvalidArgument
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof PasswordReset.checkPasswordResetCode>>>().toEqualTypeOf<
      VerificationCodeErrors | ClientCommon | Transport | InvalidArgument
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof PasswordReset.resetPassword>>>().toEqualTypeOf<
      | VerificationCodeErrors
      | KnownErrors.PasswordTooShort
      | KnownErrors.PasswordTooLong
      | KnownErrors.PasswordAuthenticationNotEnabled
      | ClientCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("EmailVerification.sendVerificationEmail fails with UserHasNoPrimaryEmail before any request", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof EmailVerification.sendVerificationEmail>>>().toEqualTypeOf<
      | EmailVerification.UserHasNoPrimaryEmail
      | KnownErrors.EmailIsNotPrimaryEmail
      | KnownErrors.EmailAlreadyVerified
      | KnownErrors.RedirectUrlNotWhitelisted
      | CallbackUrlRequired
      | ClientCommon
      | SignedInCommon
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailVerification.verifyEmail>>>().toEqualTypeOf<
      VerificationCodeErrors | ClientCommon | Transport | InvalidArgument
    >()
  })

  it("MagicLink: send maps the 403 to MagicLinkNotEnabled; the callback helper adds MagicLinkCodeMissing", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof MagicLink.sendMagicLinkEmail>>>().toEqualTypeOf<
      | MagicLink.MagicLinkNotEnabled
      | KnownErrors.UserEmailAlreadyExists
      | KnownErrors.SignUpNotEnabled
      | KnownErrors.RedirectUrlNotWhitelisted
      | KnownErrors.BotChallengeRequired
      | KnownErrors.BotChallengeFailed
      | CallbackUrlRequired
      | ClientCommon
      | Transport
      | InvalidArgument
    >()
    type SignIn =
      | VerificationCodeErrors
      | KnownErrors.UserEmailAlreadyExists
      | KnownErrors.SignUpNotEnabled
      | KnownErrors.SignUpRejected
      | KnownErrors.MultiFactorAuthenticationRequired
      | ClientCommon
      | Transport
      | InvalidArgument
    expectTypeOf<ErrorOf<ReturnType<typeof MagicLink.signInWithMagicLinkCode>>>().toEqualTypeOf<SignIn>()
    expectTypeOf<ErrorOf<ReturnType<typeof MagicLink.signInWithMagicLinkCallback>>>().toEqualTypeOf<SignIn | MagicLink.MagicLinkCodeMissing>()
  })
})

describe("HandlerUrls is optional", () => {
  it("functions with a defaulted callback URL do not require HandlerUrls", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof PasswordReset.sendPasswordResetCode>>>().toEqualTypeOf<StackClient>()
    expectTypeOf<RequirementsOf<ReturnType<typeof MagicLink.sendMagicLinkEmail>>>().toEqualTypeOf<StackClient>()
    expectTypeOf<RequirementsOf<ReturnType<typeof EmailVerification.sendVerificationEmail>>>().toEqualTypeOf<StackClient | Session>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Password.signUpWithPassword>>>().toEqualTypeOf<StackClient | Session>()
    expectTypeOf<RequirementsOf<ReturnType<typeof MagicLink.signInWithMagicLinkCode>>>().toEqualTypeOf<StackClient | Session>()
  })
})
