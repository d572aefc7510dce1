/** Forgotten password through the SDK against the in-process emulator, with callback URL defaults. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as PasswordReset from "../../src/auth/PasswordReset.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import { clientHeaders, makeEmulator, send, signUp } from "../emulator/helpers.js"

const clientOf = (emulator: Emulator.Emulator) =>
  Stack.layerClient({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })

const withApp = (emulator: Emulator.Emulator) => Layer.merge(clientOf(emulator), HandlerUrls.layer({ appUrl: "http://localhost:3000" }))

describe("PasswordReset", () => {
  it.effect("send code (default callback page) → check → reset → sign in with the new password; sessions revoked", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "ada@example.com")
      const result = yield* Effect.gen(function* () {
        yield* PasswordReset.sendPasswordResetCode({ email: "ada@example.com" })
        const entry = emulator.latestEmail({ email: "ada@example.com", kind: "password_reset" })!
        expect(entry.link).toBe(`http://localhost:3000/handler/password-reset?code=${entry.code}`)
        expect(entry.subject).toContain("Reset your password")
        yield* PasswordReset.checkPasswordResetCode(entry.code!)
        yield* PasswordReset.resetPassword({ code: entry.code!, password: "a reset password" })
        const reused = yield* Effect.flip(PasswordReset.resetPassword({ code: entry.code!, password: "another password" }))
        return { reused }
      }).pipe(Effect.provide(withApp(emulator)))
      expect(result.reused._tag).toBe("VerificationCodeAlreadyUsed")
      expect(emulator.state.projects.get(emulator.demo.projectId)!.sessions.size).toBe(0)
      const signedIn = yield* Password.signInWithPassword({ email: "ada@example.com", password: "a reset password" }).pipe(
        Effect.provide(clientOf(emulator))
      )
      expect(signedIn.userId).toMatch(/^[0-9a-f-]{36}$/)
    }))

  it.effect("an unknown e-mail gets the same answer and no e-mail", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* PasswordReset.sendPasswordResetCode({ email: "nobody@example.com", callbackUrl: "http://localhost:3000/reset" }).pipe(
        Effect.provide(clientOf(emulator))
      )
      expect(emulator.outbox({ email: "nobody@example.com" })).toHaveLength(0)
    }))

  it.effect("without HandlerUrls or a browser, the default callback is a CallbackUrlRequired error (nothing sent)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "ada@example.com")
      const error = yield* Effect.flip(PasswordReset.sendPasswordResetCode({ email: "ada@example.com" }).pipe(Effect.provide(clientOf(emulator))))
      expect(error._tag).toBe("CallbackUrlRequired")
      expect(error.message).toBe(
        "callbackUrl option is required in a non-browser environment. Pass callbackUrl (an absolute URL), or provide " +
          "HandlerUrls.layer({ appUrl: \"https://your.app\" }) so the passwordReset page (/handler/password-reset) is resolved against your app."
      )
      expect(emulator.outbox({ kind: "password_reset" })).toHaveLength(0)
    }))

  it.effect("an untrusted callback → RedirectUrlNotWhitelisted; a code of the wrong length → InvalidArgument without a request", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "ada@example.com")
      const errors = yield* Effect.gen(function* () {
        const untrusted = yield* Effect.flip(
          PasswordReset.sendPasswordResetCode({ email: "ada@example.com", callbackUrl: "https://evil.example.net/reset" })
        )
        const badCode = yield* Effect.flip(PasswordReset.checkPasswordResetCode("short"))
        const notFound = yield* Effect.flip(PasswordReset.resetPassword({ code: "0".repeat(45), password: "a reset password" }))
        return { untrusted, badCode, notFound }
      }).pipe(Effect.provide(clientOf(emulator)))
      expect(errors.untrusted._tag).toBe("RedirectUrlNotWhitelisted")
      expect(errors.badCode._tag).toBe("InvalidArgument")
      expect(errors.notFound._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("a too-short password fails, and (as on the service) the code is used up", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "ada@example.com")
      const errors = yield* Effect.gen(function* () {
        yield* PasswordReset.sendPasswordResetCode({ email: "ada@example.com", callbackUrl: "http://localhost:3000/reset" })
        const code = emulator.latestEmail({ kind: "password_reset" })!.code!
        const short = yield* Effect.flip(PasswordReset.resetPassword({ code, password: "short" }))
        const after = yield* Effect.flip(PasswordReset.checkPasswordResetCode(code))
        return { short, after }
      }).pipe(Effect.provide(clientOf(emulator)))
      expect(errors.short._tag).toBe("PasswordTooShort")
      expect(errors.after._tag).toBe("VerificationCodeAlreadyUsed")
    }))

  it.effect("password authentication off → PasswordAuthenticationNotEnabled on send-reset-code", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = yield* emulator.createProject({ config: { credentialEnabled: false } })
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/send-reset-code",
        headers: clientHeaders(project),
        body: { email: "ada@example.com", callback_url: "http://localhost:3000/reset" }
      })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED")
    }))
})

describe("POST /auth/password/update without the refresh token header", () => {
  it.effect("revokes every session, the current one included", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "ada@example.com")
      yield* signUp(emulator, emulator.demo, "bob@example.com")
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/update",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }),
        body: { old_password: "correct horse battery", new_password: "a brand new password" }
      })
      expect(answer.status).toBe(200)
      const sessions = [...emulator.state.projects.get(emulator.demo.projectId)!.sessions.values()]
      expect(sessions.map((s) => s.userId)).not.toContain(tokens.user_id)
      expect(sessions).toHaveLength(1)
      const noUser = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/update",
        headers: clientHeaders(emulator.demo),
        body: { old_password: "correct horse battery", new_password: "a brand new password" }
      })
      expect(noUser.status).toBe(400)
      expect(noUser.json.code).toBe("SCHEMA_ERROR")
    }))
})
