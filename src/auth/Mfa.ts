/**
 * Multi-factor authentication with TOTP (PROTOCOL.md §2.6, §3.0 "MFA (TOTP)", §3.1; SPEC.md §4
 * "Sign-in with MFA"). Enabling stores a new random secret through `PATCH /users/me`
 * (`totp_secret_base64`); from then on every sign-in of the user fails with
 * `MultiFactorAuthenticationRequired`, whose `details.attempt_code` (45 characters, valid
 * 5 minutes) continues the sign-in together with a code of the authenticator app.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mfa, Password } from "stack-auth-effect"
 *
 * const signIn = (askForCode: Effect.Effect<string>) =>
 *   Password.signInWithPassword({ email: "ada@example.com", password: "correct horse" }).pipe(
 *     Effect.catchTag("MultiFactorAuthenticationRequired", (error) =>
 *       Effect.flatMap(askForCode, (totp) => Mfa.signIn({ attemptCode: error.details.attempt_code, totp }))
 *     )
 *   )
 * ```
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidTotpCode } from "../core/KnownErrors.js"
import { Session } from "../session/Session.js"
import type { CurrentUser } from "../users/User.js"
import * as Users from "../users/Users.js"
import * as Totp from "./Totp.js"
import { signInEndpoint } from "./internal/mfa.js"

/** The domain's schemas, defined with its wire definitions (`internal/mfa.ts`). */
export { FactorType } from "./internal/mfa.js"

/** The issuer shown by authenticator apps unless another is given. */
export const defaultIssuer = "Stack Auth"

/** What {@link enableTotp} returns: the secret (for a QR code or manual entry) and the updated user. */
export interface EnabledTotp {
  /** The raw 20-byte secret. */
  readonly secret: Redacted.Redacted<Uint8Array>
  /** `otpauth://totp/…` for authenticator apps (usually shown as a QR code). */
  readonly otpauthUri: Redacted.Redacted<string>
  /** The user after the update (`isMultiFactorRequired` true). */
  readonly user: CurrentUser
}

/**
 * Turns TOTP on for the signed-in user: makes a random 20-byte secret (`crypto.getRandomValues`),
 * stores it with `PATCH /users/me` (`totp_secret_base64`), and returns it with an `otpauth://`
 * URI labelled `issuer:accountName` (defaults: "Stack Auth" and the user's primary e-mail, else
 * its id). Replaces a previous secret. Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const enableTotp = Effect.fn("Mfa.enableTotp")(function* (
  options: { readonly issuer?: string; readonly accountName?: string } = {}
) {
  const secret = Totp.randomSecret()
  const user = yield* Users.updateCurrent({ totpSecretBase64: Totp.toBase64(secret) })
  const uri = Totp.otpauthUri({
    secret,
    issuer: options.issuer ?? defaultIssuer,
    accountName: options.accountName ?? user.primaryEmail ?? user.id
  })
  const enabled: EnabledTotp = { secret: Redacted.make(secret), otpauthUri: Redacted.make(uri), user }
  return enabled
})

/**
 * Turns TOTP off for the signed-in user (`PATCH /users/me` with `totp_secret_base64: null`) and
 * returns the updated user. Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const disableTotp = Effect.fn("Mfa.disableTotp")(function* () {
  return yield* Users.updateCurrent({ totpSecretBase64: null })
})

/**
 * Finishes a sign-in that failed with `MultiFactorAuthenticationRequired`: sends the attempt code
 * and the authenticator's code, `POST /auth/mfa/sign-in`, and stores the tokens. An empty code
 * fails with `InvalidTotpCode` without a request, an attempt code that is not 45 characters with
 * `InvalidArgument`. A wrong code fails with `InvalidTotpCode` and
 * the attempt code stays usable; an unusable attempt code fails with `VerificationCodeNotFound`,
 * `VerificationCodeExpired` (after 5 minutes), `VerificationCodeAlreadyUsed` or
 * `VerificationCodeMaxAttemptsReached`.
 */
export const signIn = Effect.fn("Mfa.signIn")(function* (input: { readonly attemptCode: string; readonly totp: string }) {
  const totp = input.totp.trim()
  if (totp === "") return yield* Effect.fail(InvalidTotpCode.make({}))
  const tokens = yield* Endpoint.call(signInEndpoint, { payload: { attemptCode: input.attemptCode, type: "totp", totp } })
  const session = yield* Session
  yield* session.signIn({ accessToken: tokens.accessToken, refreshToken: Option.some(tokens.refreshToken) })
  return { userId: tokens.userId, isNewUser: tokens.isNewUser ?? false }
})
