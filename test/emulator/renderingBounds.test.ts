/**
 * Issue 27 (e-mail rendering): templates render in a worker thread, off the event loop, within
 * the emulator's time and memory bounds — over real HTTP against the emulator's command line
 * (bundled as `npx stack-auth-emulator` runs it: ../support/emulatorCli.ts), started with
 * `--email-render-timeout`. A template that loops forever is cut at the bound with the service's
 * EMAIL_RENDERING_ERROR (400, details `error`; `KnownErrors.EmailRenderingError` of
 * packages/stack-shared/src/known-errors.tsx and the preview route
 * apps/backend/src/app/api/latest/internal/email-templates/[templateId]/route.tsx at stack-auth
 * 2f719903), and other requests are answered while it runs; nothing is saved, and the next
 * rendering works.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { parseCommandLine, usage } from "../../src/emulator/CommandLine.js"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { emulatorCli } from "../support/emulatorCli.js"
import { clientHeaders } from "./helpers.js"

interface Printed {
  readonly baseUrl: string
  readonly demo: { readonly projectId: string; readonly publishableClientKey: string; readonly superSecretAdminKey: string }
}

/** The CLI on a free port with these flags; stopped when the scope closes. */
const startCli = (flags: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ readonly child: ChildProcess; readonly printed: Printed }>((resolve, reject) => {
          const child = spawn(process.execPath, [emulatorCli(), "--port", "0", ...flags], { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] })
          let stderr = ""
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
          createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, printed: JSON.parse(line) as Printed }))
          child.once("exit", (code) => reject(new Error(`the emulator exited early with ${code}: ${stderr}`)))
        })
    ),
    ({ child }) => Effect.sync(() => child.exitCode === null && child.kill("SIGTERM"))
  )

const call = (url: string, init: { readonly method?: string; readonly headers: Record<string, string>; readonly body?: unknown }) =>
  Effect.promise(() =>
    fetch(url, {
      method: init.method ?? "GET",
      headers: { ...init.headers, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
    }).then(async (response) => ({ status: response.status, json: await response.json() as Record<string, any>, answeredAt: performance.now() }))
  )

const verificationTemplateId = defaultTemplates[0]!.id

describe("rendering bounds on the command line", () => {
  it("--email-render-timeout and --email-render-memory are read, listed in --help, and refused when not positive integers", () => {
    const command = parseCommandLine(["--email-render-timeout", "2500", "--email-render-memory", "128"])
    expect(command._tag === "Serve" && command.emulatorOptions.emailRendering).toEqual({ timeoutMillis: 2500, maxMemoryMb: 128 })
    expect(usage).toContain("--email-render-timeout <ms>")
    expect(usage).toContain("--email-render-memory <MB>")
    for (const bad of [["--email-render-timeout", "0"], ["--email-render-memory", "-1"], ["--email-render-timeout", "1.5"], ["--email-render-memory", "x"]]) {
      expect(parseCommandLine(bad)._tag).toBe("Invalid")
    }
  })

  it.live(
    "a template that loops forever is cut at the time bound with EMAIL_RENDERING_ERROR while other requests are answered; the next rendering works",
    () =>
      Effect.gen(function* () {
        const { printed } = yield* startCli(["--email-render-timeout", "4000"])
        const admin = {
          "x-stack-project-id": printed.demo.projectId,
          "x-stack-access-type": "admin",
          "x-stack-super-secret-admin-key": printed.demo.superSecretAdminKey
        }
        const api = `${printed.baseUrl}/api/v1`
        const customServer = yield* call(`${api}/internal/projects/current`, {
          method: "PATCH",
          headers: admin,
          body: {
            config: {
              email_config: {
                type: "standard",
                host: "127.0.0.1",
                port: 2525,
                username: "mailer",
                password: "secret",
                sender_name: "Tests",
                sender_email: "noreply@example.com"
              }
            }
          }
        })
        expect(customServer.status).toBe(200)
        const templatePath = `${api}/internal/email-templates/${verificationTemplateId}`
        // a first rendering starts the worker and loads react-email
        const warm = yield* call(templatePath, { method: "PATCH", headers: admin, body: { tsx_source: defaultTemplates[0]!.tsxSource } })
        expect(warm.status).toBe(200)

        const looping =
          "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { for (;;) {} return <><Subject value=\"S\" /><NotificationCategory value=\"Transactional\" /></> }"
        const loopFiber = yield* Effect.forkChild(call(templatePath, { method: "PATCH", headers: admin, body: { tsx_source: looping } }))
        yield* Effect.sleep("300 millis")
        // while the template loops: a sign-in (a write, which holds the emulator's write permit) and a read are answered
        const signIn = yield* call(`${api}/auth/password/sign-in`, {
          method: "POST",
          headers: clientHeaders(printed.demo),
          body: { email: "demo@example.com", password: "demo-password-1234" }
        })
        const me = yield* call(`${api}/users/me`, { headers: { ...clientHeaders(printed.demo), "x-stack-access-token": signIn.json.access_token } })
        const cut = yield* Fiber.join(loopFiber)

        expect(signIn.status).toBe(200)
        expect(me.status).toBe(200)
        expect(me.json.primary_email).toBe("demo@example.com")
        expect(me.answeredAt).toBeLessThan(cut.answeredAt)
        expect(cut.status).toBe(400)
        expect(cut.json).toEqual({
          code: "EMAIL_RENDERING_ERROR",
          details: { error: "Rendering took longer than 4000 ms and was stopped" },
          error: "Failed to render email with theme: Rendering took longer than 4000 ms and was stopped"
        })

        // nothing saved; the next rendering (in a new worker) works
        const listed = yield* call(`${api}/internal/email-templates`, { headers: admin })
        expect(listed.json.templates.find((template: { id: string }) => template.id === verificationTemplateId).tsx_source).toBe(defaultTemplates[0]!.tsxSource)
        const again = yield* call(templatePath, { method: "PATCH", headers: admin, body: { tsx_source: defaultTemplates[0]!.tsxSource } })
        expect(again.status).toBe(200)
        expect(again.json.rendered_html).toContain("Verify my email")
      }).pipe(Effect.scoped),
    180_000
  )
})
