/**
 * The wire definitions of `ServerEmails` and `EmailOutbox` (docs/ARCHITECTURE.md): sending e-mail
 * (`POST /emails/send-email`), the delivery statistics (`GET /emails/delivery-info`) and the
 * e-mail outbox (`GET /emails/outbox`, `GET|PATCH /emails/outbox/{id}`), as the service defines
 * them (backend `apps/backend/src/app/api/latest/emails/…` and
 * `packages/stack-shared/src/interface/crud/email-outbox.ts` at 2f719903). Not part of the public
 * surface.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { EmailCapacityBoostAlreadyActive, EmailNotEditable, RequiresCustomEmailServer, UserIdDoesNotExist } from "../../core/KnownErrors.js"
import { DateFromMillis, field, Json, optionalField, Uuid, wireStruct } from "../../core/Wire.js"
import { ThemeId } from "./emailTemplates.js"

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

/**
 * The body of `POST /emails/send-email` on the domain's terms: the recipients (`userIds` or
 * `allUsers: true`, exactly one), the content (`html`, `templateId` with `variables`, or
 * `draftId`, exactly one), and the options. The service checks the exclusive pairs; the public
 * `ServerEmails.sendEmail` types them.
 */
export const SendEmailPayload = wireStruct({
  userIds: optionalField("user_ids", Schema.Array(Schema.String)),
  allUsers: optionalField("all_users", Schema.Literal(true)),
  html: optionalField("html", Schema.String),
  templateId: optionalField("template_id", Uuid),
  variables: optionalField("variables", Schema.Record(Schema.String, Json)),
  draftId: optionalField("draft_id", Schema.String),
  subject: optionalField("subject", Schema.String),
  notificationCategoryName: optionalField("notification_category_name", Schema.String),
  themeId: optionalField("theme_id", ThemeId),
  isHighPriority: optionalField("is_high_priority", Schema.Boolean),
  scheduledAt: optionalField("scheduled_at_millis", DateFromMillis)
})

/** The body of `POST /emails/send-email` on the domain's terms. */
export type SendEmailPayload = typeof SendEmailPayload.Type

/** One recipient of a sent e-mail (`results[]`: the user it went to). */
export const SendEmailResult = wireStruct({ userId: field("user_id", Schema.String) })

/** One recipient of a sent e-mail. */
export type SendEmailResult = typeof SendEmailResult.Type

/** `POST /emails/send-email` (server access). */
export const sendEmailEndpoint = Endpoint.make({
  name: "ServerEmails.sendEmail",
  method: "POST",
  path: "/emails/send-email",
  access: "server",
  session: "none",
  payload: SendEmailPayload,
  success: Schema.Struct({ results: Schema.Array(SendEmailResult) }),
  errors: [RequiresCustomEmailServer, UserIdDoesNotExist]
})

// ---------------------------------------------------------------------------------------------
// Delivery statistics
// ---------------------------------------------------------------------------------------------

/** E-mails of one time window: sent, bounced and marked as spam. */
export const EmailDeliveryWindowStats = wireStruct({
  sent: Schema.Finite,
  bounced: Schema.Finite,
  markedAsSpam: field("marked_as_spam", Schema.Finite)
})

/** E-mails of one time window. */
export type EmailDeliveryWindowStats = typeof EmailDeliveryWindowStats.Type

/** The project's sending capacity: e-mails per second, the boost and the penalty for bounces and spam. */
export const EmailDeliveryCapacity = wireStruct({
  ratePerSecond: field("rate_per_second", Schema.Finite),
  boostMultiplier: field("boost_multiplier", Schema.Finite),
  penaltyFactor: field("penalty_factor", Schema.Finite),
  isBoostActive: field("is_boost_active", Schema.Boolean),
  /** When the capacity boost ends (ISO text on the wire), null without one. */
  boostExpiresAt: field("boost_expires_at", Schema.NullOr(Schema.String))
})

/** The project's sending capacity. */
export type EmailDeliveryCapacity = typeof EmailDeliveryCapacity.Type

/** The answer of `GET /emails/delivery-info`: statistics of the last hour, day, week and month, and the capacity. */
export const EmailDeliveryInfo = Schema.Struct({
  stats: Schema.Struct({
    hour: EmailDeliveryWindowStats,
    day: EmailDeliveryWindowStats,
    week: EmailDeliveryWindowStats,
    month: EmailDeliveryWindowStats
  }),
  capacity: EmailDeliveryCapacity
})

/** Delivery statistics and capacity of the project. */
export type EmailDeliveryInfo = typeof EmailDeliveryInfo.Type

/** `GET /emails/delivery-info` (server access). */
export const deliveryInfoEndpoint = Endpoint.make({
  name: "ServerEmails.getDeliveryStats",
  method: "GET",
  path: "/emails/delivery-info",
  access: "server",
  session: "none",
  success: EmailDeliveryInfo,
  errors: []
})

/** `POST /emails/capacity-boost` (server access; backend `emails/capacity-boost/route.tsx`): four times the capacity for 4 hours. */
export const capacityBoostEndpoint = Endpoint.make({
  name: "ServerEmails.activateCapacityBoost",
  method: "POST",
  path: "/emails/capacity-boost",
  access: "server",
  session: "none",
  payload: Schema.Struct({}),
  success: wireStruct({ expiresAt: field("expires_at", Schema.String) }),
  errors: [EmailCapacityBoostAlreadyActive]
})

// ---------------------------------------------------------------------------------------------
// The outbox
// ---------------------------------------------------------------------------------------------

/** Who an outbox e-mail goes to: a user's primary e-mail, given addresses of a user, or addresses. */
export const OutboxRecipient = Schema.Union([
  wireStruct({ type: Schema.Literal("user-primary-email"), userId: field("user_id", Schema.String) }),
  wireStruct({ type: Schema.Literal("user-custom-emails"), userId: field("user_id", Schema.String), emails: Schema.Array(Schema.String) }),
  wireStruct({ type: Schema.Literal("custom-emails"), emails: Schema.Array(Schema.String) })
])

/** Who an outbox e-mail goes to. */
export type OutboxRecipient = typeof OutboxRecipient.Type

/** A failed attempt to send an outbox e-mail. */
export const SendAttemptError = wireStruct({
  attemptNumber: field("attempt_number", Schema.Finite),
  timestamp: Schema.String,
  externalMessage: field("external_message", Schema.String),
  externalDetails: field("external_details", Schema.Record(Schema.String, Json)),
  internalMessage: field("internal_message", Schema.String),
  internalDetails: field("internal_details", Schema.Record(Schema.String, Json))
})

/** A failed attempt to send an outbox e-mail. */
export type SendAttemptError = typeof SendAttemptError.Type

const baseFields = {
  id: Schema.String,
  createdAt: field("created_at_millis", DateFromMillis),
  updatedAt: field("updated_at_millis", DateFromMillis),
  tsxSource: field("tsx_source", Schema.String),
  themeId: field("theme_id", Schema.NullOr(Schema.String)),
  to: OutboxRecipient,
  variables: Schema.Record(Schema.String, Json),
  skipDeliverabilityCheck: field("skip_deliverability_check", Schema.Boolean),
  scheduledAt: field("scheduled_at_millis", DateFromMillis),
  createdWith: field("created_with", Schema.Literals(["draft", "programmatic-call"])),
  emailDraftId: field("email_draft_id", Schema.NullOr(Schema.String)),
  emailProgrammaticCallTemplateId: field("email_programmatic_call_template_id", Schema.NullOr(Schema.String)),
  sendRetries: field("send_retries", Schema.Finite),
  nextSendRetryAt: field("next_send_retry_at_millis", Schema.NullOr(DateFromMillis)),
  sendAttemptErrors: field("send_attempt_errors", Schema.NullOr(Schema.Array(SendAttemptError))),
  isPaused: field("is_paused", Schema.Literal(false)),
  hasRendered: field("has_rendered", Schema.Literal(false)),
  hasDelivered: field("has_delivered", Schema.Literal(false))
} as const

const renderedFields = {
  ...baseFields,
  hasRendered: field("has_rendered", Schema.Literal(true)),
  startedRenderingAt: field("started_rendering_at_millis", DateFromMillis),
  renderedAt: field("rendered_at_millis", DateFromMillis),
  subject: Schema.String,
  html: Schema.NullOr(Schema.String),
  text: Schema.NullOr(Schema.String),
  isTransactional: field("is_transactional", Schema.Boolean),
  isHighPriority: field("is_high_priority", Schema.Boolean),
  notificationCategoryId: field("notification_category_id", Schema.NullOr(Schema.String))
} as const

const startedSendingFields = { ...renderedFields, startedSendingAt: field("started_sending_at_millis", DateFromMillis) } as const

const deliveredFields = {
  ...startedSendingFields,
  hasDelivered: field("has_delivered", Schema.Literal(true)),
  deliveredAt: field("delivered_at_millis", DateFromMillis)
} as const

const status = <const S extends string, const T extends string>(value: S, simple: T) => ({
  status: Schema.Literal(value),
  simpleStatus: field("simple_status", Schema.Literal(simple))
})

/**
 * An e-mail of the outbox, one shape per `status` (the service's 15 states, grouped by the fields
 * they carry): what it knows of the e-mail grows as it is rendered (`hasRendered: true`: subject,
 * HTML, text, category), sent (`startedSendingAt`) and delivered (`hasDelivered: true`).
 * `simpleStatus` sums it up: `"in-progress"`, `"ok"` or `"error"`.
 */
export const OutboxEmail = Schema.Union([
  wireStruct({ ...baseFields, ...status("paused", "in-progress"), isPaused: field("is_paused", Schema.Literal(true)) }),
  wireStruct({ ...baseFields, ...status("preparing", "in-progress") }),
  wireStruct({ ...baseFields, ...status("rendering", "in-progress"), startedRenderingAt: field("started_rendering_at_millis", DateFromMillis) }),
  wireStruct({
    ...baseFields,
    ...status("render-error", "error"),
    startedRenderingAt: field("started_rendering_at_millis", DateFromMillis),
    renderedAt: field("rendered_at_millis", DateFromMillis),
    renderError: field("render_error", Schema.String)
  }),
  wireStruct({ ...renderedFields, ...status("scheduled", "in-progress") }),
  wireStruct({ ...renderedFields, ...status("queued", "in-progress") }),
  wireStruct({ ...startedSendingFields, ...status("sending", "in-progress") }),
  wireStruct({
    ...startedSendingFields,
    ...status("server-error", "error"),
    errorAt: field("error_at_millis", DateFromMillis),
    serverError: field("server_error", Schema.String)
  }),
  wireStruct({
    ...baseFields,
    ...status("skipped", "ok"),
    hasRendered: field("has_rendered", Schema.Boolean),
    skippedAt: field("skipped_at_millis", DateFromMillis),
    skippedReason: field("skipped_reason", Schema.String),
    skippedDetails: field("skipped_details", Schema.Record(Schema.String, Json)),
    startedRenderingAt: optionalField("started_rendering_at_millis", DateFromMillis),
    renderedAt: optionalField("rendered_at_millis", DateFromMillis),
    subject: optionalField("subject", Schema.String),
    html: optionalField("html", Schema.NullOr(Schema.String)),
    text: optionalField("text", Schema.NullOr(Schema.String)),
    isTransactional: optionalField("is_transactional", Schema.Boolean),
    isHighPriority: optionalField("is_high_priority", Schema.Boolean),
    notificationCategoryId: optionalField("notification_category_id", Schema.NullOr(Schema.String)),
    startedSendingAt: optionalField("started_sending_at_millis", DateFromMillis)
  }),
  wireStruct({ ...startedSendingFields, ...status("bounced", "error"), bouncedAt: field("bounced_at_millis", DateFromMillis) }),
  wireStruct({
    ...startedSendingFields,
    ...status("delivery-delayed", "ok"),
    deliveryDelayedAt: field("delivery_delayed_at_millis", DateFromMillis)
  }),
  wireStruct({ ...deliveredFields, ...status("sent", "ok"), canHaveDeliveryInfo: field("can_have_delivery_info", Schema.Boolean) }),
  wireStruct({
    ...deliveredFields,
    ...status("opened", "ok"),
    openedAt: field("opened_at_millis", DateFromMillis),
    canHaveDeliveryInfo: field("can_have_delivery_info", Schema.Literal(true))
  }),
  wireStruct({
    ...deliveredFields,
    ...status("clicked", "ok"),
    clickedAt: field("clicked_at_millis", DateFromMillis),
    canHaveDeliveryInfo: field("can_have_delivery_info", Schema.Literal(true))
  }),
  wireStruct({
    ...deliveredFields,
    ...status("marked-as-spam", "ok"),
    markedAsSpamAt: field("marked_as_spam_at_millis", DateFromMillis),
    canHaveDeliveryInfo: field("can_have_delivery_info", Schema.Literal(true))
  })
])

/** An e-mail of the outbox (one shape per `status`). */
export type OutboxEmail = typeof OutboxEmail.Type

/** The states of an outbox e-mail. */
export type OutboxEmailStatus = OutboxEmail["status"]

/** The summed-up states of an outbox e-mail. */
export type OutboxEmailSimpleStatus = OutboxEmail["simpleStatus"]

/** Filters and page of `GET /emails/outbox` (`limit`: 1–100, default 100; `cursor`: an e-mail id). */
export const OutboxListQuery = wireStruct({
  status: optionalField("status", Schema.String),
  simpleStatus: optionalField("simple_status", Schema.String),
  limit: optionalField("limit", Schema.String),
  cursor: optionalField("cursor", Schema.String)
})

/** `GET /emails/outbox` (admin access, as the official admin app calls it; the service takes server access too). */
export const outboxListEndpoint = Endpoint.make({
  name: "EmailOutbox.list",
  method: "GET",
  path: "/emails/outbox",
  access: "admin",
  session: "none",
  query: OutboxListQuery,
  success: wireStruct({
    items: Schema.Array(OutboxEmail),
    isPaginated: field("is_paginated", Schema.Boolean),
    pagination: optionalField("pagination", wireStruct({ nextCursor: field("next_cursor", Schema.NullOr(Schema.String)) }))
  }),
  errors: []
})

const OutboxParams = wireStruct({ id: Uuid })

/** `GET /emails/outbox/{id}` (admin access). */
export const outboxGetEndpoint = Endpoint.make({
  name: "EmailOutbox.get",
  method: "GET",
  path: "/emails/outbox/:id",
  access: "admin",
  session: "none",
  params: OutboxParams,
  success: OutboxEmail,
  errors: []
})

/** What to change in an outbox e-mail (`PATCH /emails/outbox/{id}`); `cancel: true` skips it. */
export const OutboxEmailUpdate = wireStruct({
  tsxSource: optionalField("tsx_source", Schema.String),
  themeId: optionalField("theme_id", Schema.NullOr(Schema.String)),
  to: optionalField("to", OutboxRecipient),
  variables: optionalField("variables", Schema.Record(Schema.String, Json)),
  skipDeliverabilityCheck: optionalField("skip_deliverability_check", Schema.Boolean),
  scheduledAt: optionalField("scheduled_at_millis", DateFromMillis),
  isPaused: optionalField("is_paused", Schema.Boolean),
  cancel: optionalField("cancel", Schema.Literal(true))
})

/** What to change in an outbox e-mail. */
export type OutboxEmailUpdate = typeof OutboxEmailUpdate.Type

/** `PATCH /emails/outbox/{id}` (admin access). */
export const outboxUpdateEndpoint = Endpoint.make({
  name: "EmailOutbox.update",
  method: "PATCH",
  path: "/emails/outbox/:id",
  access: "admin",
  session: "none",
  params: OutboxParams,
  payload: OutboxEmailUpdate,
  success: OutboxEmail,
  errors: [EmailNotEditable]
})

/** The service's 404 text for an outbox id it does not hold. */
export const outboxNotFoundText = "Email not found"

/** The service's 400 text when `send-email` names a notification category it does not have. */
export const categoryNotFoundByNameText = "Notification category not found with given name"

/** The service's 400 text when `send-email` names a template the project does not have. */
export const templateNotFoundText = "No template found with given template_id"

/** The service's 400 text when `send-email` names a draft the project does not have. */
export const draftNotFoundText = "No draft found with given draft_id"
