/**
 * The wire definitions of `Emails` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Emails.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { RedirectUrlNotWhitelisted } from "../../core/KnownErrors.js"
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

/** The outcome of a test webhook: `success`, or `success: false` with the service's message. */
export const TestWebhookResult = wireStruct({
  success: Schema.Boolean,
  errorMessage: optionalField("error_message", Schema.String)
})

/** The outcome of a test webhook. */
export type TestWebhookResult = typeof TestWebhookResult.Type

/** `POST /internal/send-test-webhook` (admin access; backend `internal/send-test-webhook/route.tsx`). */
export const sendTestWebhookEndpoint = Endpoint.make({
  name: "Emails.sendTestWebhook",
  method: "POST",
  path: "/internal/send-test-webhook",
  access: "admin",
  session: "none",
  payload: wireStruct({ endpointId: field("endpoint_id", Schema.String) }),
  success: TestWebhookResult,
  errors: []
})

/** The service's `error_message` when the webhook endpoint does not exist (its Svix application has no such endpoint). */
export const webhookEndpointNotFoundText = "Endpoint not found. Make sure it still exists."

/** `POST /internal/send-sign-in-invitation` (admin access; backend `internal/send-sign-in-invitation/route.tsx`). */
export const sendSignInInvitationEndpoint = Endpoint.make({
  name: "Emails.sendSignInInvitationEmail",
  method: "POST",
  path: "/internal/send-sign-in-invitation",
  access: "admin",
  session: "none",
  payload: wireStruct({ email: Schema.String, callbackUrl: field("callback_url", Schema.String) }),
  success: Schema.Struct({ success: Schema.Literal(true) }),
  errors: [RedirectUrlNotWhitelisted]
})
