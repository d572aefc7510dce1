/** Test e-mails and the sent-e-mail log through the SDK against the in-process emulator's real outbox. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { Emails, Password } from "../../src/index.js"
import * as Outbox from "../../src/emulator/Outbox.js"
import { setup } from "./support.js"

const smtp = {
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: Redacted.make("smtp-password"),
  senderName: "Example",
  senderEmail: "noreply@example.com"
}

describe("Emails", () => {
  it.effect("sendTestEmail: success, the e-mail lands in the outbox and in listSentEmails", () =>
    Effect.gen(function* () {
      const { emulator, admin } = yield* setup(false)
      const result = yield* Emails.sendTestEmail({ recipientEmail: "me@example.com", emailConfig: smtp }).pipe(Effect.provide(admin))
      expect(result).toEqual({ success: true })
      const entry = emulator.outbox({ email: "me@example.com" })[0]!
      expect(entry.kind).toBe("test_email")
      expect(entry.text).not.toContain("smtp-password")
      const sent = yield* Emails.listSentEmails().pipe(Effect.provide(admin))
      expect(sent).toEqual([{ id: entry.id, subject: entry.subject, sentAt: new Date(entry.sentAtMillis), to: ["me@example.com"], error: null }])
    }))

  it.effect("sendTestEmail: a port above 65535 is the service's SCHEMA_ERROR (its schema's range), nothing sent", () =>
    Effect.gen(function* () {
      const { emulator, admin } = yield* setup(false)
      const result = yield* Effect.flip(
        Emails.sendTestEmail({ recipientEmail: "me@example.com", emailConfig: { ...smtp, port: 70000 } }).pipe(Effect.provide(admin))
      )
      expect(result._tag).toBe("SchemaError")
      expect(result.message).toContain("body.email_config.port must be less than or equal to 65535")
      expect(emulator.outbox({ email: "me@example.com" })).toEqual([])
    }))

  it.effect("listSentEmails: the real outbox (a sign-up's verification e-mail), newest first", () =>
    Effect.gen(function* () {
      const { admin, client } = yield* setup(false)
      yield* Password.signUpWithPassword({
        email: "new@example.com",
        password: "correct horse battery",
        verificationCallbackUrl: "http://localhost:3000/handler/email-verification"
      }).pipe(Effect.provide(client))
      yield* TestClock.adjust("1 second")
      yield* Emails.sendTestEmail({ recipientEmail: "later@example.com", emailConfig: smtp }).pipe(Effect.provide(admin))
      const sent = yield* Emails.listSentEmails().pipe(Effect.provide(admin))
      expect(sent.map((email) => email.to)).toEqual([["later@example.com"], ["new@example.com"]])
      expect(sent[1]!.subject).toContain("Verify")
    }))

  it.effect("listSentEmails: only this project's e-mails, the newest 100", () =>
    Effect.gen(function* () {
      const { emulator, admin } = yield* setup(false)
      for (let index = 0; index < 105; index++) {
        Outbox.send(emulator.state, {
          projectId: emulator.demo.projectId,
          to: `u${index}@example.com`,
          subject: `#${index}`,
          text: "",
          html: "",
          kind: "magic_link",
          code: null,
          link: null,
          sentAtMillis: 1_000 + index
        })
      }
      Outbox.send(emulator.state, {
        projectId: "other-project",
        to: "x@example.com",
        subject: "other",
        text: "",
        html: "",
        kind: "magic_link",
        code: null,
        link: null,
        sentAtMillis: 9_999
      })
      const sent = yield* Emails.listSentEmails().pipe(Effect.provide(admin))
      expect(sent).toHaveLength(100)
      expect(sent[0]!.subject).toBe("#104")
      expect(sent[99]!.subject).toBe("#5")
    }))
})
