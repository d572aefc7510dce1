/**
 * Shared pieces of the reliability suite: case counts (moderate in `npm test`, full under
 * `RELIABILITY_FULL=1`, i.e. `npm run test:reliability`), an unhandled-rejection watch, a retry
 * policy with the default's decisions but shrunk delays (for real sockets), and a raw TCP server on
 * 127.0.0.1 that misbehaves on purpose (resets, truncated bodies, stalls).
 */
import { Cause, Duration, Effect, Exit, Layer, Schedule } from "effect"
import * as net from "node:net"
import { afterAll, beforeAll } from "vitest"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import type { RetrySignal } from "../../src/core/RetryPolicy.js"

/** True under `npm run test:reliability` (`RELIABILITY_FULL=1`). */
export const full = process.env.RELIABILITY_FULL === "1"

/** A case count: `byDefault` in `npm test`, `inFull` under `RELIABILITY_FULL=1`. */
export const count = (byDefault: number, inFull: number): number => (full ? inFull : byDefault)

/** Per-test timeout: long property runs get more time under the full counts. */
export const timeout = (byDefault: number, inFull: number): number => (full ? inFull : byDefault)

/**
 * Records every unhandled promise rejection while the file's tests run (the listener is added in
 * `beforeAll`, removed in `afterAll`). Assert on the returned array in the file's last test.
 */
export const watchUnhandledRejections = (): ReadonlyArray<unknown> => {
  const seen: Array<unknown> = []
  const listener = (reason: unknown) => void seen.push(reason)
  beforeAll(() => void process.on("unhandledRejection", listener))
  afterAll(() => void process.off("unhandledRejection", listener))
  return seen
}

/**
 * The default retry decisions (which signals, how many attempts, the Retry-After and backoff
 * delays) with every delay multiplied by `scale`, so real-socket tests do not sleep seconds.
 */
export const scaledRetryPolicy = (scale = 0.005): Layer.Layer<RetryPolicy.RetryPolicy> =>
  Layer.succeed(RetryPolicy.RetryPolicy, {
    schedule: Schedule.recurs(RetryPolicy.maxAttempts - 1).pipe(
      Schedule.setInputType<RetrySignal>(),
      Schedule.modifyDelay(({ attempt, input }) =>
        Effect.map(RetryPolicy.delayFor(input, attempt - 1), (delay) => Duration.millis(Duration.toMillis(delay) * scale))
      )
    )
  })

/** How an Effect ended, classified for the "typed error or success, never a defect" property. */
export type Outcome =
  | { readonly _tag: "Success"; readonly value: unknown }
  | { readonly _tag: "Failure"; readonly error: unknown; readonly tag: string | undefined }
  | { readonly _tag: "Defect"; readonly cause: Cause.Cause<unknown> }

/** Classifies an exit: a single typed failure, a success, or anything else (defect, interruption). */
export const classify = <A, E>(exit: Exit.Exit<A, E>): Outcome => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const failures = exit.cause.reasons.filter(Cause.isFailReason).map((reason) => reason.error)
  if (failures.length === 1 && !Cause.hasDies(exit.cause) && !Cause.hasInterrupts(exit.cause)) {
    const error = failures[0]
    const tag = typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : undefined
    return { _tag: "Failure", error, tag }
  }
  return { _tag: "Defect", cause: exit.cause }
}

/** Pretty text of an outcome for assertion messages. */
export const showOutcome = (outcome: Outcome): string =>
  outcome._tag === "Success"
    ? "Success"
    : outcome._tag === "Failure"
    ? `Failure(${outcome.tag ?? String(outcome.error)})`
    : `Defect(${Cause.pretty(outcome.cause).slice(0, 400)})`

/** Every text an error shows: String, message and stack, JSON, the pretty cause. */
export const textsOf = (error: unknown): ReadonlyArray<string> => {
  let json = ""
  try {
    json = JSON.stringify(error) ?? ""
  } catch {
    json = ""
  }
  return [String(error), error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : "", json, Cause.pretty(Cause.fail(error))]
}

/** The secrets (by their first 12 characters) that appear in an error's texts. */
export const leakedSecrets = (error: unknown, secrets: ReadonlyArray<string>): ReadonlyArray<string> => {
  const texts = textsOf(error)
  return secrets.filter((secret) => texts.some((text) => text.includes(secret))).map((secret) => `${secret.slice(0, 12)}…`)
}

// ---------------------------------------------------------------------------------------------
// A misbehaving HTTP/1.1 server on a raw socket.

/** A request as the raw server read it. */
export interface RawRequest {
  readonly method: string
  readonly path: string
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What the server does with one request on its socket (the socket is the request's connection). */
export type Behaviour = (request: RawRequest, socket: net.Socket, index: number) => void

/** A running raw server. */
export interface RawServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Every complete request received, in order. */
  readonly requests: Array<RawRequest>
  /** Connections closed by the client while the server still held them (aborted requests). */
  readonly clientAborts: () => number
  /** Replaces the behaviour and forgets the recorded requests. */
  readonly reset: (behaviour: Behaviour) => void
  /** Destroys every open connection (ends whatever a client still waits for). */
  readonly destroyConnections: () => void
  readonly close: () => Promise<void>
}

const parseHead = (head: string): { method: string; path: string; headers: Record<string, string> } => {
  const [requestLine = "", ...lines] = head.split("\r\n")
  const [method = "", path = ""] = requestLine.split(" ")
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { method, path, headers }
}

/** Starts a raw server on 127.0.0.1 (random port). */
export const startRawServer = async (initial: Behaviour): Promise<RawServer> => {
  let behaviour = initial
  const requests: Array<RawRequest> = []
  const sockets = new Set<net.Socket>()
  let aborts = 0
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket)
    let buffer = Buffer.alloc(0)
    let counted = false
    // the client gave up on a request the server had not finished answering
    const clientAbort = () => {
      if (!counted && !socket.writableEnded) {
        counted = true
        aborts++
      }
    }
    socket.on("error", clientAbort)
    socket.on("end", () => {
      clientAbort()
      socket.end()
    })
    socket.on("close", () => void sockets.delete(socket))
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n")
        if (end < 0) return
        const head = parseHead(buffer.subarray(0, end).toString("latin1"))
        const length = Number(head.headers["content-length"] ?? "0")
        if (buffer.length < end + 4 + length) return
        const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8")
        buffer = buffer.subarray(end + 4 + length)
        const request: RawRequest = { ...head, body }
        requests.push(request)
        behaviour(request, socket, requests.length - 1)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    clientAborts: () => aborts,
    reset: (next) => {
      behaviour = next
      requests.length = 0
      aborts = 0
    },
    destroyConnections: () => {
      for (const socket of sockets) socket.destroy()
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** A complete HTTP/1.1 answer that closes the connection. */
export const rawResponse = (
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: { readonly contentLength?: number } = {}
): string => {
  const bytes = Buffer.byteLength(body)
  const lines = [`HTTP/1.1 ${status} Status`, "connection: close", `content-length: ${options.contentLength ?? bytes}`]
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  return `${lines.join("\r\n")}\r\n\r\n${body}`
}

/** Sends a TCP reset (RST) at once. */
export const reset = (socket: net.Socket): void => {
  socket.resetAndDestroy()
}
