/** An `HttpClient` over the in-process emulator that records every request it sends. */
import { Effect, Layer } from "effect"
import { HttpClient } from "effect/http"
import type { HttpClientRequest } from "effect/http"
import * as Emulator from "../../src/emulator/index.js"

/**
 * The layer, the requests sent ("METHOD /path", path below /api/v1, no query), and a count: of
 * one "METHOD /path" when given, of all requests otherwise.
 */
export const countingClient = (emulator: Emulator.Emulator) => {
  const requests: Array<string> = []
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request: HttpClientRequest.HttpClientRequest) =>
        Effect.sync(() => {
          requests.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`)
        })))
  ).pipe(Layer.provide(Emulator.layerHttpClient(emulator)))
  const count = (key?: string) => (key === undefined ? requests.length : requests.filter((request) => request === key).length)
  return { layer, requests, count }
}
