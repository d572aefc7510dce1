/**
 * End to end over real HTTP against the emulator server: MFA with TOTP, anonymous sign-up and
 * upgrade, sessions (list, revoke, server-created), and a CLI login confirmed by a browser.
 * Real time: TOTP codes come from the real clock, CLI polling runs on a short interval.
 */
import { Effect, Fiber, Layer, Option, Redacted } from "effect"
import type { Context, Scope } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import { describe, expect, it } from "vitest"
import * as Cli from "../../src/auth/Cli.js"
import { getUser } from "../../src/auth/GetUser.js"
import * as Mfa from "../../src/auth/Mfa.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as ServerSessions from "../../src/auth/ServerSessions.js"
import * as Totp from "../../src/auth/Totp.js"
import type { RunningServer } from "../../src/emulator/server.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const password = "correct horse battery"
const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A client (or server) of the demo project over fetch, with its own session, built in the test's scope. */
const device = <R>(layer: (httpClient: Layer.Layer<HttpClient.HttpClient>) => Layer.Layer<R, unknown>) =>
  Effect.gen(function* () {
    const fetch = countingFetch()
    const context: Context.Context<R> = yield* Layer.build(layer(fetch.layer)).pipe(Effect.orDie)
    return { context, count: fetch.count }
  })

const clientOptions = (server: RunningServer) => ({
  projectId: server.emulator.demo.projectId,
  publishableClientKey: server.emulator.demo.publishableClientKey,
  baseUrl: server.baseUrl
})

const client = () => device((httpClient) => Stack.layerClient({ ...clientOptions(main.server), httpClient }))

const server = () =>
  device((httpClient) =>
    Stack.layerServer({
      ...clientOptions(main.server),
      secretServerKey: main.server.emulator.demo.secretServerKey,
      httpClient
    })
  )

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Effect.scoped(effect) as Effect.Effect<A, unknown>)

describe("MFA, anonymous users, sessions and CLI login over HTTP against the emulator", () => {
  it("MFA: enable TOTP, the password sign-in stops at the second factor, a real code finishes it, disable", async () => {
    const email = uniqueEmail("mfa")
    await run(
      Effect.gen(function* () {
        const phone = yield* client()
        const on = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices>) => Effect.provide(effect, phone.context)
        yield* on(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
        const enabled = yield* on(Mfa.enableTotp())
        expect(Redacted.value(enabled.otpauthUri)).toContain(encodeURIComponent(email))
        yield* on(Sessions.signOut())

        const required = yield* Effect.flip(on(Password.signInWithPassword({ email, password })))
        expect(required._tag).toBe("MultiFactorAuthenticationRequired")
        const attemptCode = (required as { details: { attempt_code: string } }).details.attempt_code
        expect(attemptCode).toHaveLength(45)

        const wrong = yield* Effect.flip(on(Mfa.signIn({ attemptCode, totp: "abcdef" })))
        expect(wrong._tag).toBe("InvalidTotpCode")
        const totp = yield* Totp.generate(Redacted.value(enabled.secret))
        yield* on(Mfa.signIn({ attemptCode, totp }))
        const user = Option.getOrThrow(yield* on(Users.getCurrent()))
        expect(user.primaryEmail).toBe(email)
        expect(user.isMultiFactorRequired).toBe(true)
        const reused = yield* Effect.flip(on(Mfa.signIn({ attemptCode, totp })))
        expect(reused._tag).toBe("VerificationCodeAlreadyUsed")

        yield* on(Mfa.disableTotp())
        yield* on(Sessions.signOut())
        yield* on(Password.signInWithPassword({ email, password }))
        expect(phone.count("POST /auth/mfa/sign-in")).toBe(3)
      })
    )
  })

  it("anonymous: getUser({ or: 'anonymous' }) signs up; a password sign-up keeps the id", async () => {
    await run(
      Effect.gen(function* () {
        const browser = yield* client()
        const on = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices>) => Effect.provide(effect, browser.context)
        expect(yield* on(getUser())).toEqual(Option.none())
        const anonymous = yield* on(getUser({ or: "anonymous" }))
        expect(anonymous.isAnonymous).toBe(true)
        expect(yield* on(getUser())).toEqual(Option.none())
        const { userId } = yield* on(Password.signUpWithPassword({ email: uniqueEmail("anon"), password, noVerificationCallback: true }))
        expect(userId).toBe(anonymous.id)
        expect(Option.getOrThrow(yield* on(getUser())).isAnonymous).toBe(false)
        expect(browser.count("POST /auth/anonymous/sign-up")).toBe(1)
      })
    )
  })

  it("sessions: list from two devices, revoke the other, the current one is refused; a server creates one", async () => {
    const email = uniqueEmail("sessions")
    await run(
      Effect.gen(function* () {
        const laptop = yield* client()
        const phone = yield* client()
        const backend = yield* server()
        const { userId } = yield* Effect.provide(Password.signUpWithPassword({ email, password, noVerificationCallback: true }), laptop.context)
        yield* Effect.provide(Password.signInWithPassword({ email, password }), phone.context)
        const listed = yield* Effect.provide(Sessions.list(), laptop.context)
        expect(listed).toHaveLength(2)
        const current = listed.find((session) => session.isCurrentSession)!
        const other = listed.find((session) => !session.isCurrentSession)!
        expect(listed[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(listed[1]!.createdAt.getTime())
        const refused = yield* Effect.flip(Effect.provide(Sessions.revoke(current.id), laptop.context))
        expect(refused._tag).toBe("CannotDeleteCurrentSession")
        yield* Effect.provide(Sessions.revoke(other.id), laptop.context)
        const missing = yield* Effect.flip(Effect.provide(Sessions.revoke(other.id), laptop.context))
        expect(missing).toMatchObject({ _tag: "HttpError", status: 404, body: "Session not found." })

        const created = yield* Effect.provide(ServerSessions.create({ userId, expiresInMillis: 3_600_000 }), backend.context)
        expect(Redacted.value(created.refreshToken)).toMatch(/^[0-9a-z]{45}$/)
        const sessions = yield* Effect.provide(ServerSessions.list(userId), backend.context)
        expect(sessions.map((session) => session.id)).toContain(current.id)
        expect(sessions).toHaveLength(2)
      })
    )
  })

  it("CLI login: the CLI polls while the browser confirms; the CLI ends up signed in as the browser's user", async () => {
    const email = uniqueEmail("cli")
    await run(
      Effect.gen(function* () {
        const cli = yield* client()
        const browser = yield* client()
        const { userId } = yield* Effect.provide(Password.signUpWithPassword({ email, password, noVerificationCallback: true }), browser.context)
        const attempt = yield* Effect.provide(Cli.initiate(), cli.context)
        const url = Cli.confirmationUrl("http://localhost:3000", attempt.loginCode)
        const waiting = yield* Effect.forkChild(Effect.provide(Cli.waitForLogin(attempt.pollingCode, { interval: "20 millis" }), cli.context))
        // the CLI is polling (its first poll sent) before the browser confirms
        while (cli.count("POST /auth/cli/poll") < 1) yield* Effect.sleep("5 millis")
        const loginCode = new URL(url).searchParams.get("login_code")!
        yield* Effect.provide(Cli.complete(loginCode), browser.context)
        const { refreshToken } = yield* Fiber.join(waiting)
        expect(Redacted.value(refreshToken)).toMatch(/^[0-9a-z]{45}$/)
        expect(cli.count("POST /auth/cli/poll")).toBeGreaterThanOrEqual(2)
        expect(Option.getOrThrow(yield* Effect.provide(Users.getCurrent(), cli.context)).id).toBe(userId)
        const again = yield* Effect.flip(Effect.provide(Cli.waitForLogin(attempt.pollingCode), cli.context))
        expect(again._tag).toBe("CliAuthUsedError")
      })
    )
  })

  it("CLI login: an attempt that expires while polling is CliAuthExpiredError; a bounded wait times out", async () => {
    await run(
      Effect.gen(function* () {
        const cli = yield* client()
        const short = yield* Effect.provide(Cli.initiate({ expiresInMillis: 1 }), cli.context)
        yield* Effect.sleep("5 millis")
        const expired = yield* Effect.flip(Effect.provide(Cli.waitForLogin(short.pollingCode, { interval: "10 millis" }), cli.context))
        expect(expired._tag).toBe("CliAuthExpiredError")
        const attempt = yield* Effect.provide(Cli.initiate(), cli.context)
        const timedOut = yield* Effect.flip(
          Effect.provide(Cli.waitForLogin(attempt.pollingCode, { interval: "10 millis", maxAttempts: 3 }), cli.context)
        )
        expect(timedOut).toMatchObject({ _tag: "CliAuthError", message: "Timed out waiting for CLI authentication." })
      })
    )
  })
})
