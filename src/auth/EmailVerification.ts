/**
 * Verifying the primary e-mail of the signed-in user (PROTOCOL.md §3.2): the service e-mails a
 * link `callback_url?code=<45 chars>`; the page it opens checks and uses the code, which marks
 * the e-mail verified. Password sign-up sends the same e-mail when it has a callback URL.
 *
 * The callback URL defaults to the app's `emailVerification` handler page
 * (`/handler/email-verification`, see `HandlerUrls`).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import { checkVerificationCodeEndpoint, sendVerificationCodeEndpoint, verifyEndpoint } from "./internal/emailVerification.js"

/** The signed-in user has no primary e-mail to verify (raised before any request). */
export class UserHasNoPrimaryEmail extends Data.TaggedError("UserHasNoPrimaryEmail")<{ readonly message: string }> {
  /** The error with the spec's message. */
  static readonly make = () => new UserHasNoPrimaryEmail({ message: "User does not have a primary email" })
}

/**
 * E-mails a verification link for the primary e-mail of `user` (the signed-in user, e.g. from
 * `Users.getCurrent`). `POST /contact-channels/send-verification-code`.
 * Fails with {@link UserHasNoPrimaryEmail} without a request when the user has no primary
 * e-mail; with `EmailAlreadyVerified`, `EmailIsNotPrimaryEmail` (the user object is stale),
 * `RedirectUrlNotWhitelisted`, or `UserNotSignedIn`. `callbackUrl` defaults to the
 * `emailVerification` handler page (`CallbackUrlRequired` when it cannot be resolved).
 */
export const sendVerificationEmail = Effect.fn("EmailVerification.sendVerificationEmail")(function* (
  user: { readonly primaryEmail: string | null },
  options: { readonly callbackUrl?: string | URL } = {}
) {
  if (user.primaryEmail === null) return yield* Effect.fail(UserHasNoPrimaryEmail.make())
  const url = yield* callbackUrl("emailVerification", "callbackUrl", options.callbackUrl)
  yield* Endpoint.call(sendVerificationCodeEndpoint, { payload: { email: user.primaryEmail, callbackUrl: url } })
})

/**
 * Checks an e-mail verification code without using it (counts as an attempt).
 * `POST /contact-channels/verify/check-code`. Fails with the verification-code error saying why
 * the code is not usable.
 */
export const checkEmailVerificationCode = Effect.fn("EmailVerification.checkEmailVerificationCode")(function* (code: string) {
  yield* Endpoint.call(checkVerificationCodeEndpoint, { payload: { code } })
})

/**
 * Verifies the e-mail the code was sent to (marks it verified). `POST /contact-channels/verify`.
 * Needs no signed-in user. Fails with a verification-code error, or `HttpError` (400 text) when
 * the e-mail is no longer the user's.
 */
export const verifyEmail = Effect.fn("EmailVerification.verifyEmail")(function* (code: string) {
  // the user's verified flag and the channel list change: cached reads must ask again
  yield* Endpoint.call(verifyEndpoint, { payload: { code } }).pipe(QueryCache.invalidating(["user"], ["contact-channels"]))
})
