/**
 * Attacker's review of the emulator's SMTP probe (`POST /internal/send-test-email` on the Node
 * server): whatever the host and port it is pointed at answer, the probe ends with a typed
 * failure within its deadline and reads a bounded number of bytes.
 */
import * as net from "node:net"
import { Effect, Result } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { makeNodeSmtpProbe } from "../../src/emulator/NodeSmtpProbe.js"

interface Hostile {
  readonly port: number
  /** Connections the server accepted. */
  readonly connections: () => number
}

const servers: Array<net.Server> = []
const sockets: Array<net.Socket> = []

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

/** A TCP server on 127.0.0.1 that runs `talk` on each connection. */
const hostile = (talk: (socket: net.Socket) => void): Promise<Hostile> =>
  new Promise((resolve) => {
    let connections = 0
    const server = net.createServer((socket) => {
      connections += 1
      sockets.push(socket)
      socket.on("error", () => undefined)
      talk(socket)
    })
    servers.push(server)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as net.AddressInfo
      resolve({ port: address.port, connections: () => connections })
    })
  })

describe("the emulator's SMTP probe against hostile servers", () => {
  it("a server that streams a greeting line without end is cut off after a bounded number of bytes (typed failure, short message)", async () => {
    const chunk = Buffer.alloc(64 * 1024, "2".charCodeAt(0))
    const server = await hostile((socket) => {
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk)) continue
      }
      socket.on("drain", pump)
      pump()
    })
    // a deadline far beyond the test's: only the byte limit can end this probe
    const probe = makeNodeSmtpProbe({ timeoutMillis: 120_000 })
    const outcome = await Effect.runPromise(Effect.result(probe({ host: "127.0.0.1", port: server.port })))
    expect(Result.isFailure(outcome)).toBe(true)
    const message = Result.isFailure(outcome) ? outcome.failure : ""
    expect(message).toContain("greeting")
    // the error message does not echo what the server sent
    expect(message.length).toBeLessThan(300)
    expect(server.connections()).toBe(1)
  }, 10_000)

  it("a server that drips its greeting a byte at a time, never ending the line, is given up at the deadline (an idle timeout would wait forever)", async () => {
    const server = await hostile((socket) => {
      const timer = setInterval(() => {
        if (socket.destroyed) clearInterval(timer)
        else socket.write("2")
      }, 40)
      socket.on("close", () => clearInterval(timer))
    })
    const probe = makeNodeSmtpProbe({ timeoutMillis: 400 })
    const outcome = await Effect.runPromise(Effect.result(probe({ host: "127.0.0.1", port: server.port })))
    expect(Result.isFailure(outcome) ? outcome.failure : "succeeded").toBe(`Timed out connecting to 127.0.0.1:${server.port}`)
    expect(server.connections()).toBe(1)
  }, 10_000)

  it("a server that accepts and says nothing is given up at the deadline", async () => {
    const server = await hostile(() => undefined)
    const probe = makeNodeSmtpProbe({ timeoutMillis: 300 })
    const outcome = await Effect.runPromise(Effect.result(probe({ host: "127.0.0.1", port: server.port })))
    expect(Result.isFailure(outcome) ? outcome.failure : "succeeded").toBe(`Timed out connecting to 127.0.0.1:${server.port}`)
  }, 10_000)

  it("a real greeting (multi-chunk, 220) passes; another service's banner is a typed failure", async () => {
    const smtp = await hostile((socket) => {
      socket.write("220 mail.exa")
      setTimeout(() => socket.write("mple.com ESMTP\r\n"), 20)
    })
    const probe = makeNodeSmtpProbe({ timeoutMillis: 5_000 })
    expect(Result.isSuccess(await Effect.runPromise(Effect.result(probe({ host: "127.0.0.1", port: smtp.port }))))).toBe(true)
    const ssh = await hostile((socket) => socket.write("SSH-2.0-OpenSSH_9.6\r\n"))
    const refused = await Effect.runPromise(Effect.result(probe({ host: "127.0.0.1", port: ssh.port })))
    expect(Result.isFailure(refused) ? refused.failure : "succeeded").toBe(`Unexpected SMTP greeting from 127.0.0.1:${ssh.port}: SSH-2.0-OpenSSH_9.6`)
  }, 10_000)
})
