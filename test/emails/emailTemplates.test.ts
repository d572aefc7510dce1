/** E-mail templates through the SDK against the in-process emulator (current `/internal/email-templates` API). */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { EmailTemplates } from "../../src/index.js"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { setup } from "./support.js"

const verificationId = "e7d009ce-8d47-4528-b245-5bf119f2ffa3"
const missingId = "00000000-0000-4000-8000-000000000000"

describe("EmailTemplates", () => {
  it.effect("list: the service's default templates (ids, names, sources), camelCase", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const templates = yield* EmailTemplates.list().pipe(Effect.provide(admin))
      expect(templates.map((t) => t.displayName)).toEqual([
        "Email Verification",
        "Password Reset",
        "Magic Link/OTP",
        "Team Invitation",
        "Sign In Invitation",
        "Payment Receipt",
        "Payment Failed"
      ])
      expect(templates[0]!.id).toBe(verificationId)
      expect(templates[0]!.tsxSource).toBe(defaultTemplates[0]!.tsxSource)
      expect(templates[0]!.themeId).toBeUndefined()
    }))

  it.effect("create, update and delete need a custom e-mail server (RequiresCustomEmailServer), nothing changes", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const created = yield* Effect.flip(EmailTemplates.create({ displayName: "Welcome" }).pipe(Effect.provide(admin)))
      expect(created._tag).toBe("RequiresCustomEmailServer")
      const updated = yield* Effect.flip(
        EmailTemplates.update(verificationId, { tsxSource: "export function EmailTemplate() {}" }).pipe(Effect.provide(admin))
      )
      expect(updated._tag).toBe("RequiresCustomEmailServer")
      const deleted = yield* Effect.flip(EmailTemplates.delete(verificationId).pipe(Effect.provide(admin)))
      expect(deleted._tag).toBe("RequiresCustomEmailServer")
      const templates = yield* EmailTemplates.list().pipe(Effect.provide(admin))
      expect(templates).toHaveLength(7)
      expect(templates[0]!.tsxSource).toBe(defaultTemplates[0]!.tsxSource)
    }))

  it.effect("with a custom server: create → update (rendered HTML, theme) → list shows it → delete", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(true)
      const id = yield* EmailTemplates.create({ displayName: "Welcome" }).pipe(Effect.provide(admin))
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      const source =
        "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"Hello <you>\" /><NotificationCategory value=\"Transactional\" /><p>Hi</p></> }"
      const html = yield* EmailTemplates.update(id, { tsxSource: source, themeId: false }).pipe(Effect.provide(admin))
      // rendered for real: the template's <p> inside the project's theme; the subject is not part of the HTML
      expect(html).toContain("<p>Hi</p>")
      expect(html).not.toContain("Hello")
      expect(yield* EmailTemplates.update(id, { tsxSource: source }).pipe(Effect.provide(admin))).toBe(html)
      const listed = (yield* EmailTemplates.list().pipe(Effect.provide(admin))).find((t) => t.id === id)
      expect(listed).toEqual({ id, displayName: "Welcome", tsxSource: source, themeId: false })
      yield* EmailTemplates.delete(id).pipe(Effect.provide(admin))
      expect((yield* EmailTemplates.list().pipe(Effect.provide(admin))).map((t) => t.id)).not.toContain(id)
    }))

  it.effect("a source without an EmailTemplate export is EmailRenderingError and is not saved", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(true)
      const error = yield* Effect.flip(EmailTemplates.update(verificationId, { tsxSource: "<p>nope</p>" }).pipe(Effect.provide(admin)))
      expect(error._tag).toBe("EmailRenderingError")
      const templates = yield* EmailTemplates.list().pipe(Effect.provide(admin))
      expect(templates[0]!.tsxSource).toBe(defaultTemplates[0]!.tsxSource)
    }))

  it.effect("an unknown template id is HttpError 404; a malformed id is InvalidArgument before any request", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(true)
      const missing = yield* Effect.flip(EmailTemplates.delete(missingId).pipe(Effect.provide(admin)))
      expect(missing._tag).toBe("HttpError")
      expect(missing._tag === "HttpError" && missing.status).toBe(404)
      const malformed = yield* Effect.flip(EmailTemplates.update("not-a-uuid", { tsxSource: "x" }).pipe(Effect.provide(admin)))
      expect(malformed._tag).toBe("InvalidArgument")
    }))

  it.effect("templates are per project: the seeded defaults are copies", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(true)
      const source =
        "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"Mine\" /><NotificationCategory value=\"Transactional\" /></> }"
      yield* EmailTemplates.update(verificationId, { tsxSource: source }).pipe(Effect.provide(admin))
      expect(defaultTemplates[0]!.tsxSource).not.toBe(source)
      const other = yield* setup(true)
      const templates = yield* EmailTemplates.list().pipe(Effect.provide(other.admin))
      expect(templates[0]!.tsxSource).toBe(defaultTemplates[0]!.tsxSource)
    }))
})
