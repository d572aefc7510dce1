/**
 * The wire definitions of `EmailThemes` (docs/ARCHITECTURE.md): the project's e-mail themes
 * (`/internal/email-themes`, backend `apps/backend/src/app/api/latest/internal/email-themes/`
 * at 2f719903) and the preview of a template with a theme (`POST /emails/render-email`, backend
 * `emails/render-email/route.tsx`). Not part of the public surface.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { EmailRenderingError } from "../../core/KnownErrors.js"
import { field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"
import { ThemeId } from "./emailTemplates.js"

/** A theme as the list shows it: its id and name. */
export const EmailThemeSummary = wireStruct({ id: Uuid, displayName: field("display_name", Schema.String) })

/** A theme as the list shows it. */
export type EmailThemeSummary = typeof EmailThemeSummary.Type

/** A theme with its TSX source (an `EmailTheme` component wrapping the e-mail's content). */
export const EmailTheme = wireStruct({ id: Uuid, displayName: field("display_name", Schema.String), tsxSource: field("tsx_source", Schema.String) })

/** A theme with its TSX source. */
export type EmailTheme = typeof EmailTheme.Type

const ThemeParams = wireStruct({ id: Uuid })

/** `GET /internal/email-themes` (admin access). */
export const listEndpoint = Endpoint.make({
  name: "EmailThemes.list",
  method: "GET",
  path: "/internal/email-themes",
  access: "admin",
  session: "none",
  success: Schema.Struct({ themes: Schema.Array(EmailThemeSummary) }),
  errors: []
})

/** `POST /internal/email-themes` (admin access): a new theme with the Default Light source. */
export const createEndpoint = Endpoint.make({
  name: "EmailThemes.create",
  method: "POST",
  path: "/internal/email-themes",
  access: "admin",
  session: "none",
  payload: wireStruct({ displayName: field("display_name", Schema.String) }),
  success: Schema.Struct({ id: Schema.String }),
  errors: []
})

/** `GET /internal/email-themes/{id}` (admin access). */
export const getEndpoint = Endpoint.make({
  name: "EmailThemes.get",
  method: "GET",
  path: "/internal/email-themes/:id",
  access: "admin",
  session: "none",
  params: ThemeParams,
  success: EmailTheme,
  errors: []
})

/** `PATCH /internal/email-themes/{id}` (admin access): the new source must render. */
export const updateEndpoint = Endpoint.make({
  name: "EmailThemes.update",
  method: "PATCH",
  path: "/internal/email-themes/:id",
  access: "admin",
  session: "none",
  params: ThemeParams,
  payload: wireStruct({ tsxSource: field("tsx_source", Schema.String) }),
  success: wireStruct({ displayName: field("display_name", Schema.String) }),
  errors: [EmailRenderingError]
})

/**
 * The body of `POST /emails/render-email` on the domain's terms: a template (`templateId` or
 * `templateTsxSource`) with a theme (`themeId`: a theme, `false` for none, `null`/absent for the
 * project's; or `themeTsxSource`). The public `EmailThemes.preview` types the exclusive pairs.
 */
export const PreviewPayload = wireStruct({
  templateId: optionalField("template_id", Uuid),
  templateTsxSource: optionalField("template_tsx_source", Schema.String),
  themeId: optionalField("theme_id", ThemeId),
  themeTsxSource: optionalField("theme_tsx_source", Schema.String)
})

/** The body of `POST /emails/render-email`. */
export type PreviewPayload = typeof PreviewPayload.Type

/** A rendered preview: the HTML, and the subject and notification category the template declares. */
export const EmailPreview = wireStruct({
  html: Schema.String,
  subject: optionalField("subject", Schema.String),
  notificationCategory: optionalField("notification_category", Schema.String)
})

/** A rendered preview. */
export type EmailPreview = typeof EmailPreview.Type

/** `POST /emails/render-email` (admin access). */
export const previewEndpoint = Endpoint.make({
  name: "EmailThemes.preview",
  method: "POST",
  path: "/emails/render-email",
  access: "admin",
  session: "none",
  payload: PreviewPayload,
  success: EmailPreview,
  errors: [EmailRenderingError]
})

/** The service's 404 text for a theme id the project does not have (and 400 in a preview). */
export const themeNotFoundText = "No theme found with given id"

/** The service's 400 text when a preview names a template the project does not have. */
export const previewTemplateNotFoundText = "No template found with given id"
