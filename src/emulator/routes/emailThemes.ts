/**
 * E-mail themes and previews (backend `apps/backend/src/app/api/latest/internal/email-themes/` and
 * `emails/render-email/route.tsx` at 2f719903):
 *
 * - `GET|POST /internal/email-themes`: the project's themes (a new project holds the service's
 *   Default Light, Default Dark and Default Colorful); a new theme starts with Default Light's
 *   source. `GET|PATCH /internal/email-themes/{id}`: an unknown id is the 404 text "No theme found
 *   with given id"; a new source must render the service's sample e-mail (`previewTemplateSource`),
 *   else `EMAIL_RENDERING_ERROR`. The service has no route to delete a theme (`[id]/route.tsx`
 *   exports GET and PATCH only).
 * - `POST /emails/render-email`: a template (`template_id` or `template_tsx_source`) rendered in
 *   preview mode with a theme (`theme_id` or `theme_tsx_source`); unknown ids are 400 texts, a
 *   failed rendering is `EMAIL_RENDERING_ERROR`.
 *
 * @module
 */
import { Effect } from "effect"
import { EmailRenderingError } from "../../core/KnownErrors.js"
import {
  createEndpoint,
  getEndpoint,
  listEndpoint,
  previewEndpoint,
  previewTemplateNotFoundText,
  themeNotFoundText,
  updateEndpoint
} from "../../emails/internal/emailThemes.js"
import type { PreviewPayload } from "../../emails/internal/emailThemes.js"
import * as EmailQueue from "../EmailQueue.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { defaultThemeId } from "../rendering/Themes.js"
import type { ProjectRecord } from "../State.js"

/** The sample e-mail a theme must render (shared `helpers/emails.ts` `previewTemplateSource`). */
export const previewTemplateSource = `import { Button, Section, Hr, Text, Heading } from "@react-email/components";
import { Subject, NotificationCategory } from "@stackframe/emails";

export const variablesSchema = v => v;

export function EmailTemplate({ user, project }) {
  return (
    <>
      <Subject value={\`Verify your email at \${project.displayName}\`} />
      <NotificationCategory value="Transactional" />
      <div className="font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full">
        <Section>
          <Heading as="h3" className="font-sans font-bold text-[20px] text-center py-4 px-6 m-0">
            Verify your email at {project.displayName}
          </Heading>
          <Text className="font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0 opacity-80">
            Hi{user.displayName ? (", " + user.displayName) : ''}! Please click on the following button to verify your email.
          </Text>
          <div className="text-center py-3 px-6">
            <Button
              href="#"
              className="text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0"
            >
              Verify my email
            </Button>
          </div>
          <div className="py-4 px-6">
            <Hr className="opacity-20" />
          </div>
          <Text className="font-sans font-normal text-[12px] text-center pt-1 px-6 pb-6 m-0 opacity-60">
            If you were not expecting this email, you can safely ignore it. 
          </Text>
        </Section>
      </div>
    </>
  )
}`

const findTheme = (project: ProjectRecord, id: string) => {
  const theme = project.emailThemes.get(id)
  return theme === undefined ? Effect.fail(new TextFailure({ status: 404, text: themeNotFoundText })) : Effect.succeed(theme)
}

/**
 * The union's SCHEMA_ERROR of `render-email` (shared `schema-fields.ts` `yupUnion`), or nothing
 * when one template key and at most one theme key are given.
 */
const previewProblem = (context: RequestContext, payload: PreviewPayload) => {
  const template = (payload.templateId !== undefined ? 1 : 0) + (payload.templateTsxSource !== undefined ? 1 : 0)
  const theme = (payload.themeId !== undefined ? 1 : 0) + (payload.themeTsxSource !== undefined ? 1 : 0)
  if (template === 1 && theme <= 1) return undefined
  const shapes = [
    ["template_id", "theme_id"],
    ["template_id", "theme_tsx_source"],
    ["template_tsx_source", "theme_id"],
    ["template_tsx_source", "theme_tsx_source"]
  ] as const
  const given: Record<string, boolean> = {
    template_id: payload.templateId !== undefined,
    template_tsx_source: payload.templateTsxSource !== undefined,
    theme_id: payload.themeId !== undefined,
    theme_tsx_source: payload.themeTsxSource !== undefined
  }
  const schemaErrors = shapes.map(([templateKey, themeKey], index) => {
    const missing = [templateKey, ...(themeKey === "theme_tsx_source" ? [themeKey] : [])].filter((key) => !given[key])
    const unknown = Object.keys(given).filter((key) => given[key] && key !== templateKey && key !== themeKey)
    const errors = [
      ...missing.map((key) => `body.${key} must be defined`),
      ...(unknown.length > 0 ? [`body contains unknown properties: ${unknown.join(", ")}`] : [])
    ]
    return `  Schema ${index}:\n    ${errors.join("\n    ")}`
  })
  return schemaError(context, [`body is not matched by any of the provided schemas:\n${schemaErrors.join("\n")}`])
}

/** The theme and preview routes. */
export const routes = [
  route(
    listEndpoint,
    (_input, context) =>
      Effect.sync(() => ({ themes: [...projectOf(context).emailThemes.values()].map((theme) => ({ id: theme.id, displayName: theme.displayName })) }))
  ),
  route(createEndpoint, ({ payload }, context) =>
    Effect.sync(() => {
      const project = projectOf(context)
      const id = randomUuid()
      project.emailThemes.set(id, {
        id,
        displayName: payload.displayName,
        tsxSource: project.emailThemes.get(defaultThemeId)?.tsxSource ?? EmailQueue.themeSource(project, undefined)
      })
      return { id }
    })),
  route(
    getEndpoint,
    ({ params }, context) =>
      Effect.map(findTheme(projectOf(context), params.id), (theme) => ({ id: theme.id, displayName: theme.displayName, tsxSource: theme.tsxSource }))
  ),
  route(updateEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const theme = yield* findTheme(projectOf(context), params.id)
      yield* EmailQueue.renderForOutbox(previewTemplateSource, payload.tsxSource, { previewMode: true }).pipe(
        Effect.mapError((error) => EmailRenderingError.make({ error }))
      )
      theme.tsxSource = payload.tsxSource
      return { displayName: theme.displayName }
    })),
  route(previewEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const problem = previewProblem(context, payload)
      if (problem !== undefined) return yield* Effect.fail(problem)
      const project = projectOf(context)
      let themeSource: string
      if (payload.themeTsxSource !== undefined) themeSource = payload.themeTsxSource
      else {
        if (typeof payload.themeId === "string" && !project.emailThemes.has(payload.themeId)) {
          return yield* Effect.fail(new TextFailure({ status: 400, text: themeNotFoundText }))
        }
        themeSource = EmailQueue.themeSource(project, payload.themeId)
      }
      let templateSource: string
      if (payload.templateTsxSource !== undefined) templateSource = payload.templateTsxSource
      else {
        const template = project.emailTemplates.get(payload.templateId!)
        if (template === undefined) return yield* Effect.fail(new TextFailure({ status: 400, text: previewTemplateNotFoundText }))
        templateSource = template.tsxSource
      }
      const rendered = yield* EmailQueue.renderForOutbox(templateSource, themeSource, {
        project: { displayName: project.displayName },
        previewMode: true,
        themeProps: { projectLogos: EmailQueue.projectLogos(project) }
      }).pipe(Effect.mapError((error) => EmailRenderingError.make({ error })))
      return {
        html: rendered.html,
        ...(rendered.subject !== undefined ? { subject: rendered.subject } : {}),
        ...(rendered.notificationCategory !== undefined ? { notificationCategory: rendered.notificationCategory } : {})
      }
    }))
]
