/**
 * MFA with TOTP through the SDK against the in-process emulator: enabling and disabling the
 * second factor, the MULTI_FACTOR_AUTHENTICATION_REQUIRED step of a password sign-in, and
 * finishing it with real codes from `Totp` (time from TestClock).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import * as Mfa from "../../src/auth/Mfa.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import type * as Emulator from "../../src/emulator/index.js"
import { Session } from "../../src/session/Session.js"
import type { ClientServices } from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { clientHeaders, send } from "../emulator/helpers.js"
import type { Device } from "./flowsSupport.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

const start = 1_800_000_000_000
const email = "ada@example.com"

/** A user with TOTP enabled, signed out again; returns the secret. */
const userWithTotp = (device: Device<ClientServices>) =>
  Effect.gen(function* () {
    yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
    const enabled = yield* Mfa.enableTotp()
    yield* Sessions.signOut()
    return Redacted.value(enabled.secret)
  }).pipe(Effect.provide(device.context))

/** A password sign-in that must stop at the second factor; returns the attempt code. */
const firstFactor = (device: Device<ClientServices>) =>
  Password.signInWithPassword({ email, password }).pipe(
    Effect.flip,
    Effect.map((error) => {
      expect(error._tag).toBe("MultiFactorAuthenticationRequired")
      return (error as { details: { attempt_code: string } }).details.attempt_code
    }),
    Effect.provide(device.context)
  )

const setup = Effect.gen(function* () {
  yield* TestClock.setTime(start)
  const emulator = yield* makeEmulator()
  const device = yield* clientDevice(emulator)
  const secret = yield* userWithTotp(device)
  return { emulator, device, secret }
})

const stored = (device: Device<ClientServices>) => Effect.flatMap(Session, (session) => session.current).pipe(Effect.provide(device.context))

describe("Mfa (TOTP)", () => {
  it.effect("enableTotp stores a random 20-byte secret with PATCH /users/me and returns it with an otpauth URI", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const device = yield* clientDevice(emulator)
      const enabled = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
        return yield* Mfa.enableTotp()
      }).pipe(Effect.provide(device.context))
      const secret = Redacted.value(enabled.secret)
      expect(secret.length).toBe(20)
      expect(enabled.user.isMultiFactorRequired).toBe(true)
      const record = [...emulator.state.projects.get(emulator.demo.projectId)!.users.values()][0]!
      expect(record.totpSecretBase64).toBe(Totp.toBase64(secret))
      expect(Redacted.value(enabled.otpauthUri)).toBe(
        `otpauth://totp/Stack%20Auth:ada%40example.com?secret=${Totp.toBase32(secret)}&issuer=Stack+Auth&algorithm=SHA1&digits=6&period=30`
      )
      expect(String(enabled.secret)).not.toContain(Totp.toBase64(secret))
      expect(device.count("PATCH /users/me")).toBe(1)
    }))

  it.effect("enableTotp takes the issuer and account name shown by the app", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const enabled = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
        return yield* Mfa.enableTotp({ issuer: "Acme", accountName: "ada" })
      }).pipe(Effect.provide(device.context))
      expect(Redacted.value(enabled.otpauthUri)).toMatch(/^otpauth:\/\/totp\/Acme:ada\?secret=[A-Z2-7]{32}&issuer=Acme&/)
    }))

  it.effect("enableTotp without a signed-in user fails with UserNotSignedIn before sending", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const error = yield* Effect.flip(Mfa.enableTotp()).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("UserNotSignedIn")
      expect(device.requests).toEqual([])
    }))

  it.effect("a password sign-in of a TOTP user yields an attempt code (45 characters) and no tokens", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const attemptCode = yield* firstFactor(device)
      expect(attemptCode).toMatch(/^[0-9a-z]{45}$/)
      const tokens = yield* stored(device)
      expect(Option.isNone(tokens.accessToken) && Option.isNone(tokens.refreshToken)).toBe(true)
    }))

  it.effect("Mfa.signIn with the attempt code and the current TOTP stores the tokens", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const attemptCode = yield* firstFactor(device)
      const totp = yield* Totp.generate(secret)
      const result = yield* Mfa.signIn({ attemptCode, totp }).pipe(Effect.provide(device.context))
      expect(result.isNewUser).toBe(false)
      const user = yield* Users.getCurrent().pipe(Effect.provide(device.context))
      expect(Option.getOrThrow(user).id).toBe(result.userId)
      expect(Option.getOrThrow(user).primaryEmail).toBe(email)
    }))

  it.effect("a wrong code fails with InvalidTotpCode and does not consume the attempt; a used attempt is 409", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const attemptCode = yield* firstFactor(device)
      const right = yield* Totp.generate(secret)
      const wrong = String((Number(right) + 500000) % 1000000).padStart(6, "0")
      const failure = yield* Effect.flip(Mfa.signIn({ attemptCode, totp: wrong })).pipe(Effect.provide(device.context))
      expect(failure._tag).toBe("InvalidTotpCode")
      expect(failure.message).toBe("The TOTP code is invalid. Please try again.")
      yield* Mfa.signIn({ attemptCode, totp: right }).pipe(Effect.provide(device.context))
      const reused = yield* Effect.flip(Mfa.signIn({ attemptCode, totp: right })).pipe(Effect.provide(device.context))
      expect(reused._tag).toBe("VerificationCodeAlreadyUsed")
      expect((reused as { status: number }).status).toBe(409)
    }))

  it.effect("an unknown attempt code is VerificationCodeNotFound (404)", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const totp = yield* Totp.generate(secret)
      const error = yield* Effect.flip(Mfa.signIn({ attemptCode: "cgr0xwnjq4ttj87t5fc2ste70gm7jj4njrcybj0fw5w4w", totp })).pipe(
        Effect.provide(device.context)
      )
      expect(error._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("an empty code fails with InvalidTotpCode without a request", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const attemptCode = yield* firstFactor(device)
      for (const totp of ["", "   "]) {
        const error = yield* Effect.flip(Mfa.signIn({ attemptCode, totp })).pipe(Effect.provide(device.context))
        expect(error._tag).toBe("InvalidTotpCode")
      }
      expect(device.count("POST /auth/mfa/sign-in")).toBe(0)
    }))

  it.effect("an attempt code that is not 45 characters fails with InvalidArgument without a request", () =>
    Effect.gen(function* () {
      const { device } = yield* setup
      const error = yield* Effect.flip(Mfa.signIn({ attemptCode: "short", totp: "123456" })).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("InvalidArgument")
      expect(device.count("POST /auth/mfa/sign-in")).toBe(0)
    }))

  it.effect("the attempt code expires after 5 minutes", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const attemptCode = yield* firstFactor(device)
      yield* TestClock.adjust("4 minutes")
      const stillValid = yield* firstFactor(device)
      yield* TestClock.adjust("61 seconds")
      const totp = yield* Totp.generate(secret)
      const error = yield* Effect.flip(Mfa.signIn({ attemptCode, totp })).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("VerificationCodeExpired")
      yield* Mfa.signIn({ attemptCode: stillValid, totp }).pipe(Effect.provide(device.context))
    }))

  it.effect("codes of the neighbouring 30 s steps are accepted (clock drift), two steps away are not", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const now = start
      const codeAt = (steps: number) => Totp.generateAt(secret, now + steps * 30_000)
      const near = [yield* codeAt(-1), yield* codeAt(0), yield* codeAt(1)]
      for (const steps of [-2, 2]) {
        const far = yield* codeAt(steps)
        if (near.includes(far)) continue
        const attemptCode = yield* firstFactor(device)
        const error = yield* Effect.flip(Mfa.signIn({ attemptCode, totp: far })).pipe(Effect.provide(device.context))
        expect(error._tag).toBe("InvalidTotpCode")
      }
      for (const totp of near) {
        const attemptCode = yield* firstFactor(device)
        yield* Mfa.signIn({ attemptCode, totp }).pipe(Effect.provide(device.context))
      }
    }))

  it.effect("after 20 wrong codes the attempt code is void (VerificationCodeMaxAttemptsReached)", () =>
    Effect.gen(function* () {
      const { device, secret } = yield* setup
      const attemptCode = yield* firstFactor(device)
      const right = yield* Totp.generate(secret)
      const wrong = String((Number(right) + 1) % 1000000).padStart(6, "0")
      for (let i = 0; i < 20; i++) {
        const error = yield* Effect.flip(Mfa.signIn({ attemptCode, totp: wrong })).pipe(Effect.provide(device.context))
        expect(error._tag).toBe("InvalidTotpCode")
      }
      const error = yield* Effect.flip(Mfa.signIn({ attemptCode, totp: right })).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("VerificationCodeMaxAttemptsReached")
    }))

  it.effect("disableTotp removes the second factor: the next password sign-in gets tokens directly", () =>
    Effect.gen(function* () {
      const { emulator, device, secret } = yield* setup
      const attemptCode = yield* firstFactor(device)
      yield* Mfa.signIn({ attemptCode, totp: yield* Totp.generate(secret) }).pipe(Effect.provide(device.context))
      const user = yield* Mfa.disableTotp().pipe(Effect.provide(device.context))
      expect(user.isMultiFactorRequired).toBe(false)
      expect([...emulator.state.projects.get(emulator.demo.projectId)!.users.values()][0]!.totpSecretBase64).toBeNull()
      yield* Sessions.signOut().pipe(Effect.provide(device.context))
      yield* Password.signInWithPassword({ email, password }).pipe(Effect.provide(device.context))
      expect(Option.isSome((yield* stored(device)).refreshToken)).toBe(true)
    }))

  it.effect("the emulator rejects a type other than totp with the service's SCHEMA_ERROR", () =>
    Effect.gen(function* () {
      const { emulator, device } = yield* setup
      const attemptCode = yield* firstFactor(device)
      const answer = yield* send(emulator as Emulator.Emulator, {
        method: "POST",
        path: "/api/v1/auth/mfa/sign-in",
        headers: clientHeaders(emulator.demo),
        body: { code: attemptCode, type: "sms", totp: "000000" }
      })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
      expect(answer.json.error).toBe(
        "Request validation failed on POST /api/v1/auth/mfa/sign-in:\n  - body.type must be one of the following values: totp"
      )
    }))
})
