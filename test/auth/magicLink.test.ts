/** Magic-link / OTP sign-in through the SDK against the in-process emulator. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as MagicLink from "../../src/auth/MagicLink.js"
import * as Password from "../../src/auth/Password.js"
import * as Emulator from "../../src/emulator/index.js"
import type { ProjectCredentials } from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

const clientOf = (emulator: Emulator.Emulator, credentials: ProjectCredentials) =>
  Stack.layerClient({
    projectId: credentials.projectId,
    publishableClientKey: credentials.publishableClientKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const project = yield* emulator.createProject({ config: { magicLinkEnabled: true } })
  const layer = Layer.merge(clientOf(emulator, project), HandlerUrls.layer({ appUrl: "http://localhost:3000" }))
  return { emulator, project, layer }
})

describe("MagicLink", () => {
  it.effect("the e-mailed link signs a new e-mail up (isNewUser, e-mail verified); the next time it is the same user", () =>
    Effect.gen(function* () {
      const { emulator, layer } = yield* setup
      const first = yield* Effect.gen(function* () {
        const { nonce } = yield* MagicLink.sendMagicLinkEmail({ email: "grace@example.com" })
        const entry = emulator.latestEmail({ email: "grace@example.com", kind: "magic_link" })!
        expect(entry.link).toBe(`http://localhost:3000/handler/magic-link-callback?code=${entry.code}`)
        expect(nonce).toHaveLength(39)
        expect(entry.code!.endsWith(nonce)).toBe(true)
        expect(entry.text).toContain(entry.code!.slice(0, 6).toUpperCase())
        yield* MagicLink.checkMagicLinkCode(entry.code!)
        const signedIn = yield* MagicLink.signInWithMagicLinkCallback(new URL(entry.link!))
        const user = Option.getOrThrow(yield* Users.getCurrent())
        return { signedIn, user }
      }).pipe(Effect.provide(layer))
      expect(first.signedIn.isNewUser).toBe(true)
      expect(first.user.id).toBe(first.signedIn.userId)
      expect(first.user.primaryEmail).toBe("grace@example.com")
      expect(first.user.primaryEmailVerified).toBe(true)
      expect(first.user.otpAuthEnabled).toBe(true)
      expect(first.user.hasPassword).toBe(false)

      const second = yield* Effect.gen(function* () {
        const { nonce } = yield* MagicLink.sendMagicLinkEmail({ email: "grace@example.com" })
        const otp = emulator.latestEmail({ email: "grace@example.com" })!.code!.slice(0, 6).toUpperCase()
        return yield* MagicLink.signInWithOtp({ otp, nonce })
      }).pipe(Effect.provide(layer))
      expect(second).toEqual({ userId: first.signedIn.userId, isNewUser: false })
    }))

  it.effect("a used link → VerificationCodeAlreadyUsed; an unknown code → VerificationCodeNotFound; no code in the URL → MagicLinkCodeMissing", () =>
    Effect.gen(function* () {
      const { emulator, layer } = yield* setup
      const errors = yield* Effect.gen(function* () {
        yield* MagicLink.sendMagicLinkEmail({ email: "grace@example.com" })
        const code = emulator.latestEmail({ email: "grace@example.com" })!.code!
        yield* MagicLink.signInWithMagicLinkCode(code)
        const used = yield* Effect.flip(MagicLink.signInWithMagicLinkCode(code))
        const unknown = yield* Effect.flip(MagicLink.signInWithMagicLinkCode("ph4r8kja4ek2hj85t1r2xbtbbyfgzkqgjzg642ythjb9f"))
        const missing = yield* Effect.flip(MagicLink.signInWithMagicLinkCallback("http://localhost:3000/handler/magic-link-callback?x=1"))
        const badOtp = yield* Effect.flip(MagicLink.signInWithOtp({ otp: "12345", nonce: "x".repeat(39) }))
        return { used, unknown, missing, badOtp }
      }).pipe(Effect.provide(layer))
      expect(errors.used._tag).toBe("VerificationCodeAlreadyUsed")
      expect(errors.unknown._tag).toBe("VerificationCodeNotFound")
      expect(errors.missing._tag).toBe("MagicLinkCodeMissing")
      expect(errors.badOtp._tag).toBe("InvalidArgument")
    }))

  it.effect("20 wrong typed codes void the real one (max attempts on the nonce)", () =>
    Effect.gen(function* () {
      const { emulator, layer } = yield* setup
      const error = yield* Effect.gen(function* () {
        const { nonce } = yield* MagicLink.sendMagicLinkEmail({ email: "grace@example.com" })
        const real = emulator.latestEmail({ email: "grace@example.com" })!.code!.slice(0, 6)
        const wrong = real === "000000" ? "111111" : "000000"
        for (let i = 0; i < 20; i++) {
          const failure = yield* Effect.flip(MagicLink.signInWithOtp({ otp: wrong, nonce }))
          expect(failure._tag).toBe("VerificationCodeNotFound")
        }
        return yield* Effect.flip(MagicLink.signInWithOtp({ otp: real, nonce }))
      }).pipe(Effect.provide(layer))
      expect(error._tag).toBe("VerificationCodeMaxAttemptsReached")
    }))

  it.effect("magic link off → MagicLinkNotEnabled (403 text); sign-up off → SignUpNotEnabled for a new e-mail", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { magicLinkEnabled: false } } })
      const off = yield* Effect.flip(
        MagicLink.sendMagicLinkEmail({ email: "grace@example.com", callbackUrl: "http://localhost:3000/m" }).pipe(
          Effect.provide(clientOf(emulator, emulator.demo))
        )
      )
      expect(off._tag).toBe("MagicLinkNotEnabled")
      expect(off.message).toBe("OTP sign-in is not enabled for this project")
      const noSignUp = yield* emulator.createProject({ config: { magicLinkEnabled: true, signUpEnabled: false } })
      const signUpOff = yield* Effect.flip(
        MagicLink.sendMagicLinkEmail({ email: "grace@example.com", callbackUrl: "http://localhost:3000/m" }).pipe(
          Effect.provide(clientOf(emulator, noSignUp))
        )
      )
      expect(signUpOff._tag).toBe("SignUpNotEnabled")
    }))

  it.effect("an existing user's unverified e-mail → UserEmailAlreadyExists; once verified, the magic link signs that user in", () =>
    Effect.gen(function* () {
      const { emulator, project, layer } = yield* setup
      const outcome = yield* Effect.gen(function* () {
        const { userId } = yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse battery" })
        const unverified = yield* Effect.flip(MagicLink.sendMagicLinkEmail({ email: "ada@example.com" }))
        return { userId, unverified }
      }).pipe(Effect.provide(layer))
      expect(outcome.unverified._tag).toBe("UserEmailAlreadyExists")
      if (outcome.unverified._tag === "UserEmailAlreadyExists") {
        expect(outcome.unverified.details.would_work_if_email_was_verified).toBe(true)
      }
      emulator.state.projects.get(project.projectId)!.users.get(outcome.userId)!.primaryEmailVerified = true
      const signedIn = yield* Effect.gen(function* () {
        yield* MagicLink.sendMagicLinkEmail({ email: "ada@example.com" })
        return yield* MagicLink.signInWithMagicLinkCode(emulator.latestEmail({ email: "ada@example.com", kind: "magic_link" })!.code!)
      }).pipe(Effect.provide(layer))
      expect(signedIn).toEqual({ userId: outcome.userId, isNewUser: false })
    }))

  it.effect("codeFromCallbackUrl reads the code query parameter of a URL or a string", () =>
    Effect.gen(function* () {
      expect(yield* MagicLink.codeFromCallbackUrl("http://localhost:3000/cb?code=abc&x=1")).toBe("abc")
      expect(yield* MagicLink.codeFromCallbackUrl(new URL("http://localhost:3000/cb?code=def"))).toBe("def")
      expect((yield* Effect.flip(MagicLink.codeFromCallbackUrl("not a url")))._tag).toBe("InvalidArgument")
      expect((yield* Effect.flip(MagicLink.codeFromCallbackUrl("http://localhost:3000/cb?code=")))._tag).toBe("MagicLinkCodeMissing")
    }))
})
