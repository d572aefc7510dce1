/**
 * The wire definitions of `PasswordReset` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `PasswordReset.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  PasswordAuthenticationNotEnabled,
  PasswordTooLong,
  PasswordTooShort,
  RedirectUrlNotWhitelisted,
  VerificationCodeAlreadyUsed,
  VerificationCodeExpired,
  VerificationCodeMaxAttemptsReached,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import { CodePayload, CodeValid, field, SuccessTrue, VerificationCode, wireStruct } from "../../core/Wire.js"

/** The errors of a verification code (every `{code}` endpoint). */
export const verificationCodeErrors = [
  VerificationCodeNotFound,
  VerificationCodeExpired,
  VerificationCodeAlreadyUsed,
  VerificationCodeMaxAttemptsReached
] as const

/** The answer of `send-reset-code`, the same whether or not a user has the e-mail. */
export const maybeSent = "maybe, only if user with e-mail exists"

/** Payload of `POST /auth/password/send-reset-code`. */
export const SendResetCodePayload = wireStruct({
  email: Schema.String,
  callbackUrl: field("callback_url", Schema.String)
})

/** `POST /auth/password/send-reset-code`. */
export const sendResetCodeEndpoint = Endpoint.make({
  name: "PasswordReset.sendPasswordResetCode",
  method: "POST",
  path: "/auth/password/send-reset-code",
  access: "client",
  session: "none",
  payload: SendResetCodePayload,
  success: Schema.Struct({ success: Schema.Literal(maybeSent) }),
  errors: [PasswordAuthenticationNotEnabled, RedirectUrlNotWhitelisted]
})

/** `POST /auth/password/reset/check-code`. */
export const checkResetCodeEndpoint = Endpoint.make({
  name: "PasswordReset.checkPasswordResetCode",
  method: "POST",
  path: "/auth/password/reset/check-code",
  access: "client",
  session: "none",
  payload: CodePayload,
  success: CodeValid,
  errors: [...verificationCodeErrors]
})

/** Payload of `POST /auth/password/reset`. */
export const ResetPayload = Schema.Struct({ code: VerificationCode, password: Schema.String })

/** `POST /auth/password/reset`. */
export const resetEndpoint = Endpoint.make({
  name: "PasswordReset.resetPassword",
  method: "POST",
  path: "/auth/password/reset",
  access: "client",
  session: "none",
  payload: ResetPayload,
  success: SuccessTrue,
  errors: [...verificationCodeErrors, PasswordTooShort, PasswordTooLong, PasswordAuthenticationNotEnabled]
})
