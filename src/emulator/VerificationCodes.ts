/**
 * The emulator's one store of verification codes (`ProjectRecord.codes`), shared by every code
 * family: e-mail verification, password reset, magic link / OTP sign-in, MFA attempts.
 *
 * A code is 45 lowercase Crockford base32 characters. The service lower-cases what it is sent
 * (the e-mail shows the OTP part in upper case), looks the code up for the endpoint's purpose
 * (a code of another purpose is "not found"), and then decides, in this order:
 *
 * 1. not found → 404 `VERIFICATION_CODE_NOT_FOUND`
 * 2. past its expiry → 400 `VERIFICATION_CODE_EXPIRED` (e-mailed codes live 7 days)
 * 3. used before → 409 `VERIFICATION_CODE_ALREADY_USED`
 * 4. too many attempts → 400 `VERIFICATION_CODE_MAX_ATTEMPTS_REACHED`
 *
 * What counts as an attempt (PROTOCOL.md §3.1: "20 attempts per code family"; the error's text:
 * "The verification code **nonce** has reached the maximum number of attempts"): a code is a
 * 6-character part followed by a 39-character nonce — for OTP sign-in the 6 characters are what
 * the user types and the nonce is what `send-sign-in-code` returned. Guessing the OTP means
 * sending many codes with the same nonce, so every request to a `{code}` endpoint (check-code
 * and use alike, whatever its outcome) counts one attempt against EVERY stored code whose last
 * 39 characters equal the request's — the "family" of that nonce. A code whose family had
 * already seen {@link maxAttemptsPerCode} attempts before this request is void: the 21st request
 * fails even with the right code. A code that is not found still counts against its family, so
 * 20 wrong OTP guesses void the real code. The count is taken before this request's increment,
 * as the service does.
 *
 * @module
 */
import { Effect } from "effect"
import { VerificationCodeAlreadyUsed, VerificationCodeExpired, VerificationCodeMaxAttemptsReached, VerificationCodeNotFound } from "../core/KnownErrors.js"
import { randomToken45 } from "./Random.js"
import type { RequestContext } from "./RequestContext.js"
import type { CodePurpose, CodeRecord, ProjectRecord } from "./State.js"

/** Attempts a nonce's family may see; the next request fails with MAX_ATTEMPTS_REACHED. */
export const maxAttemptsPerCode = 20

/** Length of the part of a code that the user types for OTP sign-in. */
export const otpLength = 6

/** The failures of checking or using a code. */
export type VerificationCodeError =
  | VerificationCodeNotFound
  | VerificationCodeExpired
  | VerificationCodeAlreadyUsed
  | VerificationCodeMaxAttemptsReached

/** Creates and stores a new code. Lifetime: the emulator's e-mail code lifetime (7 days) unless given. */
export const create = (
  context: RequestContext,
  project: ProjectRecord,
  input: {
    readonly purpose: CodePurpose
    readonly userId: string | null
    readonly email: string | null
    readonly lifetimeMillis?: number
  }
): CodeRecord => {
  let code = randomToken45()
  while (project.codes.has(code)) code = randomToken45()
  const record: CodeRecord = {
    code,
    purpose: input.purpose,
    userId: input.userId,
    email: input.email,
    createdAtMillis: context.nowMillis,
    expiresAtMillis: context.nowMillis + (input.lifetimeMillis ?? context.env.settings.emailCodeLifetimeMillis),
    usedAtMillis: undefined,
    attempts: 0
  }
  project.codes.set(code, record)
  return record
}

/** The nonce of a code: everything after its first {@link otpLength} characters. */
export const nonceOf = (code: string): string => code.slice(otpLength)

/** The OTP of a code as the e-mail shows it: its first {@link otpLength} characters, upper case. */
export const otpOf = (code: string): string => code.slice(0, otpLength).toUpperCase()

/**
 * Checks a code for a purpose (`mode: "check"`) or uses it (`mode: "use"`: marks it used), counting
 * the attempt against its nonce's family (see the module notes). Never fails with anything but
 * the four verification-code errors.
 */
export const redeem = (
  context: RequestContext,
  project: ProjectRecord,
  rawCode: string,
  purpose: CodePurpose,
  mode: "check" | "use"
): Effect.Effect<CodeRecord, VerificationCodeError> =>
  Effect.suspend((): Effect.Effect<CodeRecord, VerificationCodeError> => {
    const code = rawCode.toLowerCase()
    const found = project.codes.get(code)
    const record = found !== undefined && found.purpose === purpose ? found : undefined
    const attemptsBefore = record?.attempts ?? 0
    const nonce = nonceOf(code)
    for (const other of project.codes.values()) if (other.code.endsWith(nonce)) other.attempts += 1
    if (record === undefined) return Effect.fail(VerificationCodeNotFound.make({}))
    if (record.expiresAtMillis < context.nowMillis) return Effect.fail(VerificationCodeExpired.make({}))
    if (record.usedAtMillis !== undefined) return Effect.fail(VerificationCodeAlreadyUsed.make({}))
    if (attemptsBefore >= maxAttemptsPerCode) return Effect.fail(VerificationCodeMaxAttemptsReached.make({}))
    if (mode === "use") record.usedAtMillis = context.nowMillis
    return Effect.succeed(record)
  })
