/**
 * E-mail templates of the current project (PROTOCOL.md §3.0 "E-mail template", §3.7, §6 row 2;
 * wire samples email-templates/*). Admin access only.
 *
 * What changed from earlier versions of the service: it removed the legacy routes
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
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { createEndpoint, deleteEndpoint, EmailTemplateUpdate, listEndpoint, updateEndpoint } from "./internal/emailTemplates.js"

/** The domain's schemas, defined with its wire definitions (`internal/emailTemplates.ts`). */
export { EmailTemplate, EmailTemplateUpdate, ThemeId } from "./internal/emailTemplates.js"

/** The cache key of the template list (see `QueryCache`). */
export const cacheKey: QueryCache.Key = ["emails", "templates"]

const invalidatesTemplates = QueryCache.invalidating(cacheKey, ["emails", "preview"])

/**
 * The project's e-mail templates (the service's defaults included). `GET /internal/email-templates`,
 * through the query cache (key {@link cacheKey}); needs `AdminAccess`. Replaces the earlier
 * `listEmailTemplates` (legacy `GET /email-templates`).
 */
export const list = Effect.fn("EmailTemplates.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, {}))
  return answer.templates
})

/**
 * Creates a template with a default source and returns its id. `POST /internal/email-templates`;
 * needs `AdminAccess`. Fails with `RequiresCustomEmailServer` while the project uses the shared
 * e-mail server.
 */
export const create = Effect.fn("EmailTemplates.create")(function* (input: { readonly displayName: string }) {
  const answer = yield* Endpoint.call(createEndpoint, { payload: { displayName: input.displayName } }).pipe(invalidatesTemplates)
  return answer.id
})

/**
 * Replaces a template's TSX source (and optionally its theme) and returns the rendered HTML.
 * `PATCH /internal/email-templates/{id}`; needs `AdminAccess`. Replaces the earlier
 * `updateEmailTemplate(type, { subject, content })`. Fails with `RequiresCustomEmailServer`,
 * `EmailRenderingError` (the source does not render), or `HttpError` 404 (no such template).
 */
export const update = Effect.fn("EmailTemplates.update")(function* (templateId: string, input: EmailTemplateUpdate) {
  const answer = yield* Endpoint.call(updateEndpoint, { params: { templateId }, payload: input }).pipe(invalidatesTemplates)
  return answer.renderedHtml
})

/**
 * Deletes a template. `DELETE /internal/email-templates/{id}`; needs `AdminAccess`. There is no
 * "reset to default" any more (SPEC.md's `resetEmailTemplate`): update with the default source
 * instead. Fails with `RequiresCustomEmailServer` or `HttpError` 404 (no such template).
 */
const deleteTemplate = Effect.fn("EmailTemplates.delete")(function* (templateId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { templateId } }).pipe(invalidatesTemplates)
})

export {
  /** Deletes a template (see {@link deleteTemplate}). */
  deleteTemplate as delete
}
