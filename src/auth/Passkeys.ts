/**
 * Passkeys (WebAuthn): registering one for the signed-in user and signing in with it
 * (PROTOCOL.md §3.0 "Passkey / WebAuthn payloads", §3.1, §5.6, §7; SPEC.md §5, §8).
 *
 * Each flow is: ask the service for options and a one-shot code (45 characters, valid 65 s) →
 * run the browser ceremony with them ({@link WebAuthnBrowser}) → post the result with the code.
 * The service's options carry the placeholder relying-party id {@link sentinelRpId}; the client
 * checks it and puts the page's host name in its place (the service derives the relying party
 * from the origin the browser signs). One passkey per user: registering again replaces it.
 *
 * Failures: the browser cannot do WebAuthn → {@link WebAuthnNotSupported} (before any request);
 * options without the placeholder → `PasskeyRegistrationFailed` / `PasskeyAuthenticationFailed`
 * "Failed to get initiation options for passkey registration/authentication"; a ceremony error
 * → `PasskeyWebauthnError` whose `details.code` is the WebAuthn error code (`ERROR_CEREMONY_ABORTED`,
 * `ERROR_INVALID_DOMAIN`, …) — an invalid host name or user id is refused with that error before
 * the browser is asked; passkeys switched off → `PasskeyAuthenticationNotEnabled`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Mfa, Passkeys, WebAuthnBrowser } from "stack-auth-effect"
 *
 * const signIn = (askForTotp: Effect.Effect<string>) =>
 *   Passkeys.signIn().pipe(
 *     Effect.catchTag("MultiFactorAuthenticationRequired", (error) =>
 *       Effect.flatMap(askForTotp, (totp) => Mfa.signIn({ attemptCode: error.details.attempt_code, totp }))
 *     ),
 *     Effect.provide(WebAuthnBrowser.layerBrowser)
 *   )
 * ```
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Base64Url from "effect/encoding/Base64Url"
import * as Result from "effect/Result"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { PasskeyAuthenticationFailed, PasskeyRegistrationFailed, PasskeyWebauthnError } from "../core/KnownErrors.js"
import { storeSignIn } from "./Password.js"
import type { WebAuthnCeremonyError } from "./WebAuthnBrowser.js"
import { isValidDomain, WebAuthnBrowser, WebAuthnNotSupported } from "./WebAuthnBrowser.js"
import { initiateAuthenticationEndpoint, initiateRegistrationEndpoint, registerEndpoint, sentinelRpId, signInEndpoint } from "./internal/passkeys.js"

/** The domain's schemas, defined with its wire definitions (`internal/passkeys.ts`). */
export { AuthenticationInitiation, RegisterResponse, RegistrationInitiation } from "./internal/passkeys.js"

/** The message of both flows when the service's options do not carry {@link sentinelRpId}. */
export const initiationFailedMessage = {
  registration: "Failed to get initiation options for passkey registration",
  authentication: "Failed to get initiation options for passkey authentication"
} as const

/** The browser cannot do WebAuthn: fails before anything is sent. */
const requireSupport = Effect.gen(function* () {
  const browser = yield* WebAuthnBrowser
  const supported = yield* browser.isSupported
  if (!supported) return yield* Effect.fail(WebAuthnNotSupported.make())
  return browser
})

/** The page's host name, refused (as the browser would) unless it is localhost or a dotted domain. */
const relyingPartyId = (hostname: string): Effect.Effect<string, PasskeyWebauthnError> =>
  isValidDomain(hostname)
    ? Effect.succeed(hostname)
    : Effect.fail(PasskeyWebauthnError.make({ message: `${hostname} is an invalid domain`, code: "ERROR_INVALID_DOMAIN" }))

/** A user id (base64url) must be 1 to 64 bytes (SPEC.md §5). */
const checkUserId = (userId: string): Effect.Effect<void, PasskeyWebauthnError> => {
  const bytes = Base64Url.decode(userId)
  return Result.isSuccess(bytes) && bytes.success.length >= 1 && bytes.success.length <= 64
    ? Effect.void
    : Effect.fail(
      PasskeyWebauthnError.make({ message: "User ID was not between 1 and 64 characters", code: "ERROR_INVALID_USER_ID_LENGTH" })
    )
}

/** A ceremony error with a WebAuthn code → `PasskeyWebauthnError`; anything else → `unknown`. */
const mapCeremonyError = <E>(unknown: (error: WebAuthnCeremonyError) => E) => (error: WebAuthnCeremonyError): PasskeyWebauthnError | E =>
  error.code !== undefined ? PasskeyWebauthnError.make({ message: error.message, code: error.code }) : unknown(error)

/**
 * Registers a passkey for the signed-in user (replacing the one it had) and returns its
 * credential id (`userHandle`): `POST /auth/passkey/initiate-passkey-registration`, the browser's
 * registration ceremony for the page's host name, then `POST /auth/passkey/register`. The user's
 * `passkeyAuthEnabled` becomes true.
 *
 * Fails with {@link WebAuthnNotSupported} (nothing sent), `PasskeyAuthenticationNotEnabled`,
 * `PasskeyRegistrationFailed` (options without the placeholder rp id: "Failed to get initiation
 * options for passkey registration"; an unidentified browser failure: "Failed to start passkey
 * registration due to unknown error"; the service refused the credential, e.g. "Passkey
 * registration failed because the origin is not allowed"), `PasskeyWebauthnError` (a ceremony
 * error; `details.code` = its WebAuthn code), a verification-code error (the 65 s code expired
 * during the ceremony), or `UserNotSignedIn`.
 */
export const register = Effect.fn("Passkeys.register")(function* () {
  const browser = yield* requireSupport
  const { optionsJson, code } = yield* Endpoint.call(initiateRegistrationEndpoint, { payload: {} })
  if (optionsJson.rp.id !== sentinelRpId) {
    return yield* Effect.fail(new PasskeyRegistrationFailed({ message: initiationFailedMessage.registration, details: {} }))
  }
  const rpId = yield* relyingPartyId(yield* browser.hostname)
  yield* checkUserId(optionsJson.user.id)
  const credential = yield* browser
    .register({ ...optionsJson, rp: { ...optionsJson.rp, id: rpId } })
    .pipe(Effect.mapError(mapCeremonyError(() => PasskeyRegistrationFailed.make({}))))
  // `passkeyAuthEnabled` of the cached user changes
  const { userHandle } = yield* Endpoint.call(registerEndpoint, { payload: { code, credential } }).pipe(
    QueryCache.invalidating(["user"])
  )
  return { userHandle }
})

/**
 * Signs in with a passkey and stores the tokens; returns the user id:
 * `POST /auth/passkey/initiate-passkey-authentication`, the browser's authentication ceremony
 * for the page's host name (the user picks a passkey), then `POST /auth/passkey/sign-in`.
 *
 * Fails with {@link WebAuthnNotSupported} (nothing sent), `PasskeyAuthenticationNotEnabled`,
 * `PasskeyAuthenticationFailed` (options without the placeholder rp id: "Failed to get initiation
 * options for passkey authentication"; an unidentified browser failure: "Failed to sign in with
 * passkey"; the service refused the assertion: "Passkey not found", a bad signature, an origin
 * that is not trusted), `PasskeyWebauthnError` (a ceremony error, e.g. the user cancelled),
 * `MultiFactorAuthenticationRequired` (the user has TOTP: continue with `Mfa.signIn` and
 * `details.attempt_code`), or a verification-code error.
 */
export const signIn = Effect.fn("Passkeys.signIn")(function* () {
  const browser = yield* requireSupport
  const { optionsJson, code } = yield* Endpoint.call(initiateAuthenticationEndpoint, { payload: {} })
  if (optionsJson.rpId !== sentinelRpId) {
    return yield* Effect.fail(new PasskeyAuthenticationFailed({ message: initiationFailedMessage.authentication, details: {} }))
  }
  const rpId = yield* relyingPartyId(yield* browser.hostname)
  const authenticationResponse = yield* browser
    .authenticate({ ...optionsJson, rpId })
    .pipe(Effect.mapError(mapCeremonyError(() => PasskeyAuthenticationFailed.make({}))))
  const tokens = yield* Endpoint.call(signInEndpoint, { payload: { code, authenticationResponse } })
  return yield* storeSignIn(tokens)
})
