/** E-mail verification through the SDK against the in-process emulator. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as EmailVerification from "../../src/auth/EmailVerification.js"
import * as Password from "../../src/auth/Password.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

const clientOf = (emulator: Emulator.Emulator) =>
  Stack.layerClient({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })

const password = "correct horse battery"

describe("EmailVerification", () => {
  it.effect("send (default callback page) → check → verify marks the primary e-mail verified; a reused code → 409", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const layer = Layer.merge(clientOf(emulator), HandlerUrls.layer({ appUrl: "http://localhost:3000" }))
      const result = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true })
        expect(emulator.outbox({ email: "ada@example.com" })).toHaveLength(0)
        const user = Option.getOrThrow(yield* Users.getCurrent())
        yield* EmailVerification.sendVerificationEmail(user)
        const entry = emulator.latestEmail({ email: "ada@example.com", kind: "email_verification" })!
        expect(entry.link).toBe(`http://localhost:3000/handler/email-verification?code=${entry.code}`)
        yield* EmailVerification.checkEmailVerificationCode(entry.code!)
        expect(Option.getOrThrow(yield* Users.getCurrent()).primaryEmailVerified).toBe(false)
        yield* EmailVerification.verifyEmail(entry.code!.toUpperCase())
        const verified = Option.getOrThrow(yield* Users.getCurrent())
        const reused = yield* Effect.flip(EmailVerification.verifyEmail(entry.code!))
        const already = yield* Effect.flip(EmailVerification.sendVerificationEmail(verified))
        return { verified, reused, already }
      }).pipe(Effect.provide(layer))
      expect(result.verified.primaryEmailVerified).toBe(true)
      expect(result.reused._tag).toBe("VerificationCodeAlreadyUsed")
      expect(result.already._tag).toBe("EmailAlreadyVerified")
    }))

  it.effect("sign-up with HandlerUrls sends the verification e-mail to the default page; its code verifies", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const layer = Layer.merge(clientOf(emulator), HandlerUrls.layer({ appUrl: "http://localhost:3000", handler: "/auth" }))
      const verified = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password })
        const entry = emulator.latestEmail({ email: "ada@example.com", kind: "email_verification" })!
        expect(entry.link).toBe(`http://localhost:3000/auth/email-verification?code=${entry.code}`)
        yield* EmailVerification.verifyEmail(entry.code!)
        return Option.getOrThrow(yield* Users.getCurrent()).primaryEmailVerified
      }).pipe(Effect.provide(layer))
      expect(verified).toBe(true)
    }))

  it.effect("a user without a primary e-mail → UserHasNoPrimaryEmail, without a request", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const before = emulator.outbox().length
      const error = yield* Effect.flip(
        EmailVerification.sendVerificationEmail({ primaryEmail: null }, { callbackUrl: "http://localhost:3000/verify" }).pipe(
          Effect.provide(clientOf(emulator))
        )
      )
      expect(error._tag).toBe("UserHasNoPrimaryEmail")
      expect(error.message).toBe("User does not have a primary email")
      expect(emulator.outbox()).toHaveLength(before)
    }))

  it.effect("a stale e-mail → EmailIsNotPrimaryEmail; no callback and no browser → CallbackUrlRequired; nobody signed in → UserNotSignedIn", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const errors = yield* Effect.gen(function* () {
        const notSignedIn = yield* Effect.flip(
          EmailVerification.sendVerificationEmail({ primaryEmail: "ada@example.com" }, { callbackUrl: "http://localhost:3000/v" })
        )
        yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true })
        const stale = yield* Effect.flip(
          EmailVerification.sendVerificationEmail({ primaryEmail: "old@example.com" }, { callbackUrl: "http://localhost:3000/v" })
        )
        const noCallback = yield* Effect.flip(EmailVerification.sendVerificationEmail({ primaryEmail: "ada@example.com" }))
        return { notSignedIn, stale, noCallback }
      }).pipe(Effect.provide(clientOf(emulator)))
      expect(errors.notSignedIn._tag).toBe("UserNotSignedIn")
      expect(errors.stale._tag).toBe("EmailIsNotPrimaryEmail")
      if (errors.stale._tag === "EmailIsNotPrimaryEmail") {
        expect(errors.stale.details).toEqual({ email: "old@example.com", primary_email: "ada@example.com" })
      }
      expect(errors.noCallback._tag).toBe("CallbackUrlRequired")
    }))

  it.effect("a code whose e-mail changed since → HttpError 400 (the service's text)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const error = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password, verificationCallbackUrl: "http://localhost:3000/v" })
        const code = emulator.latestEmail({ email: "ada@example.com" })!.code!
        yield* Users.updateCurrent({ primaryEmail: "ada2@example.com" })
        return yield* Effect.flip(EmailVerification.verifyEmail(code))
      }).pipe(Effect.provide(clientOf(emulator)))
      expect(error._tag).toBe("HttpError")
      if (error._tag === "HttpError") {
        expect(error.status).toBe(400)
        expect(error.body).toBe("Contact channel not found. Was your contact channel deleted?")
      }
    }))
})
