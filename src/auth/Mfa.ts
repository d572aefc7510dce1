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
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { NodeInspectSymbol } from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidTotpCode, MultiFactorAuthenticationRequired } from "../core/KnownErrors.js"
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

// ---------------------------------------------------------------------------------------------
// The prompt step (SPEC.md §4 "Sign-in with MFA": the client prompts for a six-digit code)
// ---------------------------------------------------------------------------------------------

/** What a finished MFA sign-in answers (as {@link signIn}). */
export interface MfaSignedIn {
  readonly userId: string
  readonly isNewUser: boolean
}

/** The errors of {@link MfaChallenge.submit}. */
export type SubmitError = Effect.Error<ReturnType<typeof signIn>>

/** The services of {@link MfaChallenge.submit}. */
export type SubmitRequirements = Effect.Services<ReturnType<typeof signIn>>

/**
 * A sign-in waiting for its second factor: made from the `MultiFactorAuthenticationRequired` of a
 * sign-in (password, OTP, passkey, OAuth callback), it keeps the attempt code inside (a private
 * field: printing, logging or `JSON.stringify` show `MfaChallenge` only, never the code) and
 * finishes the sign-in with the authenticator's code. A wrong code fails with `InvalidTotpCode`
 * and the challenge stays usable (the service keeps the attempt code); an attempt the service no
 * longer accepts (used, expired after 5 minutes, too many tries) fails with the verification-code
 * errors: the user signs in again.
 */
export class MfaChallenge {
  /** Discriminates a challenge from a signed-in value in {@link SignInStep}. */
  readonly _tag = "MfaChallenge" as const
  readonly #attemptCode: Redacted.Redacted<string>

  constructor(attemptCode: string | Redacted.Redacted<string>) {
    this.#attemptCode = Redacted.isRedacted(attemptCode) ? attemptCode : Redacted.make(attemptCode)
  }

  /** The challenge of a `MultiFactorAuthenticationRequired` error. */
  static fromError(error: MultiFactorAuthenticationRequired): MfaChallenge {
    return new MfaChallenge(error.details.attempt_code)
  }

  /**
   * Finishes the sign-in with the code of the authenticator app (`POST /auth/mfa/sign-in`, see
   * {@link signIn}) and stores the tokens. An empty code fails with `InvalidTotpCode` without a
   * request.
   */
  submit(otp: string): Effect.Effect<MfaSignedIn, SubmitError, SubmitRequirements> {
    return signIn({ attemptCode: Redacted.value(this.#attemptCode), totp: otp })
  }

  /** `{ _tag: "MfaChallenge" }`: never the attempt code. */
  toJSON(): { readonly _tag: "MfaChallenge" } {
    return { _tag: this._tag }
  }

  /** `MfaChallenge`: never the attempt code. */
  toString(): string {
    return "MfaChallenge"
  }

  /** `MfaChallenge` in Node's `util.inspect` (and `console.log`). */
  [NodeInspectSymbol](): string {
    return "MfaChallenge"
  }
}

/** A sign-in's outcome when the second factor is a step of its own: signed in, or a challenge. */
export type SignInStep<A> =
  | { readonly _tag: "SignedIn"; readonly value: A }
  | { readonly _tag: "MfaRequired"; readonly challenge: MfaChallenge }

/**
 * Runs a sign-in and turns its `MultiFactorAuthenticationRequired` into a step the UI drives:
 * `{ _tag: "SignedIn", value }` or `{ _tag: "MfaRequired", challenge }` (ask for the code, then
 * `challenge.submit(code)`). The other errors stay as they are.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mfa, Password } from "stack-auth-effect"
 *
 * declare const askForCode: Effect.Effect<string> // your form
 * const signIn = Mfa.continuable(Password.signInWithPassword({ email: "ada@example.com", password: "correct horse" })).pipe(
 *   Effect.flatMap((step) => step._tag === "SignedIn" ? Effect.succeed(step.value) : Effect.flatMap(askForCode, (code) => step.challenge.submit(code)))
 * )
 * ```
 */
export const continuable = <A, E, R>(
  signInEffect: Effect.Effect<A, E, R>
): Effect.Effect<SignInStep<A>, Exclude<E, MultiFactorAuthenticationRequired>, R> =>
  signInEffect.pipe(
    Effect.map((value): SignInStep<A> => ({ _tag: "SignedIn", value })),
    Effect.catchIf(
      (error): error is Extract<E, MultiFactorAuthenticationRequired> => error instanceof MultiFactorAuthenticationRequired,
      (error) => Effect.succeed<SignInStep<A>>({ _tag: "MfaRequired", challenge: MfaChallenge.fromError(error) })
    )
  ) as Effect.Effect<SignInStep<A>, Exclude<E, MultiFactorAuthenticationRequired>, R>

/** The question the default prompt asks (our wording: the service's texts do not include one). */
export const promptMessage = "Enter the six-digit code from your authenticator app."

/**
 * The message shown when the code asked for during an OAuth callback is wrong (SPEC.md §8, the
 * official SDK's alert): the flow cannot be resumed from the callback page.
 */
export const oauthCallbackInvalidCodeMessage = "Invalid TOTP code. Please try signing in again."

/** How the SDK asks the user for a code when a flow has no form of its own (the OAuth callback). */
export interface MfaPromptShape {
  /** The code the user typed, or `none` when they cancelled. */
  readonly ask: Effect.Effect<Option.Option<string>>
}

/** `window.prompt(promptMessage)` in a browser; elsewhere (or when cancelled) no code. */
export const browserPrompt: MfaPromptShape = {
  ask: Effect.sync(() => {
    const target = globalThis as { readonly window?: { readonly prompt?: (message: string) => string | null } }
    const prompt = target.window?.prompt
    if (typeof prompt !== "function") return Option.none<string>()
    return Option.fromNullishOr(prompt.call(target.window, promptMessage))
  })
}

/**
 * The prompt service: {@link browserPrompt} unless the app provides its own (a modal dialog, a
 * terminal question): `Effect.provideService(MfaPrompt, { ask })`.
 */
export const MfaPrompt: Context.Reference<MfaPromptShape> = Context.Reference<MfaPromptShape>("stack-auth-effect/MfaPrompt", {
  defaultValue: () => browserPrompt
})

/**
 * Runs a sign-in and, when it needs the second factor, asks {@link MfaPrompt} for the code and
 * submits it once (SPEC.md §4). A cancelled prompt fails with `InvalidTotpCode` without a request,
 * as an empty code does.
 */
export const withPrompt = <A, E, R>(
  signInEffect: Effect.Effect<A, E, R>
): Effect.Effect<A | MfaSignedIn, Exclude<E, MultiFactorAuthenticationRequired> | SubmitError, R | SubmitRequirements> =>
  Effect.flatMap(continuable(signInEffect), (step) => {
    if (step._tag === "SignedIn") return Effect.succeed<A | MfaSignedIn>(step.value)
    return Effect.flatMap(MfaPrompt, (prompt) => prompt.ask).pipe(
      Effect.flatMap((code) => step.challenge.submit(Option.getOrElse(code, () => "")))
    )
  })

/**
 * The code asked for during an OAuth callback was wrong or cancelled: the message is the official
 * alert's, {@link oauthCallbackInvalidCodeMessage} (the user signs in again).
 */
export class OAuthMfaCodeRejected extends Data.TaggedError("OAuthMfaCodeRejected")<{
  readonly message: string
  /** The service's answer (`InvalidTotpCode`). */
  readonly cause: InvalidTotpCode
}> {
  /** The error with the official message. */
  static readonly make = (cause: InvalidTotpCode) => new OAuthMfaCodeRejected({ message: oauthCallbackInvalidCodeMessage, cause })
}
