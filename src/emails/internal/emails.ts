/**
 * The wire definitions of `Emails` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Emails.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { DateFromMillis, field, optionalField, wireStruct } from "../../core/Wire.js"

/** An SMTP server configuration to test (all fields required; the password is `Redacted`). */
export const SmtpConfig = wireStruct({
  host: Schema.String,
  port: Schema.Int,
  username: Schema.String,
  password: Schema.RedactedFromValue(Schema.String),
  senderName: field("sender_name", Schema.String),
  senderEmail: field("sender_email", Schema.String)
})

/** An SMTP server configuration. */
export type SmtpConfig = typeof SmtpConfig.Type

/** The outcome of a test e-mail: `success`, or `success: false` with the server's error message. */
export const TestEmailResult = wireStruct({
  success: Schema.Boolean,
  errorMessage: optionalField("error_message", Schema.String)
})

/** The outcome of a test e-mail. */
export type TestEmailResult = typeof TestEmailResult.Type

/** An e-mail the project sent. `to`: addresses, or one `"User ID: <uuid>"` entry; `error`: render/send error or null. */
export const SentEmail = wireStruct({
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
  payload: wireStruct({
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
  success: wireStruct({ items: Schema.Array(SentEmail), isPaginated: optionalField("is_paginated", Schema.Boolean) }),
  errors: []
})
