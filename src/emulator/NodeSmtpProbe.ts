/**
 * The Node {@link SmtpProbe} (Node only, used by `server.ts`): a TCP connection to the SMTP
 * server, which must greet with `220` within 10 seconds (the service's timeout). The deadline
 * counts from the connection attempt, however slowly the server sends (not an idle timeout), and
 * at most {@link maxGreetingBytes} are read: a server that never ends its first line is given up.
 *
 * @module
 */
import * as net from "node:net"
import { Effect } from "effect"
import type { SmtpProbe } from "./SmtpProbe.js"

/** How long the probe waits for the connection and the greeting. */
export const smtpProbeTimeoutMillis = 10_000

/** The most the probe reads looking for the end of the greeting's first line (RFC 5321 allows 512 octets). */
export const maxGreetingBytes = 4096

/** Limits of a probe. */
export interface SmtpProbeOptions {
  /** How long the probe waits for the connection and the greeting. */
  readonly timeoutMillis: number
}

/** A probe that connects with `node:net`, reads the first line, and closes. */
export const makeNodeSmtpProbe = (options: SmtpProbeOptions): SmtpProbe => ({ host, port }) =>
  Effect.callback<void, string>((resume) => {
    const socket = net.connect({ host, port })
    let received = ""
    const finish = (outcome: Effect.Effect<void, string>) => {
      clearTimeout(deadline)
      socket.removeAllListeners()
      socket.on("error", () => undefined)
      socket.destroy()
      resume(outcome)
    }
    const deadline = setTimeout(() => finish(Effect.fail(`Timed out connecting to ${host}:${port}`)), options.timeoutMillis)
    socket.on("error", (error) => finish(Effect.fail(error.message)))
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8")
      const line = received.split("\r\n")[0] ?? ""
      if (!received.includes("\n")) {
        if (received.length > maxGreetingBytes) finish(Effect.fail(`No SMTP greeting from ${host}:${port}: the first line exceeds ${maxGreetingBytes} bytes`))
        return
      }
      finish(line.startsWith("220") ? Effect.void : Effect.fail(`Unexpected SMTP greeting from ${host}:${port}: ${line.trim().slice(0, 200)}`))
    })
    socket.on("end", () => finish(Effect.fail(`Connection closed by ${host}:${port} before the SMTP greeting`)))
    return Effect.sync(() => {
      clearTimeout(deadline)
      socket.removeAllListeners()
      socket.on("error", () => undefined)
      socket.destroy()
    })
  })

/** The probe `server.ts` uses: {@link smtpProbeTimeoutMillis}. */
export const nodeSmtpProbe: SmtpProbe = makeNodeSmtpProbe({ timeoutMillis: smtpProbeTimeoutMillis })
