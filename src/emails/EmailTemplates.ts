/**
 * E-mail templates of the current project (PROTOCOL.md §3.0 "E-mail template", §3.7, §6 row 2;
 * wire samples email-templates/*). Admin access only.
 *
 * What changed from SPEC.md (DESIGN.md §5): the hosted service removed the legacy routes
 * `GET /email-templates`, `GET|PATCH|DELETE /email-templates/{type}` (templates keyed by type with
 * `subject`, `content`, `is_default`, and DELETE meaning "reset to default") — they answer 404. The
 * same capability is now offered through the current routes under `/internal/email-templates`:
 * templates have a uuid `id`, a `displayName`, a React-e-mail `tsxSource` (its `<Subject>`
 * element replaces the old `subject`, its source replaces the old `content`) and an optional
 * `themeId`. Listing replaces reading one (there is no single-template GET: 405), updating returns
 * the rendered HTML, and there is no reset: re-send the default source (from a fresh project's
 * list) to restore a template. Creating, updating and deleting need a custom e-mail server
 * (`RequiresCustomEmailServer` while the project uses the shared one).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import { EmailRenderingError, RequiresCustomEmailServer } from "../core/KnownErrors.js"
import { field, optionalField, Uuid } from "../core/Wire.js"

/** `theme_id`: a theme uuid, `false` for no theme, `null` for the project's default theme. */
export const ThemeId = Schema.Union(Uuid, Schema.Literal(false), Schema.Null)

/** A theme choice: a theme uuid, `false` (no theme) or `null` (project default). */
export type ThemeId = typeof ThemeId.Type

/** An e-mail template (current config-based API). */
export const EmailTemplate = Schema.Struct({
  id: Uuid,
  displayName: field("display_name", Schema.String),
  tsxSource: field("tsx_source", Schema.String),
  themeId: optionalField("theme_id", ThemeId)
})

/** An e-mail template. */
export type EmailTemplate = typeof EmailTemplate.Type

/** What to change in a template: its TSX source (required) and optionally its theme. */
export const EmailTemplateUpdate = Schema.Struct({
  tsxSource: field("tsx_source", Schema.String),
  themeId: optionalField("theme_id", ThemeId)
})

/** What to change in a template. */
export type EmailTemplateUpdate = typeof EmailTemplateUpdate.Type

const TemplateParams = Schema.Struct({ templateId: field("template_id", Uuid) })

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
  payload: Schema.Struct({ displayName: field("display_name", Schema.String) }),
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
  success: Schema.Struct({ renderedHtml: field("rendered_html", Schema.String) }),
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

/**
 * The project's e-mail templates (the service's defaults included). `GET /internal/email-templates`;
 * needs `AdminAccess`. Replaces SPEC.md's `listEmailTemplates` (legacy `GET /email-templates`).
 */
export const list = Effect.fn("EmailTemplates.list")(function* () {
  const answer = yield* Endpoint.call(listEndpoint, {})
  return answer.templates
})

/**
 * Creates a template with a default source and returns its id. `POST /internal/email-templates`;
 * needs `AdminAccess`. Fails with `RequiresCustomEmailServer` while the project uses the shared
 * e-mail server.
 */
export const create = Effect.fn("EmailTemplates.create")(function* (input: { readonly displayName: string }) {
  const answer = yield* Endpoint.call(createEndpoint, { payload: { displayName: input.displayName } })
  return answer.id
})

/**
 * Replaces a template's TSX source (and optionally its theme) and returns the rendered HTML.
 * `PATCH /internal/email-templates/{id}`; needs `AdminAccess`. Replaces SPEC.md's
 * `updateEmailTemplate(type, { subject, content })`. Fails with `RequiresCustomEmailServer`,
 * `EmailRenderingError` (the source does not render), or `HttpError` 404 (no such template).
 */
export const update = Effect.fn("EmailTemplates.update")(function* (templateId: string, input: EmailTemplateUpdate) {
  const answer = yield* Endpoint.call(updateEndpoint, { params: { templateId }, payload: input })
  return answer.renderedHtml
})

/**
 * Deletes a template. `DELETE /internal/email-templates/{id}`; needs `AdminAccess`. There is no
 * "reset to default" any more (SPEC.md's `resetEmailTemplate`): update with the default source
 * instead. Fails with `RequiresCustomEmailServer` or `HttpError` 404 (no such template).
 */
const deleteTemplate = Effect.fn("EmailTemplates.delete")(function* (templateId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { templateId } })
})

export {
  /** Deletes a template (see {@link deleteTemplate}). */
  deleteTemplate as delete
}
