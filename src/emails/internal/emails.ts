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

/** The state of a managed e-mail domain (the service's onboarding states). */
export const ManagedEmailDomainStatus = Schema.Literals(["pending_dns", "pending_verification", "verified", "applied", "failed"])

/** The state of a managed e-mail domain. */
export type ManagedEmailDomainStatus = typeof ManagedEmailDomainStatus.Type

/** A managed e-mail domain: its provider id, subdomain, sender, name servers to delegate to, state. */
export const ManagedEmailDomain = wireStruct({
  domainId: field("domain_id", Schema.String),
  subdomain: Schema.String,
  senderLocalPart: field("sender_local_part", Schema.String),
  nameServerRecords: field("name_server_records", Schema.Array(Schema.String)),
  status: ManagedEmailDomainStatus
})

/** A managed e-mail domain. */
export type ManagedEmailDomain = typeof ManagedEmailDomain.Type

/** `POST /internal/emails/managed-onboarding/setup` (admin access; backend `internal/emails/managed-onboarding/setup/route.tsx`). */
export const managedSetupEndpoint = Endpoint.make({
  name: "Emails.setupManagedEmailProvider",
  method: "POST",
  path: "/internal/emails/managed-onboarding/setup",
  access: "admin",
  session: "none",
  payload: wireStruct({ subdomain: Schema.String, senderLocalPart: field("sender_local_part", Schema.String) }),
  success: ManagedEmailDomain,
  errors: []
})

/** `POST /internal/emails/managed-onboarding/check` (admin access). */
export const managedCheckEndpoint = Endpoint.make({
  name: "Emails.checkManagedEmailStatus",
  method: "POST",
  path: "/internal/emails/managed-onboarding/check",
  access: "admin",
  session: "none",
  payload: wireStruct({
    domainId: field("domain_id", Schema.String),
    subdomain: Schema.String,
    senderLocalPart: field("sender_local_part", Schema.String)
  }),
  success: Schema.Struct({ status: ManagedEmailDomainStatus }),
  errors: []
})

/** `GET /internal/emails/managed-onboarding/list` (admin access). */
export const managedListEndpoint = Endpoint.make({
  name: "Emails.listManagedEmailDomains",
  method: "GET",
  path: "/internal/emails/managed-onboarding/list",
  access: "admin",
  session: "none",
  success: Schema.Struct({ items: Schema.Array(ManagedEmailDomain) }),
  errors: []
})

/** `POST /internal/emails/managed-onboarding/apply` (admin access). */
export const managedApplyEndpoint = Endpoint.make({
  name: "Emails.applyManagedEmailProvider",
  method: "POST",
  path: "/internal/emails/managed-onboarding/apply",
  access: "admin",
  session: "none",
  payload: wireStruct({ domainId: field("domain_id", Schema.String) }),
  success: Schema.Struct({ status: Schema.Literal("applied") }),
  errors: []
})
