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
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const verificationTemplateId = "e7d009ce-8d47-4528-b245-5bf119f2ffa3"

/** The HTML without React's `<!-- -->` between adjacent text nodes (react-email's `render` writes them). */
const texts = (html: string) => html.replace(/<!-- -->/g, "")

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

/** An emulator whose demo project has its own e-mail server (templates need one), and admin headers. */
const customServer = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const headers = adminHeaders(emulator.demo)
  const configured = yield* send(emulator, {
    method: "PATCH",
    path: "/api/v1/internal/projects/current",
    headers,
    body: { config: { email_config: { type: "standard", ...smtp(2525) } } }
  })
  expect(configured.status).toBe(200)
  return { emulator, headers }
})

describe("item 7: template rendering", () => {
  it.effect("a source without NotificationCategory imported from @stackframe/emails is refused with 400 EMAIL_RENDERING_ERROR; with it, 200 rendered_html", () =>
    Effect.gen(function* () {
      const { emulator, headers } = yield* customServer
      const path = `/api/v1/internal/email-templates/${verificationTemplateId}`
      const without = "import { Subject } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <Subject value=\"Hi\" /> }"
      const refused = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: without } })
      expect(refused.status).toBe(400)
      expect(refused.headers.get("x-stack-known-error")).toBe("EMAIL_RENDERING_ERROR")
      expect(refused.json.details).toEqual({ error: expect.any(String) })
      expect(refused.json.details.error).toBe("NotificationCategory is required, import it from @stackframe/emails")
      const withImport =
        "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"Hi\" /><NotificationCategory value=\"Transactional\" /><p>Hi there</p></> }"
      const rendered = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: withImport } })
      expect(rendered.status).toBe(200)
      expect(rendered.json.rendered_html).toContain("<p>Hi there</p>")
      expect(rendered.json.rendered_html).not.toContain("<pre>")
    }))
})

describe("item 7: templates render for real", () => {
  it.effect("PATCH renders each default template as the service's preview: John Doe, My Project, its PreviewVariables, the selected theme", () =>
    Effect.gen(function* () {
      const { emulator, headers } = yield* customServer
      for (const template of defaultTemplates) {
        const answer = yield* send(emulator, {
          method: "PATCH",
          path: `/api/v1/internal/email-templates/${template.id}`,
          headers,
          body: { tsx_source: template.tsxSource }
        })
        expect(answer.status).toBe(200)
        const html: string = answer.json.rendered_html
        expect(html).toMatch(/^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1.0 Transitional\/\/EN"/)
        expect(texts(html)).toContain("Hi, John Doe!")
        expect(html).toContain("<a href=\"https://example.com\"") // the theme's PreviewProps unsubscribe link
        expect(html).not.toContain("<pre>")
      }
    }))

  it.effect("a new template: the service's default new source and theme_id null, and it renders", () =>
    Effect.gen(function* () {
      const { emulator, headers } = yield* customServer
      const created = yield* send(emulator, { method: "POST", path: "/api/v1/internal/email-templates", headers, body: { display_name: "Welcome" } })
      expect(created.status).toBe(200)
      const listed = yield* send(emulator, { path: "/api/v1/internal/email-templates", headers })
      const template = listed.json.templates.find((item: { id: string }) => item.id === created.json.id)
      expect(template.theme_id).toBeNull()
      expect(template.tsx_source).toContain("<Subject value={`Hello ${user.displayName}!`} />")
      const rendered = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/internal/email-templates/${created.json.id}`,
        headers,
        body: { tsx_source: template.tsx_source }
      })
      expect(rendered.status).toBe(200)
      expect(texts(rendered.json.rendered_html)).toContain("count is 10")
    }))

  it.effect("an unknown template id: 404 with the service's text 'No template found with given id'", () =>
    Effect.gen(function* () {
      const { emulator, headers } = yield* customServer
      const path = "/api/v1/internal/email-templates/00000000-0000-4000-8000-000000000000"
      const patched = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: defaultTemplates[0]!.tsxSource } })
      const deleted = yield* send(emulator, { method: "DELETE", path, headers })
      for (const answer of [patched, deleted]) {
        expect(answer.status).toBe(404)
        expect(answer.text).toBe("No template found with given id")
      }
    }))

  it.effect("a template without <Subject>: 400 EMAIL_RENDERING_ERROR 'Subject is required, import it from @stackframe/emails', nothing saved", () =>
    Effect.gen(function* () {
      const { emulator, headers } = yield* customServer
      const path = `/api/v1/internal/email-templates/${verificationTemplateId}`
      const source =
        "import { NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <NotificationCategory value=\"Transactional\" /> }"
      const refused = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: source } })
      expect(refused.status).toBe(400)
      expect(refused.json).toEqual({
        code: "EMAIL_RENDERING_ERROR",
        details: { error: "Subject is required, import it from @stackframe/emails" },
        error: "Failed to render email with theme: Subject is required, import it from @stackframe/emails"
      })
      const broken = yield* send(emulator, { method: "PATCH", path, headers, body: { tsx_source: "export function EmailTemplate() { return <p> }" } })
      expect(broken.status).toBe(400)
      // esbuild's text, as the service's bundler words it (apps/backend/src/lib/email-rendering.tsx at 2f719903)
      expect(broken.json.details.error).toMatch(/^Build failed with \d+ errors?:\nvirtual:\/template\.tsx:1:\d+: ERROR: /)
      const listed = yield* send(emulator, { path: "/api/v1/internal/email-templates", headers })
      expect(listed.json.templates[0].tsx_source).toBe(defaultTemplates[0]!.tsxSource)
    }))

  it.effect("the verification e-mail in the outbox is the project's Email Verification template, rendered with the link and the project's name", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "render@example.com", "correct horse battery", {
        verification_callback_url: "http://localhost:3000/handler/email-verification?after_auth_return_to=%2F"
      })
      const entry = emulator.outbox({ email: "render@example.com" })[0]!
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      expect(entry.subject).toBe(`Verify your email at ${project.displayName}`)
      expect(entry.html).toContain(`<a href="${entry.link!.replace(/&/g, "&amp;")}"`)
      expect(entry.html).toContain("Verify my email")
      expect(texts(entry.html)).toContain(`Verify your email at ${project.displayName}`)
      expect(entry.html).toContain("<html dir=\"ltr\" lang=\"en\">")
      expect(entry.text).toContain(entry.link!)

      // the outbox page shows the rendered e-mail in a sandboxed frame (no script runs)
      const page = yield* send(emulator, { path: "/api/v1/emulator/outbox/page?email=render%40example.com" })
      expect(page.status).toBe(200)
      const frame = /<iframe title="([^"]*)" sandbox="" srcdoc="([^"]*)"><\/iframe>/.exec(page.text)
      expect(frame?.[1]).toBe(`The e-mail: Verify your email at ${project.displayName}`.replace(/&/g, "&amp;"))
      expect(frame?.[2]).toBe(entry.html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;"))
    }))
})

describe("item 7: the e-mails the emulator sends are the project's templates, rendered", () => {
  it.effect("password reset, sign-in code and team invitation: the templates' subjects, texts and links; a team name with markup is escaped", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const credentials = emulator.demo
      const callback = "http://localhost:3000/handler/callback"
      yield* signUp(emulator, credentials, "mails@example.com")
      const reset = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/send-reset-code",
        headers: clientHeaders(credentials),
        body: { email: "mails@example.com", callback_url: callback }
      })
      expect(reset.status).toBe(200)
      const otp = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/otp/send-sign-in-code",
        headers: clientHeaders(credentials),
        body: { email: "otp@example.com", callback_url: callback }
      })
      expect(otp.status).toBe(200)
      const team = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/teams",
        headers: serverHeaders(credentials),
        body: { display_name: "<img src=x onerror=alert(1)>" }
      })
      expect(team.status).toBe(201)
      const invited = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/team-invitations/send-code",
        headers: serverHeaders(credentials),
        body: { team_id: team.json.id, email: "invitee@example.com", callback_url: callback }
      })
      expect(invited.status).toBe(200)

      const project = emulator.state.projects.get(credentials.projectId)!
      const [resetMail] = emulator.outbox({ email: "mails@example.com", kind: "password_reset" })
      expect(resetMail!.subject).toBe(`Reset your password at ${project.displayName}`)
      expect(resetMail!.html).toContain("Reset my password")
      expect(resetMail!.html).toContain(`href="${resetMail!.link!.replace(/&/g, "&amp;")}"`)
      const [otpMail] = emulator.outbox({ email: "otp@example.com", kind: "magic_link" })
      expect(otpMail!.subject).toMatch(new RegExp(`^Sign in to .*: Your code is [A-Z0-9]{6}$`))
      expect(otpMail!.html).toContain("This is your one-time-password for signing in:")
      expect(otpMail!.text).toContain(otpMail!.subject.slice(-6))
      const [invitation] = emulator.outbox({ email: "invitee@example.com" })
      expect(invitation!.subject).toBe("You have been invited to join <img src=x onerror=alert(1)>")
      expect(texts(invitation!.html)).toContain("You are invited to &lt;img src=x onerror=alert(1)&gt;")
      expect(invitation!.html).not.toContain("<img src=x")
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
    expect(answer.json.error_message).toBe("Unknown error while sending test email. Make sure the email server is running and accepting connections.")
    expect(server.emulator.outbox({ email: "unreachable@example.com" })).toEqual([])
  })

  it("a server that greets with 220: 200 { success: true } and the test e-mail in the outbox", async () => {
    const answer = await sendTest(greeterPort, "reachable@example.com")
    expect(answer).toEqual({ status: 200, json: { success: true } })
    expect(server.emulator.outbox({ email: "reachable@example.com" }).map((entry) => entry.kind)).toEqual(["test_email"])
  })
})
