import { Effect, Exit, Layer, Scope } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { afterAll, beforeAll } from "vitest"
import * as StackClient from "../../src/core/StackClient.js"
import { serve } from "../../src/emulator/server.js"
import type { EmulatorOptions } from "../../src/emulator/index.js"
import type { RunningServer } from "../../src/emulator/server.js"

/** Starts an emulator server on 127.0.0.1 (free port) for a test file; `stop` closes it. */
export const startServer = async (emulatorOptions: EmulatorOptions = {}) => {
  const scope = await Effect.runPromise(Scope.make())
  const server: RunningServer = await Effect.runPromise(Scope.provide(serve({ emulatorOptions }), scope))
  return { server, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The emulator server of a test file (see {@link useServer}). */
export interface TestServer {
  /** The running server; read it inside tests and hooks (it starts in `beforeAll`). */
  readonly server: RunningServer
  /** The demo project's client credentials and the server's base URL, for `Stack.layerClient`. */
  readonly credentials: () => { readonly projectId: string; readonly publishableClientKey: string; readonly baseUrl: string }
}

/**
 * Starts an emulator server for the calling test file in `beforeAll` and stops it in `afterAll`
 * (the set-up every end-to-end file shares).
 */
export const useServer = (emulatorOptions: EmulatorOptions = {}): TestServer => {
  let running: Awaited<ReturnType<typeof startServer>> | undefined
  beforeAll(async () => {
    running = await startServer(emulatorOptions)
  })
  afterAll(async () => {
    await running?.stop()
  })
  const server = (): RunningServer => {
    if (running === undefined) throw new Error("the emulator server starts in beforeAll: read it inside a test or hook")
    return running.server
  }
  return {
    get server() {
      return server()
    },
    credentials: () => ({
      projectId: server().emulator.demo.projectId,
      publishableClientKey: server().emulator.demo.publishableClientKey,
      baseUrl: server().baseUrl
    })
  }
}

/** Real `fetch` (the SDK's default client) that counts requests by "METHOD /path". */
export const countingFetch = () => {
  const counts = new Map<string, number>()
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request) =>
        Effect.sync(() => {
          const key = `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`
          counts.set(key, (counts.get(key) ?? 0) + 1)
        })))
  ).pipe(Layer.provide(StackClient.layerFetch))
  return { layer, count: (key: string) => counts.get(key) ?? 0 }
}

/**
 * The demo project, a counting fetch and the options of `Stack.layerClient` / `Stack.layerServer`
 * (add `secretServerKey: demo.secretServerKey` for the server) over it: what a test that counts
 * its requests starts with.
 */
export const countedConnection = (main: TestServer) => {
  const demo = main.server.emulator.demo
  const fetch = countingFetch()
  const options = { ...main.credentials(), httpClient: fetch.layer }
  return { demo, fetch, options }
}
