/**
 * Conformance of the MFA, anonymous, sessions and CLI routes with the recorded wire samples
 * (mfa/*, auth/10–12, auth/17–20, auth/31–38), as `conformance.test.ts` does for the foundation:
 * each sample is replayed against a fresh emulator seeded with the samples' project after the
 * setup it needs; placeholders and recorded ids/codes are replaced with live values. Asserted:
 * status, `x-stack-known-error` / `x-stack-actual-status` (present iff recorded, same value),
 * content type, and the body's shape (same keys, same value types, recursively); the helpers
 * are shared with the other conformance tests (conformanceSupport.ts).
 *
 * The MFA samples run at the recorded instant with the recorded TOTP secret (mfa/01), so the
 * recorded codes are right (mfa/05) and wrong (mfa/04) here exactly as they were there.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { decodeJwt } from "jose"
import * as Totp from "../../src/auth/Totp.js"
import type { Emulator, ProjectCredentials } from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import type { Substitutions, Tokens } from "./conformanceSupport.js"
import { compare, load, makeSampleBench, passwordSession, sampleInstant, tokenSubstitutions } from "./conformanceSupport.js"

// ---------------------------------------------------------------------------------------------
// Setups
// ---------------------------------------------------------------------------------------------

interface Setup {
  readonly emulator: Emulator
  readonly project: ProjectCredentials
  readonly signUp: (email: string, password?: string) => Effect.Effect<Tokens>
  readonly signIn: (email: string, password?: string) => Effect.Effect<Tokens>
  readonly replay: (name: string, substitutions?: Substitutions) => Effect.Effect<Answer>
}

const requestBody = <T>(name: string) => load(name).request.body as T
const responseBody = <T>(name: string) => load(name).response.body as T

const mfaUser = requestBody<{ email: string; password: string }>("mfa/03-password-sign-in-mfa-required")
const mfaSecret = requestBody<{ totp_secret_base64: string }>("mfa/01-enable-totp").totp_secret_base64
const recordedAttemptCode = requestBody<{ code: string }>("mfa/05-mfa-sign-in").code
/** The instant of the recorded MFA sign-in (its access token's `iat`): the recorded TOTP is right then. */
const mfaInstant = (decodeJwt((responseBody<{ access_token: string }>("mfa/05-mfa-sign-in")).access_token).iat ?? 0) * 1000

const sessionUser = responseBody<{ items: ReadonlyArray<{ user_id: string }> }>("auth/17-sessions-list").items[0]!.user_id
const cliCreate = responseBody<{ polling_code: string; login_code: string }>("auth/31-cli-create")
const cliRefreshToken = requestBody<{ refresh_token: string }>("auth/33-cli-complete").refresh_token

const sessionIdOf = (tokens: Tokens): string => decodeJwt(tokens.access_token).refresh_token_id as string

/** The samples' MFA user, with the recorded secret enabled; at the recorded instant. */
const mfaEnabled = (setup: Setup) =>
  Effect.gen(function* () {
    const tokens = yield* setup.signUp(mfaUser.email, mfaUser.password)
    const answer = yield* setup.replay("mfa/01-enable-totp", tokenSubstitutions(tokens))
    expect(answer.status).toBe(200)
    return tokens
  })

/** The MFA user stopped at the second factor: the live attempt code replaces the recorded one. */
const mfaAttempt = (setup: Setup) =>
  Effect.gen(function* () {
    yield* mfaEnabled(setup)
    const answer = yield* setup.replay("mfa/03-password-sign-in-mfa-required")
    expect(answer.status).toBe(400)
    return { [recordedAttemptCode]: answer.json.details.attempt_code as string } as Substitutions
  })

/** One user with three sessions; the current one (the first) as `<access-token>`; the recorded ids → live ones. */
const threeSessions = (setup: Setup) =>
  Effect.gen(function* () {
    const current = yield* setup.signUp("w-sessions@example.com")
    yield* TestClock.adjust("1 second")
    const second = yield* setup.signIn("w-sessions@example.com")
    yield* TestClock.adjust("1 second")
    yield* setup.signIn("w-sessions@example.com")
    const recordedOther = load("auth/18-sessions-delete-other").request.path.split("/")[5]!.split("?")[0]!
    const recordedCurrent = load("auth/19-sessions-delete-current-by-id").request.path.split("/")[5]!.split("?")[0]!
    return {
      ...tokenSubstitutions(current),
      [recordedOther]: sessionIdOf(second),
      [recordedCurrent]: sessionIdOf(current),
      [sessionUser]: current.user_id
    } as Substitutions
  })

/** A CLI attempt (auth/31 replayed); the recorded codes → live ones. */
const cliAttempt = (setup: Setup) =>
  Effect.gen(function* () {
    const answer = yield* setup.replay("auth/31-cli-create")
    expect(answer.status).toBe(200)
    return { [cliCreate.polling_code]: answer.json.polling_code, [cliCreate.login_code]: answer.json.login_code } as Substitutions
  })

/** A CLI attempt and a signed-in browser (its tokens replace `<access-token>` and the recorded refresh token). */
const cliAttemptAndBrowser = (setup: Setup) =>
  Effect.gen(function* () {
    const codes = yield* cliAttempt(setup)
    const browser = yield* setup.signUp("w-cli@example.com")
    return { ...codes, "<access-token>": browser.access_token, [cliRefreshToken]: browser.refresh_token } as Substitutions
  })

const cliCompleted = (setup: Setup) =>
  Effect.gen(function* () {
    const substitutions = yield* cliAttemptAndBrowser(setup)
    expect((yield* setup.replay("auth/33-cli-complete", substitutions)).status).toBe(200)
    return substitutions
  })

const anonymousToken = (setup: Setup) =>
  Effect.map(setup.replay("auth/10-anonymous-sign-up"), (answer) => ({ "<access-token>": answer.json.access_token as string }))

const nothing = (): Effect.Effect<Substitutions> => Effect.succeed({})

const cases: Readonly<Record<string, { readonly at?: number; readonly prepare: (setup: Setup) => Effect.Effect<Substitutions> }>> = {
  "mfa/01-enable-totp": { prepare: (setup) => Effect.map(setup.signUp(mfaUser.email, mfaUser.password), tokenSubstitutions) },
  "mfa/02-server-user-requires-totp": {
    prepare: (setup) => Effect.map(mfaEnabled(setup), (tokens) => ({ [responseBody<{ id: string }>("mfa/02-server-user-requires-totp").id]: tokens.user_id }))
  },
  "mfa/03-password-sign-in-mfa-required": { prepare: (setup) => Effect.as(mfaEnabled(setup), {}) },
  "mfa/04-mfa-sign-in-wrong-totp": { at: mfaInstant, prepare: mfaAttempt },
  "mfa/05-mfa-sign-in": { at: mfaInstant, prepare: mfaAttempt },
  "mfa/06-mfa-sign-in-code-reused": {
    at: mfaInstant,
    prepare: (setup) =>
      Effect.gen(function* () {
        const substitutions = yield* mfaAttempt(setup)
        expect((yield* setup.replay("mfa/05-mfa-sign-in", substitutions)).status).toBe(200)
        return substitutions
      })
  },
  "mfa/07-mfa-sign-in-unknown-code": { at: mfaInstant, prepare: (setup) => Effect.as(mfaAttempt(setup), {}) },
  "mfa/08-mfa-sign-in-bad-type": { at: mfaInstant, prepare: mfaAttempt },
  "mfa/09-disable-totp": { prepare: (setup) => Effect.map(mfaEnabled(setup), tokenSubstitutions) },
  "mfa/10-password-sign-in-after-disable": {
    prepare: (setup) =>
      Effect.gen(function* () {
        const tokens = yield* mfaEnabled(setup)
        expect((yield* setup.replay("mfa/09-disable-totp", tokenSubstitutions(tokens))).status).toBe(200)
        return {}
      })
  },
  "auth/10-anonymous-sign-up": { prepare: nothing },
  "auth/11-anonymous-user-me-without-allow-header": { prepare: anonymousToken },
  "auth/12-anonymous-user-me-with-allow-header": { prepare: anonymousToken },
  "auth/17-sessions-list": { prepare: threeSessions },
  "auth/18-sessions-delete-other": { prepare: threeSessions },
  "auth/19-sessions-delete-current-by-id": { prepare: threeSessions },
  "auth/20-server-create-session": { prepare: threeSessions },
  "auth/31-cli-create": { prepare: nothing },
  "auth/32-cli-poll-waiting": { prepare: cliAttempt },
  "auth/33-cli-complete": { prepare: cliAttemptAndBrowser },
  "auth/34-cli-poll-success": { prepare: cliCompleted },
  "auth/35-cli-poll-used": {
    prepare: (setup) =>
      Effect.gen(function* () {
        const substitutions = yield* cliCompleted(setup)
        expect((yield* setup.replay("auth/34-cli-poll-success", substitutions)).status).toBe(201)
        return substitutions
      })
  },
  "auth/36-cli-poll-invalid-code": { prepare: cliAttempt },
  "auth/37-cli-complete-invalid-login-code": { prepare: cliAttemptAndBrowser },
  "auth/38-cli-create-no-body": { prepare: nothing }
}

describe("conformance of MFA, anonymous, sessions and CLI routes with the recorded wire samples", () => {
  it.effect("the recorded TOTP codes are right (mfa/05) and wrong (mfa/04) at the recorded instant", () =>
    Effect.gen(function* () {
      const secret = Totp.fromBase64(mfaSecret)!
      expect(yield* Totp.verifyAt(secret, requestBody<{ totp: string }>("mfa/05-mfa-sign-in").totp, mfaInstant)).toBe(true)
      expect(yield* Totp.verifyAt(secret, requestBody<{ totp: string }>("mfa/04-mfa-sign-in-wrong-totp").totp, mfaInstant)).toBe(false)
    }))

  for (const [name, { at, prepare }] of Object.entries(cases)) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(at ?? sampleInstant)
        const { emulator, project, replay } = yield* makeSampleBench()
        const passwordRoute = (route: "sign-up" | "sign-in") => (email: string, password = mfaUser.password) =>
          passwordSession(emulator, project, route, { email, password })
        const setup: Setup = {
          emulator,
          project,
          signUp: passwordRoute("sign-up"),
          signIn: passwordRoute("sign-in"),
          replay
        }
        const substitutions = yield* prepare(setup)
        const answer = yield* replay(name, substitutions)
        expect(compare(load(name).response, answer)).toEqual([])
      }))
  }
})
