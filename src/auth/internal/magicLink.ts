/**
 * The wire definitions of `MagicLink` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `MagicLink.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  BotChallengeFailed,
  BotChallengeRequired,
  MultiFactorAuthenticationRequired,
  RedirectUrlNotWhitelisted,
  SignUpNotEnabled,
  SignUpRejected,
  UserEmailAlreadyExists
} from "../../core/KnownErrors.js"
import { CodePayload, CodeValid, field, optionalField, wireStruct } from "../../core/Wire.js"
import { verificationCodeErrors } from "./passwordReset.js"
import { SignInTokens } from "./tokens.js"

/** Payload of `POST /auth/otp/send-sign-in-code`. */
export const SendSignInCodePayload = wireStruct({
  email: Schema.String,
  callbackUrl: field("callback_url", Schema.String),
  botChallengeToken: optionalField("bot_challenge_token", Schema.String),
  botChallengePhase: optionalField("bot_challenge_phase", Schema.Literals(["invisible", "visible"])),
  botChallengeUnavailable: optionalField("bot_challenge_unavailable", Schema.Literal("true"))
})

/** `POST /auth/otp/send-sign-in-code`. */
export const sendSignInCodeEndpoint = Endpoint.make({
  name: "MagicLink.sendMagicLinkEmail",
  method: "POST",
  path: "/auth/otp/send-sign-in-code",
  access: "client",
  session: "none",
  payload: SendSignInCodePayload,
  success: Schema.Struct({ nonce: Schema.String }),
  errors: [UserEmailAlreadyExists, SignUpNotEnabled, RedirectUrlNotWhitelisted, BotChallengeRequired, BotChallengeFailed]
})

/** `POST /auth/otp/sign-in/check-code`. */
export const checkSignInCodeEndpoint = Endpoint.make({
  name: "MagicLink.checkMagicLinkCode",
  method: "POST",
  path: "/auth/otp/sign-in/check-code",
  access: "client",
  session: "none",
  payload: CodePayload,
  success: CodeValid,
  errors: [...verificationCodeErrors]
})

/** `POST /auth/otp/sign-in`. */
export const signInEndpoint = Endpoint.make({
  name: "MagicLink.signInWithMagicLink",
  method: "POST",
  path: "/auth/otp/sign-in",
  access: "client",
  session: "none",
  payload: CodePayload,
  success: SignInTokens,
  errors: [...verificationCodeErrors, UserEmailAlreadyExists, SignUpNotEnabled, SignUpRejected, MultiFactorAuthenticationRequired]
})

/** The service's plain-text 403 when the project has magic-link sign-in off. */
export const otpNotEnabledText = "OTP sign-in is not enabled for this project"
