import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { serve } from "../../src/emulator/server.js"
import { defaults } from "../../src/emulator/Defaults.js"
import { emulatorCli } from "../support/emulatorCli.js"

describe("Node HTTP server", () => {
  it.live("serves the emulator on 127.0.0.1 over real HTTP and stops with its scope", () =>
    Effect.gen(function* () {
      const baseUrl = yield* Effect.scoped(
        Effect.gen(function* () {
          const server = yield* serve({ port: 0 })
          expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
          const welcome = yield* Effect.promise(() => fetch(`${server.baseUrl}/api/v1`))
          expect(welcome.status).toBe(200)
          expect(welcome.headers.get("x-stack-request-id")).toMatch(/^[0-9a-z]{16}$/)

          const headers = {
            "x-stack-project-id": server.emulator.demo.projectId,
            "x-stack-access-type": "client",
            "x-stack-publishable-client-key": server.emulator.demo.publishableClientKey
          }
          const signUp = yield* Effect.promise(() =>
            fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify({ email: "http@example.com", password: "correct horse battery" })
            }).then((r) => r.json() as Promise<{ access_token: string; refresh_token: string }>)
          )
          const refresh = yield* Effect.promise(() =>
            fetch(`${server.baseUrl}/api/v1/auth/oauth/token`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
              body: new URLSearchParams({
                refresh_token: signUp.refresh_token,
                grant_type: "refresh_token",
                client_id: server.emulator.demo.projectId,
                client_secret: server.emulator.demo.publishableClientKey
              })
            })
          )
          expect(refresh.status).toBe(200)
          const malformed = yield* Effect.promise(() =>
            fetch(`${server.baseUrl}/api/v1/auth/password/sign-in`, {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: "{oops"
            })
          )
          expect(malformed.headers.get("x-stack-known-error")).toBe("BODY_PARSING_ERROR")
          return server.baseUrl
        })
      )
      const afterClose = yield* Effect.promise(() => fetch(`${baseUrl}/api/v1`).then(() => "answered", () => "refused"))
      expect(afterClose).toBe("refused")
    }))

  it.live("the CLI prints one JSON line with the base URL and seeded credentials, then serves until killed", () =>
    Effect.gen(function* () {
      // the CLI bundled (../support/emulatorCli.ts) runs the server in this very process, so its PID is the one to kill
      const child = spawn(process.execPath, [emulatorCli(), "--port", "0", "--access-token-lifetime", "120"], {
        cwd: process.cwd(),
        stdio: ["ignore", "pipe", "pipe"]
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.exitCode === null && child.kill("SIGKILL")))
      const line = yield* Effect.promise(
        () =>
          new Promise<string>((resolve, reject) => {
            const lines = createInterface({ input: child.stdout! })
            lines.once("line", resolve)
            child.once("exit", (code) => reject(new Error(`emulator exited early with ${code}`)))
          })
      ).pipe(Effect.timeout("20 seconds"))
      const printed = JSON.parse(line) as {
        baseUrl: string
        demo: Record<string, string>
        demoUser: unknown
        demoConfig: unknown
        internal: Record<string, string>
      }
      expect(Object.keys(printed)).toEqual(["baseUrl", "demo", "demoUser", "demoConfig", "internal"])
      expect(printed.demoUser).toEqual({ email: defaults.demoUser.email, password: defaults.demoUser.password })
      expect(printed.demoConfig).toEqual({ ...defaults.demoConfig, trustedDomains: [] })
      expect(printed.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(printed.demo).toEqual({
        projectId: defaults.demo.projectId,
        publishableClientKey: defaults.demo.publishableClientKey,
        secretServerKey: defaults.demo.secretServerKey,
        superSecretAdminKey: defaults.demo.superSecretAdminKey
      })
      expect(printed.internal.projectId).toBe("internal")
      const welcome = yield* Effect.promise(() => fetch(`${printed.baseUrl}/api/v1`).then((r) => r.text()))
      expect(welcome).toContain("Welcome to the Stack API endpoint!")

      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
      process.kill(child.pid!, "SIGTERM")
      yield* Effect.promise(() => exited).pipe(Effect.timeout("10 seconds"))
      const afterKill = yield* Effect.promise(() => fetch(`${printed.baseUrl}/api/v1`).then(() => "answered", () => "refused"))
      expect(afterKill).toBe("refused")
    }).pipe(Effect.scoped))
})
