/**
 * The in-process adapter: an `HttpClient` whose requests are answered by the emulator in the
 * caller's fiber (no port, no sockets), so a `TestClock` in the caller's context drives token
 * expiry too.
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import * as Emulator from "stack-auth-effect/emulator"
 *
 * const HttpLive = Layer.unwrap(Effect.map(Emulator.make(), Emulator.layerHttpClient))
 * ```
 *
 * @module
 */
import { Effect, Layer, Stream } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import type { Emulator } from "./Emulator.js"
import { CurrentEmulator, make as makeEmulator } from "./Emulator.js"
import type { EmulatorError, EmulatorOptions } from "./Emulator.js"

const bodyOf = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<BodyInit | undefined, HttpClientError.HttpClientError> => {
  const body = request.body
  switch (body._tag) {
    case "Raw":
      return Effect.succeed(body.body as BodyInit)
    case "Uint8Array":
      return Effect.succeed(body.body as BodyInit)
    case "FormData":
      return Effect.succeed(body.formData)
    case "Stream":
      return Stream.runCollect(body.stream).pipe(
        Effect.map((parts) => {
          const bytes = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
          let offset = 0
          for (const part of parts) {
            bytes.set(part, offset)
            offset += part.length
          }
          return bytes as BodyInit
        }),
        Effect.mapError((cause) => new HttpClientError.HttpClientError({ reason: new HttpClientError.EncodeError({ request, cause }) }))
      )
    default:
      return Effect.succeed(undefined)
  }
}

/** An `HttpClient` answered by the emulator, in the caller's fiber. */
export const makeHttpClient = (emulator: Emulator): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function* () {
      const body = yield* bodyOf(request)
      const method = request.method
      const webRequest = new Request(url.toString(), {
        method,
        headers: request.headers as Record<string, string>,
        ...(body !== undefined && method !== "GET" && method !== "HEAD" ? { body } : {})
      })
      const response = yield* emulator.handle(webRequest)
      return HttpClientResponse.fromWeb(request, response)
    })
  )

/** The `HttpClient` layer of an emulator. */
export const layerHttpClient = (emulator: Emulator): Layer.Layer<HttpClient.HttpClient> => Layer.succeed(HttpClient.HttpClient, makeHttpClient(emulator))

/** A fresh emulator as `CurrentEmulator`, and its `HttpClient`. */
export const layer = (options: EmulatorOptions = {}): Layer.Layer<CurrentEmulator | HttpClient.HttpClient, EmulatorError> =>
  Layer.unwrap(
    Effect.map(makeEmulator(options), (emulator) => Layer.merge(Layer.succeed(CurrentEmulator, emulator), layerHttpClient(emulator)))
  )
