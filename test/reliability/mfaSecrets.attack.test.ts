/**
 * Attacker's review of the MFA continuation: the attempt code (a 5-minute credential that, with a
 * TOTP code, opens a session) is readable where the app continues the sign-in
 * (`details.attempt_code`, `MfaChallenge`) but never shows in what an app prints or logs: JSON,
 * `String`, Node's inspect, `Cause.pretty`, log lines.
 */
import { inspect } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Logger, Redacted, References } from "effect"
import { TestClock } from "effect/testing"
import * as Mfa from "../../src/auth/Mfa.js"
import { MfaChallenge } from "../../src/auth/Mfa.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import { MultiFactorAuthenticationRequired } from "../../src/core/KnownErrors.js"
import { clientDevice, makeEmulator, password } from "../auth/flowsSupport.js"

const attemptCode = "mfa-attempt-0123456789abcdefghijklmnopqrstuvwxyz"

describe("MFA attempt code stays out of printed and logged values", () => {
  it.effect("MultiFactorAuthenticationRequired: details.attempt_code is readable, but JSON, String, inspect, Cause.pretty and log lines never show it", () =>
    Effect.gen(function* () {
      const error = MultiFactorAuthenticationRequired.make({ attempt_code: attemptCode })
      expect(error.details.attempt_code).toBe(attemptCode)
      expect(MfaChallenge.fromError(error)).toBeInstanceOf(MfaChallenge)
      const lines: Array<string> = []
      const capture = Logger.make((options) => {
        lines.push(Logger.formatLogFmt.log(options), Logger.formatJson.log(options), Logger.formatStructured.log(options) as unknown as string)
      })
      yield* Effect.fail(error).pipe(
        Effect.tapCause((cause) => Effect.logError("sign-in failed", cause)),
        Effect.tapError((failure) => Effect.logWarning(failure)),
        Effect.result,
        Effect.provide(Logger.layer([capture])),
        Effect.provideService(References.MinimumLogLevel, "All")
      )
      const printed = [
        JSON.stringify(error),
        JSON.stringify({ error }),
        String(error),
        inspect(error, { depth: 10 }),
        Cause.pretty(Cause.fail(error)),
        ...lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line)))
      ]
      for (const text of printed) expect(text).not.toContain(attemptCode)
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({ _tag: "MultiFactorAuthenticationRequired", code: "MULTI_FACTOR_AUTHENTICATION_REQUIRED" })
    }))
})

describe("MFA challenge replay", () => {
  it.effect("a challenge that finished a sign-in cannot open a second session: VerificationCodeAlreadyUsed (PROTOCOL.md §7 'MFA'), typed", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_800_000_000_000)
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const email = "ada@example.com"
      const secret = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
        const enabled = yield* Mfa.enableTotp()
        yield* Sessions.signOut()
        return Redacted.value(enabled.secret)
      }).pipe(Effect.provide(device.context))
      const step = yield* Mfa.continuable(Password.signInWithPassword({ email, password })).pipe(Effect.provide(device.context))
      if (step._tag !== "MfaRequired") return yield* Effect.die(new Error("expected the MFA step"))
      const code = yield* Totp.generate(secret)
      yield* step.challenge.submit(code).pipe(Effect.provide(device.context))
      const replay = yield* Effect.flip(step.challenge.submit(code)).pipe(Effect.provide(device.context))
      expect(replay._tag).toBe("VerificationCodeAlreadyUsed")
      expect(device.count("POST /auth/mfa/sign-in")).toBe(2)
    }))
})
