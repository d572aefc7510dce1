/**
 * The wire definitions of `EmailVerification` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `EmailVerification.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { EmailAlreadyVerified, EmailIsNotPrimaryEmail, RedirectUrlNotWhitelisted } from "../../core/KnownErrors.js"
import { CodePayload, CodeValid, field, SuccessTrue, wireStruct } from "../../core/Wire.js"
import { verificationCodeErrors } from "./passwordReset.js"

/** Payload of `POST /contact-channels/send-verification-code`. */
export const SendVerificationCodePayload = wireStruct({
  email: Schema.String,
  callbackUrl: field("callback_url", Schema.String)
})

/** `POST /contact-channels/send-verification-code` (primary e-mail of the signed-in user). */
export const sendVerificationCodeEndpoint = Endpoint.make({
  name: "EmailVerification.sendVerificationEmail",
  method: "POST",
  path: "/contact-channels/send-verification-code",
  access: "client",
  session: "required",
  payload: SendVerificationCodePayload,
  success: SuccessTrue,
  errors: [EmailIsNotPrimaryEmail, EmailAlreadyVerified, RedirectUrlNotWhitelisted]
})

/** `POST /contact-channels/verify/check-code`. */
export const checkVerificationCodeEndpoint = Endpoint.make({
  name: "EmailVerification.checkEmailVerificationCode",
  method: "POST",
  path: "/contact-channels/verify/check-code",
  access: "client",
  session: "none",
  payload: CodePayload,
  success: CodeValid,
  errors: [...verificationCodeErrors]
})

/** `POST /contact-channels/verify`. */
export const verifyEndpoint = Endpoint.make({
  name: "EmailVerification.verifyEmail",
  method: "POST",
  path: "/contact-channels/verify",
  access: "client",
  session: "none",
  payload: CodePayload,
  success: SuccessTrue,
  errors: [...verificationCodeErrors]
})
