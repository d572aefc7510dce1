/**
 * The emulator mounted in a server of the app's own (issue 25 item 6's class, DNS rebinding):
 * `Emulator.handleWithHostCheck` refuses a foreign `Host` before any route runs, over real HTTP,
 * as the emulator's own Node server does; loopback names, IP addresses, the host of `baseUrl` and
 * `allowedHosts` are answered. `emulator.handle` itself (the in-process and msw adapters) does not
 * look at `Host`.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"

let emulator: Emulator.Emulator

/** A user's own Node server bridging each request to `handle` (as a framework's adapter does: the URL from the `Host` header). */
const userServer = async (handle: (request: Request) => Effect.Effect<Response>) => {
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Array<Buffer> = []
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
    incoming.on("end", () => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
      const method = incoming.method ?? "GET"
      let url: URL
      try {
        url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`)
      } catch {
        // a Host no URL can carry: the header still says it
        url = new URL(incoming.url ?? "/", "http://localhost")
      }
      const request = new Request(url, {
        method,
        headers,
        ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) })
      })
      void Effect.runPromise(handle(request)).then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers))
        outgoing.end(Buffer.from(await response.arrayBuffer()))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  /** A GET of `path` over HTTP with the given `Host` header (a DNS-rebound page sends its own name). */
  const get = (path: string, host: string) =>
    new Promise<{ readonly status: number; readonly body: string }>((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, path, headers: { host } }, (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }))
      })
      request.on("error", reject)
      request.end()
    })
  return { port, get, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

beforeAll(async () => {
  emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000, baseUrl: "http://stack.example.test:8102" }))
})

describe("Emulator.handleWithHostCheck: the emulator mounted in the app's own server", () => {
  it("refuses a foreign Host with 403 before any route runs; answers loopback names, IPs, baseUrl's host and allowedHosts", async () => {
    const server = await userServer(Emulator.handleWithHostCheck(emulator, { allowedHosts: ["emulator", "http://dev.example.test:3000", "not a host"] }))
    try {
      for (const host of [`rebound.attacker.example:${server.port}`, "attacker.example", "emulatorx", "not a host", "localhost.attacker.example"]) {
        const refused = await server.get("/api/v1", host)
        expect({ host, status: refused.status }).toEqual({ host, status: 403 })
        expect(refused.body).toBe(Emulator.foreignHostHandlerText(host))
      }
      for (
        const host of [
          `127.0.0.1:${server.port}`,
          `localhost:${server.port}`,
          "app.localhost",
          "[::1]:8102",
          "stack.example.test",
          "emulator:8102",
          "dev.example.test"
        ]
      ) {
        const answered = await server.get("/api/v1", host)
        expect({ host, status: answered.status }).toEqual({ host, status: 200 })
      }
    } finally {
      await server.close()
    }
  })

  it("a Request without a host header is judged by its URL's host", async () => {
    const handle = Emulator.handleWithHostCheck(emulator)
    expect((await Effect.runPromise(handle(new Request("http://attacker.example/api/v1")))).status).toBe(403)
    expect((await Effect.runPromise(handle(new Request("http://localhost:8102/api/v1")))).status).toBe(200)
  })

  it("emulator.handle itself (used by the in-process client and the msw handlers) does not look at Host", async () => {
    const server = await userServer(emulator.handle)
    try {
      expect((await server.get("/api/v1", "api.stack-auth.com")).status).toBe(200)
    } finally {
      await server.close()
    }
    expect((await Effect.runPromise(emulator.handle(new Request("https://api.stack-auth.com/api/v1")))).status).toBe(200)
  })
})
