/**
 * Sending a test e-mail through an SMTP configuration, and the log of e-mails the project sent
 * (PROTOCOL.md §3.0 "Sent e-mail", §3.7; wire samples emails/*). Admin access only.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import { DateFromMillis, field, optionalField } from "../core/Wire.js"

/** An SMTP server configuration to test (all fields required; the password is `Redacted`). */
export const SmtpConfig = Schema.Struct({
  host: Schema.String,
  port: Schema.Int,
  username: Schema.String,
  password: Schema.Redacted(Schema.String),
  senderName: field("sender_name", Schema.String),
  senderEmail: field("sender_email", Schema.String)
})

/** An SMTP server configuration. */
export type SmtpConfig = typeof SmtpConfig.Type

/** The outcome of a test e-mail: `success`, or `success: false` with the server's error message. */
export const TestEmailResult = Schema.Struct({
  success: Schema.Boolean,
  errorMessage: optionalField("error_message", Schema.String)
})

/** The outcome of a test e-mail. */
export type TestEmailResult = typeof TestEmailResult.Type

/** An e-mail the project sent. `to`: addresses, or one `"User ID: <uuid>"` entry; `error`: render/send error or null. */
export const SentEmail = Schema.Struct({
  id: Schema.String,
  subject: Schema.String,
  sentAt: field("sent_at_millis", DateFromMillis),
  to: optionalField("to", Schema.Array(Schema.String)),
  error: optionalField("error", Schema.NullOr(Schema.String))
})

/** An e-mail the project sent. */
export type SentEmail = typeof SentEmail.Type

/** `POST /internal/send-test-email` (admin access). */
export const sendTestEmailEndpoint = Endpoint.make({
  name: "Emails.sendTestEmail",
  method: "POST",
  path: "/internal/send-test-email",
  access: "admin",
  session: "none",
  payload: Schema.Struct({
    recipientEmail: field("recipient_email", Schema.String),
    emailConfig: field("email_config", SmtpConfig)
  }),
  success: TestEmailResult,
  errors: []
})

/** `GET /internal/emails` (admin access). */
export const listSentEndpoint = Endpoint.make({
  name: "Emails.listSent",
  method: "GET",
  path: "/internal/emails",
  access: "admin",
  session: "none",
  success: Schema.Struct({ items: Schema.Array(SentEmail), isPaginated: optionalField("is_paginated", Schema.Boolean) }),
  errors: []
})

/**
 * Sends a test e-mail to `recipientEmail` through the given SMTP configuration. A failure to send
 * (including the service's 10 s timeout) is an answer, not an error: `{ success: false,
 * errorMessage }`. `POST /internal/send-test-email`; needs `AdminAccess`.
 */
export const sendTestEmail = Effect.fn("Emails.sendTestEmail")(function* (input: {
  readonly recipientEmail: string
  readonly emailConfig: SmtpConfig
}) {
  return yield* Endpoint.call(sendTestEmailEndpoint, { payload: input })
})

/**
 * The e-mails the project sent, newest first (the newest 100 only; not paginated).
 * `GET /internal/emails`; needs `AdminAccess`.
 */
export const listSentEmails = Effect.fn("Emails.listSentEmails")(function* () {
  const answer = yield* Endpoint.call(listSentEndpoint, {})
  return answer.items
})
