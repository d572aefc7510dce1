/**
 * The packages the emulator renders e-mails with (esbuild, react, react-dom,
 * @react-email/components, arktype) are optional peer dependencies. Here the emulator's command
 * line (bundled: ../support/emulatorCli.ts) runs from a folder whose node_modules holds only what
 * it needs to start (effect, jose), as after `npm install stack-auth-effect effect` without the
 * rendering packages: password sign-up still works and its verification e-mail is the emulator's
 * plain e-mail with the same link (a warning naming the packages is logged once), while the
 * template preview (`PATCH /internal/email-templates/{id}`) dies with the message naming the
 * packages to install (logged; a 500, as the passkey routes without @simplewebauthn/server).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { emulatorCli } from "../support/emulatorCli.js"
import { clientHeaders } from "./helpers.js"

const root = fileURLToPath(new URL("../../", import.meta.url))

interface Printed {
  readonly baseUrl: string
  readonly demo: { readonly projectId: string; readonly publishableClientKey: string; readonly superSecretAdminKey: string }
}

/** The bundled CLI copied into a fresh folder with only effect and jose installed (linked), started on a free port. */
const startBareCli = Effect.acquireRelease(
  Effect.promise(() => {
    const folder = mkdtempSync(join(realpathSync(tmpdir()), "stack-auth-emulator-bare-"))
    mkdirSync(join(folder, "node_modules"))
    for (const name of ["effect", "jose"]) symlinkSync(join(root, "node_modules", name), join(folder, "node_modules", name), "dir")
    copyFileSync(emulatorCli(), join(folder, "emulator-cli.mjs"))
    return new Promise<{ readonly folder: string; readonly child: ChildProcess; readonly printed: Printed; readonly output: () => string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, [join(folder, "emulator-cli.mjs"), "--port", "0"], { cwd: folder, stdio: ["ignore", "pipe", "pipe"] })
        let output = ""
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
        const lines = createInterface({ input: child.stdout })
        lines.once("line", (line) => {
          lines.on("line", (more) => (output += `${more}\n`))
          resolve({ folder, child, printed: JSON.parse(line) as Printed, output: () => output })
        })
        child.once("exit", (code) => reject(new Error(`the emulator exited early with ${code}: ${output}`)))
      }
    )
  }),
  ({ child, folder }) =>
    Effect.sync(() => {
      if (child.exitCode === null) child.kill("SIGTERM")
      rmSync(folder, { recursive: true, force: true })
    })
)

const call = (url: string, init: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: unknown } = {}) =>
  Effect.promise(() =>
    fetch(url, {
      method: init.method ?? "GET",
      headers: { ...init.headers, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
    }).then(async (response) => ({ status: response.status, text: await response.text() }))
  )

const installLine = "npm install --save-dev esbuild react react-dom @react-email/components arktype"

describe("the emulator without the e-mail rendering packages", () => {
  it.live(
    "sign-up sends the plain verification e-mail (one warning naming the packages); the template preview dies naming them",
    () =>
      Effect.gen(function* () {
        const { printed, output } = yield* startBareCli
        const api = `${printed.baseUrl}/api/v1`
        for (const email of ["bare-1@example.com", "bare-2@example.com"]) {
          const signUp = yield* call(`${api}/auth/password/sign-up`, {
            method: "POST",
            headers: clientHeaders(printed.demo),
            body: { email, password: "correct horse battery", verification_callback_url: "http://localhost:3000/handler/email-verification" }
          })
          expect(signUp.status).toBe(200)
        }
        const outbox = yield* call(`${api}/emulator/outbox?email=bare-1@example.com`)
        const mails = (JSON.parse(outbox.text) as { items: ReadonlyArray<{ subject: string; link: string }> }).items
        expect(mails).toHaveLength(1)
        expect(mails[0]!.subject).toBe("Verify your email at Demo Project")
        // the outbox page shows the e-mail: the emulator's plain one, with the same link
        const page = yield* call(`${api}/emulator/outbox/page?email=bare-1%40example.com`)
        expect(page.status).toBe(200)
        expect(page.text).toContain("&lt;p&gt;Please verify your email address by opening this link:&lt;/p&gt;")
        expect(page.text).toContain(mails[0]!.link.replace(/&/g, "&amp;amp;"))
        expect(page.text).not.toContain("DOCTYPE")
        expect(output().split(installLine).length - 1).toBe(1)
        expect(output()).toContain("sends its built-in e-mails as plain e-mails")

        const admin = {
          "x-stack-project-id": printed.demo.projectId,
          "x-stack-access-type": "admin",
          "x-stack-super-secret-admin-key": printed.demo.superSecretAdminKey
        }
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
        const preview = yield* call(`${api}/internal/email-templates/${defaultTemplates[0]!.id}`, {
          method: "PATCH",
          headers: admin,
          body: { tsx_source: defaultTemplates[0]!.tsxSource }
        })
        expect(preview.status).toBe(500)
        expect(output().split(installLine).length - 1).toBe(2)
        expect(output()).toContain("optional peer dependencies of stack-auth-effect that are not installed")
      }).pipe(Effect.scoped),
    120_000
  )
})
