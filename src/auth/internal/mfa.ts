/**
 * The wire definitions of `Mfa` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Mfa.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  InvalidTotpCode,
  VerificationCodeAlreadyUsed,
  VerificationCodeExpired,
  VerificationCodeMaxAttemptsReached,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import { field, VerificationCode, wireStruct } from "../../core/Wire.js"
import { SignInTokens } from "./tokens.js"

/** `"totp"`, the only second factor; another value is a SCHEMA_ERROR with the service's wording. */
export const FactorType = Schema.String.pipe(
  Schema.refine((value: string): value is "totp" => value === "totp", { message: "must be one of the following values: totp" })
)

/** Payload of `POST /auth/mfa/sign-in`. */
export const SignInPayload = wireStruct({
  /** The `attempt_code` of `MULTI_FACTOR_AUTHENTICATION_REQUIRED`. */
  attemptCode: field("code", VerificationCode),
  type: FactorType,
  /** The code of the authenticator app. */
  totp: Schema.String
})

/** `POST /auth/mfa/sign-in`. */
export const signInEndpoint = Endpoint.make({
  name: "Mfa.signIn",
  method: "POST",
  path: "/auth/mfa/sign-in",
  access: "client",
  session: "none",
  payload: SignInPayload,
  success: SignInTokens,
  errors: [
    InvalidTotpCode,
    VerificationCodeNotFound,
    VerificationCodeExpired,
    VerificationCodeAlreadyUsed,
    VerificationCodeMaxAttemptsReached
  ]
})
