/**
 * Issue 16 item 7 (the service's behaviour, PROTOCOL.md §3.7): rendering a template refuses a
 * source without the required `NotificationCategory` import with 400 `EMAIL_RENDERING_ERROR`
 * (details `error`), and `POST /internal/send-test-email` to an SMTP server that cannot be reached
 * answers 200 `{ success: false, error_message }` — over real HTTP against the Node server, which
 * connects to the server it is given (a closed port, and a server that greets with `220`).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as net from "node:net"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"
import { makeEmulator, send } from "./helpers.js"

const verificationTemplateId = "e7d009ce-8d47-4528-b245-5bf119f2ffa3"

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const smtp = (port: number) => ({
  host: "127.0.0.1",
  port,
  username: "mailer",
  password: "secret",
  sender_name: "Emulator Tests",
  sender_email: "noreply@example.com"
})

describe("item 7: template rendering", () => {
  it.effect("a source without NotificationCategory imported from @stackframe/emails is refused with 400 EMAIL_RENDERING_ERROR; with it, 200 rendered_html", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const configured = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/internal/projects/current",
        headers,
        body: { config: { email_config: { type: "standard", ...smtp(2525) } } }
      })
      expect(configured.status).toBe(200)
      const path = `/api/v1/internal/email-templates/${verificationTemplateId}`
      const without = 'import { Subject } from "@stackframe/emails"\nexport function EmailTemplate() { return <Subject value="Hi" /> }'
      const refused = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: without } })
      expect(refused.status).toBe(400)
      expect(refused.headers.get("x-stack-known-error")).toBe("EMAIL_RENDERING_ERROR")
      expect(refused.json.details).toEqual({ error: expect.any(String) })
      const withImport = 'import { Subject, NotificationCategory } from "@stackframe/emails"\nexport function EmailTemplate() { return <><Subject value="Hi" /><NotificationCategory value="Transactional" /></> }'
      const rendered = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: withImport } })
      expect(rendered.status).toBe(200)
      expect(rendered.json.rendered_html).toContain("<title>Hi</title>")
    }))
})

describe("item 7: send-test-email over HTTP", () => {
  let server: RunningServer
  let stop: () => Promise<void>
  let greeter: net.Server
  let greeterPort: number
  let closedPort: number

  beforeAll(async () => {
    const started = await startServer({ passwordHashIterations: 1000 })
    server = started.server
    stop = started.stop
    // an SMTP server's first words: the 220 greeting
    greeter = net.createServer((socket) => socket.end("220 fake.smtp ESMTP ready\r\n"))
    await new Promise<void>((resolve) => greeter.listen(0, "127.0.0.1", resolve))
    greeterPort = (greeter.address() as net.AddressInfo).port
    // a port nothing listens on: opened, noted, closed
    const probe = net.createServer()
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve))
    closedPort = (probe.address() as net.AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => greeter.close(() => resolve()))
    await stop()
  })

  const sendTest = async (port: number, recipient: string) => {
    const response = await fetch(`${server.baseUrl}/api/v1/internal/send-test-email`, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders(server.emulator.demo) },
      body: JSON.stringify({ recipient_email: recipient, email_config: smtp(port) })
    })
    return { status: response.status, json: (await response.json()) as { success: boolean; error_message?: string } }
  }

  it("an unreachable SMTP server: 200 { success: false, error_message }, nothing in the outbox", async () => {
    const answer = await sendTest(closedPort, "unreachable@example.com")
    expect(answer.status).toBe(200)
    expect(answer.json.success).toBe(false)
    expect(answer.json.error_message).toContain("ECONNREFUSED")
    expect(server.emulator.outbox({ email: "unreachable@example.com" })).toEqual([])
  })

  it("a server that greets with 220: 200 { success: true } and the test e-mail in the outbox", async () => {
    const answer = await sendTest(greeterPort, "reachable@example.com")
    expect(answer).toEqual({ status: 200, json: { success: true } })
    expect(server.emulator.outbox({ email: "reachable@example.com" }).map((entry) => entry.kind)).toEqual(["test_email"])
  })
})
