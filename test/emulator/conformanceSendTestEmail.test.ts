/**
 * `POST /internal/send-test-email` answers as the service does (backend
 * `apps/backend/src/app/api/latest/internal/send-test-email/route.tsx` and the error
 * classification of `apps/backend/src/lib/emails-low-level.tsx`), over real HTTP against the Node
 * server (whose SMTP probe connects): a refused connection is `{ success: false }` with the
 * service's "Unknown error while sending test email…" text, a host that does not resolve the
 * "Failed to connect to the email host…" text; a port outside 0–65535 or a recipient that is not
 * an e-mail address is a SCHEMA_ERROR in the service's wording.
 */
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const smtp = (host: string, port: number) => ({
  host,
  port,
  username: "mailer",
  password: "smtp-password",
  sender_name: "Example",
  sender_email: "noreply@example.com"
})

describe("send-test-email answers over HTTP", () => {
  let server: RunningServer
  let stop: () => Promise<void>
  let closedPort: number

  beforeAll(async () => {
    const started = await startServer({ passwordHashIterations: 1000 })
    server = started.server
    stop = started.stop
    const probe = net.createServer()
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve))
    closedPort = (probe.address() as net.AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  })
  afterAll(async () => {
    await stop()
  })

  const sendTest = async (body: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/v1/internal/send-test-email`, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders(server.emulator.demo) },
      body: JSON.stringify(body)
    })
    const text = await response.text()
    return { status: response.status, knownError: response.headers.get("x-stack-known-error"), json: JSON.parse(text) as Record<string, unknown> }
  }

  it("a refused connection: 200 { success: false } with the service's unknown-error text", async () => {
    const answer = await sendTest({ recipient_email: "refused@example.com", email_config: smtp("127.0.0.1", closedPort) })
    expect(answer).toEqual({
      status: 200,
      knownError: null,
      json: { success: false, error_message: "Unknown error while sending test email. Make sure the email server is running and accepting connections." }
    })
  })

  it("a host name that does not resolve: the service's host-not-found text", async () => {
    const answer = await sendTest({ recipient_email: "nohost@example.com", email_config: smtp("smtp.does-not-exist.invalid", 587) })
    expect(answer.json).toEqual({
      success: false,
      error_message: "Failed to connect to the email host. Please make sure the email host configuration is correct."
    })
  })

  it("a port above 65535 or a recipient that is no e-mail address: SCHEMA_ERROR in the service's wording", async () => {
    const port = await sendTest({ recipient_email: "port@example.com", email_config: smtp("127.0.0.1", 70000) })
    expect([port.status, port.knownError]).toEqual([400, "SCHEMA_ERROR"])
    expect(String(port.json.error)).toContain("body.email_config.port must be less than or equal to 65535")
    const recipient = await sendTest({ recipient_email: "not-an-address", email_config: smtp("127.0.0.1", closedPort) })
    expect([recipient.status, recipient.knownError]).toEqual([400, "SCHEMA_ERROR"])
    expect(String(recipient.json.error)).toContain("body.recipient_email must be a valid email")
  })
})
