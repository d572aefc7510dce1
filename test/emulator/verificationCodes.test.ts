/**
 * The emulator's code store over the wire: every verification-code state (not found, expired,
 * already used, max attempts), 45-character codes, lower-casing, purposes kept apart, and the
 * attempt count per nonce family (see src/emulator/VerificationCodes.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Emulator, ProjectCredentials } from "../../src/emulator/Emulator.js"
import { maxAttemptsPerCode } from "../../src/emulator/VerificationCodes.js"
import { clientHeaders, makeEmulator, send, signUp } from "./helpers.js"

const callback = "http://localhost:3000/handler/password-reset"

const post = (emulator: Emulator, credentials: ProjectCredentials, path: string, body: unknown) =>
  send(emulator, { method: "POST", path: `/api/v1${path}`, headers: clientHeaders(credentials), body })

/** A user with a password and a fresh reset code from the outbox. */
const resetCode = (emulator: Emulator, email = "ada@example.com") =>
  Effect.gen(function* () {
    yield* signUp(emulator, emulator.demo, email)
    const answer = yield* post(emulator, emulator.demo, "/auth/password/send-reset-code", { email, callback_url: callback })
    expect(answer.status).toBe(200)
    const entry = emulator.latestEmail({ email, kind: "password_reset" })!
    return entry.code!
  })

/** Changes the first character of a code (a different code with the same nonce). */
const sibling = (code: string) => `${code[0] === "a" ? "b" : "a"}${code.slice(1)}`

describe("verification codes", () => {
  it.effect("a code that does not exist: 404 VERIFICATION_CODE_NOT_FOUND", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code: "a".repeat(45) })
      expect(answer.status).toBe(404)
      expect(answer.headers.get("x-stack-known-error")).toBe("VERIFICATION_CODE_NOT_FOUND")
      expect(answer.json).toEqual({ code: "VERIFICATION_CODE_NOT_FOUND", error: "The verification code does not exist for this project." })
    }))

  it.effect("a code must be exactly 45 characters (SCHEMA_ERROR); it is lower-cased", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      const short = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code: code.slice(1) })
      expect(short.status).toBe(400)
      expect(short.json.code).toBe("SCHEMA_ERROR")
      expect(short.json.error).toContain("body.code must be exactly 45 characters")
      const upper = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code: code.toUpperCase() })
      expect(upper.status).toBe(200)
      expect(upper.json).toEqual({ is_code_valid: true })
    }))

  it.effect("a code expires after 7 days (TestClock): 400 VERIFICATION_CODE_EXPIRED", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      yield* TestClock.adjust("7 days")
      const lastMoment = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })
      expect(lastMoment.status).toBe(200)
      yield* TestClock.adjust("1 millis")
      const expired = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })
      expect(expired.status).toBe(400)
      expect(expired.headers.get("x-stack-known-error")).toBe("VERIFICATION_CODE_EXPIRED")
    }))

  it.effect("a used code: 409 VERIFICATION_CODE_ALREADY_USED (check-code does not use it)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      expect((yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })).status).toBe(200)
      expect((yield* post(emulator, emulator.demo, "/auth/password/reset", { code, password: "a new password" })).status).toBe(200)
      const again = yield* post(emulator, emulator.demo, "/auth/password/reset", { code, password: "another password" })
      expect(again.status).toBe(409)
      expect(again.headers.get("x-stack-known-error")).toBe("VERIFICATION_CODE_ALREADY_USED")
      const check = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })
      expect(check.status).toBe(409)
    }))

  it.effect(`every request counts against the nonce's family: after ${maxAttemptsPerCode} attempts the code is void`, () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      // 19 wrong guesses with the same nonce, then one check of the real code: 20 attempts, all allowed
      for (let i = 0; i < maxAttemptsPerCode - 1; i++) {
        const wrong = yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code: sibling(code) })
        expect(wrong.status).toBe(404)
      }
      expect((yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })).status).toBe(200)
      // the 21st request fails even with the right code
      const void_ = yield* post(emulator, emulator.demo, "/auth/password/reset", { code, password: "a new password" })
      expect(void_.status).toBe(400)
      expect(void_.headers.get("x-stack-known-error")).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED")
      expect(void_.json.error).toBe(
        "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore."
      )
      // another code (another nonce) of the same user is unaffected
      const other = yield* post(emulator, emulator.demo, "/auth/password/send-reset-code", { email: "ada@example.com", callback_url: callback })
      expect(other.status).toBe(200)
      const fresh = emulator.latestEmail({ email: "ada@example.com", kind: "password_reset" })!.code!
      expect((yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code: fresh })).status).toBe(200)
    }))

  it.effect("attempts on one code's nonce do not count against codes with other nonces", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      for (let i = 0; i < maxAttemptsPerCode + 5; i++) {
        yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code: `${"z".repeat(6)}${"y".repeat(39)}` })
      }
      expect((yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })).status).toBe(200)
      expect(emulator.state.projects.get(emulator.demo.projectId)!.codes.get(code)!.attempts).toBe(1)
    }))

  it.effect("a code of one purpose is not found on another family's endpoints", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      const asVerification = yield* post(emulator, emulator.demo, "/contact-channels/verify", { code })
      expect(asVerification.status).toBe(404)
      const asMagicLink = yield* post(emulator, emulator.demo, "/auth/otp/sign-in", { code })
      expect(asMagicLink.status).toBe(404)
      expect((yield* post(emulator, emulator.demo, "/auth/password/reset/check-code", { code })).status).toBe(200)
    }))

  it.effect("codes belong to their project", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const code = yield* resetCode(emulator)
      const other = yield* emulator.createProject()
      const answer = yield* post(emulator, other, "/auth/password/reset/check-code", { code })
      expect(answer.status).toBe(404)
    }))
})
