/**
 * The wire definitions of `EmailTemplates` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `EmailTemplates.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { EmailRenderingError, RequiresCustomEmailServer } from "../../core/KnownErrors.js"
import { field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"

/** `theme_id`: a theme uuid, `false` for no theme, `null` for the project's default theme. */
export const ThemeId = Schema.Union([Uuid, Schema.Literal(false), Schema.Null])

/** A theme choice: a theme uuid, `false` (no theme) or `null` (project default). */
export type ThemeId = typeof ThemeId.Type

/** An e-mail template (current config-based API). */
export const EmailTemplate = wireStruct({
  id: Uuid,
  displayName: field("display_name", Schema.String),
  tsxSource: field("tsx_source", Schema.String),
  themeId: optionalField("theme_id", ThemeId)
})

/** An e-mail template. */
export type EmailTemplate = typeof EmailTemplate.Type

/** What to change in a template: its TSX source (required) and optionally its theme. */
export const EmailTemplateUpdate = wireStruct({
  tsxSource: field("tsx_source", Schema.String),
  themeId: optionalField("theme_id", ThemeId)
})

/** What to change in a template. */
export type EmailTemplateUpdate = typeof EmailTemplateUpdate.Type

const TemplateParams = wireStruct({ templateId: field("template_id", Uuid) })

/** `GET /internal/email-templates` (admin access). */
export const listEndpoint = Endpoint.make({
  name: "EmailTemplates.list",
  method: "GET",
  path: "/internal/email-templates",
  access: "admin",
  session: "none",
  success: Schema.Struct({ templates: Schema.Array(EmailTemplate) }),
  errors: []
})

/** `POST /internal/email-templates` (admin access). */
export const createEndpoint = Endpoint.make({
  name: "EmailTemplates.create",
  method: "POST",
  path: "/internal/email-templates",
  access: "admin",
  session: "none",
  payload: wireStruct({ displayName: field("display_name", Schema.String) }),
  success: Schema.Struct({ id: Uuid }),
  errors: [RequiresCustomEmailServer]
})

/** `PATCH /internal/email-templates/{template_id}` (admin access). */
export const updateEndpoint = Endpoint.make({
  name: "EmailTemplates.update",
  method: "PATCH",
  path: "/internal/email-templates/:template_id",
  access: "admin",
  session: "none",
  params: TemplateParams,
  payload: EmailTemplateUpdate,
  success: wireStruct({ renderedHtml: field("rendered_html", Schema.String) }),
  errors: [RequiresCustomEmailServer, EmailRenderingError]
})

/** `DELETE /internal/email-templates/{template_id}` (admin access). */
export const deleteEndpoint = Endpoint.make({
  name: "EmailTemplates.delete",
  method: "DELETE",
  path: "/internal/email-templates/:template_id",
  access: "admin",
  session: "none",
  params: TemplateParams,
  success: Schema.Struct({}),
  errors: [RequiresCustomEmailServer]
})
