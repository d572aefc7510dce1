/**
 * CLI login through the SDK against the in-process emulator: the attempt, the confirmation URL,
 * polling on the schedule (TestClock) through waiting → success / expired / used / timeout, the
 * confirmation page's complete, and the anonymous-session hand-over.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Schedule } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import { TestClock } from "effect/testing"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Cli from "../../src/auth/Cli.js"
import * as CliWire from "../../src/auth/internal/cli.js"
import * as Password from "../../src/auth/Password.js"
import * as Schedules from "../../src/core/Schedules.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import type { ClientServices } from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { pendingSleeps, runAdvancingClock, testRetryPolicy } from "../support/fixtures.js"
import type { Device } from "./flowsSupport.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

const start = 1_800_000_000_000

const setup = Effect.gen(function* () {
  yield* TestClock.setTime(start)
  const emulator = yield* makeEmulator()
  const cli = yield* clientDevice(emulator)
  const browser = yield* clientDevice(emulator)
  return { emulator, cli, browser }
})

const on = <A, E>(device: Device<ClientServices>, effect: Effect.Effect<A, E, ClientServices>) => Effect.provide(effect, device.context)

const signedInBrowser = (browser: Device<ClientServices>) =>
  on(browser, Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }))

describe("Cli", () => {
  it.effect("initiate creates an attempt that expires in 2 hours by default", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const attempt = yield* on(cli, Cli.initiate())
      expect(Redacted.value(attempt.pollingCode)).toMatch(/^[0-9a-z]{45}$/)
      expect(attempt.loginCode).toMatch(/^[0-9a-z]{45}$/)
      expect(attempt.expiresAt.getTime()).toBe(start + 7_200_000)
      expect(String(attempt.pollingCode)).not.toContain(Redacted.value(attempt.pollingCode))
      const short = yield* on(cli, Cli.initiate({ expiresInMillis: 600_000 }))
      expect(short.expiresAt.getTime()).toBe(start + 600_000)
      expect(cli.count("POST /auth/cli")).toBe(2)
    }))

  it.effect("an expiry over 24 hours fails with InvalidArgument before sending", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const error = yield* Effect.flip(on(cli, Cli.initiate({ expiresInMillis: Cli.maxExpiresInMillis + 1 })))
      expect(error._tag).toBe("InvalidArgument")
      expect(cli.requests).toEqual([])
    }))

  it("the confirmation URL is {appUrl}/handler/cli-auth-confirm?login_code=<url-encoded>", () => {
    expect(Cli.confirmationUrl("https://app.example.com", "abc")).toBe("https://app.example.com/handler/cli-auth-confirm?login_code=abc")
    expect(Cli.confirmationUrl("https://app.example.com/", "a b&c")).toBe(
      "https://app.example.com/handler/cli-auth-confirm?login_code=a%20b%26c"
    )
  })

  it.effect("by default polls every 2000 ms without a limit, until the attempt expires", () =>
    Effect.gen(function* () {
      expect(Duration.toMillis(Schedules.cliPollInterval)).toBe(2000)
      const { cli } = yield* setup
      const attempt = yield* on(cli, Cli.initiate({ expiresInMillis: 10_000 }))
      const fiber = yield* Effect.forkChild(on(cli, Cli.waitForLogin(attempt.pollingCode)))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(delays).toEqual([2000, 2000, 2000, 2000, 2000])
      expect(cli.count("POST /auth/cli/poll")).toBe(6)
      expect((yield* Effect.flip(exit))._tag).toBe("CliAuthExpiredError")
    }))

  it.effect("waiting → the browser completes → success: the CLI stores the refresh token and gets an access token", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      const { userId } = yield* signedInBrowser(browser)
      const attempt = yield* on(cli, Cli.initiate())
      const fiber = yield* Effect.forkChild(on(cli, Cli.waitForLogin(attempt.pollingCode)))
      expect(yield* pendingSleeps(fiber)).toEqual([2000])
      expect(cli.count("POST /auth/cli/poll")).toBe(1)
      yield* on(browser, Cli.complete(attempt.loginCode))
      yield* TestClock.adjust("2 seconds")
      const result = yield* Fiber.join(fiber)
      expect(cli.count("POST /auth/cli/poll")).toBe(2)
      const browserTokens = yield* on(browser, Effect.flatMap(Session, (session) => session.current))
      expect(Redacted.value(result.refreshToken)).toBe(Redacted.value(Option.getOrThrow(browserTokens.refreshToken)))
      const cliTokens = yield* on(cli, Effect.flatMap(Session, (session) => session.current))
      expect(Option.isSome(cliTokens.accessToken)).toBe(true)
      expect(Redacted.value(Option.getOrThrow(cliTokens.refreshToken))).toBe(Redacted.value(result.refreshToken))
      expect(Option.getOrThrow(yield* on(cli, Users.getCurrent())).id).toBe(userId)
    }))

  it.effect("a completed attempt is handed out once: polling again is CliAuthUsedError", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      yield* signedInBrowser(browser)
      const attempt = yield* on(cli, Cli.initiate())
      yield* on(browser, Cli.complete(attempt.loginCode))
      yield* on(cli, Cli.waitForLogin(attempt.pollingCode))
      const error = yield* Effect.flip(on(cli, Cli.waitForLogin(attempt.pollingCode)))
      expect(error._tag).toBe("CliAuthUsedError")
      expect(error.message).toBe("This authentication token has already been used.")
    }))

  it.effect("an attempt past its expiry is CliAuthExpiredError", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const attempt = yield* on(cli, Cli.initiate({ expiresInMillis: 60_000 }))
      yield* TestClock.adjust("61 seconds")
      const error = yield* Effect.flip(on(cli, Cli.waitForLogin(attempt.pollingCode)))
      expect(error._tag).toBe("CliAuthExpiredError")
      expect(error.message).toBe("CLI authentication request expired. Please try again.")
    }))

  it.effect("running out of attempts is CliAuthError 'Timed out waiting for CLI authentication.'", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const attempt = yield* on(cli, Cli.initiate())
      const fiber = yield* Effect.forkChild(on(cli, Cli.waitForLogin(attempt.pollingCode, { maxAttempts: 3 })))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(delays).toEqual([2000, 2000])
      expect(cli.count("POST /auth/cli/poll")).toBe(3)
      expect(Exit.isFailure(exit)).toBe(true)
      const error = yield* Effect.flip(exit)
      expect(error._tag).toBe("CliAuthError")
      expect(error.message).toBe("Timed out waiting for CLI authentication.")
    }))

  it.effect("the interval and the whole schedule can be replaced", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const attempt = yield* on(cli, Cli.initiate())
      const custom = yield* Effect.forkChild(on(cli, Cli.waitForLogin(attempt.pollingCode, { interval: "5 seconds", maxAttempts: 2 })))
      expect((yield* runAdvancingClock(custom)).delays).toEqual([5000])
      const own = yield* Effect.forkChild(
        on(cli, Cli.waitForLogin(attempt.pollingCode, { schedule: Schedule.max([Schedule.spaced("1 second"), Schedule.recurs(3)]) }))
      )
      expect((yield* runAdvancingClock(own)).delays).toEqual([1000, 1000, 1000])
    }))

  it.effect("an unknown polling code is InvalidPollingCode", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const error = yield* Effect.flip(on(cli, Cli.waitForLogin(Redacted.make("4x0t3d35qd58zcjgzjp2xary1acfdgnq82v1x2b167p0r"))))
      expect(error._tag).toBe("InvalidPollingCode")
    }))

  it.effect("an unknown poll status is CliAuthError", () =>
    Effect.gen(function* () {
      const http = Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          Effect.succeed(
            HttpClientResponse.fromWeb(
              request,
              new Response(JSON.stringify({ status: "paused" }), { status: 200, headers: { "content-type": "application/json" } })
            )
          )
        )
      )
      const layer = Stack.layerClient({ projectId: "3f6a1a52-8d1e-4c7e-9b8f-2d5c1e0a7b91", httpClient: http, retryPolicy: testRetryPolicy })
      const error = yield* Effect.flip(Cli.waitForLogin(Redacted.make("p".repeat(45)))).pipe(Effect.provide(layer))
      expect(error._tag).toBe("CliAuthError")
      expect(error.message).toBe("CLI authentication failed.")
    }))

  it("the invalid-login-code text is the service's answer recorded in wire sample auth/37", () => {
    const sample = JSON.parse(
      readFileSync(new URL("../fixtures/wire-samples/auth/37-cli-complete-invalid-login-code.json", import.meta.url), "utf8")
    ) as { readonly response: { readonly status: number; readonly body: string } }
    expect(sample.response.status).toBe(400)
    expect(sample.response.body).toBe(CliWire.invalidLoginCodeText)
  })

  it.effect("complete with an unknown or expired login code fails with the typed CliInvalidLoginCode (the service's 400 text)", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      yield* signedInBrowser(browser)
      const unknown = yield* Effect.flip(on(browser, Cli.complete("5fczh7gp5f3gyr41y2ccq2rhernwa3dn7vm0x07es74hg")))
      expect(unknown).toBeInstanceOf(Cli.CliInvalidLoginCode)
      expect(unknown).toMatchObject({ _tag: "CliInvalidLoginCode", message: "Invalid login code or the code has expired" })
      const attempt = yield* on(cli, Cli.initiate({ expiresInMillis: 1000 }))
      yield* TestClock.adjust("2 seconds")
      const expired = yield* Effect.flip(on(browser, Cli.complete(attempt.loginCode)))
      expect(expired._tag).toBe("CliInvalidLoginCode")
    }))

  it.effect("complete without a signed-in user fails with UserNotSignedIn before sending", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      const attempt = yield* on(cli, Cli.initiate())
      const error = yield* Effect.flip(on(browser, Cli.complete(attempt.loginCode)))
      expect(error._tag).toBe("UserNotSignedIn")
      expect(browser.requests).toEqual([])
    }))

  it.effect("login: initiate, hand the URL to open, wait", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      const { userId } = yield* signedInBrowser(browser)
      const opened: Array<string> = []
      const fiber = yield* Effect.forkChild(
        on(
          cli,
          Cli.login({ appUrl: "http://localhost:3000", open: (url) => Effect.sync(() => void opened.push(url)) })
        )
      )
      yield* pendingSleeps(fiber)
      expect(opened).toHaveLength(1)
      const loginCode = new URL(opened[0]!).searchParams.get("login_code")!
      expect(opened[0]).toBe(`http://localhost:3000/handler/cli-auth-confirm?login_code=${loginCode}`)
      yield* on(browser, Cli.complete(loginCode))
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(fiber)
      expect(Option.getOrThrow(yield* on(cli, Users.getCurrent())).id).toBe(userId)
    }))

  it.effect("an anonymous CLI session: the page sees it, claims it, upgrades it, and completes with it", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      const { userId: anonymousId } = yield* on(cli, Anonymous.signUp())
      const cliTokens = yield* on(cli, Effect.flatMap(Session, (session) => session.current))
      const attempt = yield* on(cli, Cli.initiate({ anonRefreshToken: Option.getOrThrow(cliTokens.refreshToken) }))
      expect(yield* on(browser, Cli.checkSessionState(attempt.loginCode))).toBe("anonymous")
      yield* on(browser, Cli.claimAnonymousSession(attempt.loginCode))
      const { userId } = yield* on(browser, Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }))
      expect(userId).toBe(anonymousId)
      yield* on(browser, Cli.complete(attempt.loginCode))
      yield* on(cli, Cli.waitForLogin(attempt.pollingCode))
      const user = Option.getOrThrow(yield* on(cli, Users.getCurrent()))
      expect(user.id).toBe(anonymousId)
      expect(user.isAnonymous).toBe(false)
    }))

  it.effect("without an anonymous CLI session the page sees none, and there is nothing to claim", () =>
    Effect.gen(function* () {
      const { cli, browser } = yield* setup
      const attempt = yield* on(cli, Cli.initiate())
      expect(yield* on(browser, Cli.checkSessionState(attempt.loginCode))).toBe("none")
      const error = yield* Effect.flip(on(browser, Cli.claimAnonymousSession(attempt.loginCode)))
      expect(error).toMatchObject({ _tag: "HttpError", status: 400 })
    }))

  it.effect("a refresh token that is not an anonymous session is refused at initiate (400 text)", () =>
    Effect.gen(function* () {
      const { cli } = yield* setup
      const error = yield* Effect.flip(on(cli, Cli.initiate({ anonRefreshToken: Redacted.make("x".repeat(45)) })))
      expect(error).toMatchObject({ _tag: "HttpError", status: 400 })
    }))
})
