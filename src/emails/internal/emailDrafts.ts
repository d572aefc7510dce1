/**
 * The wire definitions of `EmailDrafts` (docs/ARCHITECTURE.md): the project's e-mail drafts
 * (`/internal/email-drafts`, backend `apps/backend/src/app/api/latest/internal/email-drafts/` at
 * 2f719903), e-mails written once and sent with `ServerEmails.sendEmail({ draftId })`. Not part of
 * the public surface.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { DateFromMillis, field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"

/** A draft's theme: a theme uuid or `false` (no theme); absent means the project's theme. */
export const DraftThemeId = Schema.Union([Uuid, Schema.Literal(false)])

/** A draft's theme: a theme uuid or `false` (no theme). */
export type DraftThemeId = typeof DraftThemeId.Type

/** An e-mail draft. `sentAt`: when it was last sent (null before). */
export const EmailDraft = wireStruct({
  id: Uuid,
  displayName: field("display_name", Schema.String),
  tsxSource: field("tsx_source", Schema.String),
  themeId: optionalField("theme_id", DraftThemeId),
  sentAt: optionalField("sent_at_millis", Schema.NullOr(DateFromMillis))
})

/** An e-mail draft. */
export type EmailDraft = typeof EmailDraft.Type

/** A new draft: its name, and optionally its theme and TSX source (the service's default source otherwise). */
export const EmailDraftCreate = wireStruct({
  displayName: field("display_name", Schema.String),
  themeId: optionalField("theme_id", DraftThemeId),
  tsxSource: optionalField("tsx_source", Schema.String)
})

/** A new draft. */
export type EmailDraftCreate = typeof EmailDraftCreate.Type

/**
 * What to change in a draft. As the service does, a change without `themeId` puts the draft back
 * on the project's theme (backend `internal/email-drafts/[id]/route.tsx`: the theme mode is
 * computed from `theme_id` on every update).
 */
export const EmailDraftUpdate = wireStruct({
  displayName: optionalField("display_name", Schema.String),
  themeId: optionalField("theme_id", DraftThemeId),
  tsxSource: optionalField("tsx_source", Schema.String)
})

/** What to change in a draft. */
export type EmailDraftUpdate = typeof EmailDraftUpdate.Type

const DraftParams = wireStruct({ id: Uuid })

const Ok = Schema.Struct({ ok: Schema.Literal("ok") })

/** `GET /internal/email-drafts` (admin access): newest change first. */
export const listEndpoint = Endpoint.make({
  name: "EmailDrafts.list",
  method: "GET",
  path: "/internal/email-drafts",
  access: "admin",
  session: "none",
  success: Schema.Struct({ drafts: Schema.Array(EmailDraft) }),
  errors: []
})

/** `POST /internal/email-drafts` (admin access). */
export const createEndpoint = Endpoint.make({
  name: "EmailDrafts.create",
  method: "POST",
  path: "/internal/email-drafts",
  access: "admin",
  session: "none",
  payload: EmailDraftCreate,
  success: Schema.Struct({ id: Uuid }),
  errors: []
})

/** `GET /internal/email-drafts/{id}` (admin access). */
export const getEndpoint = Endpoint.make({
  name: "EmailDrafts.get",
  method: "GET",
  path: "/internal/email-drafts/:id",
  access: "admin",
  session: "none",
  params: DraftParams,
  success: EmailDraft,
  errors: []
})

/** `PATCH /internal/email-drafts/{id}` (admin access). */
export const updateEndpoint = Endpoint.make({
  name: "EmailDrafts.update",
  method: "PATCH",
  path: "/internal/email-drafts/:id",
  access: "admin",
  session: "none",
  params: DraftParams,
  payload: EmailDraftUpdate,
  success: Ok,
  errors: []
})

/** `DELETE /internal/email-drafts/{id}` (admin access). */
export const deleteEndpoint = Endpoint.make({
  name: "EmailDrafts.delete",
  method: "DELETE",
  path: "/internal/email-drafts/:id",
  access: "admin",
  session: "none",
  params: DraftParams,
  success: Ok,
  errors: []
})

/** The service's 404 text for a draft id the project does not have. */
export const draftNotFoundText = "No draft found with given id"
