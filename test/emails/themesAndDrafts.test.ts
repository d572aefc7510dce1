/**
 * E-mail themes, previews, drafts, the test webhook and the sign-in invitation through the SDK
 * against the in-process emulator. The emulator follows the service's source at 2f719903:
 * apps/backend/src/app/api/latest/internal/email-themes/{route,[id]/route,cud}.tsx,
 * emails/render-email/route.tsx, internal/email-drafts/{route,[id]/route}.tsx,
 * internal/send-test-webhook/route.tsx, internal/send-sign-in-invitation/route.tsx.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { EmailDrafts, Emails, EmailTemplates, EmailThemes } from "../../src/index.js"
import { setup } from "./support.js"

const unknownId = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"

describe("EmailThemes", () => {
  it.effect("list: the service's three default themes; create starts from Default Light; get reads it", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const themes = yield* EmailThemes.list().pipe(Effect.provide(admin))
      expect(themes.map((theme) => theme.displayName)).toEqual(["Default Light", "Default Dark", "Default Colorful"])
      const id = yield* EmailThemes.create("Brand").pipe(Effect.provide(admin))
      const light = yield* EmailThemes.get(themes[0]!.id).pipe(Effect.provide(admin))
      const brand = yield* EmailThemes.get(id).pipe(Effect.provide(admin))
      expect(brand).toEqual({ id, displayName: "Brand", tsxSource: light.tsxSource })
      expect((yield* EmailThemes.list().pipe(Effect.provide(admin))).map((theme) => theme.id)).toContain(id)
    }))

  it.effect("update: a source that renders replaces it; one that does not is EMAIL_RENDERING_ERROR; unknown id EmailThemeNotFound", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const id = yield* EmailThemes.create("Brand").pipe(Effect.provide(admin))
      const source =
        "import { Html, Body } from '@react-email/components'\nexport function EmailTheme({ children }) { return <Html><Body><div className=\"brand\">{children}</div></Body></Html> }"
      yield* EmailThemes.update(id, source).pipe(Effect.provide(admin))
      expect((yield* EmailThemes.get(id).pipe(Effect.provide(admin))).tsxSource).toBe(source)
      const broken = yield* Effect.flip(EmailThemes.update(id, "export function EmailTheme( {").pipe(Effect.provide(admin)))
      expect(broken._tag).toBe("EmailRenderingError")
      expect((yield* EmailThemes.get(id).pipe(Effect.provide(admin))).tsxSource).toBe(source)
      const missing = yield* Effect.flip(EmailThemes.get(unknownId).pipe(Effect.provide(admin)))
      expect(missing).toMatchObject({ _tag: "EmailThemeNotFound", themeId: unknownId, message: "No theme found with given id" })
      const missingUpdate = yield* Effect.flip(EmailThemes.update(unknownId, source).pipe(Effect.provide(admin)))
      expect(missingUpdate._tag).toBe("EmailThemeNotFound")
    }))

  it.effect("preview: a template of the project with a theme, in preview mode; subject and category answered", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const templates = yield* EmailTemplates.list().pipe(Effect.provide(admin))
      const verification = templates.find((template) => template.displayName === "Email Verification")!
      const preview = yield* EmailThemes.preview({ templateId: verification.id }).pipe(Effect.provide(admin))
      // the project's own name (render-email passes it), the preview user "John Doe"
      expect(preview.subject).toBe("Verify your email at Demo Project")
      expect(preview.notificationCategory).toBe("Transactional")
      expect(preview.html.replaceAll("<!-- -->", "")).toContain("Hi, John Doe!")
      const bare = yield* EmailThemes.preview({ templateId: verification.id, themeId: false }).pipe(Effect.provide(admin))
      expect(bare.html).not.toContain("rgb(250,251,251)")
      expect(preview.html).toContain("rgb(250,251,251)")
      const own = yield* EmailThemes.preview({
        templateTsxSource: "import { Subject } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"S\" /><p>own</p></> }",
        themeTsxSource: "export function EmailTheme({ children }) { return <main>{children}</main> }"
      }).pipe(Effect.provide(admin))
      expect(own).toMatchObject({ subject: "S" })
      expect(own.notificationCategory).toBeUndefined()
      expect(own.html).toContain("<main><p>own</p></main>")
      const unknownTheme = yield* Effect.flip(EmailThemes.preview({ templateId: verification.id, themeId: unknownId }).pipe(Effect.provide(admin)))
      expect(unknownTheme).toMatchObject({ _tag: "HttpError", status: 400, body: "No theme found with given id" })
      const unknownTemplate = yield* Effect.flip(EmailThemes.preview({ templateId: unknownId }).pipe(Effect.provide(admin)))
      expect(unknownTemplate).toMatchObject({ _tag: "HttpError", status: 400, body: "No template found with given id" })
      const broken = yield* Effect.flip(EmailThemes.preview({ templateTsxSource: "export function (" }).pipe(Effect.provide(admin)))
      expect(broken._tag).toBe("EmailRenderingError")
    }))
})

describe("EmailDrafts", () => {
  it.effect("create, list (newest change first), get, update (no themeId: back to the project's theme), delete", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const first = yield* EmailDrafts.create({ displayName: "First", themeId: false }).pipe(Effect.provide(admin))
      yield* TestClock.adjust("1 second")
      const second = yield* EmailDrafts.create({ displayName: "Second", tsxSource: "export function EmailTemplate() { return <p>2</p> }" }).pipe(
        Effect.provide(admin)
      )
      const drafts = yield* EmailDrafts.list().pipe(Effect.provide(admin))
      expect(drafts.map((draft) => draft.displayName)).toEqual(["Second", "First"])
      const created = yield* EmailDrafts.get(first).pipe(Effect.provide(admin))
      expect(created).toMatchObject({ id: first, displayName: "First", themeId: false, sentAt: null })
      expect(created.tsxSource).toContain("<NotificationCategory value=\"Marketing\" />")
      expect((yield* EmailDrafts.get(second).pipe(Effect.provide(admin))).themeId).toBeUndefined()
      yield* TestClock.adjust("1 second")
      yield* EmailDrafts.update(first, { displayName: "Renamed" }).pipe(Effect.provide(admin))
      const renamed = yield* EmailDrafts.get(first).pipe(Effect.provide(admin))
      expect(renamed.displayName).toBe("Renamed")
      expect(renamed.themeId).toBeUndefined()
      expect((yield* EmailDrafts.list().pipe(Effect.provide(admin)))[0]!.id).toBe(first)
      yield* EmailDrafts.delete(first).pipe(Effect.provide(admin))
      const gone = yield* Effect.flip(EmailDrafts.get(first).pipe(Effect.provide(admin)))
      expect(gone).toMatchObject({ _tag: "EmailDraftNotFound", draftId: first })
      const again = yield* Effect.flip(EmailDrafts.delete(first).pipe(Effect.provide(admin)))
      expect(again._tag).toBe("EmailDraftNotFound")
    }))
})

describe("Emails: test webhook and sign-in invitation", () => {
  it.effect("sendTestWebhook: the emulator holds no webhook endpoint, so the service's not-found outcome", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      expect(yield* Emails.sendTestWebhook({ endpointId: "ep_123" }).pipe(Effect.provide(admin))).toEqual({
        success: false,
        errorMessage: "Endpoint not found. Make sure it still exists."
      })
    }))

  it.effect("sendSignInInvitationEmail: the Sign In Invitation template to the address; an untrusted URL is refused", () =>
    Effect.gen(function* () {
      const { admin, emulator } = yield* setup(false)
      yield* Emails.sendSignInInvitationEmail("guest@example.com", "http://localhost:3000/handler/sign-in").pipe(Effect.provide(admin))
      const entry = emulator.outbox({ email: "guest@example.com" })[0]!
      expect(entry).toMatchObject({ kind: "sign_in_invitation", link: "http://localhost:3000/handler/sign-in" })
      expect(entry.subject).toMatch(/^You have been invited to sign in to /)
      expect(entry.html).toContain("href=\"http://localhost:3000/handler/sign-in\"")
      const refused = yield* Effect.flip(Emails.sendSignInInvitationEmail("guest@example.com", "https://evil.example.org/x").pipe(Effect.provide(admin)))
      expect(refused._tag).toBe("RedirectUrlNotWhitelisted")
      const invalid = yield* Effect.flip(Emails.sendSignInInvitationEmail("not-an-address", "http://localhost:3000/x").pipe(Effect.provide(admin)))
      expect(invalid._tag).toBe("SchemaError")
    }))
})
