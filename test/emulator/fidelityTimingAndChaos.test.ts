/**
 * Emulator fidelity (issue 16 item 14, plus the HTTP side of item 1): access-token lifetime as a
 * project setting, and the development service's artificial 429s as an off-by-default switch.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Emulator from "../../src/emulator/Emulator.js"
import { startServer } from "../e2e/support.js"
import { emulatorCli } from "../support/emulatorCli.js"
import { clientHeaders, makeEmulator, send, signUp } from "./helpers.js"

const claimsOf = (token: string): { readonly iat: number; readonly exp: number } => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"))

/** Sends `count` client reads of the current project; the statuses and Retry-After headers seen. */
const burst = (emulator: Emulator.Emulator, count: number) =>
  Effect.gen(function* () {
    const answers: Array<{ status: number; retryAfter: string | null; knownError: string | null }> = []
    for (let i = 0; i < count; i++) {
      const answer = yield* send(emulator, { path: "/api/v1/projects/current", headers: clientHeaders(emulator.demo) })
      answers.push({ status: answer.status, retryAfter: answer.headers.get("retry-after"), knownError: answer.headers.get("x-stack-known-error") })
    }
    return answers
  })

describe("access-token lifetime per project", () => {
  it.effect("issues tokens living the project's accessTokenLifetimeSeconds, others the emulator's default (600 s)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ projects: [{ displayName: "Short tokens", accessTokenLifetimeSeconds: 60 }] })
      const short = [...emulator.state.projects.values()].find((project) => project.displayName === "Short tokens")!
      const shortTokens = yield* signUp(emulator, emulator.credentials(short.id)!, "short@example.com")
      const shortClaims = claimsOf(shortTokens.access_token)
      expect(shortClaims.exp - shortClaims.iat).toBe(60)
      const demoTokens = yield* signUp(emulator, emulator.demo, "default@example.com")
      const demoClaims = claimsOf(demoTokens.access_token)
      expect(demoClaims.exp - demoClaims.iat).toBe(600)
    }))

  it.effect("refuses a lifetime that is not a positive integer (EmulatorError)", () =>
    Effect.gen(function* () {
      for (const options of [{ accessTokenLifetimeSeconds: 0 }, { projects: [{ accessTokenLifetimeSeconds: 1.5 }] }]) {
        const error = yield* Effect.flip(Emulator.make(options))
        expect(error._tag).toBe("EmulatorError")
      }
    }))
})

describe("artificial rate limiting (chaosRateLimit)", () => {
  it.effect("answers no 429 by default", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answers = yield* burst(emulator, 50)
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(0)
    }))

  it.effect("answers a seeded, repeatable share of 429s without a known error, about half with Retry-After", () =>
    Effect.gen(function* () {
      const first = yield* burst(yield* makeEmulator({ chaosRateLimit: { rate: 0.5, seed: 42 } }), 100)
      const second = yield* burst(yield* makeEmulator({ chaosRateLimit: { rate: 0.5, seed: 42 } }), 100)
      expect(second.map((answer) => answer.status)).toEqual(first.map((answer) => answer.status))
      const limited = first.filter((answer) => answer.status === 429)
      const passed = first.filter((answer) => answer.status === 200)
      expect(limited.length + passed.length).toBe(100)
      expect(limited.length).toBeGreaterThan(25)
      expect(limited.length).toBeLessThan(75)
      expect(limited.every((answer) => answer.knownError === null)).toBe(true)
      const withRetryAfter = limited.filter((answer) => answer.retryAfter === "1").length
      expect(withRetryAfter).toBeGreaterThan(0)
      expect(withRetryAfter).toBeLessThan(limited.length)
      const other = yield* burst(yield* makeEmulator({ chaosRateLimit: { rate: 0.5, seed: 7 } }), 100)
      expect(other.map((answer) => answer.status)).not.toEqual(first.map((answer) => answer.status))
    }))

  it.effect("never refuses the emulator's own pages, the welcome page or the demo-user seeding", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ chaosRateLimit: { rate: 1, seed: 1 } })
      expect(emulator.demoSeed.user).toBeDefined()
      expect((yield* send(emulator, { path: "/api/v1" })).status).toBe(200)
      expect((yield* send(emulator, { path: "/api/v1/emulator/outbox" })).status).toBe(200)
      expect((yield* send(emulator, { path: "/api/v1/users/me", headers: clientHeaders(emulator.demo) })).status).toBe(429)
    }))

  it.effect("refuses a rate outside 0..1 (EmulatorError)", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Emulator.make({ chaosRateLimit: { rate: 2 } }))
      expect(error._tag).toBe("EmulatorError")
    }))
})

describe("over HTTP", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    server = await startServer({ passwordHashIterations: 1000, chaosRateLimit: { rate: 1, seed: 3 } })
  })
  afterAll(() => server.stop())

  it.live("serves /api/latest/* over HTTP and answers the chaos 429 there too", () =>
    Effect.gen(function* () {
      const base = server.server.baseUrl
      const welcome = yield* Effect.promise(() => fetch(`${base}/api/latest`).then(async (r) => ({ status: r.status, text: await r.text() })))
      expect(welcome.status).toBe(200)
      expect(welcome.text).toMatch(/^Welcome to the Stack API endpoint!/)
      const limited = yield* Effect.promise(() =>
        fetch(`${base}/api/latest/projects/current`, {
          headers: { "x-stack-project-id": server.server.emulator.demo.projectId, "x-stack-access-type": "client" }
        }).then((r) => ({ status: r.status, knownError: r.headers.get("x-stack-known-error") }))
      )
      expect(limited).toEqual({ status: 429, knownError: null })
    }))

  it.live("the CLI takes --chaos-rate-limit and --chaos-seed", () =>
    Effect.gen(function* () {
      const child = spawn(process.execPath, [emulatorCli(), "--port", "0", "--chaos-rate-limit", "1", "--chaos-seed", "5"], {
        cwd: process.cwd(),
        stdio: ["ignore", "pipe", "pipe"]
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.exitCode === null && child.kill("SIGTERM")))
      const line = yield* Effect.promise(
        () =>
          new Promise<string>((resolve, reject) => {
            createInterface({ input: child.stdout! }).once("line", resolve)
            child.once("exit", (code) => reject(new Error(`emulator exited early with ${code}`)))
          })
      ).pipe(Effect.timeout("20 seconds"))
      const printed = JSON.parse(line) as { baseUrl: string; demo: { projectId: string } }
      const status = yield* Effect.promise(() =>
        fetch(`${printed.baseUrl}/api/v1/projects/current`, {
          headers: { "x-stack-project-id": printed.demo.projectId, "x-stack-access-type": "client" }
        }).then((r) => r.status)
      )
      expect(status).toBe(429)
    }).pipe(Effect.scoped))
})
