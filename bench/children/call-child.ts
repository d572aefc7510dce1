/**
 * One contender's calls of the per-call measurement, in a process of its own (bundled by
 * `bench/lib/overhead.ts` into one ESM file, packages external, so it starts without tsx and can
 * run under callgrind). argv: side (`raw` | `floor` | `ours` | `official`), config file, measured
 * calls, warm-up calls. Each call asks for "the user behind these tokens", server side, with the
 * next session's tokens, sending the headers this SDK sends; the answer is checked. `floor` is the
 * smallest Effect program doing the same job: `@effect/platform`'s `FetchHttpClient`, one `GET`,
 * the body decoded with the same `ServerUser` schema. Prints one JSON line: CPU time (user + system) and wall
 * time of the measured calls.
 */
import { readFileSync } from "node:fs"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, ManagedRuntime, Schema } from "effect"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { ServerUser } from "../../src/users/User.js"

interface Config {
  readonly baseUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  readonly userId: string
  readonly tokens: ReadonlyArray<{ readonly accessToken: string; readonly refreshToken: string }>
  /** The official SDK's module URL (it lives in `bench/node_modules`). */
  readonly officialModule: string | null
}

const [side, configPath, measuredText, warmupText] = process.argv.slice(2)
const config = JSON.parse(readFileSync(configPath!, "utf8")) as Config
const measured = Number(measuredText)
const warmup = Number(warmupText)

/** The headers this SDK sends with server access and a session's tokens (raw and floor send the same). */
const headersOf = (tokens: Config["tokens"][number], i: number): Record<string, string> => ({
  "x-stack-project-id": config.projectId,
  "x-stack-access-type": "server",
  "x-stack-client-version": "bench",
  "x-stack-allow-anonymous-user": "true",
  "x-stack-random-nonce": `nonce${i}`,
  "x-stack-override-error-status": "true",
  "x-stack-publishable-client-key": config.publishableClientKey,
  "x-stack-access-token": tokens.accessToken,
  "x-stack-refresh-token": tokens.refreshToken,
  "x-stack-secret-server-key": config.secretServerKey
})

const makeCall = async (): Promise<(i: number) => Promise<void>> => {
  if (side === "raw") {
    return async (i) => {
      const tokens = config.tokens[i % config.tokens.length]!
      const response = await fetch(`${config.baseUrl}/api/v1/users/me`, { headers: headersOf(tokens, i) })
      const body = (await response.json()) as { id?: string }
      if (body.id !== config.userId) throw new Error("raw fetch: unexpected answer")
    }
  }
  if (side === "floor") {
    const runtime = ManagedRuntime.make(FetchHttpClient.layer)
    const decode = Schema.decodeUnknown(ServerUser)
    const url = `${config.baseUrl}/api/v1/users/me`
    const get = (i: number) =>
      Effect.flatMap(HttpClient.HttpClient, (client) =>
        client.execute(HttpClientRequest.setHeaders(HttpClientRequest.get(url), headersOf(config.tokens[i % config.tokens.length]!, i)))
      ).pipe(
        Effect.flatMap((response) => response.json),
        Effect.flatMap(decode)
      )
    return async (i) => {
      const user = await runtime.runPromise(get(i))
      if (user.id !== config.userId) throw new Error("floor: unexpected answer")
    }
  }
  if (side === "ours") {
    const runtime = ManagedRuntime.make(
      Stack.layerServer({
        projectId: config.projectId,
        publishableClientKey: config.publishableClientKey,
        secretServerKey: config.secretServerKey,
        baseUrl: config.baseUrl
      })
    )
    return async (i) => {
      const tokens = config.tokens[i % config.tokens.length]!
      const user = await runtime.runPromise(
        ServerUsers.fromRequest({ headers: { "x-stack-auth": JSON.stringify(tokens) } }, { projectId: config.projectId })
      )
      if (user._tag !== "Some" || user.value.id !== config.userId) throw new Error("ours: unexpected answer")
    }
  }
  if (config.officialModule === null) throw new Error("the official SDK is not installed (npm --prefix bench install)")
  const { StackServerApp } = (await import(config.officialModule)) as {
    StackServerApp: new (options: Record<string, unknown>) => { getUser(options: { tokenStore: unknown }): Promise<{ id: string } | null> }
  }
  const app = new StackServerApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    secretServerKey: config.secretServerKey,
    baseUrl: config.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })
  return async (i) => {
    const tokens = config.tokens[i % config.tokens.length]!
    const user = await app.getUser({ tokenStore: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } })
    if (user?.id !== config.userId) throw new Error("official: unexpected answer")
  }
}

/**
 * Under callgrind (`BENCH_CALLGRIND_SYNC=1`, started with `--instr-atstart=no`): prints `ready`
 * and waits for a line on stdin while the parent turns instrumentation on, then after the measured
 * calls prints `done` and waits again while the parent dumps the counts. A timer keeps the process
 * dispatching code so callgrind sees the parent's commands.
 */
const synced = process.env["BENCH_CALLGRIND_SYNC"] === "1"
const lines: Array<() => void> = []
if (synced) {
  let buffered = ""
  process.stdin.on("data", (chunk: Buffer) => {
    buffered += chunk.toString()
    while (buffered.includes("\n")) {
      buffered = buffered.slice(buffered.indexOf("\n") + 1)
      lines.shift()?.()
    }
  })
}
const handshake = (word: string) =>
  synced
    ? new Promise<void>((resolve) => {
        const timer = setInterval(() => {}, 20)
        lines.push(() => {
          clearInterval(timer)
          resolve()
        })
        process.stdout.write(`${word}\n`)
      })
    : Promise.resolve()

const call = await makeCall()
for (let i = 0; i < warmup; i++) await call(i)
await handshake("ready")
const cpuBefore = process.cpuUsage()
const start = performance.now()
for (let i = warmup; i < warmup + measured; i++) await call(i)
const wallMs = performance.now() - start
const cpu = process.cpuUsage(cpuBefore)
await handshake("done")
process.stdout.write(`${JSON.stringify({ side, measured, warmup, cpuMicros: cpu.user + cpu.system, wallMs })}\n`)
process.exit(0)
