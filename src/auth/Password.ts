/**
 * Password sign-up and sign-in, and changing the password of the signed-in user (PROTOCOL.md
 * §3.1). A successful sign-in stores the tokens in the `Session`; the caller gets the user id.
 * Forgotten passwords are in `PasswordReset.ts`.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import { Session } from "../session/Session.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import { SignInTokens } from "./Tokens.js"
import { setPasswordEndpoint, signInEndpoint, signUpEndpoint, updatePasswordEndpoint, userAlreadyHasPasswordText } from "./internal/password.js"

/** Stores the tokens of a sign-in answer in the `Session`; yields the user id. */
export const storeSignIn = (tokens: SignInTokens) =>
  Effect.flatMap(Session, (session) => session.signIn({ accessToken: tokens.accessToken, refreshToken: Option.some(tokens.refreshToken) })).pipe(
    Effect.as({ userId: tokens.userId })
  )

const store = storeSignIn

/**
 * Signs in with e-mail and password and stores the tokens. `POST /auth/password/sign-in`.
 * Fails with `EmailPasswordMismatch`, `PasswordAuthenticationNotEnabled`, or
 * `MultiFactorAuthenticationRequired` (its `details.attempt_code` continues with the TOTP code).
 */
export const signInWithPassword = Effect.fn("Password.signInWithPassword")(function* (credentials: {
  readonly email: string
  readonly password: string
}) {
  const tokens = yield* Endpoint.call(signInEndpoint, { payload: credentials })
  return yield* store(tokens)
})

/**
 * Creates a user with e-mail and password, signs it in and stores the tokens.
 * `POST /auth/password/sign-up`. A verification e-mail is sent, linking to
 * `verificationCallbackUrl`; without it, to the app's `emailVerification` handler page, resolved
 * against `HandlerUrls.layer({ appUrl })` or (in a browser) the current page. When neither can
 * be resolved (Node without `HandlerUrls`), sign-up fails with `CallbackUrlRequired` before any
 * request — as the official client does — naming the three ways out: pass
 * `verificationCallbackUrl`, provide `HandlerUrls.layer({ appUrl })`, or pass
 * `noVerificationCallback: true` to sign up without a verification e-mail.
 *
 * Fails with `UserEmailAlreadyExists`, `PasswordTooShort` / `PasswordTooLong`, `SignUpNotEnabled`,
 * `PasswordAuthenticationNotEnabled`, `RedirectUrlNotWhitelisted` (the callback's domain is not
 * trusted by the project), `CallbackUrlRequired`, `InvalidArgument` (an unusable callback URL).
 */
export const signUpWithPassword = Effect.fn("Password.signUpWithPassword")(function* (input: {
  readonly email: string
  readonly password: string
  /** The page the verification e-mail links to (absolute, or relative to `HandlerUrls`' `appUrl`). */
  readonly verificationCallbackUrl?: string
  /** Send no verification e-mail (no callback URL is sent, even where the default page could be resolved). */
  readonly noVerificationCallback?: boolean
}) {
  const { noVerificationCallback, verificationCallbackUrl: explicit, ...credentials } = input
  const verificationCallbackUrl = noVerificationCallback === true
    ? undefined
    : yield* callbackUrl("emailVerification", "verificationCallbackUrl", explicit, { optOut: "noVerificationCallback: true" })
  const payload = verificationCallbackUrl === undefined ? credentials : { ...credentials, verificationCallbackUrl }
  const tokens = yield* Endpoint.call(signUpEndpoint, { payload })
  return yield* store(tokens)
})

/** `POST /auth/password/set` for a user who already has a password (the service answers 400 text). */
export class UserAlreadyHasPassword extends Data.TaggedError("UserAlreadyHasPassword")<{
  readonly message: string
}> {
  /** The error with the service's message. */
  static readonly make = () => new UserAlreadyHasPassword({ message: userAlreadyHasPasswordText })
}

/**
 * Changes the signed-in user's password. `POST /auth/password/update`. The current session's
 * refresh token is sent, so it survives; every other session of the user is revoked.
 * Fails with `PasswordConfirmationMismatch` (wrong old password), `UserDoesNotHavePassword`,
 * `PasswordTooShort` / `PasswordTooLong` (new password; 8–70 characters),
 * `PasswordAuthenticationNotEnabled`, or `UserNotSignedIn`.
 */
export const updatePassword = Effect.fn("Password.updatePassword")(function* (input: {
  readonly oldPassword: string
  readonly newPassword: string
}) {
  yield* Endpoint.call(updatePasswordEndpoint, { payload: input })
})

/**
 * Gives the signed-in user a password when it has none (e.g. signed up by magic link).
 * `POST /auth/password/set`. Fails with {@link UserAlreadyHasPassword}, `PasswordTooShort` /
 * `PasswordTooLong`, `PasswordAuthenticationNotEnabled`, or `UserNotSignedIn`.
 */
export const setPassword = Effect.fn("Password.setPassword")(function* (input: { readonly password: string }) {
  yield* Endpoint.call(setPasswordEndpoint, { payload: input }).pipe(
    catchPlainText(400, userAlreadyHasPasswordText, () => UserAlreadyHasPassword.make()),
    // `hasPassword` of the cached user changes
    QueryCache.invalidating(["user"])
  )
})
