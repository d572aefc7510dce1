/**
 * The service's `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING` (issue 27, item 11b): with
 * `hardcodedPasskeyChallenge`, both ceremonies' options carry the challenge
 * `isoUint8Array.fromUTF8String("MOCK")` (base64url `TU9DSw`), so an authenticator's answer made
 * for one ceremony verifies in another — what the service's own tests rely on to replay recorded
 * credentials. Read from the service's source at stack-auth/stack-auth commit
 * 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/auth/passkey/initiate-passkey-registration/route.tsx` and
 * `initiate-passkey-authentication/route.tsx` (`challenge: getEnvVariable(
 * "STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING", "") ? isoUint8Array.fromUTF8String("MOCK")
 * : undefined`, the code remembering `options.challenge` for `register` / `sign-in`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { CreationOptions, RequestOptions } from "../../src/auth/WebAuthnBrowser.js"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { SoftwareAuthenticator } from "../support/softwareAuthenticator.js"
import { clientHeaders, makeEmulator, send, signUp } from "./helpers.js"

/** base64url of the UTF-8 bytes of "MOCK". */
const mockChallenge = Buffer.from("MOCK").toString("base64url")

const headers = (emulator: Emulator.Emulator, accessToken?: string) =>
  clientHeaders(emulator.demo, accessToken === undefined ? {} : { "x-stack-access-token": accessToken })

const initiateRegistration = (emulator: Emulator.Emulator, accessToken: string) =>
  Effect.map(
    send(emulator, { method: "POST", path: "/api/v1/auth/passkey/initiate-passkey-registration", headers: headers(emulator, accessToken), body: {} }),
    (answer) => {
      expect(answer.status, answer.text).toBe(200)
      return answer.json as { options_json: CreationOptions; code: string }
    }
  )

const initiateAuthentication = (emulator: Emulator.Emulator) =>
  Effect.map(
    send(emulator, { method: "POST", path: "/api/v1/auth/passkey/initiate-passkey-authentication", headers: headers(emulator), body: {} }),
    (answer) => {
      expect(answer.status, answer.text).toBe(200)
      return answer.json as { options_json: RequestOptions; code: string }
    }
  )

/** Registers a credential made for the FIRST registration ceremony with the code of a SECOND one. */
const registerWithEarlierCeremony = (emulator: Emulator.Emulator, authenticator: SoftwareAuthenticator, accessToken: string) =>
  Effect.gen(function* () {
    const first = yield* initiateRegistration(emulator, accessToken)
    const credential = yield* Effect.promise(() => authenticator.create({ ...first.options_json, rp: { ...first.options_json.rp, id: "localhost" } }))
    const second = yield* initiateRegistration(emulator, accessToken)
    const answer = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/auth/passkey/register",
      headers: headers(emulator, accessToken),
      body: { code: second.code, credential }
    })
    return { first, second, answer }
  })

describe("hardcodedPasskeyChallenge (initiate-passkey-*/route.tsx at 2f719903)", () => {
  it.effect("both ceremonies' options carry the challenge MOCK; without the switch it is random", () =>
    Effect.gen(function* () {
      const fixed = yield* makeEmulator({ hardcodedPasskeyChallenge: true })
      const ada = yield* signUp(fixed, fixed.demo, "ada.passkey@example.com")
      expect((yield* initiateRegistration(fixed, ada.access_token)).options_json.challenge).toBe(mockChallenge)
      expect((yield* initiateAuthentication(fixed)).options_json.challenge).toBe(mockChallenge)

      const random = yield* makeEmulator()
      const bob = yield* signUp(random, random.demo, "bob.passkey@example.com")
      const challenges = [
        (yield* initiateRegistration(random, bob.access_token)).options_json.challenge,
        (yield* initiateAuthentication(random)).options_json.challenge
      ]
      for (const challenge of challenges) expect(challenge).not.toBe(mockChallenge)
      expect(challenges[0]).not.toBe(challenges[1])
    }))

  it.effect("an authenticator's answer made for one ceremony verifies in another (registration and sign-in)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ hardcodedPasskeyChallenge: true })
      const authenticator = new SoftwareAuthenticator()
      const ada = yield* signUp(emulator, emulator.demo, "ada.replay@example.com")
      const { answer } = yield* registerWithEarlierCeremony(emulator, authenticator, ada.access_token)
      expect(answer.status, answer.text).toBe(200)

      const first = yield* initiateAuthentication(emulator)
      const assertion = yield* Effect.promise(() => authenticator.get({ ...first.options_json, rpId: "localhost" }))
      const second = yield* initiateAuthentication(emulator)
      const signedIn = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/passkey/sign-in",
        headers: headers(emulator),
        body: { code: second.code, authentication_response: assertion }
      })
      expect(signedIn.status, signedIn.text).toBe(200)
      expect(signedIn.json.user_id).toBe(ada.user_id)
    }))

  it.effect("without the switch, the same replay is refused (PASSKEY_REGISTRATION_FAILED)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const ada = yield* signUp(emulator, emulator.demo, "ada.noreplay@example.com")
      const { answer } = yield* registerWithEarlierCeremony(emulator, new SoftwareAuthenticator(), ada.access_token)
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("PASSKEY_REGISTRATION_FAILED")
    }))
})
