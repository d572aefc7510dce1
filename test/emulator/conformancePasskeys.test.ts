/**
 * Conformance of the passkey routes with the recorded wire samples (passkeys/*). The recorded
 * credentials cannot be replayed — the recorded instance used a fixed challenge ("TU9DSw"), the
 * emulator issues random ones — so each exchange is made again with the software authenticator
 * (same recipe as the capture: P-256, attestation "none", origin http://localhost:3000): the
 * request is the sample's (method, path, headers with live keys and tokens) with a body of the
 * same shape, and the answer must match the sample's status, `x-stack-known-error`, content type
 * and body shape (same keys, same value types, recursively). The SDK's schemas must also decode
 * the recorded requests and answers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as Passkeys from "../../src/auth/Passkeys.js"
import * as PasskeysWire from "../../src/auth/internal/passkeys.js"
import { SignInTokens } from "../../src/auth/Tokens.js"
import * as Totp from "../../src/auth/Totp.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import { commonErrorClasses, decodeResponse } from "../../src/core/internal/call.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import type { Emulator, ProjectCredentials } from "../../src/emulator/Emulator.js"
import type { CreationOptions, RequestOptions } from "../../src/auth/WebAuthnBrowser.js"
import { SoftwareAuthenticator } from "../support/softwareAuthenticator.js"
import type { Sample } from "./conformanceSupport.js"
import { compare, load as loadSample, shapeDifferences } from "./conformanceSupport.js"
import type { Answer } from "./helpers.js"
import { makeEmulator, send } from "./helpers.js"

/** A passkeys sample, its bodies read as JSON of any shape. */
interface PasskeySample extends Sample {
  readonly request: Sample["request"] & { readonly body: any }
  readonly response: Sample["response"] & { readonly body: any }
}

const load = (name: string): PasskeySample => loadSample(`passkeys/${name}`) as PasskeySample

const recordedProjectId = load("03-initiate-registration").request.headers["X-Stack-Project-Id"]!
const recordedEmail = load("06-me-after-register").response.body.primary_email as string
const password = "correct horse battery"

interface Env {
  readonly emulator: Emulator
  readonly project: ProjectCredentials
  readonly authenticator: SoftwareAuthenticator
  /** Sends the sample's request (live keys, `<access-token>` = `accessToken`) with `body`, or its own body. */
  readonly exchange: (name: string, options?: { readonly body?: unknown; readonly accessToken?: string }) => Effect.Effect<Answer>
}

/** The recorded project (id, name, trusted domain) in a fresh emulator, passkeys on or off. */
const makeEnv = (passkeyEnabled: boolean) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(1_795_318_116_000)
    const emulator = yield* makeEmulator()
    const project = yield* emulator
      .createProject({
        id: recordedProjectId,
        displayName: "SDK Test Project",
        config: { passkeyEnabled, domains: [{ domain: "https://wire-check.example.com", handlerPath: "/handler" }] }
      })
      .pipe(Effect.orDie)
    const authenticator = new SoftwareAuthenticator()
    const exchange: Env["exchange"] = (name, options = {}) => {
      const sample = load(name)
      const headers: Record<string, string> = {}
      for (const [header, value] of Object.entries(sample.request.headers)) {
        headers[header] = value
          .replace("<publishable-client-key>", project.publishableClientKey)
          .replace("<super-secret-admin-key>", project.superSecretAdminKey)
          .replace("<access-token>", options.accessToken ?? "")
      }
      const body = options.body ?? sample.request.body
      if (options.body !== undefined) expect(shapeDifferences(sample.request.body, options.body, "request")).toEqual([])
      return send(emulator, {
        method: sample.request.method,
        path: sample.request.path,
        headers,
        ...(body === null ? {} : { body })
      })
    }
    return { emulator, project, authenticator, exchange } satisfies Env
  })

const signUp = (env: Env) =>
  Effect.map(
    send(env.emulator, {
      method: "POST",
      path: "/api/v1/auth/password/sign-up",
      headers: {
        "x-stack-project-id": env.project.projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": env.project.publishableClientKey
      },
      body: { email: recordedEmail, password }
    }),
    (answer) => answer.json as { access_token: string; refresh_token: string; user_id: string }
  )

const withRpId = (options: CreationOptions, rpId: string): CreationOptions => ({ ...options, rp: { ...options.rp, id: rpId } })

/** A signed-up user with a registered passkey. */
const registered = (env: Env) =>
  Effect.gen(function* () {
    const tokens = yield* signUp(env)
    const initiation = yield* env.exchange("03-initiate-registration", { accessToken: tokens.access_token })
    const credential = yield* Effect.promise(() => env.authenticator.create(withRpId(initiation.json.options_json, "localhost")))
    const answer = yield* env.exchange("05-register", { accessToken: tokens.access_token, body: { code: initiation.json.code, credential } })
    expect(answer.status).toBe(200)
    return { tokens, credential, answer }
  })

/** A fresh authentication code and the assertion for it. */
const assertion = (env: Env) =>
  Effect.gen(function* () {
    const initiation = yield* env.exchange("07-initiate-authentication")
    const options: RequestOptions = { ...initiation.json.options_json, rpId: "localhost" }
    const authenticationResponse = yield* Effect.promise(() => env.authenticator.get(options))
    return { initiation, body: { code: initiation.json.code as string, authentication_response: authenticationResponse } }
  })

describe("conformance of the passkey routes with the recorded wire samples", () => {
  it.effect("passkeys/01: initiate registration while passkeys are off → PASSKEY_AUTHENTICATION_NOT_ENABLED", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(false)
      const tokens = yield* signUp(env)
      const answer = yield* env.exchange("01-initiate-registration-disabled", { accessToken: tokens.access_token })
      expect(compare(load("01-initiate-registration-disabled").response, answer)).toEqual([])
      expect(answer.json).toEqual(load("01-initiate-registration-disabled").response.body)
      const authentication = yield* env.exchange("07-initiate-authentication")
      expect(authentication.headers.get("x-stack-known-error")).toBe("PASSKEY_AUTHENTICATION_NOT_ENABLED")
    }))

  it.effect("passkeys/03: initiate registration → {options_json, code} with the recorded options (random challenge)", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      const tokens = yield* signUp(env)
      const answer = yield* env.exchange("03-initiate-registration", { accessToken: tokens.access_token })
      const recorded = load("03-initiate-registration").response.body
      expect(compare(load("03-initiate-registration").response, answer)).toEqual([])
      const { challenge, user, ...rest } = answer.json.options_json
      const { challenge: _recordedChallenge, user: recordedUser, ...recordedRest } = recorded.options_json
      expect(rest).toEqual(recordedRest)
      expect(user).toEqual({ ...recordedUser, id: Buffer.from(tokens.user_id).toString("base64url") })
      expect(challenge).not.toBe("TU9DSw")
      expect(answer.json.code).toMatch(/^[0-9a-z]{45}$/)
    }))

  it.effect("passkeys/04: a credential from an untrusted origin → PASSKEY_REGISTRATION_FAILED", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      const tokens = yield* signUp(env)
      const initiation = yield* env.exchange("03-initiate-registration", { accessToken: tokens.access_token })
      env.authenticator.origin = "https://untrusted.example.com"
      const credential = yield* Effect.promise(() => env.authenticator.create(withRpId(initiation.json.options_json, "untrusted.example.com")))
      const answer = yield* env.exchange("04-register-untrusted-origin", { accessToken: tokens.access_token, body: { code: initiation.json.code, credential } })
      expect(compare(load("04-register-untrusted-origin").response, answer)).toEqual([])
      expect(answer.json).toEqual(load("04-register-untrusted-origin").response.body)
    }))

  it.effect("passkeys/05–06: register → {user_handle} (the credential id); the user has passkey_auth_enabled", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      const { tokens, credential, answer } = yield* registered(env)
      expect(compare(load("05-register").response, answer)).toEqual([])
      expect(answer.json).toEqual({ user_handle: credential.id })
      const me = yield* env.exchange("06-me-after-register", { accessToken: tokens.access_token })
      expect(compare(load("06-me-after-register").response, me)).toEqual([])
      expect(me.json.passkey_auth_enabled).toBe(true)
    }))

  it.effect("passkeys/07–08: initiate authentication (no user) and sign in → tokens", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      const { tokens } = yield* registered(env)
      const { initiation, body } = yield* assertion(env)
      expect(compare(load("07-initiate-authentication").response, initiation)).toEqual([])
      const { challenge, ...rest } = initiation.json.options_json
      const { challenge: _recorded, ...recordedRest } = load("07-initiate-authentication").response.body.options_json
      expect(rest).toEqual(recordedRest)
      expect(challenge).not.toBe("TU9DSw")
      const answer = yield* env.exchange("08-sign-in", { body })
      expect(compare(load("08-sign-in").response, answer)).toEqual([])
      expect(answer.json.user_id).toBe(tokens.user_id)
      expect(answer.json.is_new_user).toBe(false)
    }))

  it.effect("passkeys/09: an assertion signed by another key → PASSKEY_AUTHENTICATION_FAILED", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      yield* registered(env)
      env.authenticator.signWithForeignKey = true
      const { body } = yield* assertion(env)
      const answer = yield* env.exchange("09-sign-in-bad-signature", { body })
      expect(compare(load("09-sign-in-bad-signature").response, answer)).toEqual([])
      expect(answer.json).toEqual(load("09-sign-in-bad-signature").response.body)
    }))

  it.effect("passkeys/10: an unknown credential id → PASSKEY_AUTHENTICATION_FAILED 'Passkey not found'", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      yield* registered(env)
      env.authenticator.assertionCredentialId = load("10-sign-in-unknown-credential").request.body.authentication_response.id
      const { body } = yield* assertion(env)
      const answer = yield* env.exchange("10-sign-in-unknown-credential", { body })
      expect(compare(load("10-sign-in-unknown-credential").response, answer)).toEqual([])
      expect(answer.json).toEqual(load("10-sign-in-unknown-credential").response.body)
    }))

  it.effect("passkeys/11: the code of a successful sign-in again → 409 VERIFICATION_CODE_ALREADY_USED", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      yield* registered(env)
      const { body } = yield* assertion(env)
      expect((yield* env.exchange("08-sign-in", { body })).status).toBe(200)
      const again = yield* Effect.promise(() => env.authenticator.get({ challenge: "unused", rpId: "localhost" }))
      const answer = yield* env.exchange("11-sign-in-code-reused", { body: { code: body.code, authentication_response: again } })
      expect(compare(load("11-sign-in-code-reused").response, answer)).toEqual([])
      expect(answer.json).toEqual(load("11-sign-in-code-reused").response.body)
    }))

  it.effect("passkeys/12–13: a TOTP user → MULTI_FACTOR_AUTHENTICATION_REQUIRED, finished with /auth/mfa/sign-in", () =>
    Effect.gen(function* () {
      const env = yield* makeEnv(true)
      const { tokens } = yield* registered(env)
      const secret = Totp.randomSecret()
      const enable = yield* send(env.emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: {
          "x-stack-project-id": env.project.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": env.project.publishableClientKey,
          "x-stack-access-token": tokens.access_token
        },
        body: { totp_secret_base64: Totp.toBase64(secret) }
      })
      expect(enable.status).toBe(200)
      const { body } = yield* assertion(env)
      const answer = yield* env.exchange("12-sign-in-totp-user-mfa-required", { body })
      expect(compare(load("12-sign-in-totp-user-mfa-required").response, answer)).toEqual([])
      const totp = yield* Totp.generate(secret)
      const finished = yield* env.exchange("13-mfa-sign-in-after-passkey", {
        body: { code: answer.json.details.attempt_code, type: "totp", totp }
      })
      expect(compare(load("13-mfa-sign-in-after-passkey").response, finished)).toEqual([])
      expect(finished.json.user_id).toBe(tokens.user_id)
    }))
})

describe("the SDK decodes the recorded passkey exchanges", () => {
  const decodes = <S extends Schema.ConstraintDecoder<unknown>>(schema: S, value: unknown) => Result.isSuccess(Schema.decodeUnknownResult(schema)(value))

  it("request bodies decode with the payload schemas", () => {
    expect(decodes(PasskeysWire.EmptyPayload, load("03-initiate-registration").request.body)).toBe(true)
    expect(decodes(PasskeysWire.EmptyPayload, load("07-initiate-authentication").request.body)).toBe(true)
    for (const name of ["04-register-untrusted-origin", "05-register"]) {
      expect(decodes(PasskeysWire.RegisterPayload, load(name).request.body)).toBe(true)
    }
    for (
      const name of ["08-sign-in", "09-sign-in-bad-signature", "10-sign-in-unknown-credential", "11-sign-in-code-reused", "12-sign-in-totp-user-mfa-required"]
    ) {
      expect(decodes(PasskeysWire.SignInPayload, load(name).request.body)).toBe(true)
    }
  })

  it("answers decode with the success schemas, keeping every member of options_json", () => {
    const registration = Schema.decodeUnknownSync(Passkeys.RegistrationInitiation)(load("03-initiate-registration").response.body)
    expect(registration.optionsJson.rp.id).toBe(PasskeysWire.sentinelRpId)
    expect(Schema.encodeSync(Passkeys.RegistrationInitiation)(registration)).toEqual(load("03-initiate-registration").response.body)
    const authentication = Schema.decodeUnknownSync(Passkeys.AuthenticationInitiation)(load("07-initiate-authentication").response.body)
    expect(authentication.optionsJson.rpId).toBe(PasskeysWire.sentinelRpId)
    expect(Schema.encodeSync(Passkeys.AuthenticationInitiation)(authentication)).toEqual(load("07-initiate-authentication").response.body)
    expect(Schema.decodeUnknownSync(Passkeys.RegisterResponse)(load("05-register").response.body)).toEqual({ userHandle: "xN8Fqluy4_dLB-ujSHyuKw" })
    expect(decodes(SignInTokens, load("08-sign-in").response.body)).toBe(true)
  })

  it.effect("known errors decode into the classes the endpoints declare", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [string, Endpoint.Any, string]> = [
        ["01-initiate-registration-disabled", PasskeysWire.initiateRegistrationEndpoint, "PasskeyAuthenticationNotEnabled"],
        ["04-register-untrusted-origin", PasskeysWire.registerEndpoint, "PasskeyRegistrationFailed"],
        ["09-sign-in-bad-signature", PasskeysWire.signInEndpoint, "PasskeyAuthenticationFailed"],
        ["10-sign-in-unknown-credential", PasskeysWire.signInEndpoint, "PasskeyAuthenticationFailed"],
        ["11-sign-in-code-reused", PasskeysWire.signInEndpoint, "VerificationCodeAlreadyUsed"],
        ["12-sign-in-totp-user-mfa-required", PasskeysWire.signInEndpoint, "MultiFactorAuthenticationRequired"]
      ]
      for (const [name, endpoint, tag] of cases) {
        const sample = load(name)
        const code = sample.response.headers["x-stack-known-error"]!
        const cls = KnownErrors.all.find((candidate) => candidate.code === code)!
        expect(endpoint.errors).toContain(cls)
        const headers = Object.fromEntries(Object.entries(sample.response.headers).map(([key, value]) => [key.toLowerCase(), value]))
        const error = yield* Effect.flip(
          decodeResponse(
            endpoint.name,
            { status: sample.response.status, headers, text: JSON.stringify(sample.response.body), method: sample.request.method, url: sample.request.path },
            endpoint.success,
            [...endpoint.errors, ...commonErrorClasses(endpoint.access)]
          )
        )
        expect(error).toMatchObject({ _tag: tag, message: sample.response.body.error })
      }
    }))
})
