/**
 * End to end over real HTTP against the emulator server: e-mail templates (shared server refuses
 * changes; a custom server set through the project config allows them), a test e-mail that shows
 * up in the sent-e-mail log, metrics, a Svix token and the feature-support text.
 */
import { Effect, Redacted } from "effect"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningServer } from "../../src/emulator/server.js"
import { Admin, Emails, EmailTemplates, Stack } from "../../src/index.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import { countingFetch, startServer } from "./support.js"

let main: { server: RunningServer; stop: () => Promise<void> }
// the emulator server connects to the SMTP server of a test e-mail: a local one that greets with 220
let smtpServer: net.Server

beforeAll(async () => {
  main = await startServer()
  smtpServer = net.createServer((socket) => socket.end("220 local.smtp ESMTP ready\r\n"))
  await new Promise<void>((resolve) => smtpServer.listen(0, "127.0.0.1", resolve))
  smtp = { ...smtp, port: (smtpServer.address() as net.AddressInfo).port }
})
afterAll(async () => {
  await main?.stop()
  await new Promise<void>((resolve) => smtpServer.close(() => resolve()))
})

const adminLayer = () =>
  Stack.layerAdmin({
    projectId: main.server.emulator.demo.projectId,
    baseUrl: main.server.baseUrl,
    httpClient: countingFetch().layer,
    superSecretAdminKey: main.server.emulator.demo.superSecretAdminKey
  })

let smtp = {
  host: "127.0.0.1",
  port: 587,
  username: "mailer",
  password: Redacted.make("smtp-password"),
  senderName: "Example",
  senderEmail: "noreply@example.com"
}

describe("e-mails over HTTP", () => {
  it("templates: listed; changes need a custom server; with one, update renders and delete removes", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const templates = yield* EmailTemplates.list()
        const refused = yield* Effect.flip(EmailTemplates.create({ displayName: "Welcome" }))
        yield* AdminProjects.updateCurrent({
          config: { emailConfig: { type: "standard", ...smtp } }
        })
        const id = yield* EmailTemplates.create({ displayName: "Welcome" })
        const html = yield* EmailTemplates.update(id, {
          tsxSource:
            "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"Hi\" /><NotificationCategory value=\"Transactional\" /><p>Hi</p></> }"
        })
        yield* EmailTemplates.delete(id)
        const after = yield* EmailTemplates.list()
        return { templates, refused, id, html, after }
      }).pipe(Effect.provide(adminLayer()))
    )
    expect(result.templates.map((t) => t.displayName)).toContain("Email Verification")
    expect(result.refused._tag).toBe("RequiresCustomEmailServer")
    expect(result.html).toContain("<p>Hi</p>")
    expect(result.after.map((t) => t.id)).not.toContain(result.id)
  })

  it("a test e-mail is sent into the outbox and listed; a port above 65535 is a SCHEMA_ERROR", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const ok = yield* Emails.sendTestEmail({ recipientEmail: "e2e-test@example.com", emailConfig: smtp })
        const bad = yield* Effect.flip(Emails.sendTestEmail({ recipientEmail: "e2e-bad@example.com", emailConfig: { ...smtp, port: 70000 } }))
        const sent = yield* Emails.listSentEmails()
        return { ok, bad, sent }
      }).pipe(Effect.provide(adminLayer()))
    )
    expect(result.ok).toEqual({ success: true })
    expect(result.bad._tag).toBe("SchemaError")
    expect(result.sent[0]!.to).toEqual(["e2e-test@example.com"])
    expect(result.sent.some((email) => email.to?.includes("e2e-bad@example.com"))).toBe(false)
  })

  it("metrics, Svix token and the feature-support text", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const metrics = yield* Admin.getMetrics({ includeAnonymous: true })
        const token = yield* Admin.createSvixToken()
        const text = yield* Admin.checkFeatureSupport({ feature_name: "e2e-feature" })
        return { metrics, token, text }
      }).pipe(Effect.provide(adminLayer()))
    )
    expect(result.metrics.totalUsers).toBe(main.server.emulator.state.projects.get(main.server.emulator.demo.projectId)!.users.size)
    // the service's overviews, typed (internal/metrics/route.tsx at stack-auth/stack-auth 2f719903)
    const sent = main.server.emulator.outbox({ projectId: main.server.emulator.demo.projectId }).length
    expect(result.metrics.emailOverview?.totalEmails).toBe(sent)
    expect(result.metrics.paymentsOverview?.revenueCents).toBe(0)
    expect(result.metrics.analyticsOverview?.dailyPageViews).toHaveLength(31)
    expect(result.metrics.authOverview?.totalUsersFiltered).toBe(result.metrics.totalUsers)
    expect(result.token.token).toMatch(/^emulator_svix_/)
    expect(result.text).toBe("e2e-feature is not yet supported. Please reach out to Stack support for more information.")
  })
})
