/**
 * Renders an e-mail from a template source and a theme source, as the service's
 * `renderEmailWithTemplate` does (apps/backend/src/lib/email-rendering.tsx): the template's
 * `variablesSchema` checks the variables (in preview mode over the template's `PreviewVariables`;
 * undeclared keys dropped), `EmailTemplate` gets `{ variables, user, project }` (preview: "John
 * Doe", "My Project" unless given), the theme's `EmailTheme` wraps it with the theme props (preview:
 * merged with `EmailTheme.PreviewProps`), and the result is the HTML, the plain text and the values
 * of the template's `<Subject>` and `<NotificationCategory>`.
 *
 * No source is run: both are parsed (`TsxParser.ts`) and interpreted (`Evaluator.ts`) within a
 * `Budget`. Every failure is a string (the `error` of EMAIL_RENDERING_ERROR), never a throw.
 *
 * @module
 */
import { Result } from "effect"
import { Evaluator } from "./Evaluator.js"
import { expand, findComponentValue, resolveModule, writeHtml, writeText } from "./ReactEmail.js"
import { limitFailure, RenderFailure } from "./RenderFailure.js"
import { parseModule } from "./TsxParser.js"
import { Budget, defaultLimits, Element, isCallable, Obj } from "./Values.js"
import type { Limits, Value } from "./Values.js"

/** What a rendering gives. */
export interface RenderedEmail {
  readonly html: string
  readonly text: string
  readonly subject: string | undefined
  readonly notificationCategory: string | undefined
}

/** The project logos a theme shows (`ProjectLogo`). */
export interface ProjectLogos {
  readonly logoUrl?: string | undefined
  readonly logoFullUrl?: string | undefined
  readonly logoDarkModeUrl?: string | undefined
  readonly logoFullDarkModeUrl?: string | undefined
}

/** What a template is rendered with. */
export interface RenderOptions {
  readonly user?: { readonly displayName: string | null } | undefined
  readonly project?: { readonly displayName: string } | undefined
  readonly variables?: Readonly<Record<string, string | number | boolean | null>> | undefined
  readonly themeProps?: { readonly unsubscribeLink?: string | undefined; readonly projectLogos: ProjectLogos } | undefined
  /** Preview (the dashboard's and `PATCH /internal/email-templates/{id}`'s rendering). */
  readonly previewMode?: boolean | undefined
  /** Bounds of the rendering (the emulator's defaults when absent). */
  readonly limits?: Limits | undefined
}

/** The HTML document type React e-mail's `render` writes before the HTML. */
export const doctype = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">"

const toValue = (input: unknown): Value => {
  if (input === null || input === undefined || typeof input === "string" || typeof input === "number" || typeof input === "boolean") return input
  if (Array.isArray(input)) return input.map(toValue)
  if (typeof input === "object") {
    const obj = new Obj()
    for (const [key, value] of Object.entries(input)) if (value !== undefined) obj.fields.set(key, toValue(value))
    return obj
  }
  return undefined
}

const merge = (...objects: ReadonlyArray<Value>): Obj => {
  const out = new Obj()
  for (const object of objects) if (object instanceof Obj) { for (const [key, value] of object.fields) out.fields.set(key, value) }
  return out
}

const render = (templateSource: string, themeSource: string, options: RenderOptions): RenderedEmail => {
  const budget = new Budget(options.limits ?? defaultLimits)
  const evaluator = new Evaluator(budget)
  const previewMode = options.previewMode ?? false
  const user = options.user ?? (previewMode ? { displayName: "John Doe" } : { displayName: null })
  const project = options.project ?? (previewMode ? { displayName: "My Project" } : { displayName: "" })

  const themeSyntax = parseModule(themeSource, "/theme.tsx")
  const templateSyntax = parseModule(templateSource, "/template.tsx")
  const template = evaluator.module(templateSyntax, "/template.tsx", resolveModule)
  const theme = evaluator.module(themeSyntax, "/theme.tsx", resolveModule)
  const EmailTemplate = template.get("EmailTemplate")
  const EmailTheme = theme.get("EmailTheme")

  const schema = template.get("variablesSchema")
  const given = toValue(options.variables ?? {})
  const input = previewMode && isCallable(EmailTemplate) ? merge(EmailTemplate.fields.get("PreviewVariables"), given) : merge(given)
  const variables = schema === undefined || schema === null || schema === false ? new Obj() : evaluator.call(schema, [input], "variablesSchema")

  const previewProps = previewMode && isCallable(EmailTheme) ? EmailTheme.fields.get("PreviewProps") : undefined
  const themeProps = merge(toValue(options.themeProps ?? {}), previewProps)
  const templateElement = new Element(EmailTemplate, Obj.of({ variables, user: toValue(user), project: toValue(project) }))
  const previewChildren = previewProps instanceof Obj ? previewProps.get("children") : undefined
  themeProps.fields.set("children", previewChildren ?? templateElement)
  const email = new Element(EmailTheme, themeProps)

  const nodes = expand(email, evaluator)
  const html = doctype + writeHtml(nodes, budget)
  const text = writeText(nodes, budget)
  return {
    html,
    text,
    subject: findComponentValue(templateElement, "Subject", evaluator),
    notificationCategory: findComponentValue(templateElement, "NotificationCategory", evaluator)
  }
}

/**
 * Renders a template with a theme: the e-mail, or the `error` text of the service's
 * EMAIL_RENDERING_ERROR (a build error for a source outside the subset, the thrown error as JSON
 * for one that fails while rendering, the emulator's message for one beyond its bounds).
 */
export const renderEmailWithTemplate = (templateSource: string, themeSource: string, options: RenderOptions = {}): Result.Result<RenderedEmail, string> => {
  try {
    return Result.succeed(render(templateSource, themeSource, options))
  } catch (error) {
    if (error instanceof RenderFailure) return Result.fail(error.errorText)
    if (error instanceof RangeError) return Result.fail(limitFailure("The source nests too deeply to render").errorText)
    return Result.fail(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }))
  }
}
