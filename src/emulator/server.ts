/**
 * The Node HTTP adapter (Node only; import it as its own module, it is not re-exported by the
 * emulator's index): a `node:http` server bridging each request to `Emulator.handle` and back.
 * Listens on 127.0.0.1 unless told otherwise; closed with its scope.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { serve } from "./server.js" // src/emulator/server.ts (its own module path, Node only)
 *
 * const program = Effect.scoped(Effect.gen(function* () {
 *   const server = yield* serve({ port: 0 })
 *   const response = yield* Effect.promise(() => fetch(`${server.baseUrl}/api/v1`))
 * }))
 * ```
 *
 * @module
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Data, Effect, Runtime } from "effect"
import type { Scope } from "effect"
import type { Emulator, EmulatorError, EmulatorOptions } from "./Emulator.js"
import { make as makeEmulator } from "./Emulator.js"
import { internalErrorText } from "./Responses.js"

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number
  /** Interface to listen on (default `127.0.0.1`). */
  readonly host?: string
  /** The emulator to serve; default a fresh one built from `emulatorOptions`. */
  readonly emulator?: Emulator
  readonly emulatorOptions?: EmulatorOptions
}

/** A listening server. */
export interface RunningServer {
  /** `http://{host}:{port}` (no trailing slash). */
  readonly baseUrl: string
  readonly port: number
  readonly emulator: Emulator
  /** Stops listening and drops open connections (also done when the scope closes). */
  readonly close: Effect.Effect<void>
}

/** The server could not listen. */
export class ServeError extends Data.TaggedError("ServeError")<{ readonly message: string; readonly cause: unknown }> {}

const toRequest = (incoming: http.IncomingMessage, body: Buffer, fallbackHost: string): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  const method = (incoming.method ?? "GET").toUpperCase()
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? fallbackHost}`)
  return new Request(url, {
    method,
    headers,
    ...(method === "GET" || method === "HEAD" || body.length === 0 ? {} : { body: new Uint8Array(body) })
  })
}

const writeResponse = async (response: Response, outgoing: http.ServerResponse): Promise<void> => {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const body = Buffer.from(await response.arrayBuffer())
  outgoing.writeHead(response.status, headers)
  outgoing.end(body)
}

/** Serves an emulator over HTTP until the scope closes. */
export const serve = (options: ServeOptions = {}): Effect.Effect<RunningServer, ServeError | EmulatorError, Scope.Scope> =>
  Effect.gen(function* () {
    const emulator = options.emulator ?? (yield* makeEmulator(options.emulatorOptions))
    const host = options.host ?? "127.0.0.1"
    const runtime = yield* Effect.runtime<never>()
    const run = Runtime.runPromise(runtime)

    const server = http.createServer((incoming, outgoing) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("error", () => outgoing.destroy())
      incoming.on("end", () => {
        const fallbackHost = `${host}:${(server.address() as AddressInfo | null)?.port ?? 0}`
        Promise.resolve()
          .then(() => run(emulator.handle(toRequest(incoming, Buffer.concat(chunks), fallbackHost))))
          .then((response) => writeResponse(response, outgoing))
          .catch(() => {
            if (!outgoing.headersSent) {
              outgoing.writeHead(500, { "content-type": "text/plain; charset=utf-8" })
              outgoing.end(internalErrorText("unavailable"))
            } else {
              outgoing.destroy()
            }
          })
      })
    })

    yield* Effect.async<void, ServeError>((resume) => {
      const onError = (cause: Error) => resume(Effect.fail(new ServeError({ message: `Cannot listen on ${host}:${options.port ?? 0}: ${cause.message}`, cause })))
      server.once("error", onError)
      server.listen(options.port ?? 0, host, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })

    let closed = false
    const close: Effect.Effect<void> = Effect.async<void>((resume) => {
      if (closed) return resume(Effect.void)
      closed = true
      server.close(() => resume(Effect.void))
      server.closeAllConnections()
    })
    yield* Effect.addFinalizer(() => close)

    const port = (server.address() as AddressInfo).port
    const shownHost = host.includes(":") ? `[${host}]` : host
    return { baseUrl: `http://${shownHost}:${port}`, port, emulator, close }
  })
