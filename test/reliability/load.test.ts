/**
 * Load on the emulator (issue 7): many SDK sessions whose access token is missing refresh at the
 * same moment over real HTTP (the emulator's CLI in a child process on 127.0.0.1, its own event
 * loop as a real service has; stopped after) → exactly one refresh
 * per session even with two concurrent reads per session, every read succeeds.
 * 100 sessions in `npm test`, 1,000 under `npm run test:reliability`.
 */
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Sessions from "../../src/auth/Sessions.js"
import { spawn } from "node:child_process"
import * as http from "node:http"
import type { ChildProcess } from "node:child_process"
import { createInterface } from "node:readline"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch } from "../e2e/support.js"
import { tokens } from "../support/fixtures.js"
import { emulatorCli } from "../support/emulatorCli.js"
import { count, timeout, watchUnhandledRejections } from "./support.js"

const sessionCount = count(100, 1_000)
const unhandled = watchUnhandledRejections()

interface Running {
  readonly baseUrl: string
  readonly demo: { readonly projectId: string; readonly publishableClientKey: string; readonly secretServerKey: string }
}
let child: ChildProcess | undefined
let main: Running
beforeAll(async () => {
  const started = spawn(process.execPath, [emulatorCli(), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] })
  child = started
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: started.stdout! })
    lines.once("line", resolve)
    started.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)))
  })
  main = JSON.parse(firstLine) as Running
})
afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise<void>((resolve) => child!.once("exit", () => resolve()))
    child.kill("SIGTERM")
    await exited
  }
})

/**
 * A server-access POST on its own connection (closed after: no pooled keep-alive connection of the
 * setup phase lingers into the measured phase).
 */
const serverFetch = (path: string, body: unknown): Promise<any> =>
  new Promise((resolve, reject) => {
    const demo = main.demo
    const text = JSON.stringify(body)
    const request = http.request(
      `${main.baseUrl}/api/v1${path}`,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          "x-stack-project-id": demo.projectId,
          "x-stack-access-type": "server",
          "x-stack-secret-server-key": demo.secretServerKey
        }
      },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const answer = Buffer.concat(chunks).toString("utf8")
          if ((response.statusCode ?? 500) >= 300) reject(new Error(`${path}: ${response.statusCode} ${answer}`))
          else resolve(JSON.parse(answer))
        })
      }
    )
    request.on("error", reject)
    request.end(text)
  })

describe("load: sessions refreshing at once", () => {
  it(
    `${sessionCount} sessions refresh at once: exactly one refresh per session, no error`,
    async () => {
      // one user per session (a user's session list grows with its sessions)
      const refreshTokens: Array<string> = []
      const userIds: Array<string> = []
      for (let batch = 0; batch < sessionCount; batch += 50) {
        const minted = await Promise.all(
          Array.from({ length: Math.min(50, sessionCount - batch) }, async (_, i) => {
            const user = await serverFetch("/users", { primary_email: `load-${batch + i}@example.com`, primary_email_auth_enabled: true })
            const session = await serverFetch("/auth/sessions", { user_id: user.id })
            return { userId: user.id as string, refreshToken: session.refresh_token as string }
          })
        )
        refreshTokens.push(...minted.map((entry) => entry.refreshToken))
        userIds.push(...minted.map((entry) => entry.userId))
      }
      expect(new Set(refreshTokens).size).toBe(sessionCount)

      const demo = main.demo
      const clients = refreshTokens.map((refreshToken) => {
        const fetchCounter = countingFetch()
        const layer = Stack.layerClient({
          projectId: demo.projectId,
          publishableClientKey: demo.publishableClientKey,
          baseUrl: main.baseUrl,
          httpClient: fetchCounter.layer,
          // a session whose access token is gone: the first request must refresh
          tokenStore: TokenStore.layerMemory(tokens(undefined, refreshToken))
        })
        return { layer, count: fetchCounter.count }
      })
      const started = Date.now()
      const results = await Effect.runPromise(
        Effect.all(
          clients.map((client) =>
            Effect.all([Users.getCurrent(), Sessions.list()], { concurrency: "unbounded" }).pipe(Effect.result, Effect.provide(client.layer))
          ),
          { concurrency: "unbounded" }
        )
      )
      const elapsed = Date.now() - started
      const failures = results.filter((result) => result._tag === "Failure")
      const describeFailure = (error: unknown): string => {
        const cause = typeof error === "object" && error !== null && "cause" in error
          ? (error.cause as { cause?: { code?: unknown; message?: unknown } } | undefined)
          : undefined
        return `${String(error)} (${String(cause?.cause?.code ?? "")} ${String(cause?.cause?.message ?? "")})`
      }
      expect(failures.map((failure) => describeFailure(failure.failure)).slice(0, 3)).toEqual([])
      for (const [i, result] of results.entries()) {
        if (result._tag === "Failure") continue
        const [current, sessions] = result.success
        expect(Option.isSome(current) && current.value.id).toBe(userIds[i])
        expect(sessions.length).toBeGreaterThanOrEqual(1)
      }
      const refreshesPerSession = clients.map((client) => client.count("POST /auth/oauth/token"))
      expect(refreshesPerSession.filter((refreshes) => refreshes !== 1)).toEqual([])
      // reads are sent once, or retried (idempotent) after a connection the server closed under load
      const reads = clients.map((client) => [client.count("GET /users/me"), client.count("GET /auth/sessions")] as const)
      expect(reads.filter(([me, sessions]) => me < 1 || me > 5 || sessions < 1 || sessions > 5)).toEqual([])
      const retried = reads.filter(([me, sessions]) => me > 1 || sessions > 1).length
      console.info(
        `load: ${sessionCount} sessions refreshed at once in ${elapsed} ms (${refreshesPerSession.length} refreshes, ${retried} sessions retried a read)`
      )
    },
    timeout(120_000, 180_000)
  )

  it("no unhandled rejection", () => {
    expect(unhandled).toEqual([])
  })
})
