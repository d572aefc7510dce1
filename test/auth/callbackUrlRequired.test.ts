/**
 * Flows that e-mail a link need its callback URL. In Node without `HandlerUrls` (app URL) or an
 * explicit URL, none can be resolved: every such flow fails with the typed `CallbackUrlRequired`
 * before any request, naming the ways out — sign-up included (it used to drop the verification
 * e-mail silently).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as EmailVerification from "../../src/auth/EmailVerification.js"
import * as MagicLink from "../../src/auth/MagicLink.js"
import * as Password from "../../src/auth/Password.js"
import * as PasswordReset from "../../src/auth/PasswordReset.js"
import * as TeamInvitations from "../../src/teams/TeamInvitations.js"
import * as Teams from "../../src/teams/Teams.js"
import * as Users from "../../src/users/Users.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

describe("CallbackUrlRequired", () => {
  it.effect("sign-up without verificationCallbackUrl, HandlerUrls or a browser fails with CallbackUrlRequired before any request", () =>
    Effect.gen(function* () {
      expect((globalThis as { location?: unknown }).location).toBeUndefined()
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const error = yield* Effect.flip(Password.signUpWithPassword({ email: "ada@example.com", password }).pipe(Effect.provide(device.context)))
      expect(error._tag).toBe("CallbackUrlRequired")
      expect(error.message).toBe(
        "verificationCallbackUrl option is required in a non-browser environment. Pass verificationCallbackUrl (an absolute URL), or provide " +
          "HandlerUrls.layer({ appUrl: \"https://your.app\" }) so the emailVerification page (/handler/email-verification) is resolved against your app, " +
          "or pass noVerificationCallback: true."
      )
      expect(device.requests).toEqual([])
      expect(emulator.outbox()).toEqual([])
    }))

  it.effect("each way out works: HandlerUrls.layer({ appUrl }) and an explicit URL send the e-mail; noVerificationCallback sends none", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const withApp = yield* clientDevice(emulator)
      yield* Password.signUpWithPassword({ email: "ada@example.com", password }).pipe(
        Effect.provide(Layer.merge(Layer.succeedContext(withApp.context), HandlerUrls.layer({ appUrl: "http://localhost:3000" })))
      )
      expect(emulator.latestEmail({ email: "ada@example.com", kind: "email_verification" })?.link).toMatch(
        /^http:\/\/localhost:3000\/handler\/email-verification\?code=/
      )
      const explicit = yield* clientDevice(emulator)
      yield* Password.signUpWithPassword({ email: "bob@example.com", password, verificationCallbackUrl: "http://localhost:3000/verify" }).pipe(
        Effect.provide(explicit.context)
      )
      expect(emulator.latestEmail({ email: "bob@example.com", kind: "email_verification" })?.link).toMatch(/^http:\/\/localhost:3000\/verify\?code=/)
      const optedOut = yield* clientDevice(emulator)
      yield* Password.signUpWithPassword({ email: "cy@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(optedOut.context))
      expect(optedOut.requests).toEqual(["POST /auth/password/sign-up"])
      expect(emulator.outbox({ email: "cy@example.com" })).toEqual([])
    }))

  it.effect("magic link, password reset, e-mail verification, contact-channel verification and invitations fail the same way, 0 requests each", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Effect.provide(device.context as never)) as Effect.Effect<A, E>
      // a signed-in user with a team (the demo allows client team creation)
      yield* run(Password.signInWithPassword({ email: "demo@example.com", password: "demo-password-1234" }))
      const user = Option.getOrThrow(yield* run(Users.getCurrent()))
      const team = yield* run(Teams.create({ displayName: "Demo's team" }))
      const channel = (yield* run(ContactChannels.list()))[0]!
      const before = device.requests.length
      const failures = yield* Effect.all([
        Effect.flip(run(MagicLink.sendMagicLinkEmail({ email: "ada@example.com" }))),
        Effect.flip(run(PasswordReset.sendPasswordResetCode({ email: "demo@example.com" }))),
        Effect.flip(run(EmailVerification.sendVerificationEmail(user))),
        Effect.flip(run(ContactChannels.sendVerificationCode(channel.id))),
        Effect.flip(run(TeamInvitations.send({ teamId: team.id, email: "bob@example.com" })))
      ])
      expect(failures.map((error) => error._tag)).toEqual(Array(5).fill("CallbackUrlRequired"))
      for (const error of failures) expect(error.message).toContain("provide HandlerUrls.layer({ appUrl: \"https://your.app\" })")
      expect(failures.map((error) => (error._tag === "CallbackUrlRequired" ? error.handler : ""))).toEqual([
        "magicLinkCallback",
        "passwordReset",
        "emailVerification",
        "emailVerification",
        "teamInvitation"
      ])
      expect(device.requests.length - before).toBe(0)
      expect(emulator.outbox()).toEqual([])
    }))
})
