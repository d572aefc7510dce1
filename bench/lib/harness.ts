/**
 * The bench's emulator server on 127.0.0.1: requests are counted where they arrive (server side,
 * by "METHOD /path" below `/api/v1`), so every client is counted the same way. Setup helpers use
 * raw `fetch` with the demo project's keys.
 */
import { Effect, Exit, Scope } from "effect"
import * as Emulator from "../../src/emulator/Emulator.js"
import type { EmulatorOptions } from "../../src/emulator/Emulator.js"
import { randomUuid } from "../../src/emulator/Random.js"
import { serve } from "../../src/emulator/server.js"
import { makeUser } from "../../src/emulator/State.js"
import type { RunningServer } from "../../src/emulator/server.js"

/** Requests received by the server, by "METHOD /path". */
export interface RequestCounter {
  readonly reset: () => void
  readonly count: (key: string) => number
  readonly total: () => number
  readonly snapshot: () => Readonly<Record<string, number>>
}

/** A running bench server. */
export interface BenchServer {
  readonly server: RunningServer
  readonly emulator: Emulator.Emulator
  readonly baseUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  readonly requests: RequestCounter
  readonly stop: () => Promise<void>
}

/** What the setup helpers and clients need of a server: an in-process {@link BenchServer} or the emulator child's facts. */
export type Target = Pick<BenchServer, "baseUrl" | "projectId" | "publishableClientKey" | "secretServerKey">

/** The emulator answering as `emulator`, counting requests by "METHOD /path" (below /api/v1). */
export const countingEmulator = (emulator: Emulator.Emulator) => {
  const counts = new Map<string, number>()
  const counting: Emulator.Emulator = {
    ...emulator,
    handle: (request) =>
      Effect.suspend(() => {
        const key = `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`
        counts.set(key, (counts.get(key) ?? 0) + 1)
        return emulator.handle(request)
      })
  }
  return { counting, counts }
}

/** Starts the emulator HTTP server on 127.0.0.1 (free port) with a request counter. */
export const startBenchServer = async (options: EmulatorOptions = {}): Promise<BenchServer> => {
  const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000, ...options }))
  const { counting, counts } = countingEmulator(emulator)
  const scope = await Effect.runPromise(Scope.make())
  const server = await Effect.runPromise(Scope.provide(serve({ emulator: counting, host: "127.0.0.1" }), scope))
  return {
    server,
    emulator,
    baseUrl: server.baseUrl,
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    secretServerKey: emulator.demo.secretServerKey,
    requests: {
      reset: () => counts.clear(),
      count: (key) => counts.get(key) ?? 0,
      total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
      snapshot: () => Object.fromEntries(counts)
    },
    stop: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** Headers of a server-access request with raw fetch. */
export const serverHeaders = (bench: Target, accessToken?: string): Record<string, string> => ({
  "content-type": "application/json",
  "x-stack-project-id": bench.projectId,
  "x-stack-access-type": "server",
  "x-stack-secret-server-key": bench.secretServerKey,
  ...(accessToken === undefined ? {} : { "x-stack-access-token": accessToken })
})

/** Headers of a client-access request with raw fetch. */
export const clientHeaders = (bench: Target, accessToken?: string): Record<string, string> => ({
  "content-type": "application/json",
  "x-stack-project-id": bench.projectId,
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": bench.publishableClientKey,
  ...(accessToken === undefined ? {} : { "x-stack-access-token": accessToken })
})

const post = async (bench: Target, path: string, body: unknown): Promise<any> => {
  const response = await fetch(`${bench.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: serverHeaders(bench),
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`Bench setup: POST ${path} answered ${response.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text)
}

let emailCounter = 0

/** Creates a user with server access; returns its id. */
export const createUser = async (bench: Target, label = "bench"): Promise<string> => {
  emailCounter += 1
  const user = await post(bench, "/users", { primary_email: `${label}-${emailCounter}-${Date.now()}@example.com`, primary_email_auth_enabled: true })
  return user.id as string
}

/** A session's tokens. */
export interface Tokens {
  readonly accessToken: string
  readonly refreshToken: string
}

/** Creates a session for a user with server access (`POST /auth/sessions`). */
export const createSession = async (bench: Target, userId: string): Promise<Tokens> => {
  const session = await post(bench, "/auth/sessions", { user_id: userId, expires_in_millis: 24 * 3600 * 1000 })
  return { accessToken: session.access_token, refreshToken: session.refresh_token }
}

/** `count` sessions of one user, created with bounded concurrency. */
export const createSessions = async (bench: Target, userId: string, count: number): Promise<Array<Tokens>> => {
  const out: Array<Tokens> = []
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => createSession(bench, userId)))
    out.push(...batch)
  }
  return out
}

/** Milliseconds of an async function. */
export const timed = async <A>(f: () => Promise<A>): Promise<{ readonly value: A; readonly ms: number }> => {
  const start = performance.now()
  const value = await f()
  return { value, ms: performance.now() - start }
}

/** Adds `n` users to an emulator's demo project directly in its state (no requests). */
export const seedUsers = (emulator: Emulator.Emulator, n: number): void => {
  const project = emulator.state.projects.get(emulator.demo.projectId)!
  const now = Date.now()
  for (let i = 0; i < n; i++) {
    const user = makeUser(randomUuid(), now - n + i)
    user.primaryEmail = `listed-${i}@example.com`
    user.displayName = `Listed ${i}`
    project.users.set(user.id, user)
  }
}
