/**
 * End to end over real HTTP against the emulator server: sending e-mail (HTML, a template of the
 * Marketing category with its unsubscribe link followed over HTTP, a draft, a scheduled e-mail
 * cancelled), the outbox, the delivery statistics, themes and previews, drafts, the test webhook
 * and the sign-in invitation. The emulator follows the service's source at 2f719903
 * (apps/backend/src/app/api/latest/emails/{send-email,outbox,delivery-info,render-email,unsubscribe-link}/,
 * internal/{email-themes,email-drafts,send-test-webhook,send-sign-in-invitation}/, lib/email-queue-step.tsx).
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { AdminAccess, EmailDrafts, EmailOutbox, Emails, EmailTemplates, EmailThemes, ServerAccess, ServerEmails, ServerUsers, Stack } from "../../src/index.js"
import { customServer } from "../emails/support.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ demo: { config: { emailConfig: customServer } } })

const appLayer = () =>
  Stack.layerAdmin({
    projectId: main.server.emulator.demo.projectId,
    baseUrl: main.server.baseUrl,
    httpClient: countingFetch().layer,
    superSecretAdminKey: main.server.emulator.demo.superSecretAdminKey,
    secretServerKey: main.server.emulator.demo.secretServerKey
  })

const run = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices | AdminAccess | ServerAccess>) =>
  Effect.runPromise(effect.pipe(Effect.provide(appLayer()), Effect.orDie))

const marketingTemplate =
  "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport const variablesSchema = v => v\nexport function EmailTemplate({ variables }) { return <><Subject value=\"Our news\" /><NotificationCategory value=\"Marketing\" /><p>Issue {variables.issue}</p></> }"

describe("sending e-mail over HTTP", () => {
  it("HTML and a Marketing template to a user; the unsubscribe link works over HTTP; the next one is skipped", async () => {
    const result = await run(
      Effect.gen(function* () {
        const user = yield* ServerUsers.create({ primaryEmail: "e2e-mail@example.com", displayName: "Eve" })
        const before = yield* ServerEmails.getDeliveryStats()
        yield* ServerEmails.sendEmail({ userIds: [user.id], html: "<p>Plain hello</p>", subject: "Hello" })
        const templateId = yield* EmailTemplates.create({ displayName: "Newsletter" })
        yield* EmailTemplates.update(templateId, { tsxSource: marketingTemplate })
        yield* ServerEmails.sendEmail({ userIds: [user.id], templateId, variables: { issue: 7 } })
        const after = yield* ServerEmails.getDeliveryStats()
        return { user, before, after, templateId }
      })
    )
    const entries = main.server.emulator.outbox({ email: "e2e-mail@example.com" })
    expect(entries.map((entry) => entry.subject)).toEqual(["Hello", "Our news"])
    expect(entries[1]!.html.replaceAll("<!-- -->", "")).toContain("<p>Issue 7</p>")
    expect(result.after.stats.hour.sent).toBe(result.before.stats.hour.sent + 2)
    const link = /href="([^"]*\/api\/v1\/emails\/unsubscribe-link\?code=[^"]+)"/.exec(entries[1]!.html)![1]!
    expect(link.startsWith(main.server.baseUrl)).toBe(true)
    const answer = await fetch(link)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe("<p>Successfully unsubscribed from notification group</p>")
    const skipped = await run(
      Effect.gen(function* () {
        yield* ServerEmails.sendEmail({ userIds: [result.user.id], templateId: result.templateId, variables: { issue: 8 } })
        return (yield* EmailOutbox.list({ status: "skipped" })).items
      })
    )
    expect(skipped.map((email) => email.status === "skipped" && email.skippedReason)).toEqual(["USER_UNSUBSCRIBED"])
    expect(main.server.emulator.outbox({ email: "e2e-mail@example.com" })).toHaveLength(2)
  })

  it("the outbox: a scheduled e-mail read, paused, cancelled, then not editable; an unknown id is OutboxEmailNotFound", async () => {
    const result = await run(
      Effect.gen(function* () {
        const user = yield* ServerUsers.create({ primaryEmail: "e2e-later@example.com" })
        yield* ServerEmails.sendEmail({ userIds: [user.id], html: "<p>Later</p>", scheduledAt: new Date(Date.now() + 24 * 60 * 60 * 1000) })
        const scheduled = (yield* EmailOutbox.list({ status: "scheduled", limit: 1 })).items[0]!
        const read = yield* EmailOutbox.get(scheduled.id)
        const paused = yield* EmailOutbox.pause(scheduled.id)
        const cancelled = yield* EmailOutbox.cancel(scheduled.id)
        const refused = yield* Effect.flip(EmailOutbox.cancel(scheduled.id))
        const missing = yield* Effect.flip(EmailOutbox.get("3f2504e0-4f89-41d3-9a0c-0305e82c3301"))
        return { scheduled, read, paused, cancelled, refused, missing }
      })
    )
    expect(result.read).toEqual(result.scheduled)
    expect(result.paused.status).toBe("paused")
    expect(result.cancelled).toMatchObject({ status: "skipped", skippedReason: "MANUALLY_CANCELLED" })
    expect(result.refused._tag).toBe("EmailNotEditable")
    expect(result.missing._tag).toBe("OutboxEmailNotFound")
    expect(main.server.emulator.outbox({ email: "e2e-later@example.com" })).toEqual([])
  })

  it("themes and previews: list, create, get, update, preview with a theme", async () => {
    const result = await run(
      Effect.gen(function* () {
        const themes = yield* EmailThemes.list()
        const id = yield* EmailThemes.create("E2E brand")
        yield* EmailThemes.update(id, "export function EmailTheme({ children }) { return <section className=\"e2e\">{children}</section> }")
        const theme = yield* EmailThemes.get(id)
        const preview = yield* EmailThemes.preview({
          templateTsxSource:
            "import { Subject } from \"@stackframe/emails\"\nexport function EmailTemplate({ user }) { return <><Subject value=\"Hi\" /><p>{user.displayName}</p></> }",
          themeId: id
        })
        const broken = yield* Effect.flip(EmailThemes.update(id, "export function EmailTheme( {"))
        return { themes, id, theme, preview, broken }
      })
    )
    expect(result.themes.map((theme) => theme.displayName)).toContain("Default Dark")
    expect(result.theme.displayName).toBe("E2E brand")
    expect(result.preview).toMatchObject({ subject: "Hi" })
    expect(result.preview.html).toContain("<section class=\"e2e\"><p>John Doe</p></section>")
    expect(result.broken._tag).toBe("EmailRenderingError")
  })

  it("drafts: create, update, send to a user (sentAt recorded), delete", async () => {
    const result = await run(
      Effect.gen(function* () {
        const user = yield* ServerUsers.create({ primaryEmail: "e2e-draft@example.com", displayName: "Dee" })
        const id = yield* EmailDrafts.create({ displayName: "E2E draft" })
        yield* EmailDrafts.update(id, {
          tsxSource:
            "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate({ user }) { return <><Subject value=\"Draft\" /><NotificationCategory value=\"Transactional\" /><p>Dear {user.displayName}</p></> }"
        })
        yield* ServerEmails.sendEmail({ userIds: [user.id], draftId: id })
        const sent = yield* EmailDrafts.get(id)
        const listed = yield* EmailDrafts.list()
        yield* EmailDrafts.delete(id)
        const gone = yield* Effect.flip(EmailDrafts.get(id))
        return { sent, listed, gone }
      })
    )
    expect(result.sent.sentAt).toBeInstanceOf(Date)
    expect(result.listed.map((draft) => draft.displayName)).toContain("E2E draft")
    expect(result.gone._tag).toBe("EmailDraftNotFound")
    const entry = main.server.emulator.outbox({ email: "e2e-draft@example.com" })[0]!
    expect(entry.subject).toBe("Draft")
    expect(entry.html.replaceAll("<!-- -->", "")).toContain("<p>Dear Dee</p>")
  })

  it("a capacity boost shows in the delivery statistics; a second one is refused", async () => {
    const result = await run(
      Effect.gen(function* () {
        const expiresAt = yield* ServerEmails.activateCapacityBoost()
        const stats = yield* ServerEmails.getDeliveryStats()
        const again = yield* Effect.flip(ServerEmails.activateCapacityBoost())
        return { expiresAt, stats, again }
      })
    )
    expect(result.stats.capacity).toMatchObject({ isBoostActive: true, boostMultiplier: 4, boostExpiresAt: result.expiresAt.toISOString() })
    expect(result.again._tag).toBe("EmailCapacityBoostAlreadyActive")
  })

  it("the managed provider: set up, checked until verified (the service's mock: 1 s), listed, applied", async () => {
    const result = await run(
      Effect.gen(function* () {
        const domain = yield* Emails.setupManagedEmailProvider({ subdomain: "e2e.example.com", senderLocalPart: "team" })
        const check = { domainId: domain.domainId, subdomain: domain.subdomain, senderLocalPart: "team" }
        const first = yield* Emails.checkManagedEmailStatus(check)
        // the server runs on the real clock: poll until the mock verifies the domain
        let status = first
        for (let attempt = 0; attempt < 50 && status !== "verified"; attempt++) {
          yield* Effect.sleep("100 millis")
          status = yield* Emails.checkManagedEmailStatus(check)
        }
        yield* Emails.applyManagedEmailProvider({ domainId: domain.domainId })
        const listed = yield* Emails.listManagedEmailDomains()
        return { domain, first, status, listed }
      })
    )
    expect(result.domain).toMatchObject({ subdomain: "e2e.example.com", nameServerRecords: ["ns1.dnsimple.com", "ns2.dnsimple.com"] })
    expect(result.first).toBe("pending_verification")
    expect(result.status).toBe("verified")
    expect(result.listed.find((item) => item.domainId === result.domain.domainId)!.status).toBe("applied")
  })

  it("the test webhook's not-found outcome; a sign-in invitation into the outbox", async () => {
    const result = await run(
      Effect.gen(function* () {
        const webhook = yield* Emails.sendTestWebhook({ endpointId: "ep_e2e" })
        yield* Emails.sendSignInInvitationEmail("e2e-invite@example.com", "http://localhost:3000/handler/sign-in")
        return { webhook }
      })
    )
    expect(result.webhook).toEqual({ success: false, errorMessage: "Endpoint not found. Make sure it still exists." })
    expect(main.server.emulator.outbox({ email: "e2e-invite@example.com" })[0]).toMatchObject({ kind: "sign_in_invitation" })
  })
})
