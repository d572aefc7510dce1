/**
 * One seeding story for `Emulator.make`, the CLI (`stack-auth-emulator`) and `npm start`: the demo
 * user and the demo switches by default, `demo.user` / `blankDemo` / the CLI's demo flags to change
 * them, `--trusted-domain` / `config.domains` to trust an app's domain, and the emulator's own hint
 * (logged, never in the wire answer) when it refuses a callback URL.
 */
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { demoProjectConfig, demoUser } from "../../examples/react-app/server.js"
import { describeDemoSeed, parseDemoFlags } from "../../src/emulator/DemoFlags.js"
import * as Emulator from "../../src/emulator/index.js"
import { clientHeaders, makeEmulator, runCli, send } from "./helpers.js"
import { emulatorCli } from "../support/emulatorCli.js"

const { defaults } = Emulator

const signIn = (emulator: Emulator.Emulator, email: string, password: string) =>
  send(emulator, { method: "POST", path: "/api/v1/auth/password/sign-in", headers: clientHeaders(emulator.demo), body: { email, password } })

/** Runs an effect with a logger that keeps the messages logged. */
const withLogs = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const logs: Array<string> = []
    const logger = Logger.make(({ message }) => logs.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, logs }
  })

describe("demo seeding", () => {
  it.effect("Emulator.make() seeds the demo user demo@example.com, who signs in with demo-password-1234", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* signIn(emulator, "demo@example.com", "demo-password-1234")
      expect(answer.status).toBe(200)
      const me = yield* send(emulator, {
        path: "/api/v1/users/me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": answer.json.access_token })
      })
      expect(me.json).toMatchObject({ primary_email: "demo@example.com", primary_email_verified: true, display_name: "Demo User" })
      expect(emulator.demoSeed.user).toEqual(defaults.demoUser)
      // no clear password kept
      const record = [...emulator.state.projects.get(emulator.demo.projectId)!.users.values()][0]!
      expect(record.passwordHash).not.toContain("demo-password-1234")
    }))

  it.effect("Emulator.make() turns the demo switches on: the demo user creates a team and deletes itself from the client", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      expect(emulator.demoSeed.config).toEqual(defaults.demoConfig)
      expect(Object.values(defaults.demoConfig).every((on) => on)).toBe(true)
      const tokens = (yield* signIn(emulator, "demo@example.com", "demo-password-1234")).json
      const asDemo = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      const team = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/teams",
        headers: asDemo,
        body: { display_name: "Demo's team", creator_user_id: "me" }
      })
      expect(team.status).toBe(201)
      const deleted = yield* send(emulator, { method: "DELETE", path: "/api/v1/users/me", headers: asDemo })
      expect(deleted.status).toBe(200)
      expect(emulator.state.projects.get(emulator.demo.projectId)!.users.size).toBe(0)
    }))

  it.effect("demo: { user: false } seeds no user; blankDemo is the demo project as the service creates a project", () =>
    Effect.gen(function* () {
      const noUser = yield* makeEmulator({ demo: { user: false } })
      expect(noUser.state.projects.get(noUser.demo.projectId)!.users.size).toBe(0)
      expect(noUser.demoSeed.user).toBeUndefined()
      expect((yield* signIn(noUser, "demo@example.com", "demo-password-1234")).json.code).toBe("EMAIL_PASSWORD_MISMATCH")

      const blank = yield* makeEmulator({ demo: Emulator.blankDemo })
      const config = blank.state.projects.get(blank.demo.projectId)!.config
      for (const key of Object.keys(defaults.demoConfig) as Array<keyof typeof defaults.demoConfig>) {
        expect(config[key], key).toBe(Emulator.defaultProjectConfig[key])
        expect(blank.demoSeed.config[key], key).toBe(Emulator.defaultProjectConfig[key])
      }
      expect(blank.state.projects.get(blank.demo.projectId)!.users.size).toBe(0)
    }))

  it.effect("a custom demo user is seeded; a demo user the service would refuse fails make with EmulatorError", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: { email: "ada@example.com", password: "correct horse battery" } } })
      expect((yield* signIn(emulator, "ada@example.com", "correct horse battery")).status).toBe(200)
      expect((yield* signIn(emulator, "demo@example.com", "demo-password-1234")).status).toBe(400)
      const error = yield* Effect.flip(Emulator.make({ demo: { user: { email: "ada@example.com", password: "short" } } }))
      expect(error._tag).toBe("EmulatorError")
      expect(error.message).toContain("The demo user ada@example.com could not be created: 400")
      expect(error.message).toContain("PASSWORD_TOO_SHORT")
    }))

  it("npm start seeds the same demo (its user and switches are the emulator's defaults)", () => {
    expect(demoUser).toEqual(defaults.demoUser)
    expect(demoProjectConfig).toEqual(defaults.demoConfig)
  })
})

describe("trusted domains", () => {
  const signUpWithCallback = (emulator: Emulator.Emulator) =>
    send(emulator, {
      method: "POST",
      path: "/api/v1/auth/password/sign-up",
      headers: clientHeaders(emulator.demo),
      body: { email: "ada@example.com", password: "correct horse battery", verification_callback_url: "https://app.example.com/handler/email-verification" }
    })

  it.effect("REDIRECT_URL_NOT_WHITELISTED keeps the service's text; the emulator logs how to trust the domain (no dashboard)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { value: answer, logs } = yield* withLogs(signUpWithCallback(emulator))
      expect(answer.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED")
      expect(answer.json.error).toBe(
        "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?"
      )
      expect(logs).toHaveLength(1)
      expect(logs[0]).toContain("POST /api/v1/auth/password/sign-up answered REDIRECT_URL_NOT_WHITELISTED")
      expect(logs[0]).toContain(`project ${emulator.demo.projectId} (trusted: http(s)://localhost)`)
      expect(logs[0]).toContain("--trusted-domain https://your.app")
      expect(logs[0]).toContain("Emulator.make({ demo: { config: { domains: [{ domain: \"https://your.app\", handlerPath: \"/handler\" }] } } })")
      // a trusted or absent callback logs nothing
      const ok = yield* withLogs(
        send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: clientHeaders(emulator.demo),
          body: { email: "bob@example.com", password: "correct horse battery" }
        })
      )
      expect(ok.value.status).toBe(200)
      expect(ok.logs).toEqual([])
    }))

  it.effect("demo: { config: { domains } } trusts the app's domain: the verification e-mail links to it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] } } })
      expect(emulator.demoSeed.trustedDomains).toEqual(["https://app.example.com"])
      expect((yield* signUpWithCallback(emulator)).status).toBe(200)
      expect(emulator.latestEmail({ email: "ada@example.com" })?.link).toMatch(/^https:\/\/app\.example\.com\/handler\/email-verification\?code=/)
    }))
})

describe("the CLI's demo flags", () => {
  it("parse into the options Emulator.make takes; other arguments are left for the CLI", () => {
    expect(parseDemoFlags([])).toEqual({ demo: {}, rest: [] })
    expect(
      parseDemoFlags([
        "--port",
        "0",
        "--demo-user",
        "ada@example.com:pass:with:colons",
        "--no-client-team-creation",
        "--client-user-deletion",
        "--no-user-api-keys",
        "--team-api-keys",
        "--trusted-domain",
        "https://app.example.com/",
        "--trusted-domain=https://*.preview.example.com"
      ])
    ).toEqual({
      demo: {
        user: { email: "ada@example.com", password: "pass:with:colons" },
        config: {
          clientTeamCreationEnabled: false,
          clientUserDeletionEnabled: true,
          allowUserApiKeys: false,
          allowTeamApiKeys: true,
          domains: [
            { domain: "https://app.example.com", handlerPath: "/handler" },
            { domain: "https://*.preview.example.com", handlerPath: "/handler" }
          ]
        }
      },
      rest: ["--port", "0"]
    })
    expect(parseDemoFlags(["--no-demo-user"])).toEqual({ demo: { user: false }, rest: [] })
    expect(parseDemoFlags(["--blank", "--magic-link"])).toEqual({
      demo: { user: false, config: { ...Emulator.blankDemo.config, magicLinkEnabled: true } },
      rest: []
    })
  })

  it("refuse a --demo-user without 'email:password' and a --trusted-domain that is not an http(s) base URL", () => {
    for (const argv of [["--demo-user"], ["--demo-user", "ada@example.com"], ["--demo-user", ":pw"], ["--demo-user", "ada@example.com:"]]) {
      expect(parseDemoFlags(argv), argv.join(" ")).toMatchObject({ error: expect.stringContaining("--demo-user needs") })
    }
    for (
      const argv of [["--trusted-domain"], ["--trusted-domain", "app.example.com"], ["--trusted-domain", "ftp://app.example.com"], [
        "--trusted-domain",
        "https://app.example.com?x=1"
      ]]
    ) {
      expect(parseDemoFlags(argv), argv.join(" ")).toMatchObject({ error: expect.stringContaining("--trusted-domain needs") })
    }
  })

  it("the start summary names the demo user, the switches and the way to trust a domain", () => {
    const lines = describeDemoSeed({
      user: defaults.demoUser,
      config: { ...defaults.demoConfig, passkeyEnabled: false },
      trustedDomains: ["https://app.example.com"]
    })
    expect(lines[0]).toContain("demo@example.com / demo-password-1234")
    expect(lines[1]).toContain("off: passkeys")
    expect(lines[2]).toContain("localhost, https://app.example.com")
    expect(lines[2]).toContain("--trusted-domain")
  })
})

/** The CLI (src/emulator/cli.ts bundled, as `npx stack-auth-emulator` runs it once built: ../support/emulatorCli.ts) on a free port. */
const startCli = (flags: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ readonly child: ChildProcess; readonly printed: any; readonly stderr: () => string }>((resolve, reject) => {
          const child = spawn(process.execPath, [emulatorCli(), "--port", "0", ...flags], {
            cwd: process.cwd(),
            stdio: ["ignore", "pipe", "pipe"]
          })
          let stderr = ""
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
          createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, printed: JSON.parse(line), stderr: () => stderr }))
          child.once("exit", (code) => reject(new Error(`the emulator exited early with ${code}: ${stderr}`)))
        })
    ),
    ({ child }) => Effect.sync(() => child.exitCode === null && child.kill("SIGTERM"))
  )

describe("the CLI over HTTP", () => {
  it.live(
    "--no-demo-user --no-client-team-creation --trusted-domain: printed in the JSON line and the summary, and applied",
    () =>
      Effect.gen(function* () {
        const cli = yield* startCli(["--no-demo-user", "--no-client-team-creation", "--trusted-domain", "https://app.example.com"])
        expect(cli.printed.demoUser).toBeNull()
        expect(cli.printed.demoConfig).toEqual({ ...defaults.demoConfig, clientTeamCreationEnabled: false, trustedDomains: ["https://app.example.com"] })
        const signUp = (email: string, callback: string) =>
          Effect.promise(() =>
            fetch(`${cli.printed.baseUrl}/api/v1/auth/password/sign-up`, {
              method: "POST",
              headers: { "content-type": "application/json", ...clientHeaders(cli.printed.demo) },
              body: JSON.stringify({ email, password: "correct horse battery", verification_callback_url: callback })
            }).then(async (response) => ({ status: response.status, knownError: response.headers.get("x-stack-known-error"), body: await response.text() }))
          )
        // the trusted domain is accepted, another one refused with the service's answer
        expect((yield* signUp("ada@example.com", "https://app.example.com/handler/email-verification")).status).toBe(200)
        const refused = yield* signUp("bob@example.com", "https://elsewhere.example.com/handler/email-verification")
        expect(refused.knownError).toBe("REDIRECT_URL_NOT_WHITELISTED")
        const signIn = yield* Effect.promise(() =>
          fetch(`${cli.printed.baseUrl}/api/v1/auth/password/sign-in`, {
            method: "POST",
            headers: { "content-type": "application/json", ...clientHeaders(cli.printed.demo) },
            body: JSON.stringify({ email: "demo@example.com", password: "demo-password-1234" })
          }).then((response) => response.headers.get("x-stack-known-error"))
        )
        expect(signIn).toBe("EMAIL_PASSWORD_MISMATCH")
        // the summary and the hint for the refused URL are on stderr (stdout holds only the JSON line)
        yield* Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              const poll = () => (cli.stderr().includes("REDIRECT_URL_NOT_WHITELISTED") ? resolve() : setTimeout(poll, 20))
              poll()
            })
        ).pipe(Effect.timeout("10 seconds"))
        expect(cli.stderr()).toContain("Demo user  none")
        expect(cli.stderr()).toContain("off: client-team-creation")
        expect(cli.stderr()).toContain("Trusted    localhost, https://app.example.com")
        expect(cli.stderr()).toContain("--trusted-domain https://your.app")
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "--help lists the demo flags; a bad demo flag exits 2 with the usage",
    () =>
      Effect.gen(function* () {
        const [help, bad] = yield* Effect.all([runCli(["--help"]), runCli(["--demo-user", "nobody"])], { concurrency: 2 })
        expect(help.code).toBe(0)
        for (
          const flag of [
            "--demo-user",
            "--no-demo-user",
            "--blank",
            "--[no-]client-team-creation",
            "--[no-]client-user-deletion",
            "--[no-]user-api-keys",
            "--[no-]team-api-keys",
            "--trusted-domain"
          ]
        ) {
          expect(help.stdout).toContain(flag)
        }
        expect(bad.code).toBe(2)
        expect(bad.stderr).toContain("--demo-user needs \"email:password\"")
      }),
    60_000
  )
})
