/**
 * Passkey registration and sign-in (PROTOCOL.md §3.0, §3.1, §7), served from the SDK's endpoint
 * definitions with real WebAuthn verification (`../Passkeys.ts`).
 *
 * - `initiate-passkey-registration` (signed-in user) / `initiate-passkey-authentication`: answer
 *   `{options_json, code}`; the code (45 characters, one use, 65 s) remembers the challenge
 *   (random, or `MOCK` with `EmulatorOptions.hardcodedPasskeyChallenge`, as the service's
 *   `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING`).
 *   Passkeys switched off → PASSKEY_AUTHENTICATION_NOT_ENABLED.
 * - `register {code, credential}`: the code is used first (as every `{code}` endpoint: not found,
 *   expired, used, too many attempts), then the project switch, the origin and the attestation are
 *   checked (PASSKEY_REGISTRATION_FAILED with the reason); the user's one passkey is stored or
 *   replaced, `passkey_auth_enabled` becomes true, and the answer is `{user_handle: credential id}`.
 * - `sign-in {code, authentication_response}`: code, switch, then the credential id must be a
 *   passkey of the project ("Passkey not found"), the origin trusted and the signature valid
 *   (PASSKEY_AUTHENTICATION_FAILED); the counter is updated; a user with TOTP gets
 *   MULTI_FACTOR_AUTHENTICATION_REQUIRED, others the tokens with `is_new_user: false`.
 *
 * @module
 */
import { Effect } from "effect"
import { initiateAuthenticationEndpoint, initiateRegistrationEndpoint, registerEndpoint, signInEndpoint } from "../../auth/internal/passkeys.js"
import { PasskeyAuthenticationFailed, PasskeyAuthenticationNotEnabled, PasskeyRegistrationFailed } from "../../core/KnownErrors.js"
import * as Passkeys from "../Passkeys.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireUser } from "../RequestContext.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import type { CodePurpose, ProjectRecord } from "../State.js"
import * as VerificationCodes from "../VerificationCodes.js"
import { requireSecondFactor } from "../SecondFactor.js"

const requireEnabled = (project: ProjectRecord) => project.config.passkeyEnabled ? Effect.void : Effect.fail(PasskeyAuthenticationNotEnabled.make({}))

/** The hard-coded test challenge when the emulator is started with it (the service's `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING`), else none: a random one. */
const challengeOf = (context: RequestContext): Uint8Array<ArrayBuffer> | undefined =>
  context.env.settings.hardcodedPasskeyChallenge === true ? Passkeys.hardcodedChallenge() : undefined

/** Stores a one-shot code (65 s) remembering the challenge of the options it comes with. */
const issueCode = (
  context: RequestContext,
  project: ProjectRecord,
  purpose: CodePurpose,
  userId: string | null,
  challenge: string
): string => {
  const record = VerificationCodes.create(context, project, {
    purpose,
    userId,
    email: null,
    lifetimeMillis: Passkeys.passkeyCodeLifetimeMillis
  })
  record.passkeyChallenge = challenge
  return record.code
}

/** The passkey routes. */
export const routes = [
  route(initiateRegistrationEndpoint, (_input, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = yield* requireUser(context)
      yield* requireEnabled(project)
      const optionsJson = yield* Passkeys.registrationOptions(project, user, challengeOf(context))
      const code = issueCode(context, project, "passkey_registration", user.id, optionsJson.challenge)
      return { optionsJson, code }
    })),
  route(registerEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const user = yield* requireUser(context)
      const record = yield* VerificationCodes.redeem(context, project, payload.code, "passkey_registration", "use")
      yield* requireEnabled(project)
      const passkey = yield* Passkeys.verifyRegistration({
        project,
        credential: payload.credential,
        challenge: record.passkeyChallenge ?? "",
        nowMillis: context.nowMillis
      }).pipe(Effect.mapError((refusal) => new PasskeyRegistrationFailed({ message: refusal.message, details: {} })))
      // one passkey per user: a new registration replaces the old one
      user.passkey = passkey
      user.passkeyAuthEnabled = true
      return { userHandle: passkey.credentialId }
    })),
  route(initiateAuthenticationEndpoint, (_input, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* requireEnabled(project)
      const optionsJson = yield* Passkeys.authenticationOptions(challengeOf(context))
      const code = issueCode(context, project, "passkey_authentication", null, optionsJson.challenge)
      return { optionsJson, code }
    })),
  route(signInEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = yield* VerificationCodes.redeem(context, project, payload.code, "passkey_authentication", "use")
      yield* requireEnabled(project)
      const assertion = payload.authenticationResponse
      const found = Passkeys.findByCredentialId(project, assertion.id)
      if (found === undefined) {
        return yield* Effect.fail(new PasskeyAuthenticationFailed({ message: "Passkey not found", details: {} }))
      }
      const counter = yield* Passkeys.verifyAuthentication({
        project,
        assertion,
        passkey: found.passkey,
        challenge: record.passkeyChallenge ?? ""
      }).pipe(Effect.mapError((refusal) => new PasskeyAuthenticationFailed({ message: refusal.message, details: {} })))
      found.passkey.counter = counter
      yield* requireSecondFactor(context, project, found.user)
      const tokens = yield* signIn(context, project, found.user)
      return { ...tokens, isNewUser: false }
    }))
]
