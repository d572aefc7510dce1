/**
 * E-mail templates of the emulator: the service's default templates (a new project holds them,
 * same ids, names and TSX sources as the recorded list), the source of a new template, and
 * rendering them for real (`rendering/RenderEmail.ts`: bundled by esbuild and rendered by the real
 * `@react-email/components` off the event loop, as the service does, within the emulator's time
 * and memory bounds):
 *
 * - {@link renderTemplate}: `PATCH /internal/email-templates/{id}`'s preview, as the service's
 *   route does it (apps/backend/src/app/api/latest/internal/email-templates/[templateId]/route.tsx):
 *   preview mode ("John Doe", "My Project", the template's `PreviewVariables`), the project's
 *   selected theme with its `PreviewProps`; failures are 400 EMAIL_RENDERING_ERROR, and so are a
 *   template without `<Subject>` or `<NotificationCategory>` ("… is required, import it from
 *   @stackframe/emails"). Without the rendering packages (optional peer dependencies) it dies
 *   with `RenderingUnavailable` naming them (the server logs it and answers 500).
 * - {@link renderProjectEmail} / {@link emailFromTemplate}: an e-mail the emulator sends from one
 *   of the project's templates (the verification e-mail…), with the user's and project's names,
 *   the template's theme. When the template does not render, or the rendering packages are not
 *   installed, the built-in flows send their plain e-mail instead (same link and code), so that
 *   sign-up, password reset and OTP work without the optional packages.
 *
 * @module
 */
import { Effect } from "effect"
import { EmailRenderingError } from "../core/KnownErrors.js"
import type { ProjectLogos, RenderLimits } from "./rendering/RenderEmail.js"
import { renderEmailWithTemplate } from "./rendering/RenderEmail.js"
import { defaultThemeId, defaultThemes, emptyTheme, newTemplateSource as serviceNewTemplateSource } from "./rendering/Themes.js"
import type { ProjectRecord } from "./State.js"

/** The service's default templates (ids, names and sources as the hosted service lists them). */
export const defaultTemplates: ReadonlyArray<{ readonly id: string; readonly displayName: string; readonly tsxSource: string }> = [
  {
    id: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
    displayName: "Email Verification",
    tsxSource:
      "import { type } from \"arktype\"\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  emailVerificationLink: \"string\"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={`Verify your email at ${project.displayName}`} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section>\n          <Heading as=\"h3\" className=\"font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            Verify your email at {project.displayName}\n          </Heading>\n          <p className=\"font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0 opacity-80\">\n            Hi{user.displayName ? (\", \" + user.displayName) : ''}! Please click on the following button to verify your email.\n          </p>\n          <div className=\"text-center py-3 px-6\">\n            <Button\n              href={variables.emailVerificationLink}\n              className=\"text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0\"\n            >\n              Verify my email\n            </Button>\n          </div>\n          <div className=\"py-4 px-6\">\n            <Hr className=\"opacity-20\" />\n          </div>\n          <p className=\"font-sans font-normal text-[12px] text-center pt-1 px-6 pb-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it. \n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n  emailVerificationLink: \"#\"\n} satisfies typeof variablesSchema.infer"
  },
  {
    id: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
    displayName: "Password Reset",
    tsxSource:
      "import { type } from \"arktype\"\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\"\nimport { Subject, NotificationCategory, Props} from \"@stackframe/emails\"\n\nexport const variablesSchema = type({\n  passwordResetLink: \"string\"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Reset your password at \" + project.displayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-tight leading-relaxed py-8 w-full min-h-full\">\n        <Section>\n          <Heading as=\"h3\" className=\"font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            Reset your password at {project.displayName}\n          </Heading>\n\n          <p className=\"text-sm font-sans font-normal text-center pt-2 pb-4 px-6 m-0 opacity-80\">\n            Hi{user.displayName ? (\", \" + user.displayName) : \"\"}! Please click on the following button to start the password reset process.\n          </p>\n\n          <div className=\"text-center px-6 py-3\">\n            <Button\n              href={variables.passwordResetLink}\n              className=\"text-black text-sm font-sans font-bold bg-[#f0f0f0] rounded-[4px] inline-block py-3 px-5 no-underline border-none\"\n              target=\"_blank\"\n            >\n              Reset my password\n            </Button>\n          </div>\n\n          <div className=\"px-6 py-4\">\n            <Hr className=\"opacity-20\" />\n          </div>\n\n          <p className=\"text-xs font-sans font-normal text-center pt-1 pb-6 px-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n   passwordResetLink: \"#\"\n} satisfies typeof variablesSchema.infer"
  },
  {
    id: "822687fe-8d0a-4467-a0d1-416b6e639478",
    displayName: "Magic Link/OTP",
    tsxSource:
      "import { type } from 'arktype';\nimport { Section, Hr, Text, Heading } from '@react-email/components';\nimport { Subject, NotificationCategory, Props } from '@stackframe/emails';\n\nexport const variablesSchema = type({\n  magicLink: 'string',\n  otp: 'string',\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Sign in to \" + project.displayName + \": Your code is \" + variables.otp} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-[0.15008px] leading-6 m-0 py-8 w-full min-h-full\">\n        <Section className=\"mx-auto\">\n          <Heading as=\"h3\" className=\"font-sans font-bold text-xl text-center px-6 py-4 m-0\">\n            Sign in to {project.displayName}\n          </Heading>\n          <p className=\"text-sm font-sans font-normal text-center px-6 py-4 m-0 opacity-80\">\n            Hi{user.displayName ? \", \" + user.displayName : \"\"}! This is your one-time-password for signing in:\n          </p>\n          <p className=\"text-2xl font-mono font-bold text-center px-6 py-4 m-0\">\n            {variables.otp}\n          </p>\n          <p className=\"text-sm font-sans font-normal text-center px-6 py-4 m-0\">\n            Or you can click on{' '}\n            <a\n              key={20}\n              href={variables.magicLink}\n              rel=\"noopener noreferrer\"\n              className=\"text-blue-600 underline\"\n            >\n              this link\n            </a>{' '}\n            to sign in\n          </p>\n          <Hr className=\"px-6 py-4 opacity-20\" />\n          <p className=\"text-xs font-sans font-normal text-center px-6 pt-1 pb-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  magicLink: \"#\",\n  otp: \"3SLSWZ\"\n} satisfies typeof variablesSchema.infer"
  },
  {
    id: "e84de395-2076-4831-9c19-8e9a96a868e4",
    displayName: "Team Invitation",
    tsxSource:
      "import { type } from \"arktype\";\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\n\nexport const variablesSchema = type({\n  teamDisplayName: \"string\",\n  teamInvitationLink: \"string\"\n});\n\nexport function EmailTemplate({ user, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"You have been invited to join \" + variables.teamDisplayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section className=\"mx-auto max-w-lg\">\n          <Heading as=\"h3\" className=\"font-sans font-bold text-xl text-center px-6 pt-8 m-0\">\n            You are invited to {variables.teamDisplayName}\n          </Heading>\n          <p className=\"text-sm font-sans font-normal text-center px-6 pt-2 pb-4 m-0 opacity-80\">\n            Hi{user.displayName ? \", \" + user.displayName : \"\"}! Please click the button below to join the team {variables.teamDisplayName}\n          </p>\n          <div className=\"text-center px-6 py-3\">\n            <Button\n              href={variables.teamInvitationLink}\n              className=\"text-black text-sm font-sans font-bold bg-[#f0f0f0] rounded-md inline-block px-5 py-3 no-underline border-0\"\n            >\n              Join team\n            </Button>\n          </div>\n          <div className=\"px-6 py-4\">\n            <Hr className=\"opacity-20\" />\n          </div>\n          <p className=\"text-xs font-sans font-normal text-center px-6 pb-6 pt-1 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  teamDisplayName: \"My Team\",\n  teamInvitationLink: \"#\"\n} satisfies typeof variablesSchema.infer "
  },
  {
    id: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
    displayName: "Sign In Invitation",
    tsxSource:
      "import { type } from \"arktype\"\nimport { Button, Section, Hr, Text, Heading } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  signInInvitationLink: \"string\",\n  teamDisplayName: \"string\"\n})\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject\n        value={\"You have been invited to sign in to \" + project.displayName}\n      />\n      <NotificationCategory value=\"Transactional\" />\n\n      <div className=\"font-sans text-base font-normal leading-normal w-full min-h-full m-0 py-8\">\n        <Section>\n          <Heading as=\"h3\" className=\"font-sans font-bold text-xl text-center pt-8 px-6 m-0\">\n            You are invited to sign in to {variables.teamDisplayName}\n          </Heading>\n\n          <p className=\"text-sm font-sans font-normal text-center pt-2 pb-4 px-6 m-0 opacity-80\">\n            Hi\n            {user.displayName ? \", \" + user.displayName : \"\"}! Please click on the following\n            link to sign in to your account\n          </p>\n\n          <div className=\"text-center px-6 py-3\">\n            <Button\n              href={variables.signInInvitationLink}\n              className=\"text-black text-sm font-sans font-bold bg-gray-200 rounded-md inline-block py-3 px-5 no-underline border-none\"\n            >\n              Sign in\n            </Button>\n          </div>\n\n          <div className=\"px-6 py-4\">\n            <Hr className=\"opacity-20\" />\n          </div>\n\n          <p className=\"text-xs font-sans font-normal text-center pt-1 pb-6 px-6 m-0 opacity-60\">\n            If you were not expecting this email, you can safely ignore it.\n          </p>\n        </Section>\n      </div>\n    </>\n  )\n}\n\nEmailTemplate.PreviewVariables = {\n  signInInvitationLink: \"#\",\n  teamDisplayName: \"My Team\"\n} satisfies typeof variablesSchema.infer"
  },
  {
    id: "70372aee-0441-4d80-974c-2e858e40123a",
    displayName: "Payment Receipt",
    tsxSource:
      "import { type } from \"arktype\";\nimport { Button, Section, Hr } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  productName: \"string\",\n  quantity: \"number\",\n  amount: \"string\",\n  receiptLink: \"string?\"\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Your receipt from \" + project.displayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"bg-white text-[#242424] font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section className=\"bg-white\">\n          <h3 className=\"text-black font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            Thanks for your purchase\n          </h3>\n          <p className=\"text-[#474849] font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0\">\n            Hi{user.displayName ? (\", \" + user.displayName) : \"\"}! Your payment for {variables.productName} is complete.\n          </p>\n          <div className=\"px-6\">\n            <p className=\"text-black font-sans font-bold text-[16px] text-center m-0\">\n              Total paid: {variables.amount}\n            </p>\n            <p className=\"text-[#474849] font-sans text-[13px] text-center mt-2 mb-0\">\n              Quantity: {variables.quantity}\n            </p>\n          </div>\n          {variables.receiptLink ? (\n            <div className=\"text-center py-4 px-6\">\n              <Button\n                href={variables.receiptLink}\n                target=\"_blank\"\n                className=\"text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0\"\n              >\n                View receipt\n              </Button>\n            </div>\n          ) : null}\n          <div className=\"py-4 px-6\">\n            <Hr />\n          </div>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  productName: \"Pro Plan\",\n  quantity: 1,\n  amount: \"$29.00\",\n  receiptLink: \"https://example.com/receipt\"\n} satisfies typeof variablesSchema.infer;\n"
  },
  {
    id: "f64b1afe-27ec-4a28-a277-7178f3261f9a",
    displayName: "Payment Failed",
    tsxSource:
      "import { type } from \"arktype\";\nimport { Button, Section, Hr } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  productName: \"string\",\n  amount: \"string\",\n  invoiceUrl: \"string?\",\n  failureReason: \"string?\"\n});\n\nexport function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <>\n      <Subject value={\"Payment failed for \" + project.displayName} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"bg-white text-[#242424] font-sans text-base font-normal tracking-[0.15008px] leading-[1.5] m-0 py-8 w-full min-h-full\">\n        <Section className=\"bg-white\">\n          <h3 className=\"text-black font-sans font-bold text-[20px] text-center py-4 px-6 m-0\">\n            We couldn't process your payment\n          </h3>\n          <p className=\"text-[#474849] font-sans font-normal text-[14px] text-center pt-2 px-6 pb-4 m-0\">\n            Hi{user.displayName ? (\", \" + user.displayName) : \"\"}! Your payment for {variables.productName} ({variables.amount}) did not go through.\n          </p>\n          {variables.failureReason ? (\n            <p className=\"text-[#8a8b8b] font-sans text-[12px] text-center px-6 pb-2 m-0\">\n              Reason: {variables.failureReason}\n            </p>\n          ) : null}\n          {variables.invoiceUrl ? (\n            <div className=\"text-center py-3 px-6\">\n              <Button\n                href={variables.invoiceUrl}\n                target=\"_blank\"\n                className=\"text-black font-sans font-bold text-[14px] inline-block bg-[#f0f0f0] rounded-[4px] py-3 px-5 no-underline border-0\"\n              >\n                View invoice\n              </Button>\n            </div>\n          ) : null}\n          <div className=\"py-4 px-6\">\n            <Hr />\n          </div>\n          <p className=\"text-[#474849] font-sans font-normal text-[12px] text-center pt-1 px-6 pb-6 m-0\">\n            Please update your payment details to avoid service interruption.\n          </p>\n        </Section>\n      </div>\n    </>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  productName: \"Pro Plan\",\n  amount: \"$29.00\",\n  invoiceUrl: \"https://example.com/billing\",\n  failureReason: \"Your card was declined\"\n} satisfies typeof variablesSchema.infer;\n"
  }
]

/** The source of a newly created template (the service's `defaultNewTemplateSource`). */
export const newTemplateSource = serviceNewTemplateSource

/** The id of the service's default e-mail verification template. */
export const emailVerificationTemplateId = "e7d009ce-8d47-4528-b245-5bf119f2ffa3"

/** The ids of the service's default templates by the e-mail they write (its `DEFAULT_TEMPLATE_IDS`). */
export const defaultTemplateIds = {
  email_verification: emailVerificationTemplateId,
  password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  magic_link: "822687fe-8d0a-4467-a0d1-416b6e639478",
  team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
  sign_in_invitation: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
  payment_receipt: "70372aee-0441-4d80-974c-2e858e40123a",
  payment_failed: "f64b1afe-27ec-4a28-a277-7178f3261f9a"
} as const

/** Escapes text for HTML. */
export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** The TSX source of the project's selected theme (`email_theme`; Default Light when unknown). */
export const selectedThemeSource = (project: ProjectRecord): string =>
  (defaultThemes.get(project.config.emailTheme ?? defaultThemeId) ?? defaultThemes.get(defaultThemeId)!).tsxSource

/** The theme a template renders with: none for `false`, its own when known, else the project's selected one. */
export const themeSourceFor = (project: ProjectRecord, themeId: string | false | null | undefined): string =>
  themeId === false
    ? emptyTheme
    : (themeId !== null && themeId !== undefined ? defaultThemes.get(themeId)?.tsxSource : undefined) ?? selectedThemeSource(project)

const projectLogos = (project: ProjectRecord): ProjectLogos => ({
  logoUrl: project.logoUrl ?? undefined,
  logoFullUrl: project.logoFullUrl ?? undefined,
  logoDarkModeUrl: project.logoDarkModeUrl ?? undefined,
  logoFullDarkModeUrl: project.logoFullDarkModeUrl ?? undefined
})

/** The `error` of a template without `<Subject>` (the service's text). */
export const subjectRequiredText = "Subject is required, import it from @stackframe/emails"

/** The `error` of a template without `<NotificationCategory>` (the service's text). */
export const notificationCategoryRequiredText = "NotificationCategory is required, import it from @stackframe/emails"

/**
 * Renders a template source as `PATCH /internal/email-templates/{id}` does before saving it: the
 * rendered HTML, or EMAIL_RENDERING_ERROR (400) with the service's `error`. Dies with
 * `RenderingUnavailable` when the rendering packages are not installed.
 */
export const renderTemplate = (project: ProjectRecord, tsxSource: string, limits?: RenderLimits): Effect.Effect<string, EmailRenderingError> =>
  renderEmailWithTemplate(tsxSource, selectedThemeSource(project), {
    variables: { projectDisplayName: project.displayName },
    previewMode: true,
    themeProps: { projectLogos: projectLogos(project) },
    limits
  }).pipe(
    Effect.catchTag("RenderFailure", (failure) => Effect.fail(EmailRenderingError.make({ error: failure.errorText }))),
    Effect.catchTag("RenderingUnavailable", (unavailable) => Effect.die(unavailable)),
    Effect.flatMap((rendered) =>
      rendered.subject === undefined
        ? Effect.fail(EmailRenderingError.make({ error: subjectRequiredText }))
        : rendered.notificationCategory === undefined
        ? Effect.fail(EmailRenderingError.make({ error: notificationCategoryRequiredText }))
        : Effect.succeed(rendered.html)
    )
  )

/** An e-mail rendered from one of the project's templates. */
export interface ProjectEmail {
  readonly subject: string
  readonly html: string
  readonly text: string
}

let warnedUnavailable = false

/**
 * Renders an e-mail the emulator sends from a template of the project (as the service's e-mail
 * queue does: the user's display name, the project's, `projectDisplayName` and `userDisplayName`
 * among the variables, the template's theme). Undefined when the project has no such template, it
 * does not render (the service records a render error instead of sending), or the rendering
 * packages are not installed (logged once per process).
 */
export const renderProjectEmail = (
  project: ProjectRecord,
  templateId: string,
  user: { readonly displayName: string | null },
  variables: Readonly<Record<string, string>>,
  limits?: RenderLimits
): Effect.Effect<ProjectEmail | undefined> => {
  const template = project.emailTemplates.get(templateId)
  if (template === undefined) return Effect.succeed(undefined)
  return renderEmailWithTemplate(template.tsxSource, themeSourceFor(project, template.themeId), {
    user: { displayName: user.displayName },
    project: { displayName: project.displayName },
    variables: { projectDisplayName: project.displayName, userDisplayName: user.displayName ?? "", ...variables },
    themeProps: { projectLogos: projectLogos(project) },
    limits
  }).pipe(
    Effect.map((rendered): ProjectEmail | undefined =>
      rendered.subject === undefined ? undefined : { subject: rendered.subject, html: rendered.html, text: rendered.text }
    ),
    Effect.catchTag("RenderFailure", () => Effect.succeed(undefined)),
    Effect.catchTag("RenderingUnavailable", (unavailable) => {
      if (warnedUnavailable) return Effect.succeed(undefined)
      warnedUnavailable = true
      return Effect.as(Effect.logWarning(`${unavailable.message}. Until then the emulator sends its built-in e-mails as plain e-mails.`), undefined)
    })
  )
}

/**
 * The subject, HTML and text of an e-mail the emulator sends from one of the project's default
 * templates (`renderProjectEmail`), or the given plain e-mail when the template does not render
 * or the rendering packages are not installed.
 */
export const emailFromTemplate = (
  project: ProjectRecord,
  kind: keyof typeof defaultTemplateIds,
  user: { readonly displayName: string | null } | null,
  variables: Readonly<Record<string, string>>,
  fallback: ProjectEmail,
  limits?: RenderLimits
): Effect.Effect<ProjectEmail> =>
  Effect.map(renderProjectEmail(project, defaultTemplateIds[kind], user ?? { displayName: null }, variables, limits), (email) => email ?? fallback)
