/**
 * Sending e-mail, the outbox and the delivery statistics through the SDK against the in-process
 * emulator. The emulator's behaviour follows the service's source at 2f719903:
 * apps/backend/src/app/api/latest/emails/send-email/route.tsx, emails/outbox/crud.tsx,
 * emails/delivery-info/route.tsx, emails/unsubscribe-link/route.tsx, lib/email-queue-step.tsx
 * (rendering, recipients, skip reasons) and lib/notification-categories.ts (unsubscribe links).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as Emulator from "../../src/emulator/index.js"
import { EmailDrafts, EmailOutbox, Emails, EmailTemplates, ServerEmails, ServerNotificationCategories, ServerUsers, Stack } from "../../src/index.js"
import { makeEmulator } from "../emulator/helpers.js"
import { customServer } from "./support.js"

const marketing = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c"

const marketingTemplate =
  "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport const variablesSchema = v => v\nexport function EmailTemplate({ user, variables }) { return <><Subject value={\"News for \" + user.displayName} /><NotificationCategory value=\"Marketing\" /><p>Hello {variables.name}</p></> }"

const setup = (custom = true) =>
  Effect.gen(function* () {
    const emulator = yield* makeEmulator(custom ? { demo: { config: { emailConfig: customServer } } } : {})
    const app = Stack.layerAdmin({
      projectId: emulator.demo.projectId,
      httpClient: Emulator.layerHttpClient(emulator),
      superSecretAdminKey: emulator.demo.superSecretAdminKey,
      secretServerKey: emulator.demo.secretServerKey
    }).pipe(Layer.orDie)
    const user = (email: string | null, displayName = "Ada") =>
      ServerUsers.create(email === null ? { displayName } : { primaryEmail: email, displayName }).pipe(Effect.provide(app))
    return { emulator, app, user }
  })

describe("ServerEmails.sendEmail", () => {
  it.effect("HTML to a user: sent to the primary address, in the outbox as sent, counted in the delivery stats", () =>
    Effect.gen(function* () {
      const { emulator, app, user } = yield* setup()
      const ada = yield* user("ada@example.com")
      const before = (yield* ServerEmails.getDeliveryStats().pipe(Effect.provide(app))).stats.hour.sent
      const results = yield* ServerEmails.sendEmail({ userIds: [ada.id], html: "<p>Hi there</p>", subject: "Welcome" }).pipe(Effect.provide(app))
      expect(results).toEqual([{ userId: ada.id }])
      const delivered = emulator.outbox({ email: "ada@example.com" }).find((entry) => entry.kind === "sent_email")!
      expect(delivered.subject).toBe("Welcome")
      expect(delivered.html).toContain("<p>Hi there</p>")
      const page = yield* EmailOutbox.list().pipe(Effect.provide(app))
      const email = page.items.find((item) => item.status === "sent" && item.to.type === "user-primary-email")!
      expect(email).toMatchObject({ status: "sent", simpleStatus: "ok", subject: "Welcome", hasDelivered: true, canHaveDeliveryInfo: false })
      expect(email.to).toEqual({ type: "user-primary-email", userId: ada.id })
      expect(yield* EmailOutbox.get(email.id).pipe(Effect.provide(app))).toEqual(email)
      const stats = yield* ServerEmails.getDeliveryStats().pipe(Effect.provide(app))
      expect(stats.stats.hour.sent).toBe(before + 1)
      // a test e-mail goes straight to the SMTP server (internal/send-test-email/route.tsx): neither in the outbox nor counted
      yield* Emails.sendTestEmail({
        recipientEmail: "admin@example.com",
        emailConfig: {
          host: "smtp.example.com",
          port: 587,
          username: "mailer",
          password: Redacted.make("smtp-password"),
          senderName: "Example",
          senderEmail: "noreply@example.com"
        }
      }).pipe(Effect.provide(app))
      expect((yield* EmailOutbox.list().pipe(Effect.provide(app))).items.some((item) =>
        item.to.type === "custom-emails" && item.to.emails.includes("admin@example.com")
      ))
        .toBe(false)
      expect((yield* ServerEmails.getDeliveryStats().pipe(Effect.provide(app))).stats.hour.sent).toBe(before + 1)
      expect(stats.capacity).toMatchObject({ boostMultiplier: 1, penaltyFactor: 1, isBoostActive: false, boostExpiresAt: null })
    }))

  it.effect("the shared e-mail server refuses (REQUIRES_CUSTOM_EMAIL_SERVER); an unknown user is USER_ID_DOES_NOT_EXIST", () =>
    Effect.gen(function* () {
      const shared = yield* setup(false)
      const ada = yield* shared.user("ada@example.com")
      const refused = yield* Effect.flip(ServerEmails.sendEmail({ userIds: [ada.id], html: "<p>x</p>" }).pipe(Effect.provide(shared.app)))
      expect(refused._tag).toBe("RequiresCustomEmailServer")
      const custom = yield* setup()
      const unknown = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
      const missing = yield* Effect.flip(ServerEmails.sendEmail({ userIds: [unknown], html: "<p>x</p>" }).pipe(Effect.provide(custom.app)))
      expect(missing._tag).toBe("UserIdDoesNotExist")
      expect(missing.message).toContain(unknown)
    }))

  it.effect("an unknown template, draft or category is SendEmailReferenceNotFound (the service's 400 texts)", () =>
    Effect.gen(function* () {
      const { app, user } = yield* setup()
      const ada = yield* user("ada@example.com")
      const template = yield* Effect.flip(
        ServerEmails.sendEmail({ userIds: [ada.id], templateId: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" }).pipe(Effect.provide(app))
      )
      expect(template).toMatchObject({ _tag: "SendEmailReferenceNotFound", reference: "template", message: "No template found with given template_id" })
      const draft = yield* Effect.flip(ServerEmails.sendEmail({ userIds: [ada.id], draftId: "nope" }).pipe(Effect.provide(app)))
      expect(draft).toMatchObject({ _tag: "SendEmailReferenceNotFound", reference: "draft" })
      const category = yield* Effect.flip(
        ServerEmails.sendEmail({ userIds: [ada.id], html: "<p>x</p>", notificationCategoryName: "Weekly" }).pipe(Effect.provide(app))
      )
      expect(category).toMatchObject({ _tag: "SendEmailReferenceNotFound", reference: "notificationCategory" })
    }))

  it.effect("Marketing: an unsubscribe link in the e-mail; following it turns the category off, the next e-mail is skipped", () =>
    Effect.gen(function* () {
      const { emulator, app, user } = yield* setup()
      const ada = yield* user("ada@example.com")
      const templateId = yield* EmailTemplates.create({ displayName: "News" }).pipe(Effect.provide(app))
      yield* EmailTemplates.update(templateId, { tsxSource: marketingTemplate }).pipe(Effect.provide(app))
      yield* ServerEmails.sendEmail({ userIds: [ada.id], templateId, variables: { name: "Ada L." } }).pipe(Effect.provide(app))
      const first = emulator.outbox({ email: "ada@example.com" }).find((entry) => entry.kind === "sent_email")!
      expect(first.subject).toBe("News for Ada")
      expect(first.html.replaceAll("<!-- -->", "")).toContain("<p>Hello Ada L.</p>")
      const link = /href="([^"]*\/emails\/unsubscribe-link\?code=[^"]+)"/.exec(first.html)![1]!.replace(/&amp;/g, "&")
      const answer = yield* emulator.handle(new Request(link))
      expect(answer.status).toBe(200)
      expect(yield* Effect.promise(() => answer.text())).toBe("<p>Successfully unsubscribed from notification group</p>")
      const again = yield* emulator.handle(new Request(link))
      expect(yield* Effect.promise(() => again.text())).toBe("<p>You have already unsubscribed from this notification group</p>")
      const categories = yield* ServerNotificationCategories.list(ada.id).pipe(Effect.provide(app))
      expect(categories.find((category) => category.id === marketing)!.enabled).toBe(false)
      yield* ServerEmails.sendEmail({ userIds: [ada.id], templateId, variables: { name: "Ada L." } }).pipe(Effect.provide(app))
      const skipped = (yield* EmailOutbox.list({ status: "skipped" }).pipe(Effect.provide(app))).items
      expect(skipped).toHaveLength(1)
      expect(skipped[0]).toMatchObject({ skippedReason: "USER_UNSUBSCRIBED", hasRendered: true, notificationCategoryId: marketing })
      expect(emulator.outbox({ email: "ada@example.com" }).filter((entry) => entry.kind === "sent_email")).toHaveLength(1)
    }))

  it.effect("Transactional (a category override) has no unsubscribe link; a user without e-mail is skipped", () =>
    Effect.gen(function* () {
      const { emulator, app, user } = yield* setup()
      const ada = yield* user("ada@example.com")
      const nobody = yield* user(null, "Nobody")
      yield* ServerEmails.sendEmail({ userIds: [ada.id, nobody.id], html: "<p>Receipt</p>", notificationCategoryName: "Transactional" }).pipe(
        Effect.provide(app)
      )
      const sent = emulator.outbox({ email: "ada@example.com" }).find((entry) => entry.kind === "sent_email")!
      expect(sent.html).not.toContain("unsubscribe")
      const skipped = (yield* EmailOutbox.list({ simpleStatus: "ok" }).pipe(Effect.provide(app))).items.filter((item) => item.status === "skipped")
      expect(skipped.map((item) => item.status === "skipped" && item.skippedReason)).toEqual(["USER_HAS_NO_PRIMARY_EMAIL"])
      expect(skipped[0]!.status === "skipped" && skipped[0]!.isTransactional).toBe(true)
    }))

  it.effect("scheduled: waits in the outbox; pause, unpause, cancel; a sent e-mail is not editable", () =>
    Effect.gen(function* () {
      const { emulator, app, user } = yield* setup()
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 12))
      const ada = yield* user("ada@example.com")
      const later = new Date(Date.UTC(2026, 10, 20, 13))
      yield* ServerEmails.sendEmail({ userIds: [ada.id], html: "<p>Later</p>", scheduledAt: later }).pipe(Effect.provide(app))
      yield* ServerEmails.sendEmail({ userIds: [ada.id], html: "<p>Later too</p>", scheduledAt: later }).pipe(Effect.provide(app))
      const scheduled = (yield* EmailOutbox.list({ status: "scheduled" }).pipe(Effect.provide(app))).items
      expect(scheduled).toHaveLength(2)
      expect(scheduled[0]!.scheduledAt).toEqual(later)
      const [a, b] = scheduled.map((item) => item.id) as [string, string]
      expect((yield* EmailOutbox.pause(a).pipe(Effect.provide(app))).status).toBe("paused")
      expect((yield* EmailOutbox.unpause(a).pipe(Effect.provide(app))).status).toBe("scheduled")
      const cancelled = yield* EmailOutbox.cancel(b).pipe(Effect.provide(app))
      expect(cancelled).toMatchObject({ status: "skipped", skippedReason: "MANUALLY_CANCELLED" })
      const notAgain = yield* Effect.flip(EmailOutbox.cancel(b).pipe(Effect.provide(app)))
      expect(notAgain._tag).toBe("EmailNotEditable")
      expect(emulator.outbox({ email: "ada@example.com" }).filter((entry) => entry.kind === "sent_email")).toHaveLength(0)
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 13, 1))
      const sent = yield* EmailOutbox.get(a).pipe(Effect.provide(app))
      expect(sent.status).toBe("sent")
      expect(emulator.outbox({ email: "ada@example.com" }).filter((entry) => entry.kind === "sent_email")).toHaveLength(1)
      const refused = yield* Effect.flip(EmailOutbox.update(a, { isPaused: true }).pipe(Effect.provide(app)))
      expect(refused).toMatchObject({ _tag: "EmailNotEditable" })
      expect(refused.message).toContain("in status \"SENT\"")
      const unknown = yield* Effect.flip(EmailOutbox.get("3f2504e0-4f89-41d3-9a0c-0305e82c3301").pipe(Effect.provide(app)))
      expect(unknown._tag).toBe("OutboxEmailNotFound")
    }))

  it.effect("a new source renders the e-mail again (preparing until the next step); a bad one is a render error", () =>
    Effect.gen(function* () {
      const { app, user } = yield* setup()
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 12))
      const ada = yield* user("ada@example.com")
      yield* ServerEmails.sendEmail({ userIds: [ada.id], html: "<p>x</p>", scheduledAt: new Date(Date.UTC(2026, 10, 21)) }).pipe(Effect.provide(app))
      const [email] = (yield* EmailOutbox.list().pipe(Effect.provide(app))).items.filter((item) => item.status === "scheduled")
      expect(
        (yield* EmailOutbox.update(email!.id, { tsxSource: "export function EmailTemplate() { return <p>{undefinedThing.x}</p> }" }).pipe(Effect.provide(app)))
          .status
      ).toBe(
        "preparing"
      )
      const failed = yield* EmailOutbox.get(email!.id).pipe(Effect.provide(app))
      expect(failed).toMatchObject({ status: "render-error", simpleStatus: "error" })
      expect(failed.status === "render-error" && failed.renderError).toBe(
        "An error occurred while rendering the email. Make sure the template/draft is valid and the theme is set correctly."
      )
    }))

  it.effect("the outbox pages newest first: limit and nextCursor; a limit above 100 is the service's 400", () =>
    Effect.gen(function* () {
      const { app, user } = yield* setup()
      const ada = yield* user("ada@example.com")
      for (const n of [1, 2, 3]) {
        yield* ServerEmails.sendEmail({ userIds: [ada.id], html: `<p>${n}</p>`, subject: `n${n}` }).pipe(Effect.provide(app))
        yield* TestClock.adjust("1 second")
      }
      const first = yield* EmailOutbox.list({ limit: 2 }).pipe(Effect.provide(app))
      expect(first.items.map((item) => item.status !== "skipped" && "subject" in item ? item.subject : undefined)).toEqual(["n3", "n2"])
      const second = yield* EmailOutbox.list({ limit: 2, cursor: first.nextCursor! }).pipe(Effect.provide(app))
      expect(second.items[0]!.status === "sent" && second.items[0]!.subject).toBe("n1")
      const tooMany = yield* Effect.flip(EmailOutbox.list({ limit: 101 }).pipe(Effect.provide(app)))
      expect(tooMany).toMatchObject({ _tag: "HttpError", status: 400, body: "Limit cannot exceed 100" })
    }))

  it.effect("a draft: sent with its own theme, its sentAt recorded", () =>
    Effect.gen(function* () {
      const { emulator, app, user } = yield* setup()
      const ada = yield* user("ada@example.com")
      const draftId = yield* EmailDrafts.create({ displayName: "Launch", themeId: false }).pipe(Effect.provide(app))
      expect((yield* EmailDrafts.get(draftId).pipe(Effect.provide(app))).sentAt).toBeNull()
      yield* ServerEmails.sendEmail({ allUsers: true, draftId }).pipe(Effect.provide(app))
      expect((yield* EmailDrafts.get(draftId).pipe(Effect.provide(app))).sentAt).toBeInstanceOf(Date)
      const sent = emulator.outbox({ email: "ada@example.com" }).find((entry) => entry.kind === "sent_email")!
      expect(sent.subject).toBe("Hello Ada!")
      const rows = (yield* EmailOutbox.list().pipe(Effect.provide(app))).items.filter((item) => item.createdWith === "draft")
      // all_users: one row per user of the project (the demo project's users included)
      expect(rows.length).toBe(emulator.state.projects.get(emulator.demo.projectId)!.users.size)
      const row = rows.find((item) => item.to.type === "user-primary-email" && item.to.userId === ada.id)!
      expect(row).toMatchObject({ emailDraftId: draftId, themeId: null, status: "sent" })
    }))

  it.effect("activateCapacityBoost: four times the rate for 4 hours (emails/capacity-boost/route.tsx); a second one while it runs is refused", () =>
    Effect.gen(function* () {
      const { app } = yield* setup()
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 12))
      const base = (yield* ServerEmails.getDeliveryStats().pipe(Effect.provide(app))).capacity
      const expiresAt = yield* ServerEmails.activateCapacityBoost().pipe(Effect.provide(app))
      expect(expiresAt).toEqual(new Date(Date.UTC(2026, 10, 20, 16)))
      const boosted = (yield* ServerEmails.getDeliveryStats().pipe(Effect.provide(app))).capacity
      expect(boosted).toEqual({
        ratePerSecond: base.ratePerSecond * 4,
        boostMultiplier: 4,
        penaltyFactor: 1,
        isBoostActive: true,
        boostExpiresAt: "2026-11-20T16:00:00.000Z"
      })
      const again = yield* Effect.flip(ServerEmails.activateCapacityBoost().pipe(Effect.provide(app)))
      expect(again._tag).toBe("EmailCapacityBoostAlreadyActive")
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 16, 1))
      expect((yield* ServerEmails.getDeliveryStats().pipe(Effect.provide(app))).capacity.isBoostActive).toBe(false)
      expect(yield* ServerEmails.activateCapacityBoost().pipe(Effect.provide(app))).toEqual(new Date(Date.UTC(2026, 10, 20, 20, 1)))
    }))
})
