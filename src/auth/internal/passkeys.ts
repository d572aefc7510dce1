/**
 * The wire definitions of `Passkeys` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Passkeys.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  MultiFactorAuthenticationRequired,
  PasskeyAuthenticationFailed,
  PasskeyAuthenticationNotEnabled,
  PasskeyRegistrationFailed,
  VerificationCodeAlreadyUsed,
  VerificationCodeExpired,
  VerificationCodeMaxAttemptsReached,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import { field, VerificationCode, wireStruct } from "../../core/Wire.js"
import { SignInTokens } from "./tokens.js"
import { AuthenticationCredential, CreationOptions, RegistrationCredential, RequestOptions } from "../WebAuthnBrowser.js"

/** The relying-party id the service puts in its options; the client replaces it with the page's host name. */
export const sentinelRpId = "THIS_VALUE_WILL_BE_REPLACED.example.com"

/** The body `{}` of the two initiate endpoints. */
export const EmptyPayload = Schema.Struct({})

/** Answer of `POST /auth/passkey/initiate-passkey-registration`. */
export const RegistrationInitiation = wireStruct({
  optionsJson: field("options_json", CreationOptions),
  code: Schema.String
})

/** Answer of `POST /auth/passkey/initiate-passkey-authentication`. */
export const AuthenticationInitiation = wireStruct({
  optionsJson: field("options_json", RequestOptions),
  code: Schema.String
})

/** Payload of `POST /auth/passkey/register`. */
export const RegisterPayload = Schema.Struct({
  code: VerificationCode,
  credential: RegistrationCredential
})

/** Answer of `POST /auth/passkey/register`: the credential id. */
export const RegisterResponse = wireStruct({ userHandle: field("user_handle", Schema.String) })

/** Payload of `POST /auth/passkey/sign-in`. */
export const SignInPayload = wireStruct({
  code: VerificationCode,
  authenticationResponse: field("authentication_response", AuthenticationCredential)
})

const verificationCodeErrors = [
  VerificationCodeNotFound,
  VerificationCodeExpired,
  VerificationCodeAlreadyUsed,
  VerificationCodeMaxAttemptsReached
] as const

/** `POST /auth/passkey/initiate-passkey-registration` (signed-in user). */
export const initiateRegistrationEndpoint = Endpoint.make({
  name: "Passkeys.initiateRegistration",
  method: "POST",
  path: "/auth/passkey/initiate-passkey-registration",
  access: "client",
  session: "required",
  payload: EmptyPayload,
  success: RegistrationInitiation,
  errors: [PasskeyAuthenticationNotEnabled]
})

/** `POST /auth/passkey/register` (signed-in user). */
export const registerEndpoint = Endpoint.make({
  name: "Passkeys.register",
  method: "POST",
  path: "/auth/passkey/register",
  access: "client",
  session: "required",
  payload: RegisterPayload,
  success: RegisterResponse,
  errors: [PasskeyRegistrationFailed, PasskeyAuthenticationNotEnabled, ...verificationCodeErrors]
})

/** `POST /auth/passkey/initiate-passkey-authentication` (nobody needs to be signed in). */
export const initiateAuthenticationEndpoint = Endpoint.make({
  name: "Passkeys.initiateAuthentication",
  method: "POST",
  path: "/auth/passkey/initiate-passkey-authentication",
  access: "client",
  session: "none",
  payload: EmptyPayload,
  success: AuthenticationInitiation,
  errors: [PasskeyAuthenticationNotEnabled]
})

/** `POST /auth/passkey/sign-in`. */
export const signInEndpoint = Endpoint.make({
  name: "Passkeys.signIn",
  method: "POST",
  path: "/auth/passkey/sign-in",
  access: "client",
  session: "none",
  payload: SignInPayload,
  success: SignInTokens,
  errors: [PasskeyAuthenticationFailed, PasskeyAuthenticationNotEnabled, MultiFactorAuthenticationRequired, ...verificationCodeErrors]
})
