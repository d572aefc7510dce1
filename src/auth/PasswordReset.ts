/**
 * Forgotten passwords (PROTOCOL.md §3.1): the service e-mails a link `callback_url?code=<45
 * chars>`; the page it opens checks the code and resets the password with it.
 *
 * The callback URL defaults to the app's `passwordReset` handler page (`/handler/password-reset`,
 * see `HandlerUrls`).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import {
  PasswordAuthenticationNotEnabled,
  PasswordTooLong,
  PasswordTooShort,
  RedirectUrlNotWhitelisted,
  VerificationCodeAlreadyUsed,
  VerificationCodeExpired,
  VerificationCodeMaxAttemptsReached,
  VerificationCodeNotFound
} from "../core/KnownErrors.js"
import { CodePayload, CodeValid, field, SuccessTrue, VerificationCode } from "../core/Wire.js"
import { callbackUrl } from "../core/HandlerUrls.js"

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
export const SendResetCodePayload = Schema.Struct({
  email: Schema.String,
  callbackUrl: field("callback_url", Schema.String)
})

/** `POST /auth/password/send-reset-code`. */
export const sendResetCodeEndpoint = Endpoint.make({
  name: "Auth.sendPasswordResetCode",
  method: "POST",
  path: "/auth/password/send-reset-code",
  access: "client",
  session: "none",
  payload: SendResetCodePayload,
  success: Schema.Struct({ success: Schema.Literal(maybeSent) }),
  errors: [PasswordAuthenticationNotEnabled, RedirectUrlNotWhitelisted]
})

/** Payload of the check-code endpoints: `{ code }` (45 characters; defined in `core/Wire.ts`). */
export { CodePayload } from "../core/Wire.js"

/** `POST /auth/password/reset/check-code`. */
export const checkResetCodeEndpoint = Endpoint.make({
  name: "Auth.checkPasswordResetCode",
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
  name: "Auth.resetPassword",
  method: "POST",
  path: "/auth/password/reset",
  access: "client",
  session: "none",
  payload: ResetPayload,
  success: SuccessTrue,
  errors: [...verificationCodeErrors, PasswordTooShort, PasswordTooLong, PasswordAuthenticationNotEnabled]
})

/**
 * Asks the service to e-mail a password-reset link to `email`. `POST /auth/password/send-reset-code`.
 * The answer is the same whether or not a user has that e-mail (no e-mail is sent then).
 * `callbackUrl` defaults to the `passwordReset` handler page; without `HandlerUrls` (app URL) or a
 * browser, omitting it fails with `CallbackUrlRequired`. Fails with `RedirectUrlNotWhitelisted`
 * or `PasswordAuthenticationNotEnabled`.
 */
export const sendPasswordResetCode = Effect.fn("Auth.sendPasswordResetCode")(function* (input: {
  readonly email: string
  readonly callbackUrl?: string | URL
}) {
  const url = yield* callbackUrl("passwordReset", "callbackUrl", input.callbackUrl)
  yield* Endpoint.call(sendResetCodeEndpoint, { payload: { email: input.email, callbackUrl: url } })
})

/**
 * Checks a password-reset code without using it (counts as an attempt).
 * `POST /auth/password/reset/check-code`. Succeeds when the code can reset the password; fails
 * with the verification-code error saying why not. A code that is not 45 characters fails with
 * `InvalidArgument` before anything is sent.
 */
export const checkPasswordResetCode = Effect.fn("Auth.checkPasswordResetCode")(function* (code: string) {
  yield* Endpoint.call(checkResetCodeEndpoint, { payload: { code } })
})

/**
 * Sets a new password with the e-mailed code. `POST /auth/password/reset`. Fails with a
 * verification-code error, `PasswordTooShort` / `PasswordTooLong` (8–70 characters), or
 * `PasswordAuthenticationNotEnabled`. As on the service, the code is used up by the attempt even
 * when the password is then rejected.
 */
export const resetPassword = Effect.fn("Auth.resetPassword")(function* (input: {
  readonly code: string
  readonly password: string
}) {
  yield* Endpoint.call(resetEndpoint, { payload: input })
})
