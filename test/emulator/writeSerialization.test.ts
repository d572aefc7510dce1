/**
 * Writes to the emulator's state are serialised (issue 13 item 7): every handler runs holding
 * the state's one write permit (`Store.serialized`, taken by the router), so what a handler
 * checks is still true when it writes, even when it yields in between (hashing a password).
 * Concurrent conflicting requests over real HTTP are applied one after the other: counts of
 * answers, not times.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"
import { makeEmulator, send } from "./helpers.js"

let server: RunningServer
let stop: () => Promise<void>

beforeAll(async () => {
  const started = await startServer({ passwordHashIterations: 1000 })
  server = started.server
  stop = started.stop
})
afterAll(() => stop())

const clientHeaders = (extra: Readonly<Record<string, string>> = {}): Record<string, string> => ({
  "content-type": "application/json",
  "x-stack-project-id": server.emulator.demo.projectId,
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": server.emulator.demo.publishableClientKey,
  ...extra
})

const post = async (path: string, body: unknown, headers: Record<string, string> = clientHeaders()) => {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) })
  return { status: response.status, knownError: response.headers.get("x-stack-known-error"), json: (await response.json().catch(() => undefined)) as any }
}

const tally = (answers: ReadonlyArray<{ readonly status: number; readonly knownError: string | null }>) => {
  const counts: Record<string, number> = {}
  for (const answer of answers) {
    const key = `${answer.status} ${answer.knownError ?? ""}`.trim()
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

describe("concurrent conflicting writes over HTTP are applied one at a time", () => {
  it("20 concurrent sign-ups with one e-mail: exactly one 200, nineteen 409 USER_EMAIL_ALREADY_EXISTS, one user", async () => {
    const email = "race.sign-up@example.com"
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post("/auth/password/sign-up", { email, password: "correct horse battery" }))
    )
    expect(tally(answers)).toEqual({ "200": 1, "409 USER_EMAIL_ALREADY_EXISTS": 19 })
    const project = server.emulator.state.projects.get(server.emulator.demo.projectId)!
    expect([...project.users.values()].filter((user) => user.primaryEmail === email).length).toBe(1)
  })

  it("20 concurrent password updates from the same old password: exactly one 200, the others PASSWORD_CONFIRMATION_MISMATCH", async () => {
    const signedUp = await post("/auth/password/sign-up", { email: "race.update@example.com", password: "old password 1" })
    expect(signedUp.status).toBe(200)
    const headers = clientHeaders({ "x-stack-access-token": signedUp.json.access_token })
    const answers = await Promise.all(
      Array.from(
        { length: 20 },
        (_, index) => post("/auth/password/update", { old_password: "old password 1", new_password: `new password ${index}` }, headers)
      )
    )
    expect(tally(answers)).toEqual({ "200": 1, "400 PASSWORD_CONFIRMATION_MISMATCH": 19 })
  })

  it("20 concurrent OTP sign-ins with one code for a new e-mail: exactly one 200 (one user created), the others VERIFICATION_CODE_ALREADY_USED", async () => {
    const email = "race.otp@example.com"
    const sent = await post("/auth/otp/send-sign-in-code", { email, callback_url: "http://localhost:3000/handler/magic-link-callback" })
    expect(sent.status).toBe(200)
    const code = server.emulator.latestEmail({ email, kind: "magic_link" })!.code!
    const answers = await Promise.all(Array.from({ length: 20 }, () => post("/auth/otp/sign-in", { code })))
    expect(tally(answers)).toEqual({ "200": 1, "409 VERIFICATION_CODE_ALREADY_USED": 19 })
    const project = server.emulator.state.projects.get(server.emulator.demo.projectId)!
    expect([...project.users.values()].filter((user) => user.primaryEmail === email).length).toBe(1)
  })
})

describe("the write permit", () => {
  it.effect("a request is not handled while the state's write permit is held, and is once it is released", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* emulator.state.writeLock.take(1)
      const fiber = yield* Effect.forkChild(
        send(emulator, { path: "/api/v1/users/me", headers: { "x-stack-project-id": emulator.demo.projectId, "x-stack-access-type": "client" } })
      )
      for (let turn = 0; turn < 50; turn++) yield* Effect.yieldNow
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* emulator.state.writeLock.release(1)
      const answer = yield* Fiber.join(fiber)
      expect(answer.status).toBe(400)
    }))
})
