/**
 * WebAuthn for the emulator's passkey routes (PROTOCOL.md §3.0 "Passkey / WebAuthn payloads",
 * §7 "Passkeys"), with `@simplewebauthn/server` — the library the service uses — whose code runs
 * on WebCrypto only (no `node:` imports), so the emulator core stays browser-compatible.
 *
 * - Options: `generateRegistrationOptions` / `generateAuthenticationOptions` with the service's
 *   settings (placeholder rp id, resident key required, user verification preferred, 60 s; an
 *   empty `hints` array removed) and a random 32-byte challenge, or the service's hard-coded
 *   test challenge ({@link hardcodedChallenge}) when the emulator is started with it.
 * - Origin: the origin in `clientDataJSON` decides. `localhost` is allowed when the project allows
 *   localhost; any other origin must be one of the project's trusted domains (same scheme, host
 *   and port). The expected rp id is that origin's host name — not the placeholder of the options.
 * - Verification: challenge, type, origin, rp id hash, user presence (user verification is not
 *   required), the attestation (format "none" and the others the library knows) or the assertion
 *   signature with the stored public key, and the signature counter.
 *
 * @module
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Base64Url from "effect/encoding/Base64Url"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { sentinelRpId } from "../auth/internal/passkeys.js"
import type { AuthenticationCredential, RegistrationCredential } from "../auth/WebAuthnBrowser.js"
import { CreationOptions, RequestOptions } from "../auth/WebAuthnBrowser.js"
import { parseJson } from "./Json.js"
import { base64ToBytes, bytesToBase64Url } from "./Random.js"
import type { PasskeyRecord, ProjectRecord, UserRecord } from "./State.js"

/**
 * An optional peer dependency the emulator needs for a feature is not installed (a defect: the
 * emulator's passkey routes die with it, and the server logs it). `packageName` names the package.
 */
export class MissingOptionalDependency extends Data.TaggedError("MissingOptionalDependency")<{
  readonly packageName: string
  readonly message: string
  readonly cause: unknown
}> {}

type WebAuthnServer = typeof import("@simplewebauthn/server")

let webAuthnServerModule: Promise<WebAuthnServer> | undefined

/**
 * `@simplewebauthn/server`, imported on first use (an optional peer dependency); a failed import
 * is retried on the next call and dies with {@link MissingOptionalDependency}.
 */
const webAuthnServer: Effect.Effect<WebAuthnServer> = Effect.tryPromise({
  try: () => (webAuthnServerModule ??= import("@simplewebauthn/server")),
  catch: (cause) => {
    webAuthnServerModule = undefined
    return new MissingOptionalDependency({
      packageName: "@simplewebauthn/server",
      message: "The emulator's passkey routes need @simplewebauthn/server, an optional peer dependency of stack-auth-effect " +
        "that is not installed. Install it next to stack-auth-effect: npm install --save-dev @simplewebauthn/server",
      cause
    })
  }
}).pipe(Effect.orDie)

/** How long the browser may take (the options' `timeout`). */
export const ceremonyTimeoutMillis = 60_000

/** Lifetime of the code handed out with the options: the ceremony's timeout and 5 s. */
export const passkeyCodeLifetimeMillis = ceremonyTimeoutMillis + 5_000

/** The name of the user in the options when it has neither display name nor primary e-mail. */
export const genericUserName = "Stack Auth User"

/** Which ceremony: the words differ in the service's messages. */
export type Ceremony = "registration" | "authentication"

/** Why a ceremony's result was refused (the message of PASSKEY_REGISTRATION_FAILED / PASSKEY_AUTHENTICATION_FAILED). */
export interface Refusal {
  readonly message: string
}

const refuse = (message: string): Refusal => ({ message })

/** Drops members whose value is `undefined` (they do not go over the wire). */
const defined = (value: object): Record<string, unknown> => Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined))

/**
 * The challenge of every ceremony when the service's `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING`
 * is set: `isoUint8Array.fromUTF8String("MOCK")`, the UTF-8 bytes of `MOCK` (base64url `TU9DSw`)
 * (`apps/backend/src/app/api/latest/auth/passkey/initiate-passkey-registration/route.tsx` and
 * `initiate-passkey-authentication/route.tsx` at stack-auth/stack-auth 2f719903).
 */
export const hardcodedChallenge = (): Uint8Array<ArrayBuffer> => new TextEncoder().encode("MOCK")

/** The registration options for a user of a project (`challenge`, else a random one). */
export const registrationOptions = (project: ProjectRecord, user: UserRecord, challenge?: Uint8Array<ArrayBuffer>): Effect.Effect<CreationOptions> =>
  Effect.flatMap(webAuthnServer, ({ generateRegistrationOptions }) =>
    Effect.promise(() => {
      const name = user.displayName || user.primaryEmail || genericUserName
      return generateRegistrationOptions({
        rpName: project.displayName,
        rpID: sentinelRpId,
        userID: new TextEncoder().encode(user.id),
        userName: name,
        userDisplayName: name,
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
        timeout: ceremonyTimeoutMillis,
        ...(challenge === undefined ? {} : { challenge })
      })
    })).pipe(
      Effect.map((raw) => {
        const { hints, ...rest } = raw
        return defined(Array.isArray(hints) && hints.length === 0 ? rest : raw)
      }),
      Effect.flatMap(Schema.decodeUnknownEffect(CreationOptions)),
      Effect.orDie
    )

/** The authentication options (`challenge`, else a random one; no credentials listed: discoverable passkeys). */
export const authenticationOptions = (challenge?: Uint8Array<ArrayBuffer>): Effect.Effect<RequestOptions> =>
  Effect.flatMap(
    webAuthnServer,
    ({ generateAuthenticationOptions }) =>
      Effect.promise(() =>
        generateAuthenticationOptions({
          rpID: sentinelRpId,
          userVerification: "preferred",
          allowCredentials: [],
          timeout: ceremonyTimeoutMillis,
          ...(challenge === undefined ? {} : { challenge })
        })
      )
  ).pipe(Effect.map(defined), Effect.flatMap(Schema.decodeUnknownEffect(RequestOptions)), Effect.orDie)

/** The origin in a `clientDataJSON` (base64url of JSON), if it holds one. */
const originOf = (clientDataJSON: string): string | undefined => {
  const text = Base64Url.decodeString(clientDataJSON)
  if (Result.isFailure(text)) return undefined
  const json = parseJson(text.success)
  if (json._tag !== "Value") return undefined
  const parsed = json.value
  return typeof parsed === "object" && parsed !== null && typeof (parsed as { origin?: unknown }).origin === "string"
    ? (parsed as { origin: string }).origin
    : undefined
}

const originOfDomain = (domain: string): string | undefined => {
  try {
    return new URL(domain).origin
  } catch {
    return undefined
  }
}

/**
 * The origin and rp id a ceremony result must have been made for, read from its
 * `clientDataJSON`, or why the project refuses it (the service's messages).
 */
export const expectedRelyingParty = (
  project: ProjectRecord,
  clientDataJSON: string,
  ceremony: Ceremony
): Result.Result<{ readonly origin: string; readonly rpId: string }, Refusal> => {
  const capitalized = ceremony === "registration" ? "Passkey registration" : "Passkey authentication"
  const origin = originOf(clientDataJSON)
  let url: URL | undefined
  try {
    url = origin === undefined ? undefined : new URL(origin)
  } catch {
    url = undefined
  }
  if (origin === undefined || url === undefined) {
    return Result.fail(refuse(`${capitalized} failed because the origin is not allowed`))
  }
  if (url.hostname === "localhost") {
    return project.config.allowLocalhost
      ? Result.succeed({ origin, rpId: url.hostname })
      : Result.fail(refuse(`${capitalized} failed because the origin is not allowed`))
  }
  const trusted = project.config.domains.some((domain) => originOfDomain(domain.domain) === url.origin)
  return trusted
    ? Result.succeed({ origin, rpId: url.hostname })
    : Result.fail(refuse(`${capitalized} failed because the origin is not allowed`))
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Verifies a new credential against the challenge of its code; yields the passkey to store, or
 * why it is refused.
 */
export const verifyRegistration = (input: {
  readonly project: ProjectRecord
  readonly credential: RegistrationCredential
  readonly challenge: string
  readonly nowMillis: number
}): Effect.Effect<PasskeyRecord, Refusal> =>
  Effect.gen(function* () {
    const party = expectedRelyingParty(input.project, input.credential.response.clientDataJSON, "registration")
    if (Result.isFailure(party)) return yield* Effect.fail(party.failure)
    const { verifyRegistrationResponse } = yield* webAuthnServer
    const verification = yield* Effect.tryPromise({
      try: () =>
        verifyRegistrationResponse({
          // the route's schema checked the members; the library checks the rest
          response: input.credential as unknown as RegistrationResponseJSON,
          expectedChallenge: input.challenge,
          expectedOrigin: party.success.origin,
          expectedRPID: party.success.rpId,
          expectedType: "webauthn.create",
          requireUserVerification: false
        }),
      catch: (error) => refuse(`Passkey registration failed: ${messageOf(error)}`)
    })
    if (!verification.verified) {
      return yield* Effect.fail(refuse("Passkey registration failed because the verification response is invalid"))
    }
    const { credential } = verification.registrationInfo
    return {
      credentialId: credential.id,
      publicKey: bytesToBase64Url(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      registeredAtMillis: input.nowMillis
    }
  })

/** The message of a signature that does not verify (as the service words it). */
export const badSignatureMessage = "The signature of the authentication response could not be verified with the stored public key tied to this credential ID"

const base64UrlToBytes = (text: string): Uint8Array => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/")
  return base64ToBytes(base64 + "=".repeat((4 - (base64.length % 4)) % 4))
}

/**
 * Verifies an assertion with a stored passkey and the challenge of its code; yields the new
 * signature counter, or why it is refused.
 */
export const verifyAuthentication = (input: {
  readonly project: ProjectRecord
  readonly assertion: AuthenticationCredential
  readonly passkey: PasskeyRecord
  readonly challenge: string
}): Effect.Effect<number, Refusal> =>
  Effect.gen(function* () {
    const party = expectedRelyingParty(input.project, input.assertion.response.clientDataJSON, "authentication")
    if (Result.isFailure(party)) return yield* Effect.fail(party.failure)
    const { verifyAuthenticationResponse } = yield* webAuthnServer
    const verification = yield* Effect.tryPromise({
      try: () =>
        verifyAuthenticationResponse({
          response: input.assertion as unknown as AuthenticationResponseJSON,
          expectedChallenge: input.challenge,
          expectedOrigin: party.success.origin,
          expectedRPID: party.success.rpId,
          expectedType: "webauthn.get",
          credential: {
            id: input.passkey.credentialId,
            publicKey: base64UrlToBytes(input.passkey.publicKey) as Uint8Array<ArrayBuffer>,
            counter: input.passkey.counter
          },
          requireUserVerification: false
        }),
      catch: (error) => refuse(`Passkey authentication failed: ${messageOf(error)}`)
    })
    if (!verification.verified) return yield* Effect.fail(refuse(badSignatureMessage))
    return verification.authenticationInfo.newCounter
  })

/** The user of a project whose passkey has this credential id (passkey sign-in still enabled), if any. */
export const findByCredentialId = (
  project: ProjectRecord,
  credentialId: string
): { readonly user: UserRecord; readonly passkey: PasskeyRecord } | undefined => {
  for (const user of project.users.values()) {
    if (user.passkey !== undefined && user.passkeyAuthEnabled && user.passkey.credentialId === credentialId) {
      return { user, passkey: user.passkey }
    }
  }
  return undefined
}
