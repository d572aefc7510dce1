/**
 * Passkeys through the SDK against the in-process emulator, with a software authenticator as
 * the browser (test/support/softwareAuthenticator.ts): registration and sign-in end to end with
 * real WebAuthn verification, the service's refusals (bad signature, unknown credential, reused
 * or expired code, untrusted origin), the client-side rules of SPEC.md §5 (placeholder rp id,
 * host name, user id length, unsupported browser) and the mapping of every ceremony error code.
 * The last block runs the real `layerBrowser` (`@simplewebauthn/browser`) over a stubbed
 * `navigator.credentials` to check how browser exceptions become ceremony codes.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { vi } from "vitest"
import * as Mfa from "../../src/auth/Mfa.js"
import * as Passkeys from "../../src/auth/Passkeys.js"
import * as PasskeysWire from "../../src/auth/internal/passkeys.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import * as WebAuthnBrowser from "../../src/auth/WebAuthnBrowser.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import * as Emulator from "../../src/emulator/index.js"
import type { ProjectConfig } from "../../src/emulator/State.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { SoftwareAuthenticator, toBase64Url } from "../support/softwareAuthenticator.js"

const start = 1_800_000_000_000
const password = "correct horse battery"

/** Rewrites the JSON answers of one path (to play a misbehaving service). */
type Rewrite = (path: string, body: any) => any

const makeEmulator = Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie)

/**
 * An emulator project with passkeys on (unless told otherwise), an SDK client for it that counts
 * its requests, and a software authenticator as its browser.
 */
const setup = (
  options: {
    readonly config?: Partial<ProjectConfig>
    readonly authenticator?: SoftwareAuthenticator
    readonly browser?: Layer.Layer<WebAuthnBrowser.WebAuthnBrowser>
    readonly rewrite?: Rewrite
  } = {}
) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(start)
    const emulator = yield* makeEmulator
    const project = yield* emulator.createProject({ displayName: "Passkey Project", config: { passkeyEnabled: true, ...options.config } }).pipe(Effect.orDie)
    const requests: Array<string> = []
    const rewrite = options.rewrite
    const handled: Emulator.Emulator = {
      ...emulator,
      handle: (request) =>
        Effect.gen(function* () {
          const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "")
          requests.push(`${request.method} ${path}`)
          const response = yield* emulator.handle(request)
          if (rewrite === undefined || !response.ok) return response
          const body = yield* Effect.promise(() => response.json())
          return new Response(JSON.stringify(rewrite(path, body)), { status: response.status, headers: response.headers })
        })
    }
    const authenticator = options.authenticator ?? new SoftwareAuthenticator()
    const layer = Layer.merge(
      Stack.layerClient({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, httpClient: Emulator.layerHttpClient(handled) }),
      options.browser ?? authenticator.layer
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const state = emulator.state.projects.get(project.projectId)!
    return {
      emulator,
      project,
      state,
      authenticator,
      requests,
      run: <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    }
  })

type Setup = Effect.Success<ReturnType<typeof setup>>

const signUp = (env: Setup, email = "ada@example.com") => env.run(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))

/** Signs a user up and registers a passkey; signs out again. */
const userWithPasskey = (env: Setup, email = "ada@example.com") =>
  Effect.gen(function* () {
    const { userId } = yield* signUp(env, email)
    const { userHandle } = yield* env.run(Passkeys.register())
    yield* env.run(Sessions.signOut())
    return { userId, userHandle }
  })

const currentTokens = (env: Setup) => env.run(Effect.flatMap(Session, (session) => session.current))

describe("Passkeys.register and Passkeys.signIn", () => {
  it.effect("registers a passkey, then signs in with it end to end (real WebAuthn verification)", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      const { userId } = yield* signUp(env)
      const { userHandle } = yield* env.run(Passkeys.register())
      expect(userHandle).toBe(env.authenticator.credentials[0]!.id)
      const record = env.state.users.get(userId)!
      expect(record.passkeyAuthEnabled).toBe(true)
      expect(record.passkey?.credentialId).toBe(userHandle)
      const me = yield* env.run(Users.getCurrent())
      expect(Option.map(me, (user) => user.passkeyAuthEnabled)).toEqual(Option.some(true))

      yield* env.run(Sessions.signOut())
      expect(Option.isNone((yield* currentTokens(env)).accessToken)).toBe(true)
      const signedIn = yield* env.run(Passkeys.signIn())
      expect(signedIn).toEqual({ userId })
      const tokens = yield* currentTokens(env)
      expect(Option.isSome(tokens.accessToken)).toBe(true)
      expect(Option.isSome(tokens.refreshToken)).toBe(true)
      expect(record.passkey?.counter).toBe(1)
      const again = yield* env.run(Users.getCurrent())
      expect(Option.map(again, (user) => user.id)).toEqual(Option.some(userId))
      expect(env.requests).toEqual([
        "POST /auth/password/sign-up",
        "POST /auth/passkey/initiate-passkey-registration",
        "POST /auth/passkey/register",
        "GET /users/me",
        "DELETE /auth/sessions/current",
        "POST /auth/passkey/initiate-passkey-authentication",
        "POST /auth/passkey/sign-in",
        "GET /users/me"
      ])
    }))

  it.effect("hands the browser the service's options with the placeholder rp id replaced by the host name", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      const { userId } = yield* userWithPasskey(env)
      yield* env.run(Passkeys.signIn())
      const creation = env.authenticator.creations[0]!
      expect(creation.rp).toEqual({ name: "Passkey Project", id: "localhost" })
      expect(creation.user).toEqual({ id: toBase64Url(new TextEncoder().encode(userId)), name: "ada@example.com", displayName: "ada@example.com" })
      expect(creation.pubKeyCredParams).toEqual([
        { alg: -8, type: "public-key" },
        { alg: -7, type: "public-key" },
        { alg: -257, type: "public-key" }
      ])
      expect(creation.timeout).toBe(60000)
      expect(creation.attestation).toBe("none")
      expect(creation.excludeCredentials).toEqual([])
      expect(creation.authenticatorSelection).toEqual({ residentKey: "required", userVerification: "preferred", requireResidentKey: true })
      expect(creation.extensions).toEqual({ credProps: true })
      expect("hints" in creation).toBe(false)
      const request = env.authenticator.requests[0]!
      expect(request).toEqual({ rpId: "localhost", challenge: request.challenge, allowCredentials: [], timeout: 60000, userVerification: "preferred" })
      // random challenges (32 bytes), not the recorded instance's fixed "TU9DSw"
      expect(creation.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(request.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(request.challenge).not.toBe(creation.challenge)
    }))

  it.effect("works for a trusted domain of the project (rp id = the page's host name)", () =>
    Effect.gen(function* () {
      const authenticator = new SoftwareAuthenticator({ hostname: "app.example.com", origin: "https://app.example.com" })
      const env = yield* setup({ authenticator, config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] } })
      const { userId } = yield* userWithPasskey(env)
      expect(authenticator.creations[0]!.rp.id).toBe("app.example.com")
      expect(yield* env.run(Passkeys.signIn())).toEqual({ userId })
      expect(authenticator.requests[0]!.rpId).toBe("app.example.com")
    }))

  it.effect("re-registering replaces the user's one passkey: the old credential is no longer known", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      const { userId } = yield* signUp(env)
      const first = yield* env.run(Passkeys.register())
      const second = yield* env.run(Passkeys.register())
      expect(second.userHandle).not.toBe(first.userHandle)
      expect(env.state.users.get(userId)!.passkey?.credentialId).toBe(second.userHandle)
      yield* env.run(Sessions.signOut())
      env.authenticator.assertionCredentialId = first.userHandle
      const error = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(error).toMatchObject({ _tag: "PasskeyAuthenticationFailed", message: "Passkey not found" })
      env.authenticator.assertionCredentialId = undefined
      expect(yield* env.run(Passkeys.signIn())).toEqual({ userId })
    }))

  it.effect("an assertion signed with another key fails with PasskeyAuthenticationFailed", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* userWithPasskey(env)
      env.authenticator.signWithForeignKey = true
      const error = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(error).toMatchObject({
        _tag: "PasskeyAuthenticationFailed",
        code: "PASSKEY_AUTHENTICATION_FAILED",
        message: "The signature of the authentication response could not be verified with the stored public key tied to this credential ID"
      })
      expect(Option.isNone((yield* currentTokens(env)).accessToken)).toBe(true)
    }))

  it.effect("an unknown credential id fails with PasskeyAuthenticationFailed 'Passkey not found'", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* userWithPasskey(env)
      env.authenticator.assertionCredentialId = toBase64Url(new Uint8Array(16).fill(7))
      const error = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(error).toMatchObject({ _tag: "PasskeyAuthenticationFailed", message: "Passkey not found" })
    }))

  it.effect("a code is one-shot: the second sign-in with it fails with VerificationCodeAlreadyUsed (409)", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      const { userId } = yield* userWithPasskey(env)
      const { optionsJson, code } = yield* env.run(Endpoint.call(PasskeysWire.initiateAuthenticationEndpoint, { payload: {} }))
      expect(code).toMatch(/^[0-9a-z]{45}$/)
      const assertion = yield* Effect.promise(() => env.authenticator.get({ ...optionsJson, rpId: "localhost" }))
      const tokens = yield* env.run(Endpoint.call(PasskeysWire.signInEndpoint, { payload: { code, authenticationResponse: assertion } }))
      expect(tokens.userId).toBe(userId)
      expect(tokens.isNewUser).toBe(false)
      const reused = yield* Effect.flip(env.run(Endpoint.call(PasskeysWire.signInEndpoint, { payload: { code, authenticationResponse: assertion } })))
      expect(reused).toMatchObject({ _tag: "VerificationCodeAlreadyUsed", status: 409 })
    }))

  it.effect("a code expires after 65 s: registering later fails with VerificationCodeExpired", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* signUp(env)
      const { optionsJson, code } = yield* env.run(Endpoint.call(PasskeysWire.initiateRegistrationEndpoint, { payload: {} }))
      const credential = yield* Effect.promise(() => env.authenticator.create({ ...optionsJson, rp: { ...optionsJson.rp, id: "localhost" } }))
      yield* TestClock.adjust("66 seconds")
      const error = yield* Effect.flip(env.run(Endpoint.call(PasskeysWire.registerEndpoint, { payload: { code, credential } })))
      expect(error._tag).toBe("VerificationCodeExpired")
    }))

  it.effect("a sign-in code cannot register (codes are per purpose): VerificationCodeNotFound", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* signUp(env)
      const registration = yield* env.run(Endpoint.call(PasskeysWire.initiateRegistrationEndpoint, { payload: {} }))
      const authentication = yield* env.run(Endpoint.call(PasskeysWire.initiateAuthenticationEndpoint, { payload: {} }))
      const credential = yield* Effect.promise(() =>
        env.authenticator.create({ ...registration.optionsJson, rp: { ...registration.optionsJson.rp, id: "localhost" } })
      )
      const error = yield* Effect.flip(env.run(Endpoint.call(PasskeysWire.registerEndpoint, { payload: { code: authentication.code, credential } })))
      expect(error._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("a credential made for another challenge is refused with PasskeyRegistrationFailed", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* signUp(env)
      const first = yield* env.run(Endpoint.call(PasskeysWire.initiateRegistrationEndpoint, { payload: {} }))
      const second = yield* env.run(Endpoint.call(PasskeysWire.initiateRegistrationEndpoint, { payload: {} }))
      const credential = yield* Effect.promise(() => env.authenticator.create({ ...first.optionsJson, rp: { ...first.optionsJson.rp, id: "localhost" } }))
      const error = yield* Effect.flip(env.run(Endpoint.call(PasskeysWire.registerEndpoint, { payload: { code: second.code, credential } })))
      expect(error._tag).toBe("PasskeyRegistrationFailed")
      expect(error.message).toContain("challenge")
    }))

  it.effect("an origin that is not a trusted domain is refused: PasskeyRegistrationFailed / PasskeyAuthenticationFailed", () =>
    Effect.gen(function* () {
      const authenticator = new SoftwareAuthenticator({ hostname: "untrusted.example.com", origin: "https://untrusted.example.com" })
      const env = yield* setup({ authenticator })
      const { userId } = yield* signUp(env)
      const error = yield* Effect.flip(env.run(Passkeys.register()))
      expect(error).toMatchObject({
        _tag: "PasskeyRegistrationFailed",
        message: "Passkey registration failed because the origin is not allowed"
      })
      expect(env.state.users.get(userId)!.passkeyAuthEnabled).toBe(false)

      authenticator.hostname = "localhost"
      authenticator.origin = "http://localhost:3000"
      yield* env.run(Passkeys.register())
      yield* env.run(Sessions.signOut())
      authenticator.origin = "https://untrusted.example.com"
      const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(signInError).toMatchObject({
        _tag: "PasskeyAuthenticationFailed",
        message: "Passkey authentication failed because the origin is not allowed"
      })
    }))

  it.effect("localhost is refused when the project does not allow it", () =>
    Effect.gen(function* () {
      const env = yield* setup({ config: { allowLocalhost: false } })
      yield* signUp(env)
      const error = yield* Effect.flip(env.run(Passkeys.register()))
      expect(error).toMatchObject({ _tag: "PasskeyRegistrationFailed", message: "Passkey registration failed because the origin is not allowed" })
    }))

  it.effect("a user with TOTP gets MultiFactorAuthenticationRequired; Mfa.signIn finishes the sign-in", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      const { userId } = yield* signUp(env)
      yield* env.run(Passkeys.register())
      const { secret } = yield* env.run(Mfa.enableTotp())
      yield* env.run(Sessions.signOut())
      const error = yield* Effect.flip(env.run(Passkeys.signIn()))
      if (error._tag !== "MultiFactorAuthenticationRequired") return expect.unreachable(`unexpected ${error._tag}`)
      expect(error.details.attempt_code).toHaveLength(45)
      expect(Option.isNone((yield* currentTokens(env)).accessToken)).toBe(true)
      const totp = yield* Totp.generateAt(Redacted.value(secret), start)
      const done = yield* env.run(Mfa.signIn({ attemptCode: error.details.attempt_code, totp }))
      expect(done.userId).toBe(userId)
      expect(Option.isSome((yield* currentTokens(env)).accessToken)).toBe(true)
    }))

  it.effect("a project without passkeys fails with PasskeyAuthenticationNotEnabled (both flows)", () =>
    Effect.gen(function* () {
      const env = yield* setup({ config: { passkeyEnabled: false } })
      yield* signUp(env)
      const registerError = yield* Effect.flip(env.run(Passkeys.register()))
      expect(registerError).toMatchObject({ _tag: "PasskeyAuthenticationNotEnabled", message: "Passkey authentication is not enabled for this project." })
      yield* env.run(Sessions.signOut())
      const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(signInError._tag).toBe("PasskeyAuthenticationNotEnabled")
      expect(env.authenticator.creations).toHaveLength(0)
      expect(env.authenticator.requests).toHaveLength(0)
    }))

  it.effect("register needs a signed-in user (UserNotSignedIn before any request)", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      const error = yield* Effect.flip(env.run(Passkeys.register()))
      expect(error._tag).toBe("UserNotSignedIn")
      expect(env.requests).toEqual([])
    }))
})

describe("client-side rules (SPEC.md §5)", () => {
  it.effect("an unsupported browser fails with WebAuthnNotSupported before any request", () =>
    Effect.gen(function* () {
      const env = yield* setup({ authenticator: new SoftwareAuthenticator({ supported: false }) })
      yield* signUp(env)
      const registerError = yield* Effect.flip(env.run(Passkeys.register()))
      expect(registerError).toMatchObject({ _tag: "WebAuthnNotSupported", message: "WebAuthn is not supported in this browser" })
      const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(signInError._tag).toBe("WebAuthnNotSupported")
      expect(env.requests).toEqual(["POST /auth/password/sign-up"])
    }))

  it.effect("options without the placeholder rp id fail with 'Failed to get initiation options …'", () =>
    Effect.gen(function* () {
      const rewrite: Rewrite = (path, body) =>
        path === "/auth/passkey/initiate-passkey-registration"
          ? { ...body, options_json: { ...body.options_json, rp: { ...body.options_json.rp, id: "evil.example.com" } } }
          : path === "/auth/passkey/initiate-passkey-authentication"
          ? { ...body, options_json: { ...body.options_json, rpId: "evil.example.com" } }
          : body
      const env = yield* setup({ rewrite })
      yield* signUp(env)
      const registerError = yield* Effect.flip(env.run(Passkeys.register()))
      expect(registerError).toMatchObject({
        _tag: "PasskeyRegistrationFailed",
        code: "PASSKEY_REGISTRATION_FAILED",
        message: "Failed to get initiation options for passkey registration"
      })
      const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(signInError).toMatchObject({
        _tag: "PasskeyAuthenticationFailed",
        message: "Failed to get initiation options for passkey authentication"
      })
      expect(env.authenticator.creations).toHaveLength(0)
      expect(env.authenticator.requests).toHaveLength(0)
    }))

  it.effect("a host name that is not localhost or a dotted domain fails with ERROR_INVALID_DOMAIN before the ceremony", () =>
    Effect.gen(function* () {
      for (const hostname of ["127.0.0.1", "intranet", ""]) {
        const env = yield* setup({ authenticator: new SoftwareAuthenticator({ hostname }) })
        yield* signUp(env)
        const error = yield* Effect.flip(env.run(Passkeys.register()))
        expect(error).toMatchObject({
          _tag: "PasskeyWebauthnError",
          code: "PASSKEY_WEBAUTHN_ERROR",
          message: `${hostname} is an invalid domain`,
          details: { code: "ERROR_INVALID_DOMAIN", message: `${hostname} is an invalid domain` }
        })
        const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
        expect(signInError).toMatchObject({ _tag: "PasskeyWebauthnError", details: { code: "ERROR_INVALID_DOMAIN" } })
        expect(env.authenticator.creations).toHaveLength(0)
        expect(env.authenticator.requests).toHaveLength(0)
      }
    }))

  it.effect("a user id outside 1–64 bytes fails with ERROR_INVALID_USER_ID_LENGTH before the ceremony", () =>
    Effect.gen(function* () {
      for (const userId of [toBase64Url(new Uint8Array(65).fill(1)), ""]) {
        const rewrite: Rewrite = (path, body) =>
          path === "/auth/passkey/initiate-passkey-registration"
            ? { ...body, options_json: { ...body.options_json, user: { ...body.options_json.user, id: userId } } }
            : body
        const env = yield* setup({ rewrite })
        yield* signUp(env)
        const error = yield* Effect.flip(env.run(Passkeys.register()))
        expect(error).toMatchObject({
          _tag: "PasskeyWebauthnError",
          details: { code: "ERROR_INVALID_USER_ID_LENGTH", message: "User ID was not between 1 and 64 characters" }
        })
        expect(env.authenticator.creations).toHaveLength(0)
      }
      // 64 bytes is still fine
      const rewrite: Rewrite = (path, body) =>
        path === "/auth/passkey/initiate-passkey-registration"
          ? { ...body, options_json: { ...body.options_json, user: { ...body.options_json.user, id: toBase64Url(new Uint8Array(64).fill(1)) } } }
          : body
      const env = yield* setup({ rewrite })
      yield* signUp(env)
      const { userHandle } = yield* env.run(Passkeys.register())
      expect(userHandle).toBe(env.authenticator.credentials[0]!.id)
    }))

  it.effect("every ceremony error code becomes PasskeyWebauthnError with details.code (registration and sign-in)", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* userWithPasskey(env)
      for (const code of WebAuthnBrowser.ceremonyErrorCodes) {
        const message = `ceremony failed: ${code}`
        env.authenticator.failNext = new WebAuthnBrowser.WebAuthnCeremonyError({ code, message })
        const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
        expect(signInError).toMatchObject({ _tag: "PasskeyWebauthnError", status: 400, message, details: { code, message } })
      }
      yield* signUp(env, "bob@example.com")
      for (const code of WebAuthnBrowser.ceremonyErrorCodes) {
        const message = `ceremony failed: ${code}`
        env.authenticator.failNext = new WebAuthnBrowser.WebAuthnCeremonyError({ code, message })
        const registerError = yield* Effect.flip(env.run(Passkeys.register()))
        expect(registerError).toMatchObject({ _tag: "PasskeyWebauthnError", message, details: { code, message } })
      }
    }))

  it.effect("an unidentified browser failure becomes the 'unknown error' PasskeyRegistrationFailed / PasskeyAuthenticationFailed", () =>
    Effect.gen(function* () {
      const env = yield* setup()
      yield* userWithPasskey(env)
      env.authenticator.failNext = new WebAuthnBrowser.WebAuthnCeremonyError({ code: undefined, message: "SecurityError" })
      const signInError = yield* Effect.flip(env.run(Passkeys.signIn()))
      expect(signInError).toMatchObject({ _tag: "PasskeyAuthenticationFailed", message: "Failed to sign in with passkey" })
      yield* signUp(env, "bob@example.com")
      env.authenticator.failNext = new WebAuthnBrowser.WebAuthnCeremonyError({ code: undefined, message: "SecurityError" })
      const registerError = yield* Effect.flip(env.run(Passkeys.register()))
      expect(registerError).toMatchObject({
        _tag: "PasskeyRegistrationFailed",
        message: "Failed to start passkey registration due to unknown error"
      })
    }))
})

describe("layerBrowser (@simplewebauthn/browser over a stubbed navigator.credentials)", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  const stubBrowser = (failure: { readonly create?: DOMException; readonly get?: DOMException }) => {
    vi.stubGlobal("PublicKeyCredential", function PublicKeyCredential() {})
    vi.stubGlobal("location", { hostname: "localhost" })
    vi.stubGlobal("navigator", {
      credentials: {
        create: () => Promise.reject(failure.create ?? new DOMException("no", "UnknownError")),
        get: () => Promise.reject(failure.get ?? new DOMException("no", "UnknownError"))
      }
    })
  }

  it.effect("outside a browser (Node) WebAuthn is not supported: WebAuthnNotSupported, nothing sent", () =>
    Effect.gen(function* () {
      const env = yield* setup({ browser: WebAuthnBrowser.layerBrowser })
      yield* signUp(env)
      const error = yield* Effect.flip(env.run(Passkeys.register()))
      expect(error._tag).toBe("WebAuthnNotSupported")
      expect(env.requests).toEqual(["POST /auth/password/sign-up"])
    }))

  it.effect("browser exceptions of the registration ceremony become their WebAuthn codes", () =>
    Effect.gen(function* () {
      const env = yield* setup({ browser: WebAuthnBrowser.layerBrowser })
      yield* signUp(env)
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["AbortError", "ERROR_CEREMONY_ABORTED"],
        ["ConstraintError", "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT"],
        ["InvalidStateError", "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"],
        ["NotAllowedError", "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY"],
        ["NotSupportedError", "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG"],
        ["UnknownError", "ERROR_AUTHENTICATOR_GENERAL_ERROR"]
      ]
      for (const [name, code] of cases) {
        stubBrowser({ create: new DOMException("the browser said no", name) })
        const error = yield* Effect.flip(env.run(Passkeys.register()))
        expect(error).toMatchObject({ _tag: "PasskeyWebauthnError", details: { code } })
      }
      // a SecurityError for a valid domain and matching rp id is not identified
      stubBrowser({ create: new DOMException("the browser said no", "SecurityError") })
      const unknown = yield* Effect.flip(env.run(Passkeys.register()))
      expect(unknown).toMatchObject({ _tag: "PasskeyRegistrationFailed", message: "Failed to start passkey registration due to unknown error" })
    }))

  it.effect("browser exceptions of the authentication ceremony become their WebAuthn codes", () =>
    Effect.gen(function* () {
      const env = yield* setup({ browser: WebAuthnBrowser.layerBrowser })
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["AbortError", "ERROR_CEREMONY_ABORTED"],
        ["NotAllowedError", "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY"],
        ["UnknownError", "ERROR_AUTHENTICATOR_GENERAL_ERROR"]
      ]
      for (const [name, code] of cases) {
        stubBrowser({ get: new DOMException("the browser said no", name) })
        const error = yield* Effect.flip(env.run(Passkeys.signIn()))
        expect(error).toMatchObject({ _tag: "PasskeyWebauthnError", details: { code } })
      }
    }))

  it("isValidDomain follows @simplewebauthn/browser's rule", () => {
    expect(["localhost", "example.com", "app.example.com", "xn--bcher-kva.example"].map(WebAuthnBrowser.isValidDomain)).toEqual([
      true,
      true,
      true,
      true
    ])
    expect(["127.0.0.1", "intranet", "", "exa mple.com", "example.c"].map(WebAuthnBrowser.isValidDomain)).toEqual([
      false,
      false,
      false,
      false,
      false
    ])
  })
})
