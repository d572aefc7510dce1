/**
 * The Node HTTP adapter (Node only; import it as its own module, it is not re-exported by the
 * emulator's index): a `node:http` server bridging each request to `Emulator.handle` and back.
 * Listens on 127.0.0.1 unless told otherwise; closed with its scope. A request whose `Host` is
 * not one of the server's names is answered 403 before any route runs: after DNS rebinding, a
 * page of another site would otherwise reach the emulator under its own host name.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { serve } from "stack-auth-effect/emulator/server" // Node only
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
import { Data, Effect } from "effect"
import type { Scope } from "effect"
import type { Emulator, EmulatorError, EmulatorOptions } from "./Emulator.js"
import { make as makeEmulator } from "./Emulator.js"
import { foreignHostText, isAllowedHost, ownHostNames } from "./BrowserAccess.js"
import { nodeSmtpProbe } from "./NodeSmtpProbe.js"
import { internalErrorText } from "./Responses.js"

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number
  /** Interface to listen on (default `127.0.0.1`). */
  readonly host?: string
  /**
   * The server's public base URL (an `http(s)` origin, e.g. `http://localhost:8102`): every
   * request's URL is built on it, so it is the issuer of tokens and the base of OAuth URLs unless
   * the emulator has its own `baseUrl`. Default: the listen address, `http://{host}:{port}`. The
   * request's `Host` header never builds a URL (it only decides whether the request is answered:
   * `allowedHosts`).
   */
  readonly baseUrl?: string
  /**
   * More host names the server answers to (e.g. `emulator` for `http://emulator:8102` in a
   * container network), besides the host of `baseUrl` (or of the listen address), `localhost`,
   * names under `.localhost` and IP addresses; any port. A request with another `Host` is
   * answered 403 (a web page reaching the emulator through DNS rebinding). A name or an
   * `http(s)` URL whose host is taken.
   */
  readonly allowedHosts?: ReadonlyArray<string>
  /** The emulator to serve; default a fresh one built from `emulatorOptions`. */
  readonly emulator?: Emulator
  readonly emulatorOptions?: EmulatorOptions
}

/** A listening server. */
export interface RunningServer {
  /** The fixed base of request URLs: `ServeOptions.baseUrl`, else `http://{host}:{port}` (no trailing slash). */
  readonly baseUrl: string
  readonly port: number
  readonly emulator: Emulator
  /** Stops listening and drops open connections (also done when the scope closes). */
  readonly close: Effect.Effect<void>
}

/** The server could not listen. */
export class ServeError extends Data.TaggedError("ServeError")<{ readonly message: string; readonly cause: unknown }> {}

/**
 * The request's URL on the server's fixed base: only the path and query of the request line are
 * used (an absolute-form target keeps only its path and query), never the `Host` header.
 */
const requestUrl = (target: string | undefined, base: string): URL => {
  let path = target ?? "/"
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      const absolute = new URL(path)
      path = `${absolute.pathname}${absolute.search}`
    } catch {
      path = "/"
    }
  }
  if (!path.startsWith("/")) path = `/${path}`
  try {
    const url = new URL(`${base}${path}`)
    // `//host/…` or `/\host/…` parse as paths here (the base has a host); anything that moved the origin is refused
    return url.origin === new URL(base).origin ? url : new URL(`${base}/`)
  } catch {
    return new URL(`${base}/`)
  }
}

const toRequest = (incoming: http.IncomingMessage, body: Buffer, base: string): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue
    try {
      if (Array.isArray(value)) { for (const item of value) headers.append(name, item) }
      else headers.set(name, value)
    } catch {
      // a header value `Headers` refuses (Node accepts more): left out
    }
  }
  const method = (incoming.method ?? "GET").toUpperCase()
  return new Request(requestUrl(incoming.url, base), {
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

/** How far past the body limit a request is drained (so its client reads the 413) before the connection is dropped. */
const drainAllowanceBytes = 64 * 1024 * 1024

/** `http(s)://host[:port]` of a URL without path, query or fragment, or undefined. */
const parseOrigin = (text: string): string | undefined => {
  try {
    const url = new URL(text)
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") return undefined
    return url.origin
  } catch {
    return undefined
  }
}

/** The request with a `content-length` saying how long its (dropped) body was: the emulator answers 413. */
const withDeclaredLength = (request: Request, size: number): Request => {
  const headers = new Headers(request.headers)
  headers.set("content-length", String(size))
  return new Request(request.url, { method: request.method, headers })
}

/**
 * Serves an emulator over HTTP until the scope closes. Request URLs are built on a fixed base
 * (`baseUrl`, else the listen address), never on the `Host` header; a request whose `Host` is not
 * one of the server's names (`allowedHosts`) is answered 403 text before any route runs; request
 * bodies longer than the emulator's `maxRequestBodyBytes` are not kept and are answered 413.
 */
export const serve = (options: ServeOptions = {}): Effect.Effect<RunningServer, ServeError | EmulatorError, Scope.Scope> =>
  Effect.gen(function* () {
    const host = options.host ?? "127.0.0.1"
    let fixedBase: string | undefined
    if (options.baseUrl !== undefined) {
      const parsed = parseOrigin(options.baseUrl)
      if (parsed === undefined) {
        return yield* Effect.fail(
          new ServeError({ message: `baseUrl must be an http(s) origin such as http://localhost:8102, got "${options.baseUrl}".`, cause: undefined })
        )
      }
      fixedBase = parsed
    }
    const { invalid, names: ownNames } = ownHostNames([...(fixedBase === undefined ? [] : [fixedBase]), host, ...(options.allowedHosts ?? [])])
    if (invalid !== undefined) {
      return yield* Effect.fail(
        new ServeError({
          message: `A host name the server answers to must be a name such as emulator.test or an http(s) URL, got "${invalid}".`,
          cause: undefined
        })
      )
    }
    const emulator = options.emulator ?? (yield* makeEmulator({ smtpProbe: nodeSmtpProbe, ...options.emulatorOptions }))
    const limit = emulator.settings.maxRequestBodyBytes
    // requests run with the services of the caller (its logger, its clock)
    const run = Effect.runPromiseWith(yield* Effect.context<never>())
    // set once listening (the port may be picked by the system)
    let base = fixedBase ?? `http://${host}`

    const server = http.createServer((incoming, outgoing) => {
      // before any route runs (DNS rebinding: the module description of BrowserAccess.ts)
      const hostHeader = incoming.headers.host
      if (!isAllowedHost(hostHeader, ownNames)) {
        // the body is not read: drained while the answer goes out, then the connection is closed
        incoming.resume()
        outgoing.writeHead(403, { "content-type": "text/plain; charset=utf-8", connection: "close" })
        outgoing.end(foreignHostText(hostHeader ?? "", base))
        return
      }
      const chunks: Array<Buffer> = []
      let size = 0
      let tooLarge = false
      incoming.on("data", (chunk: Buffer) => {
        size += chunk.length
        // over the limit: stop keeping the bytes, drain the rest (so the client reads the 413),
        // and give up on the connection if it goes on far beyond the limit
        if (size > limit) {
          tooLarge = true
          chunks.length = 0
          if (size > limit + drainAllowanceBytes) outgoing.destroy()
          return
        }
        chunks.push(chunk)
      })
      incoming.on("error", () => outgoing.destroy())
      incoming.on("end", () => {
        Promise.resolve()
          .then(() => {
            if (tooLarge) {
              // answered by the emulator without reading: the body is empty, the declared length says why
              const request = toRequest(incoming, Buffer.alloc(0), base)
              return run(emulator.handle(withDeclaredLength(request, size)))
            }
            return run(emulator.handle(toRequest(incoming, Buffer.concat(chunks), base)))
          })
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

    yield* Effect.callback<void, ServeError>((resume) => {
      const onError = (cause: Error) =>
        resume(Effect.fail(new ServeError({ message: `Cannot listen on ${host}:${options.port ?? 0}: ${cause.message}`, cause })))
      server.once("error", onError)
      server.listen(options.port ?? 0, host, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })

    let closed = false
    const close: Effect.Effect<void> = Effect.callback<void>((resume) => {
      if (closed) return resume(Effect.void)
      closed = true
      server.close(() => resume(Effect.void))
      server.closeAllConnections()
    })
    yield* Effect.addFinalizer(() => close)

    const port = (server.address() as AddressInfo).port
    const shownHost = host.includes(":") ? `[${host}]` : host
    base = fixedBase ?? `http://${shownHost}:${port}`
    return { baseUrl: base, port, emulator, close }
  })
