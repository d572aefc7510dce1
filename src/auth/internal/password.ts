/**
 * The wire definitions of `Password` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Password.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  BotChallengeFailed,
  BotChallengeRequired,
  EmailPasswordMismatch,
  MultiFactorAuthenticationRequired,
  PasswordAuthenticationNotEnabled,
  PasswordConfirmationMismatch,
  PasswordTooLong,
  PasswordTooShort,
  RedirectUrlNotWhitelisted,
  SignUpNotEnabled,
  SignUpRejected,
  UserDoesNotHavePassword,
  UserEmailAlreadyExists
} from "../../core/KnownErrors.js"
import { field, optionalField, SuccessTrue, wireStruct } from "../../core/Wire.js"
import { SignInTokens } from "./tokens.js"

/** Payload of `POST /auth/password/sign-in`. */
export const SignInPayload = Schema.Struct({
  email: Schema.String.check(Schema.isMinLength(1)),
  password: Schema.String.check(Schema.isMaxLength(70))
})

/** Payload of `POST /auth/password/sign-up`. */
export const SignUpPayload = wireStruct({
  email: Schema.String.check(Schema.isMinLength(1)),
  password: Schema.String,
  verificationCallbackUrl: optionalField("verification_callback_url", Schema.String),
  botChallengeToken: optionalField("bot_challenge_token", Schema.String),
  botChallengePhase: optionalField("bot_challenge_phase", Schema.Literals(["invisible", "visible"])),
  botChallengeUnavailable: optionalField("bot_challenge_unavailable", Schema.Literal("true"))
})

/** `POST /auth/password/sign-in`. */
export const signInEndpoint = Endpoint.make({
  name: "Password.signInWithPassword",
  method: "POST",
  path: "/auth/password/sign-in",
  access: "client",
  session: "none",
  payload: SignInPayload,
  success: SignInTokens,
  errors: [PasswordAuthenticationNotEnabled, EmailPasswordMismatch, MultiFactorAuthenticationRequired]
})

/** `POST /auth/password/sign-up`. */
export const signUpEndpoint = Endpoint.make({
  name: "Password.signUpWithPassword",
  method: "POST",
  path: "/auth/password/sign-up",
  access: "client",
  // a current anonymous user is upgraded in place, so its tokens are sent when present
  session: "optional",
  payload: SignUpPayload,
  success: SignInTokens,
  errors: [
    PasswordAuthenticationNotEnabled,
    RedirectUrlNotWhitelisted,
    SignUpNotEnabled,
    PasswordTooShort,
    PasswordTooLong,
    UserEmailAlreadyExists,
    SignUpRejected,
    BotChallengeRequired,
    BotChallengeFailed,
    MultiFactorAuthenticationRequired
  ]
})

// ---------------------------------------------------------------------------------------------
// Changing the password of the signed-in user
// ---------------------------------------------------------------------------------------------

/** Payload of `POST /auth/password/update`. */
export const UpdatePasswordPayload = wireStruct({
  oldPassword: field("old_password", Schema.String),
  newPassword: field("new_password", Schema.String)
})

/** `POST /auth/password/update` (signed-in user; the refresh token header keeps the current session). */
export const updatePasswordEndpoint = Endpoint.make({
  name: "Password.updatePassword",
  method: "POST",
  path: "/auth/password/update",
  access: "client",
  session: "required",
  payload: UpdatePasswordPayload,
  success: SuccessTrue,
  errors: [PasswordAuthenticationNotEnabled, PasswordTooShort, PasswordTooLong, UserDoesNotHavePassword, PasswordConfirmationMismatch]
})

/** Payload of `POST /auth/password/set`. */
export const SetPasswordPayload = Schema.Struct({ password: Schema.String })

/** `POST /auth/password/set` (signed-in user without a password). */
export const setPasswordEndpoint = Endpoint.make({
  name: "Password.setPassword",
  method: "POST",
  path: "/auth/password/set",
  access: "client",
  session: "required",
  payload: SetPasswordPayload,
  success: SuccessTrue,
  errors: [PasswordAuthenticationNotEnabled, PasswordTooShort, PasswordTooLong]
})

/** The service's plain-text answer when `set` is called for a user who has a password. */
export const userAlreadyHasPasswordText = "User already has a password set."
