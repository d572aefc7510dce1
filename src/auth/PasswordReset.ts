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
import * as Endpoint from "../core/Endpoint.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import { checkResetCodeEndpoint, resetEndpoint, sendResetCodeEndpoint } from "./internal/passwordReset.js"

/** The domain's schemas, defined with its wire definitions (`internal/passwordReset.ts`). */
export { verificationCodeErrors } from "./internal/passwordReset.js"

/**
 * Asks the service to e-mail a password-reset link to `email`. `POST /auth/password/send-reset-code`.
 * The answer is the same whether or not a user has that e-mail (no e-mail is sent then).
 * `callbackUrl` defaults to the `passwordReset` handler page; without `HandlerUrls` (app URL) or a
 * browser, omitting it fails with `CallbackUrlRequired`. Fails with `RedirectUrlNotWhitelisted`
 * or `PasswordAuthenticationNotEnabled`.
 */
export const sendPasswordResetCode = Effect.fn("PasswordReset.sendPasswordResetCode")(function* (input: {
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
export const checkPasswordResetCode = Effect.fn("PasswordReset.checkPasswordResetCode")(function* (code: string) {
  yield* Endpoint.call(checkResetCodeEndpoint, { payload: { code } })
})

/**
 * Sets a new password with the e-mailed code. `POST /auth/password/reset`. Fails with a
 * verification-code error, `PasswordTooShort` / `PasswordTooLong` (8–70 characters), or
 * `PasswordAuthenticationNotEnabled`. As on the service, the code is used up by the attempt even
 * when the password is then rejected.
 */
export const resetPassword = Effect.fn("PasswordReset.resetPassword")(function* (input: {
  readonly code: string
  readonly password: string
}) {
  yield* Endpoint.call(resetEndpoint, { payload: input })
})
