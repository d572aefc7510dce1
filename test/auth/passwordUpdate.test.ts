/**
 * Password update and set through the SDK against the in-process emulator: the current session
 * survives an update, every other session is revoked; the error cases and feature flags.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as MagicLink from "../../src/auth/MagicLink.js"
import * as Emulator from "../../src/emulator/index.js"
import type { ProjectCredentials } from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import { Session } from "../../src/session/Session.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

const clientOf = (emulator: Emulator.Emulator, credentials: ProjectCredentials = emulator.demo) =>
  Stack.layerClient({
    projectId: credentials.projectId,
    publishableClientKey: credentials.publishableClientKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })

const password = "correct horse battery"

describe("Password.updatePassword", () => {
  it.effect("changes the password; the current session survives, every other session is revoked", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const client = clientOf(emulator)
      yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(client))
      // a second device
      const otherDevice = yield* Effect.gen(function* () {
        yield* Password.signInWithPassword({ email: "ada@example.com", password })
        return yield* (yield* Session).current
      }).pipe(Effect.provide(client))
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      expect(project.sessions.size).toBe(2)

      const current = yield* Effect.gen(function* () {
        yield* Password.signInWithPassword({ email: "ada@example.com", password })
        yield* Password.updatePassword({ oldPassword: password, newPassword: "a brand new password" })
        const user = yield* Users.getCurrent()
        return { user, tokens: yield* (yield* Session).current }
      }).pipe(Effect.provide(client))
      expect(Option.isSome(current.user)).toBe(true)
      const survivors = [...project.sessions.values()]
      expect(survivors).toHaveLength(1)
      expect(survivors[0]!.refreshToken).toBe(Redacted.value(Option.getOrThrow(current.tokens.refreshToken)))
      expect(survivors.some((s) => s.refreshToken === Redacted.value(Option.getOrThrow(otherDevice.refreshToken)))).toBe(false)

      // the old password no longer signs in, the new one does
      const wrong = yield* Effect.flip(Password.signInWithPassword({ email: "ada@example.com", password }).pipe(Effect.provide(client)))
      expect(wrong._tag).toBe("EmailPasswordMismatch")
      yield* Password.signInWithPassword({ email: "ada@example.com", password: "a brand new password" }).pipe(Effect.provide(client))
    }))

  it.effect("a wrong old password → PasswordConfirmationMismatch; a bad new one → PasswordTooShort / PasswordTooLong with details", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const errors = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true })
        const mismatch = yield* Effect.flip(Password.updatePassword({ oldPassword: "not the password", newPassword: "a brand new password" }))
        const short = yield* Effect.flip(Password.updatePassword({ oldPassword: password, newPassword: "short" }))
        const long = yield* Effect.flip(Password.updatePassword({ oldPassword: password, newPassword: "x".repeat(71) }))
        return { mismatch, short, long }
      }).pipe(Effect.provide(clientOf(emulator)))
      expect(errors.mismatch._tag).toBe("PasswordConfirmationMismatch")
      expect(errors.mismatch.message).toBe("Passwords do not match.")
      expect(errors.short._tag).toBe("PasswordTooShort")
      if (errors.short._tag === "PasswordTooShort") expect(errors.short.details).toEqual({ min_length: 8 })
      expect(errors.long._tag).toBe("PasswordTooLong")
      if (errors.long._tag === "PasswordTooLong") expect(errors.long.details).toEqual({ maxLength: 70 })
    }))

  it.effect("nobody signed in → UserNotSignedIn without a request", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const error = yield* Effect.flip(
        Password.updatePassword({ oldPassword: password, newPassword: "a brand new password" }).pipe(Effect.provide(clientOf(emulator)))
      )
      expect(error._tag).toBe("UserNotSignedIn")
    }))

  it.effect("password authentication off → PasswordAuthenticationNotEnabled", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = yield* emulator.createProject({ config: { magicLinkEnabled: true } })
      const client = clientOf(emulator, project)
      const error = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true })
        emulator.state.projects.get(project.projectId)!.config = {
          ...emulator.state.projects.get(project.projectId)!.config,
          credentialEnabled: false
        }
        return yield* Effect.flip(Password.updatePassword({ oldPassword: password, newPassword: "a brand new password" }))
      }).pipe(Effect.provide(client))
      expect(error._tag).toBe("PasswordAuthenticationNotEnabled")
    }))
})

describe("Password.setPassword", () => {
  it.effect("a user without a password (magic link) sets one, then signs in with it; update before that → UserDoesNotHavePassword", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = yield* emulator.createProject({ config: { magicLinkEnabled: true } })
      const client = clientOf(emulator, project)
      const outcome = yield* Effect.gen(function* () {
        yield* MagicLink.sendMagicLinkEmail({ email: "grace@example.com", callbackUrl: "http://localhost:3000/handler/magic-link-callback" })
        yield* MagicLink.signInWithMagicLinkCallback(emulator.latestEmail({ email: "grace@example.com" })!.link!)
        const before = yield* Users.getCurrent()
        const noPassword = yield* Effect.flip(Password.updatePassword({ oldPassword: "whatever it was", newPassword: "a brand new password" }))
        const short = yield* Effect.flip(Password.setPassword({ password: "short" }))
        yield* Password.setPassword({ password })
        const after = yield* Users.getCurrent()
        const again = yield* Effect.flip(Password.setPassword({ password: "another password" }))
        return { before, noPassword, short, after, again }
      }).pipe(Effect.provide(client))
      expect(Option.getOrThrow(outcome.before).hasPassword).toBe(false)
      expect(outcome.noPassword._tag).toBe("UserDoesNotHavePassword")
      expect(outcome.short._tag).toBe("PasswordTooShort")
      expect(Option.getOrThrow(outcome.after).hasPassword).toBe(true)
      expect(outcome.again._tag).toBe("UserAlreadyHasPassword")
      expect(outcome.again.message).toBe("User already has a password set.")
      const signedIn = yield* Password.signInWithPassword({ email: "grace@example.com", password }).pipe(Effect.provide(client))
      expect(signedIn.userId).toMatch(/^[0-9a-f-]{36}$/)
    }))
})

describe("feature flags", () => {
  it.effect("sign-up off → SignUpNotEnabled; password auth off → PasswordAuthenticationNotEnabled (sign-up and sign-in)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const noSignUp = yield* emulator.createProject({ config: { signUpEnabled: false } })
      const noPassword = yield* emulator.createProject({ config: { credentialEnabled: false } })
      const signUpOff = yield* Effect.flip(
        Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(clientOf(emulator, noSignUp)))
      )
      expect(signUpOff._tag).toBe("SignUpNotEnabled")
      const passwordOffSignUp = yield* Effect.flip(
        Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(clientOf(emulator, noPassword)))
      )
      expect(passwordOffSignUp._tag).toBe("PasswordAuthenticationNotEnabled")
      const passwordOffSignIn = yield* Effect.flip(
        Password.signInWithPassword({ email: "ada@example.com", password }).pipe(Effect.provide(clientOf(emulator, noPassword)))
      )
      expect(passwordOffSignIn._tag).toBe("PasswordAuthenticationNotEnabled")
    }))
})
