/**
 * The MFA prompt step (SPEC.md §4 "Sign-in with MFA": the client prompts for a six-digit code and
 * continues with the attempt code; SPEC.md §8: in the OAuth callback a wrong code is "Invalid TOTP
 * code. Please try signing in again."), issue 15 item 7, against the in-process emulator:
 * `Mfa.continuable` turns the multi-factor error into a typed continuation (`MfaChallenge`) that
 * keeps the attempt code inside, `Mfa.withPrompt` asks `Mfa.MfaPrompt`, and `OAuth.handleCallback`
 * with `mfa: "prompt"` finishes the sign-in on the callback page.
 */
import { inspect } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import * as Mfa from "../../src/auth/Mfa.js"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import * as Emulator from "../../src/emulator/index.js"
import { MultiFactorAuthenticationRequired } from "../../src/core/KnownErrors.js"
import * as Stack from "../../src/Stack.js"
import type { ClientServices } from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator as makeOAuthEmulator } from "../emulator/helpers.js"
import type { Device } from "./flowsSupport.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

const start = 1_800_000_000_000
const email = "ada@example.com"

const userWithTotp = (device: Device<ClientServices>) =>
  Effect.gen(function* () {
    yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
    const enabled = yield* Mfa.enableTotp()
    yield* Sessions.signOut()
    return Redacted.value(enabled.secret)
  }).pipe(Effect.provide(device.context))

const setup = Effect.gen(function* () {
  yield* TestClock.setTime(start)
  const emulator = yield* makeEmulator()
  const device = yield* clientDevice(emulator)
  const secret = yield* userWithTotp(device)
  return { emulator, device, secret }
})

const wrongCode = (right: string) => String((Number(right) + 500000) % 1000000).padStart(6, "0")

const signIn = Password.signInWithPassword({ email, password })

describe("Mfa.continuable: the second factor as a step the UI drives", () => {
  it.effect("a TOTP user's sign-in stops at MfaRequired with a challenge; no tokens are stored yet", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const step = yield* Mfa.continuable(signIn).pipe(Effect.provide(device.context))
      expect(step._tag).toBe("MfaRequired")
      const user = yield* Users.getCurrent().pipe(Effect.provide(device.context))
      expect(Option.isNone(user)).toBe(true)
    }))

  it.effect("a wrong code fails with InvalidTotpCode and the same challenge then finishes the sign-in with the right one", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const step = yield* Mfa.continuable(signIn).pipe(Effect.provide(device.context))
      if (step._tag !== "MfaRequired") return yield* Effect.die(new Error("expected the MFA step"))
      const right = yield* Totp.generate(secret)
      const wrong = yield* Effect.flip(step.challenge.submit(wrongCode(right))).pipe(Effect.provide(device.context))
      expect(wrong._tag).toBe("InvalidTotpCode")
      const signedIn = yield* step.challenge.submit(right).pipe(Effect.provide(device.context))
      const user = Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(device.context)))
      expect(user.id).toBe(signedIn.userId)
      expect(user.primaryEmail).toBe(email)
      expect(device.count("POST /auth/mfa/sign-in")).toBe(2)
    }))

  it.effect("a user without MFA is SignedIn at once, with the sign-in's value", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(Effect.provide(device.context))
      yield* Sessions.signOut().pipe(Effect.provide(device.context))
      const step = yield* Mfa.continuable(signIn).pipe(Effect.provide(device.context))
      expect(step._tag).toBe("SignedIn")
      expect(device.count("POST /auth/mfa/sign-in")).toBe(0)
    }))

  it.effect("the challenge never shows its attempt code: JSON, text, util.inspect and its keys", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const error = yield* Effect.flip(signIn).pipe(Effect.provide(device.context))
      if (!(error instanceof MultiFactorAuthenticationRequired)) return yield* Effect.die(new Error("expected the MFA error"))
      const attemptCode = error.details.attempt_code
      const challenge = Mfa.MfaChallenge.fromError(error)
      for (
        const shown of [JSON.stringify(challenge), String(challenge), inspect(challenge, { showHidden: true, depth: 5 }), JSON.stringify({ step: challenge })]
      ) {
        expect(shown).not.toContain(attemptCode)
        expect(shown).toContain("MfaChallenge")
      }
      expect(Object.keys(challenge)).toEqual(["_tag"])
    }))

  it.effect("an empty code fails with InvalidTotpCode without a request", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const step = yield* Mfa.continuable(signIn).pipe(Effect.provide(device.context))
      if (step._tag !== "MfaRequired") return yield* Effect.die(new Error("expected the MFA step"))
      const error = yield* Effect.flip(step.challenge.submit("  ")).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("InvalidTotpCode")
      expect(device.count("POST /auth/mfa/sign-in")).toBe(0)
    }))
})

describe("Mfa.withPrompt: the client prompts for the code (SPEC.md §4)", () => {
  it.effect("the prompt's code finishes the sign-in (one POST /auth/mfa/sign-in)", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const code = yield* Totp.generate(secret)
      let asked = 0
      const prompt: Mfa.MfaPromptShape = { ask: Effect.sync(() => (asked += 1, Option.some(code))) }
      yield* Mfa.withPrompt(signIn).pipe(Effect.provideService(Mfa.MfaPrompt, prompt), Effect.provide(device.context))
      expect(asked).toBe(1)
      expect(Option.isSome(yield* Users.getCurrent().pipe(Effect.provide(device.context)))).toBe(true)
      expect(device.count("POST /auth/mfa/sign-in")).toBe(1)
    }))

  it.effect("a cancelled prompt fails with InvalidTotpCode and sends nothing", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const error = yield* Effect.flip(Mfa.withPrompt(signIn)).pipe(
        Effect.provideService(Mfa.MfaPrompt, { ask: Effect.succeed(Option.none()) }),
        Effect.provide(device.context)
      )
      expect(error._tag).toBe("InvalidTotpCode")
      expect(device.count("POST /auth/mfa/sign-in")).toBe(0)
    }))

  it.effect("the default prompt asks window.prompt for the six-digit code; without a window it has no code", () =>
    Effect.gen(function* () {
      expect(Option.isNone(yield* Mfa.browserPrompt.ask)).toBe(true)
      const scope = globalThis as Record<string, unknown>
      const asked: Array<string> = []
      scope["window"] = { prompt: (message: string) => (asked.push(message), "123456") }
      try {
        expect(yield* Effect.flatMap(Mfa.MfaPrompt, (prompt) => prompt.ask)).toEqual(Option.some("123456"))
      } finally {
        delete scope["window"]
      }
      expect(asked).toEqual([Mfa.promptMessage])
    }))
})

const appUrl = "http://localhost:3000"
const zeroSecret = new Uint8Array(20)

/** Follows the mock provider (auto-approve) and the service's callback; returns where the page lands. */
const follow = (emulator: Emulator.Emulator, url: string, identity: string) =>
  Effect.gen(function* () {
    const approve = yield* emulator.handle(new Request(`${url}&auto=1&email=${encodeURIComponent(identity)}`))
    const callback = yield* emulator.handle(new Request(approve.headers.get("location")!))
    return callback.headers.get("location") ?? url
  })

/** An OAuth user with TOTP (20 zero bytes), signed out, on an in-memory page. */
const oauthUserWithTotp = Effect.gen(function* () {
  const emulator = yield* makeOAuthEmulator()
  const page = OAuthBrowser.makeMemory({ url: `${appUrl}/sign-in`, onNavigate: (url) => follow(emulator, url, "octo@example.com") })
  const layer = Layer.merge(
    Stack.layerClient({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      httpClient: Emulator.layerHttpClient(emulator)
    }),
    page.layer
  )
  return { layer }
})

describe("OAuth.handleCallback with mfa: \"prompt\" (SPEC.md §4, §8)", () => {
  it.effect("the right code from the prompt finishes the OAuth sign-in on the callback page", () =>
    Effect.gen(function* () {
      const { layer } = yield* oauthUserWithTotp
      const result = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        yield* Users.updateCurrent({ totpSecretBase64: Totp.toBase64(zeroSecret) })
        yield* Sessions.signOut()
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const code = yield* Totp.generate(zeroSecret)
        const callback = yield* OAuth.handleCallback({ mfa: "prompt" }).pipe(
          Effect.provideService(Mfa.MfaPrompt, { ask: Effect.succeed(Option.some(code)) })
        )
        return { callback, user: yield* Users.getCurrent() }
      }).pipe(Effect.provide(layer))
      expect(Option.getOrThrow(result.callback)).toEqual({ redirectUrl: "/", isNewUser: false })
      expect(Option.getOrThrow(result.user).primaryEmail).toBe("octo@example.com")
    }))

  it.effect("a wrong code fails with OAuthMfaCodeRejected: 'Invalid TOTP code. Please try signing in again.'", () =>
    Effect.gen(function* () {
      const { layer } = yield* oauthUserWithTotp
      const { error, user } = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        yield* Users.updateCurrent({ totpSecretBase64: Totp.toBase64(zeroSecret) })
        yield* Sessions.signOut()
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const code = yield* Totp.generate(zeroSecret)
        const error = yield* Effect.flip(
          OAuth.handleCallback({ mfa: "prompt" }).pipe(
            Effect.provideService(Mfa.MfaPrompt, { ask: Effect.succeed(Option.some(wrongCode(code))) })
          )
        )
        return { error, user: yield* Users.getCurrent() }
      }).pipe(Effect.provide(layer))
      expect(error).toMatchObject({ _tag: "OAuthMfaCodeRejected", message: "Invalid TOTP code. Please try signing in again." })
      expect(Option.isNone(user)).toBe(true)
    }))

  it.effect("without mfa: \"prompt\" the callback still fails with MultiFactorAuthenticationRequired (the app's own form continues)", () =>
    Effect.gen(function* () {
      const { layer } = yield* oauthUserWithTotp
      const error = yield* Effect.flip(
        Effect.gen(function* () {
          yield* OAuth.signInWithOAuth({ provider: "github" })
          yield* OAuth.handleCallback()
          yield* Users.updateCurrent({ totpSecretBase64: Totp.toBase64(zeroSecret) })
          yield* Sessions.signOut()
          yield* OAuth.signInWithOAuth({ provider: "github" })
          return yield* OAuth.handleCallback().pipe(Effect.provideService(Mfa.MfaPrompt, { ask: Effect.die(new Error("not asked")) }))
        }).pipe(Effect.provide(layer))
      )
      expect(error._tag).toBe("MultiFactorAuthenticationRequired")
    }))
})
