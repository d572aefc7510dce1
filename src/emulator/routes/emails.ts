/**
 * E-mail routes of the emulator (PROTOCOL.md §3.0, §3.7; wire samples email-templates/*, emails/*):
 *
 * - `/internal/email-templates` (list, create, update, delete): per-project templates, seeded on
 *   first use with the service's default templates (same ids, names and TSX sources as the
 *   recorded list). Create, update and delete answer `REQUIRES_CUSTOM_EMAIL_SERVER` while the
 *   project uses the shared e-mail server; an unknown template id is a 404 text.
 *   Rendering is the emulator's stand-in for React e-mail: a deterministic transform of the TSX
 *   source into an HTML document (the `<Subject value=…>` text as `<title>`, the source escaped
 *   in a `<pre>`); a source without an `EmailTemplate` export is an `EMAIL_RENDERING_ERROR`.
 * - `POST /internal/send-test-email`: "sends" the test e-mail into the outbox (kind `test_email`)
 *   and answers `{ success: true }`; an obviously invalid configuration (port outside 1–65535,
 *   empty host, sender address without `@`) answers `{ success: false, error_message }`.
 * - `GET /internal/emails`: the project's real outbox (verification, reset, OTP/magic link,
 *   test e-mails…), newest first, the newest 100.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import { EmailRenderingError, RequiresCustomEmailServer } from "../../core/KnownErrors.js"
import { createEndpoint, deleteEndpoint, listEndpoint, updateEndpoint } from "../../emails/internal/emailTemplates.js"
import type { EmailTemplate } from "../../emails/EmailTemplates.js"
import { listSentEndpoint, sendTestEmailEndpoint } from "../../emails/internal/emails.js"
import * as Outbox from "../Outbox.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { EmailTemplateRecord, ProjectRecord } from "../State.js"

/** The service's default templates (ids, names and sources as the hosted service lists them). */
export const defaultTemplates: ReadonlyArray<{ readonly id: string; readonly displayName: string; readonly tsxSource: string }> = [
  { id: "e7d009ce-8d47-4528-b245-5bf119f2ffa3", displayName: "Email Verification", tsxSource: "import { type } from \"arktype\"\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  emailVerificationLink: \"string\"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={`Verify your email at ${project.displayName}`} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section>\n          <Heading as=\"h3\" className=\"font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            Verify your email at {project.displayName}\n          </Heading>\n          <p className=\"font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0 opacity-80\">\n            Hi{user.displayName ? (\", \" + user.displayName) : ''}! Please click on the following button to verify your email.\n          </p>\n          <div className=\"text-center py-3 px-6\">\n            <Button\n              href={variables.emailVerificationLink}\n              className=\"text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0\"\n            >\n              Verify my email\n            </Button>\n          </div>\n          <div className=\"py-4 px-6\">\n            <Hr className=\"opacity-20\" />\n          </div>\n          <p className=\"font-sans font-normal text-[12px] text-center pt-1 px-6 pb-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it. \n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n  emailVerificationLink: \"#\"\n} satisfies typeof variablesSchema.infer" },
  { id: "a70fb3a4-56c1-4e42-af25-49d25603abd0", displayName: "Password Reset", tsxSource: "import { type } from \"arktype\"\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\"\nimport { Subject, NotificationCategory, Props} from \"@stackframe/emails\"\n\nexport const variablesSchema = type({\n  passwordResetLink: \"string\"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Reset your password at \" + project.displayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-tight leading-relaxed py-8 w-full min-h-full\">\n        <Section>\n          <Heading as=\"h3\" className=\"font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            Reset your password at {project.displayName}\n          </Heading>\n\n          <p className=\"text-sm font-sans font-normal text-center pt-2 pb-4 px-6 m-0 opacity-80\">\n            Hi{user.displayName ? (\", \" + user.displayName) : \"\"}! Please click on the following button to start the password reset process.\n          </p>\n\n          <div className=\"text-center px-6 py-3\">\n            <Button\n              href={variables.passwordResetLink}\n              className=\"text-black text-sm font-sans font-bold bg-[#f0f0f0] rounded-[4px] inline-block py-3 px-5 no-underline border-none\"\n              target=\"_blank\"\n            >\n              Reset my password\n            </Button>\n          </div>\n\n          <div className=\"px-6 py-4\">\n            <Hr className=\"opacity-20\" />\n          </div>\n\n          <p className=\"text-xs font-sans font-normal text-center pt-1 pb-6 px-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n   passwordResetLink: \"#\"\n} satisfies typeof variablesSchema.infer" },
  { id: "822687fe-8d0a-4467-a0d1-416b6e639478", displayName: "Magic Link/OTP", tsxSource: "import { type } from 'arktype';\nimport { Section, Hr, Text, Heading } from '@react-email/components';\nimport { Subject, NotificationCategory, Props } from '@stackframe/emails';\n\nexport const variablesSchema = type({\n  magicLink: 'string',\n  otp: 'string',\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Sign in to \" + project.displayName + \": Your code is \" + variables.otp} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-[0.15008px] leading-6 m-0 py-8 w-full min-h-full\">\n        <Section className=\"mx-auto\">\n          <Heading as=\"h3\" className=\"font-sans font-bold text-xl text-center px-6 py-4 m-0\">\n            Sign in to {project.displayName}\n          </Heading>\n          <p className=\"text-sm font-sans font-normal text-center px-6 py-4 m-0 opacity-80\">\n            Hi{user.displayName ? \", \" + user.displayName : \"\"}! This is your one-time-password for signing in:\n          </p>\n          <p className=\"text-2xl font-mono font-bold text-center px-6 py-4 m-0\">\n            {variables.otp}\n          </p>\n          <p className=\"text-sm font-sans font-normal text-center px-6 py-4 m-0\">\n            Or you can click on{' '}\n            <a\n              key={20}\n              href={variables.magicLink}\n              rel=\"noopener noreferrer\"\n              className=\"text-blue-600 underline\"\n            >\n              this link\n            </a>{' '}\n            to sign in\n          </p>\n          <Hr className=\"px-6 py-4 opacity-20\" />\n          <p className=\"text-xs font-sans font-normal text-center px-6 pt-1 pb-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  magicLink: \"#\",\n  otp: \"3SLSWZ\"\n} satisfies typeof variablesSchema.infer" },
  { id: "e84de395-2076-4831-9c19-8e9a96a868e4", displayName: "Team Invitation", tsxSource: "import { type } from \"arktype\";\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\n\nexport const variablesSchema = type({\n  teamDisplayName: \"string\",\n  teamInvitationLink: \"string\"\n});\n\nexport function EmailTemplate({ user, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"You have been invited to join \" + variables.teamDisplayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section className=\"mx-auto max-w-lg\">\n          <Heading as=\"h3\" className=\"font-sans font-bold text-xl text-center px-6 pt-8 m-0\">\n            You are invited to {variables.teamDisplayName}\n          </Heading>\n          <p className=\"text-sm font-sans font-normal text-center px-6 pt-2 pb-4 m-0 opacity-80\">\n            Hi{user.displayName ? \", \" + user.displayName : \"\"}! Please click the button below to join the team {variables.teamDisplayName}\n          </p>\n          <div className=\"text-center px-6 py-3\">\n            <Button\n              href={variables.teamInvitationLink}\n              className=\"text-black text-sm font-sans font-bold bg-[#f0f0f0] rounded-md inline-block px-5 py-3 no-underline border-0\"\n            >\n              Join team\n            </Button>\n          </div>\n          <div className=\"px-6 py-4\">\n            <Hr className=\"opacity-20\" />\n          </div>\n          <p className=\"text-xs font-sans font-normal text-center px-6 pb-6 pt-1 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  teamDisplayName: \"My Team\",\n  teamInvitationLink: \"#\"\n} satisfies typeof variablesSchema.infer " },
  { id: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc", displayName: "Sign In Invitation", tsxSource: "import { type } from \"arktype\"\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  signInInvitationLink: \"string\",\n  teamDisplayName: \"string\"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject\n        value={\"You have been invited to sign in to \" + project.displayName}\n      />\n      <NotificationCategory value=\"Transactional\" />\n\n      <div className=\"font-sans text-base font-normal leading-normal w-full min-h-full m-0 py-8\">\n        <Section>\n          <Heading as=\"h3\" className=\"font-sans font-bold text-xl text-center pt-8 px-6 m-0\">\n            You are invited to sign in to {variables.teamDisplayName}\n          </Heading>\n\n          <p className=\"text-sm font-sans font-normal text-center pt-2 pb-4 px-6 m-0 opacity-80\">\n            Hi\n            {user.displayName ? \", \" + user.displayName : \"\"}! Please click on the following\n            link to sign in to your account\n          </p>\n\n          <div className=\"text-center px-6 py-3\">\n            <Button\n              href={variables.signInInvitationLink}\n              className=\"text-black text-sm font-sans font-bold bg-gray-200 rounded-md inline-block py-3 px-5 no-underline border-none\"\n            >\n              Sign in\n            </Button>\n          </div>\n\n          <div className=\"px-6 py-4\">\n            <Hr className=\"opacity-20\" />\n          </div>\n\n          <p className=\"text-xs font-sans font-normal text-center pt-1 pb-6 px-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n  signInInvitationLink: \"#\",\n  teamDisplayName: \"My Team\"\n} satisfies typeof variablesSchema.infer" },
  { id: "70372aee-0441-4d80-974c-2e858e40123a", displayName: "Payment Receipt", tsxSource: "import { type } from \"arktype\";\nimport { Button, Section, Hr } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  productName: \"string\",\n  quantity: \"number\",\n  amount: \"string\",\n  receiptLink: \"string?\"\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Your receipt from \" + project.displayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"bg-white text-[#242424] font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section className=\"bg-white\">\n          <h3 className=\"text-black font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            Thanks for your purchase\n          </h3>\n          <p className=\"text-[#474849] font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0\">\n            Hi{user.displayName ? (\", \" + user.displayName) : \"\"}! Your payment for {variables.productName} is complete.\n          </p>\n          <div className=\"px-6\">\n            <p className=\"text-black font-sans font-bold text-[16px] text-center m-0\">\n              Total paid: {variables.amount}\n            </p>\n            <p className=\"text-[#474849] font-sans text-[13px] text-center mt-2 mb-0\">\n              Quantity: {variables.quantity}\n            </p>\n          </div>\n          {variables.receiptLink ? (\n            <div className=\"text-center py-4 px-6\">\n              <Button\n                href={variables.receiptLink}\n                target=\"_blank\"\n                className=\"text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0\"\n              >\n                View receipt\n              </Button>\n            </div>\n          ) : null}\n          <div className=\"py-4 px-6\">\n            <Hr />\n          </div>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  productName: \"Pro Plan\",\n  quantity: 1,\n  amount: \"$29.00\",\n  receiptLink: \"https://example.com/receipt\"\n} satisfies typeof variablesSchema.infer;\n" },
  { id: "f64b1afe-27ec-4a28-a277-7178f3261f9a", displayName: "Payment Failed", tsxSource: "import { type } from \"arktype\";\nimport { Button, Section, Hr } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  productName: \"string\",\n  amount: \"string\",\n  invoiceUrl: \"string?\",\n  failureReason: \"string?\"\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Payment failed for \" + project.displayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"bg-white text-[#242424] font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section className=\"bg-white\">\n          <h3 className=\"text-black font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            We couldn't process your payment\n          </h3>\n          <p className=\"text-[#474849] font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0\">\n            Hi{user.displayName ? (\", \" + user.displayName) : \"\"}! Your payment for {variables.productName} ({variables.amount}) did not go through.\n          </p>\n          {variables.failureReason ? (\n            <p className=\"text-[#8a8b8b] font-sans text-[12px] text-center px-6 pb-2 m-0\">\n              Reason: {variables.failureReason}\n            </p>\n          ) : null}\n          {variables.invoiceUrl ? (\n            <div className=\"text-center py-3 px-6\">\n              <Button\n                href={variables.invoiceUrl}\n                target=\"_blank\"\n                className=\"text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0\"\n              >\n                View invoice\n              </Button>\n            </div>\n          ) : null}\n          <div className=\"py-4 px-6\">\n            <Hr />\n          </div>\n          <p className=\"text-[#474849] font-sans font-normal text-[12px] text-center pt-1 px-6 pb-6 m-0\">\n            Please update your payment details to avoid service interruption.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  productName: \"Pro Plan\",\n  amount: \"$29.00\",\n  invoiceUrl: \"https://example.com/billing\",\n  failureReason: \"Your card was declined\"\n} satisfies typeof variablesSchema.infer;\n" }
]

/** The source of a newly created template. */
export const newTemplateSource = `import { type } from "arktype"
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export const variablesSchema = type({})

export function EmailTemplate({ user, project }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value="New email" />
      <NotificationCategory value="Transactional" />
      <div>Hi{user.displayName ? (", " + user.displayName) : ''}!</div>
    </>
  )
}
`

/** The templates of a project (seeded with the defaults on first use). */
export const templatesOf = (project: ProjectRecord): Map<string, EmailTemplateRecord> => {
  if (project.emailTemplates === undefined) {
    project.emailTemplates = new Map(defaultTemplates.map((template) => [template.id, { ...template }]))
  }
  return project.emailTemplates
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/**
 * The emulator's stand-in for rendering a template: deterministic, same source → same HTML.
 * Fails with EMAIL_RENDERING_ERROR when the source has no `EmailTemplate` export.
 */
export const renderTemplate = (tsxSource: string, themeId: string | false | null | undefined) => {
  if (!/export\s+(function|const)\s+EmailTemplate\b/.test(tsxSource)) {
    return Effect.fail(EmailRenderingError.make({ error: "The template must export an EmailTemplate component" }))
  }
  const subject = /<Subject\s+value=(?:"([^"]*)"|\{`([^`]*)`\}|\{"([^"]*)"\})/.exec(tsxSource)
  const title = subject === null ? "" : (subject[1] ?? subject[2] ?? subject[3] ?? "")
  const theme = themeId === false ? "none" : themeId === null || themeId === undefined ? "default" : themeId
  return Effect.succeed(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body data-emulator-theme="${escapeHtml(theme)}"><pre>${escapeHtml(tsxSource)}</pre></body></html>`
  )
}

const requireCustomServer = (project: ProjectRecord) =>
  project.config.emailConfig === undefined || project.config.emailConfig.type === "shared"
    ? Effect.fail(RequiresCustomEmailServer.make({}))
    : Effect.void

const findTemplate = (project: ProjectRecord, id: string) => {
  const template = templatesOf(project).get(id)
  return template === undefined ? Effect.fail(new TextFailure({ status: 404, text: "Email template not found" })) : Effect.succeed(template)
}

const view = (template: EmailTemplateRecord): EmailTemplate => ({
  id: template.id,
  displayName: template.displayName,
  tsxSource: template.tsxSource,
  ...(template.themeId !== undefined ? { themeId: template.themeId } : {})
})

/** What is obviously wrong with an SMTP configuration, if anything. */
const configProblem = (config: { readonly host: string; readonly port: number; readonly senderEmail: string }) =>
  config.host.trim() === ""
    ? "Invalid host: the host name is empty"
    : config.port < 1 || config.port > 65535
      ? `Invalid port: ${config.port} is not a TCP port (1-65535)`
      : !config.senderEmail.includes("@")
        ? `Invalid sender email: ${config.senderEmail}`
        : undefined

/** The newest sent e-mails of a project (at most 100). */
export const sentEmails = (context: RequestContext) =>
  [...Outbox.list(context.env.state, { projectId: projectOf(context).id })]
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.sentAtMillis - a.entry.sentAtMillis || b.index - a.index)
    .slice(0, 100)
    .map(({ entry }) => ({ id: entry.id, subject: entry.subject, sentAt: new Date(entry.sentAtMillis), to: [entry.to], error: null }))

/** The e-mail routes. */
export const routes = [
  route(listEndpoint, (_input, context) =>
    Effect.sync(() => ({ templates: [...templatesOf(projectOf(context)).values()].map(view) }))
  ),
  route(createEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* requireCustomServer(project)
      const template: EmailTemplateRecord = { id: randomUuid(), displayName: payload.displayName, tsxSource: newTemplateSource }
      templatesOf(project).set(template.id, template)
      return { id: template.id }
    })
  ),
  route(updateEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* requireCustomServer(project)
      const template = yield* findTemplate(project, params.templateId)
      const themeId = payload.themeId !== undefined ? payload.themeId : template.themeId
      const renderedHtml = yield* renderTemplate(payload.tsxSource, themeId)
      template.tsxSource = payload.tsxSource
      if (payload.themeId !== undefined) template.themeId = payload.themeId
      return { renderedHtml }
    })
  ),
  route(deleteEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* requireCustomServer(project)
      yield* findTemplate(project, params.templateId)
      templatesOf(project).delete(params.templateId)
      return {}
    })
  ),
  route(sendTestEmailEndpoint, ({ payload }, context) =>
    Effect.sync(() => {
      const config = payload.emailConfig
      const problem = configProblem(config)
      if (problem !== undefined) return { success: false, errorMessage: problem }
      const subject = "Test Email from Stack Auth"
      const text = `This is a test email sent through ${config.host}:${config.port} as ${config.username} (${Redacted.value(config.password).length > 0 ? "with" : "without"} a password) from ${config.senderName} <${config.senderEmail}>.`
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
    })
  ),
  route(listSentEndpoint, (_input, context) => Effect.sync(() => ({ items: sentEmails(context), isPaginated: false })))
]
