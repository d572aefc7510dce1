/**
 * End to end over real HTTP against the emulator server: password update (other sessions
 * revoked), forgotten password, e-mail verification and magic-link sign-in, following the
 * e-mailed links from the outbox, with callback URLs defaulted from HandlerUrls.
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as EmailVerification from "../../src/auth/EmailVerification.js"
import * as MagicLink from "../../src/auth/MagicLink.js"
import * as Password from "../../src/auth/Password.js"
import * as PasswordReset from "../../src/auth/PasswordReset.js"
import * as Stack from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ demo: { config: { magicLinkEnabled: true } } })

const appUrl = "http://localhost:3000"

/** One device: a runtime holding its own session, over real fetch, with the app's HandlerUrls. */
const device = () => {
  const fetch = countingFetch()
  const runtime = ManagedRuntime.make(
    Layer.merge(
      Stack.layerClient({
        projectId: main.server.emulator.demo.projectId,
        publishableClientKey: main.server.emulator.demo.publishableClientKey,
        baseUrl: main.server.baseUrl,
        httpClient: fetch.layer
      }),
      HandlerUrls.layer({ appUrl })
    )
  )
  const run = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices | HandlerUrls.HandlerUrls>) => runtime.runPromise(effect)
  return { run, count: fetch.count, dispose: () => runtime.dispose() }
}

const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
const password = "correct horse battery"

describe("password, verification and magic-link flows over HTTP", () => {
  it("updates the password: this device stays signed in, the other device is signed out", async () => {
    const email = uniqueEmail("update")
    const device1 = device()
    const device2 = device()
    await device1.run(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
    await device2.run(Password.signInWithPassword({ email, password }))
    const stillSignedIn = await device2.run(
      Effect.gen(function* () {
        yield* Password.updatePassword({ oldPassword: password, newPassword: "a brand new password" })
        return yield* Users.getCurrent()
      })
    )
    expect(Option.isSome(stillSignedIn)).toBe(true)
    expect(device2.count("POST /auth/password/update")).toBe(1)
    const project = main.server.emulator.state.projects.get(main.server.emulator.demo.projectId)!
    const userId = Option.getOrThrow(stillSignedIn).id
    expect([...project.sessions.values()].filter((s) => s.userId === userId)).toHaveLength(1)
    const error = await device1.run(Effect.flip(Password.signInWithPassword({ email, password })))
    expect(error._tag).toBe("EmailPasswordMismatch")
    await device1.dispose()
    await device2.dispose()
  })

  it("resets a forgotten password through the e-mailed link", async () => {
    const email = uniqueEmail("reset")
    const { run, count, dispose } = device()
    await run(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
    await run(PasswordReset.sendPasswordResetCode({ email }))
    const entry = main.server.emulator.latestEmail({ email, kind: "password_reset" })!
    const link = new URL(entry.link!)
    expect(`${link.origin}${link.pathname}`).toBe(`${appUrl}/handler/password-reset`)
    const code = link.searchParams.get("code")!
    await run(PasswordReset.checkPasswordResetCode(code))
    await run(PasswordReset.resetPassword({ code, password: "a reset password" }))
    const signedIn = await run(Password.signInWithPassword({ email, password: "a reset password" }))
    expect(signedIn.userId).toMatch(/^[0-9a-f-]{36}$/)
    const reused = await run(Effect.flip(PasswordReset.resetPassword({ code, password: "again a password" })))
    expect(reused._tag).toBe("VerificationCodeAlreadyUsed")
    expect(count("POST /auth/password/reset")).toBe(2)
    await dispose()
  })

  it("verifies the primary e-mail with the link sign-up sent to the default page", async () => {
    const email = uniqueEmail("verify")
    const { run, dispose } = device()
    await run(Password.signUpWithPassword({ email, password }))
    const entry = main.server.emulator.latestEmail({ email, kind: "email_verification" })!
    expect(entry.link!.startsWith(`${appUrl}/handler/email-verification?code=`)).toBe(true)
    const verified = await run(
      Effect.gen(function* () {
        yield* EmailVerification.verifyEmail(new URL(entry.link!).searchParams.get("code")!)
        const user = Option.getOrThrow(yield* Users.getCurrent())
        const again = yield* Effect.flip(EmailVerification.sendVerificationEmail(user))
        return { user, again }
      })
    )
    expect(verified.user.primaryEmailVerified).toBe(true)
    expect(verified.again._tag).toBe("EmailAlreadyVerified")
    await dispose()
  })

  it("signs a new user in by magic link, then by typed code + nonce", async () => {
    const email = uniqueEmail("magic")
    const { run, dispose } = device()
    await run(MagicLink.sendMagicLinkEmail({ email }))
    const link = main.server.emulator.latestEmail({ email, kind: "magic_link" })!.link!
    expect(link.startsWith(`${appUrl}/handler/magic-link-callback?code=`)).toBe(true)
    const first = await run(MagicLink.signInWithMagicLinkCallback(link))
    expect(first.isNewUser).toBe(true)
    const { nonce } = await run(MagicLink.sendMagicLinkEmail({ email }))
    const otp = main.server.emulator.latestEmail({ email, kind: "magic_link" })!.code!.slice(0, 6).toUpperCase()
    const second = await run(MagicLink.signInWithOtp({ otp, nonce }))
    expect(second).toEqual({ userId: first.userId, isNewUser: false })
    await dispose()
  })

  it("a magic-link user without a password sets one, then signs in with it on another device", async () => {
    const email = uniqueEmail("setpw")
    const first = device()
    await first.run(MagicLink.sendMagicLinkEmail({ email }))
    await first.run(MagicLink.signInWithMagicLinkCallback(main.server.emulator.latestEmail({ email, kind: "magic_link" })!.link!))
    const before = await first.run(Users.getCurrent())
    expect(Option.getOrThrow(before).hasPassword).toBe(false)
    await first.run(Password.setPassword({ password }))
    const again = await first.run(Effect.flip(Password.setPassword({ password })))
    expect(again._tag).toBe("UserAlreadyHasPassword")
    const second = device()
    const { userId } = await second.run(Password.signInWithPassword({ email, password }))
    expect(userId).toBe(Option.getOrThrow(before).id)
    expect(Option.getOrThrow(await second.run(Users.getCurrent())).hasPassword).toBe(true)
    await first.dispose()
    await second.dispose()
  })
})
