import { HttpClient } from "@effect/platform"
import { Effect, Exit, Layer, Scope } from "effect"
import * as StackClient from "../../src/core/StackClient.js"
import { serve } from "../../src/emulator/server.js"
import type { EmulatorOptions } from "../../src/emulator/index.js"
import type { RunningServer } from "../../src/emulator/server.js"

/** Starts an emulator server on 127.0.0.1 (free port) for a test file; `stop` closes it. */
export const startServer = async (emulatorOptions: EmulatorOptions = {}) => {
  const scope = await Effect.runPromise(Scope.make())
  const server: RunningServer = await Effect.runPromise(Scope.extend(serve({ emulatorOptions }), scope))
  return { server, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
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
        })
      )
    )
  ).pipe(Layer.provide(StackClient.layerFetch))
  return { layer, count: (key: string) => counts.get(key) ?? 0 }
}
