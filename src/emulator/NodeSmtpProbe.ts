/**
 * The Node {@link SmtpProbe} (Node only, used by `server.ts`): a TCP connection to the SMTP
 * server, which must greet with `220` within 10 seconds (the service's timeout).
 *
 * @module
 */
import * as net from "node:net"
import { Effect } from "effect"
import type { SmtpProbe } from "./SmtpProbe.js"

/** How long the probe waits for the connection and the greeting. */
export const smtpProbeTimeoutMillis = 10_000

/** Connects with `node:net`, reads the first line, and closes. */
export const nodeSmtpProbe: SmtpProbe = ({ host, port }) =>
  Effect.async<void, string>((resume) => {
    const socket = net.connect({ host, port })
    let received = ""
    const finish = (outcome: Effect.Effect<void, string>) => {
      socket.removeAllListeners()
      socket.on("error", () => undefined)
      socket.destroy()
      resume(outcome)
    }
    socket.setTimeout(smtpProbeTimeoutMillis, () => finish(Effect.fail(`Timed out connecting to ${host}:${port}`)))
    socket.on("error", (error) => finish(Effect.fail(error.message)))
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8")
      const line = received.split("\r\n")[0] ?? ""
      if (!received.includes("\n")) return
      finish(line.startsWith("220") ? Effect.void : Effect.fail(`Unexpected SMTP greeting from ${host}:${port}: ${line.trim()}`))
    })
    socket.on("end", () => finish(Effect.fail(`Connection closed by ${host}:${port} before the SMTP greeting`)))
    return Effect.sync(() => {
      socket.removeAllListeners()
      socket.on("error", () => undefined)
      socket.destroy()
    })
  })
