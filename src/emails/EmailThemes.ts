/**
 * The project's e-mail themes and previews (the official `StackAdminApp`'s `listEmailThemes` /
 * `useEmailThemes`, `useEmailTheme(id)`, `createEmailTheme`, `updateEmailTheme`,
 * `getEmailPreview` / `useEmailPreview`). Admin access.
 *
 * A theme is a TSX `EmailTheme` component wrapping every e-mail's content (the service's defaults:
 * Default Light, Default Dark, Default Colorful). `/internal/email-themes` and
 * `POST /emails/render-email` (backend `apps/backend/src/app/api/latest/internal/email-themes/`
 * and `emails/render-email/route.tsx` at 2f719903). The service offers no route to delete a
 * theme at that commit (`internal/email-themes/[id]/route.tsx` exports GET and PATCH only), so
 * there is no `delete` here.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { createEndpoint, getEndpoint, listEndpoint, previewEndpoint, themeNotFoundText, updateEndpoint } from "./internal/emailThemes.js"
import type { PreviewPayload } from "./internal/emailThemes.js"
import type { ThemeId } from "./internal/emailTemplates.js"

/** The domain's schemas, defined with its wire definitions (`internal/emailThemes.ts`). */
export { EmailPreview, EmailTheme, EmailThemeSummary } from "./internal/emailThemes.js"

/** The project has no theme with this id: the service's 404 "No theme found with given id". */
export class EmailThemeNotFound extends Data.TaggedError("EmailThemeNotFound")<{
  readonly themeId: string
  readonly message: string
}> {}

const mapNotFound = (themeId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | EmailThemeNotFound, R> =>
  Effect.mapError(
    effect,
    (error): E | EmailThemeNotFound =>
      error instanceof HttpError && error.status === 404 && error.body.trim() === themeNotFoundText
        ? new EmailThemeNotFound({ themeId, message: themeNotFoundText })
        : error
  )

/** The cache key of the theme list (see `QueryCache`); one theme's key is this plus its id. */
export const cacheKey: QueryCache.Key = ["emails", "themes"]

const invalidatesThemes = QueryCache.invalidating(cacheKey, ["emails", "preview"])

/** The project's themes (id and name). `GET /internal/email-themes`, through the query cache; needs `AdminAccess`. */
export const list = Effect.fn("EmailThemes.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, {}))
  return answer.themes
})

/**
 * One theme with its source. `GET /internal/email-themes/{id}`, through the query cache; needs
 * `AdminAccess`. Fails with {@link EmailThemeNotFound}.
 */
export const get = Effect.fn("EmailThemes.get")(function* (themeId: string) {
  return yield* QueryCache.cached([...cacheKey, themeId], Endpoint.call(getEndpoint, { params: { id: themeId } }).pipe(mapNotFound(themeId)))
})

/** Creates a theme (with the Default Light source) and returns its id. `POST /internal/email-themes`; needs `AdminAccess`. */
export const create = Effect.fn("EmailThemes.create")(function* (displayName: string) {
  const answer = yield* Endpoint.call(createEndpoint, { payload: { displayName } }).pipe(invalidatesThemes)
  return answer.id
})

/**
 * Replaces a theme's TSX source; the service first renders a sample e-mail with it. `PATCH
 * /internal/email-themes/{id}`; needs `AdminAccess`. Fails with `EmailRenderingError` (the source
 * does not render) or {@link EmailThemeNotFound}.
 */
export const update = Effect.fn("EmailThemes.update")(function* (themeId: string, tsxSource: string) {
  yield* Endpoint.call(updateEndpoint, { params: { id: themeId }, payload: { tsxSource } }).pipe(mapNotFound(themeId), invalidatesThemes)
})

/** The template of a preview: one of the project's by id, or a TSX source (exactly one). */
export type PreviewTemplate =
  | { readonly templateId: string; readonly templateTsxSource?: never }
  | { readonly templateTsxSource: string; readonly templateId?: never }

/** The theme of a preview: one of the project's by id (`false`: none; `null`/absent: the project's), or a TSX source. */
export type PreviewTheme =
  | { readonly themeId?: ThemeId; readonly themeTsxSource?: never }
  | { readonly themeTsxSource: string; readonly themeId?: never }

/** What {@link preview} renders: a template with a theme. */
export type PreviewOptions = PreviewTemplate & PreviewTheme

/**
 * Renders a template with a theme in preview mode ("John Doe", the template's preview variables)
 * and answers the HTML with the subject and notification category the template sets.
 * `POST /emails/render-email`, through the query cache; needs `AdminAccess`. Fails with
 * `EmailRenderingError`, or `HttpError` 400 (a theme or template id the project does not have).
 */
export const preview = Effect.fn("EmailThemes.preview")(function* (options: PreviewOptions) {
  const payload: PreviewPayload = {
    ...(options.templateId !== undefined ? { templateId: options.templateId } : {}),
    ...(options.templateTsxSource !== undefined ? { templateTsxSource: options.templateTsxSource } : {}),
    ...(options.themeId !== undefined ? { themeId: options.themeId } : {}),
    ...(options.themeTsxSource !== undefined ? { themeTsxSource: options.themeTsxSource } : {})
  }
  return yield* QueryCache.cached(["emails", "preview", JSON.stringify(payload)], Endpoint.call(previewEndpoint, { payload }))
})
