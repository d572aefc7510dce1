/**
 * Type tests for sending e-mail, the outbox, themes and drafts: the exclusive options of
 * `sendEmail` and `preview`, the outbox's union of states (narrowed by `status`), the error
 * channels and the access each call needs. Checked by `tsc`; a no-op at run time.
 */
import { describe, expectTypeOf, it } from "vitest"
import type { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type * as EmailDrafts from "../../src/emails/EmailDrafts.js"
import type * as Emails from "../../src/emails/Emails.js"
import type * as EmailOutbox from "../../src/emails/EmailOutbox.js"
import type * as EmailThemes from "../../src/emails/EmailThemes.js"
import type * as ServerEmails from "../../src/emails/ServerEmails.js"
import type { AdminCommon, ErrorOf, RequirementsOf, ServerCommon, SuccessOf, Transport } from "./support.js"

type AdminErrors = AdminCommon | UserNotSignedIn | Transport

// no-ops at run time: the calls below are checked by tsc
const send = (_options: ServerEmails.SendEmailOptions): void => undefined
const preview = (_options: EmailThemes.PreviewOptions): void => undefined

describe("ServerEmails", () => {
  it("sendEmail: exactly one of userIds / allUsers and one of html / templateId / draftId", () => {
    send({ userIds: ["u"], html: "<p>x</p>" })
    send({ allUsers: true, templateId: "t", variables: { n: 1 }, themeId: false, scheduledAt: new Date() })
    send({ userIds: [], draftId: "d", notificationCategoryName: "Marketing" })
    // @ts-expect-error both recipients
    send({ userIds: ["u"], allUsers: true, html: "x" })
    // @ts-expect-error no recipient
    send({ html: "x" })
    // @ts-expect-error two contents
    send({ userIds: ["u"], html: "x", templateId: "t" })
    // @ts-expect-error no content
    send({ userIds: ["u"] })
    // @ts-expect-error variables only with a template
    send({ userIds: ["u"], html: "x", variables: {} })
  })

  it("sendEmail: server access; the custom-server, user and reference errors", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerEmails.sendEmail>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerEmails.sendEmail>>>().toEqualTypeOf<
      | ServerCommon
      | Transport
      | InvalidArgument
      | KnownErrors.RequiresCustomEmailServer
      | KnownErrors.UserIdDoesNotExist
      | ServerEmails.SendEmailReferenceNotFound
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerEmails.sendEmail>>>().toEqualTypeOf<ReadonlyArray<ServerEmails.SendEmailResult>>()
  })

  it("getDeliveryStats: server access, the four windows and the capacity", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerEmails.getDeliveryStats>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerEmails.getDeliveryStats>>>().toEqualTypeOf<ServerCommon | Transport>()
    expectTypeOf<keyof SuccessOf<ReturnType<typeof ServerEmails.getDeliveryStats>>["stats"]>().toEqualTypeOf<"hour" | "day" | "week" | "month">()
  })

  it("activateCapacityBoost: server access; refused while a boost runs; answers when it ends", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerEmails.activateCapacityBoost>>>().toEqualTypeOf<
      ServerCommon | Transport | InvalidArgument | KnownErrors.EmailCapacityBoostAlreadyActive
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerEmails.activateCapacityBoost>>>().toEqualTypeOf<Date>()
  })
})

describe("EmailOutbox", () => {
  it("the 15 states of the service, three summed-up ones", () => {
    expectTypeOf<EmailOutbox.OutboxEmailStatus>().toEqualTypeOf<
      | "paused"
      | "preparing"
      | "rendering"
      | "render-error"
      | "scheduled"
      | "queued"
      | "sending"
      | "server-error"
      | "skipped"
      | "bounced"
      | "delivery-delayed"
      | "sent"
      | "opened"
      | "clicked"
      | "marked-as-spam"
    >()
    expectTypeOf<EmailOutbox.OutboxEmailSimpleStatus>().toEqualTypeOf<"in-progress" | "ok" | "error">()
  })

  it("status narrows the fields: delivered ones carry deliveredAt, skipped ones the reason, render errors the text", () => {
    expectTypeOf<Extract<EmailOutbox.OutboxEmail, { readonly status: "sent" }>["deliveredAt"]>().toEqualTypeOf<Date>()
    expectTypeOf<Extract<EmailOutbox.OutboxEmail, { readonly status: "sent" }>["hasDelivered"]>().toEqualTypeOf<true>()
    expectTypeOf<Extract<EmailOutbox.OutboxEmail, { readonly status: "skipped" }>["skippedReason"]>().toEqualTypeOf<string>()
    expectTypeOf<Extract<EmailOutbox.OutboxEmail, { readonly status: "render-error" }>["renderError"]>().toEqualTypeOf<string>()
    expectTypeOf<Extract<EmailOutbox.OutboxEmail, { readonly status: "paused" }>["isPaused"]>().toEqualTypeOf<true>()
    expectTypeOf<Extract<EmailOutbox.OutboxEmail, { readonly status: "preparing" }>>().not.toHaveProperty("subject")
    expectTypeOf<EmailOutbox.OutboxRecipient["type"]>().toEqualTypeOf<"user-primary-email" | "user-custom-emails" | "custom-emails">()
  })

  it("admin access; get and update may not find the e-mail; update may find it not editable", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof EmailOutbox.list>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailOutbox.list>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailOutbox.get>>>().toEqualTypeOf<AdminErrors | InvalidArgument | EmailOutbox.OutboxEmailNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailOutbox.cancel>>>().toEqualTypeOf<
      AdminErrors | InvalidArgument | KnownErrors.EmailNotEditable | EmailOutbox.OutboxEmailNotFound
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof EmailOutbox.cancel>>>().toEqualTypeOf<EmailOutbox.OutboxEmail>()
  })
})

describe("Emails: the managed provider", () => {
  it("admin access; the states of a managed domain", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof Emails.setupManagedEmailProvider>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<SuccessOf<ReturnType<typeof Emails.checkManagedEmailStatus>>>().toEqualTypeOf<
      "pending_dns" | "pending_verification" | "verified" | "applied" | "failed"
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof Emails.applyManagedEmailProvider>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
  })
})

describe("EmailThemes and EmailDrafts", () => {
  it("preview: one template (id or source), at most one theme (id or source)", () => {
    preview({ templateId: "t" })
    preview({ templateTsxSource: "s", themeId: null })
    preview({ templateId: "t", themeTsxSource: "s" })
    // @ts-expect-error two templates
    preview({ templateId: "t", templateTsxSource: "s" })
    // @ts-expect-error no template
    preview({ themeId: false })
    // @ts-expect-error two themes
    preview({ templateId: "t", themeId: false, themeTsxSource: "s" })
  })

  it("admin access; a theme or draft that is not there is its own error", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof EmailThemes.list>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailThemes.get>>>().toEqualTypeOf<AdminErrors | InvalidArgument | EmailThemes.EmailThemeNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailThemes.update>>>().toEqualTypeOf<
      AdminErrors | InvalidArgument | KnownErrors.EmailRenderingError | EmailThemes.EmailThemeNotFound
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailThemes.preview>>>().toEqualTypeOf<AdminErrors | InvalidArgument | KnownErrors.EmailRenderingError>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailDrafts.delete>>>().toEqualTypeOf<AdminErrors | InvalidArgument | EmailDrafts.EmailDraftNotFound>()
    expectTypeOf<EmailDrafts.EmailDraft["themeId"]>().toEqualTypeOf<string | false | undefined>()
  })
})
