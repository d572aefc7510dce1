/**
 * E-mail routes of the emulator (PROTOCOL.md §3.0, §3.7; wire samples email-templates/*, emails/*):
 *
 * - `/internal/email-templates` (list, create, update, delete): per-project templates, a new
 *   project holding the service's default templates (`EmailTemplates.ts`) (same ids, names and TSX sources as the
 *   recorded list). Create, update and delete answer `REQUIRES_CUSTOM_EMAIL_SERVER` while the
 *   project uses the shared e-mail server; an unknown template id is a 404 text.
 *   Rendering is `EmailTemplates.renderTemplate` (a real rendering of the TSX; a source that does not
 *   render, or renders no `<Subject>` or `<NotificationCategory>`, is an `EMAIL_RENDERING_ERROR`).
 * - `POST /internal/send-test-email` (backend `internal/send-test-email/route.tsx`): a port
 *   outside 0–65535 or a recipient / sender that is not an e-mail address is a SCHEMA_ERROR; an
 *   SMTP server the emulator's `smtpProbe` cannot reach (the Node server connects and waits for
 *   the `220` greeting, 10 s at most; `SmtpProbe.ts`) answers `{ success: false, error_message }`
 *   with the service's texts (timed out, host not found, else "Unknown error while sending test
 *   email…"). Otherwise the test e-mail goes into the outbox (kind `test_email`) and the answer
 *   is `{ success: true }`.
 * - `GET /internal/emails`: the project's real outbox (verification, reset, OTP/magic link,
 *   test e-mails…), newest first, the newest 100.
 * - `POST /internal/send-test-webhook` (backend `internal/send-test-webhook/route.tsx`): the
 *   service looks the endpoint up in the project's Svix application; the emulator has no webhook
 *   endpoints, so it answers the service's "Endpoint not found" outcome.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import { RequiresCustomEmailServer } from "../../core/KnownErrors.js"
import { createEndpoint, deleteEndpoint, listEndpoint, updateEndpoint } from "../../emails/internal/emailTemplates.js"
import type { EmailTemplate } from "../../emails/EmailTemplates.js"
import { listSentEndpoint, sendTestEmailEndpoint, sendTestWebhookEndpoint, webhookEndpointNotFoundText } from "../../emails/internal/emails.js"
import { escapeHtml, newTemplateSource, renderTemplate } from "../EmailTemplates.js"
import { usesSharedEmailServer } from "../EmailQueue.js"
import * as Outbox from "../Outbox.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { serialized } from "../Store.js"
import { isEmail } from "../Validation.js"
import type { EmailTemplateRecord, ProjectRecord } from "../State.js"

const requireCustomServer = (project: ProjectRecord) => usesSharedEmailServer(project) ? Effect.fail(RequiresCustomEmailServer.make({})) : Effect.void

const findTemplate = (project: ProjectRecord, id: string) => {
  const template = project.emailTemplates.get(id)
  return template === undefined ? Effect.fail(new TextFailure({ status: 404, text: "No template found with given id" })) : Effect.succeed(template)
}

const view = (template: EmailTemplateRecord): EmailTemplate => ({
  id: template.id,
  displayName: template.displayName,
  tsxSource: template.tsxSource,
  ...(template.themeId !== undefined ? { themeId: template.themeId } : {})
})

/**
 * The schema problems the service finds in a test e-mail request (backend
 * `internal/send-test-email/route.tsx`: `recipient_email` and `sender_email` e-mail addresses,
 * `port` a number from 0 to 65535), in its wording.
 */
const testEmailProblems = (input: { readonly recipientEmail: string; readonly port: number; readonly senderEmail: string }): ReadonlyArray<string> => [
  ...(isEmail(input.recipientEmail) ? [] : ["body.recipient_email must be a valid email"]),
  ...(input.port < 0 ? ["body.email_config.port must be greater than or equal to 0"] : []),
  ...(input.port > 65535 ? ["body.email_config.port must be less than or equal to 65535"] : []),
  ...(isEmail(input.senderEmail) ? [] : ["body.email_config.sender_email must be a valid email"])
]

/** The service's `error_message` when its 10 s wait for the SMTP server runs out. */
export const testEmailTimeoutText = "Timed out while sending test email. Make sure the email server is running and accepting connections."

/** The service's `error_message` when the SMTP host name does not resolve. */
export const testEmailHostNotFoundText = "Failed to connect to the email host. Please make sure the email host configuration is correct."

/** The service's `error_message` for other failures to reach the SMTP server (refused, closed, …). */
export const testEmailUnknownErrorText = "Unknown error while sending test email. Make sure the email server is running and accepting connections."

/**
 * The service's `error_message` for a failed SMTP check (backend `send-test-email/route.tsx` over
 * `lib/emails-low-level.tsx`'s classification of the mailer's errors): the 10 s timeout, a host
 * that does not resolve, else the "unknown error" text (a refused or closed connection).
 */
const testEmailFailureText = (reason: string): string =>
  reason.startsWith("Timed out") ? testEmailTimeoutText : /getaddrinfo|ENOTFOUND|EAI_AGAIN/.test(reason) ? testEmailHostNotFoundText : testEmailUnknownErrorText

/** The newest sent e-mails of a project (at most 100). */
export const sentEmails = (context: RequestContext) =>
  [...Outbox.list(context.env.state, { projectId: projectOf(context).id })]
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.sentAtMillis - a.entry.sentAtMillis || b.index - a.index)
    .slice(0, 100)
    .map(({ entry }) => ({ id: entry.id, subject: entry.subject, sentAt: new Date(entry.sentAtMillis), to: [entry.to], error: null }))

/** The e-mail routes. */
export const routes = [
  route(listEndpoint, (_input, context) => Effect.sync(() => ({ templates: [...projectOf(context).emailTemplates.values()].map(view) }))),
  route(createEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* requireCustomServer(project)
      // as the service: the default new source, theme null (the project's selected theme)
      const template: EmailTemplateRecord = { id: randomUuid(), displayName: payload.displayName, tsxSource: newTemplateSource, themeId: null }
      project.emailTemplates.set(template.id, template)
      return { id: template.id }
    })),
  route(
    updateEndpoint,
    ({ params, payload }, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        const state = context.env.state
        yield* serialized(state, Effect.andThen(requireCustomServer(project), findTemplate(project, params.templateId)))
        // as the service: the preview renders with the project's selected theme, whatever theme_id says
        const renderedHtml = yield* renderTemplate(project, payload.tsxSource, context.env.settings.emailRenderLimits)
        yield* serialized(
          state,
          Effect.map(findTemplate(project, params.templateId), (template) => {
            template.tsxSource = payload.tsxSource
            if (payload.themeId !== undefined) template.themeId = payload.themeId
          })
        )
        return { renderedHtml }
      }),
    // the rendering runs in a worker for up to the render time limit: other requests go on
    // meanwhile; the checks and the write each hold the write permit
    { withoutWritePermit: true }
  ),
  route(deleteEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* requireCustomServer(project)
      yield* findTemplate(project, params.templateId)
      project.emailTemplates.delete(params.templateId)
      return {}
    })),
  route(
    sendTestEmailEndpoint,
    ({ payload }, context) =>
      Effect.gen(function* () {
        const config = payload.emailConfig
        const problems = testEmailProblems({ recipientEmail: payload.recipientEmail, port: config.port, senderEmail: config.senderEmail })
        if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
        const probe = context.env.settings.smtpProbe
        if (probe !== undefined) {
          // the service's mailer takes an empty host as localhost and port 0 as the submission port 587
          const reached = yield* Effect.result(probe({ host: config.host === "" ? "localhost" : config.host, port: config.port === 0 ? 587 : config.port }))
          if (reached._tag === "Failure") return { success: false, errorMessage: testEmailFailureText(reached.failure) }
        }
        const subject = "Test Email from Stack Auth"
        const text = `This is a test email sent through ${config.host}:${config.port} as ${config.username} (${
          Redacted.value(config.password).length > 0 ? "with" : "without"
        } a password) from ${config.senderName} <${config.senderEmail}>.`
        Outbox.send(context.env.state, {
          projectId: projectOf(context).id,
          to: payload.recipientEmail,
          subject,
          text,
          html: `<p>${escapeHtml(text)}</p>`,
          kind: "test_email",
          code: null,
          link: null,
          sentAtMillis: context.nowMillis
        })
        return { success: true }
      }),
    // waits on the SMTP server (up to 10 s) and only appends to the outbox: other requests go on meanwhile
    { withoutWritePermit: true }
  ),
  route(listSentEndpoint, (_input, context) => Effect.sync(() => ({ items: sentEmails(context), isPaginated: false }))),
  route(sendTestWebhookEndpoint, () => Effect.succeed({ success: false, errorMessage: webhookEndpointNotFoundText }))
]
