/**
 * The service's e-mail themes (ids, names and TSX sources of `@stackframe/stack-shared` 2.8.108's
 * defaults) and the empty theme it renders templates with when their `themeId` is `false`.
 *
 * @module
 */

/** The id of the theme a new project selects ("Default Light"). */
export const defaultThemeId = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac"

/** The service's default themes by id. */
export const defaultThemes: ReadonlyMap<string, { readonly displayName: string; readonly tsxSource: string }> = new Map([
  ["1df07ae6-abf3-4a40-83a5-a1a2cbe336ac", {
    displayName: "Default Light",
    tsxSource:
      "import { Html, Head, Tailwind, Body, Container, Section } from '@react-email/components';\nimport { ThemeProps, ProjectLogo } from \"@stackframe/emails\";\n\nexport function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {\n  return (\n    <Html>\n      <Head />\n      <Tailwind>\n        <Body className=\"bg-[#fafbfb] font-sans text-base m-0 p-0\" style={{ overflowX: 'hidden' }}>\n          <div className=\"py-8 px-4 flex justify-center\">\n            <Container className=\"bg-white p-[45px] rounded-lg shadow-sm mx-auto\" style={{ width: '100%', maxWidth: '600px' }}>\n              <ProjectLogo data={projectLogos} mode=\"light\" />\n              {children}\n            </Container>\n          </div>\n          {unsubscribeLink && (\n            <Section className=\"p-4 opacity-60 text-center\" style={{ textAlign: 'center' }}>\n              <a href={unsubscribeLink} className=\"text-blue-600\" target=\"_blank\" rel=\"noopener noreferrer\">Click here</a> to unsubscribe from these emails\n            </Section>\n          )}\n        </Body>\n      </Tailwind>\n    </Html>\n  );\n}\n\nEmailTheme.PreviewProps = {\n  unsubscribeLink: \"https://example.com\",\n} satisfies Partial<ThemeProps>\n"
  }],
  ["a0172b5d-cff0-463b-83bb-85124697373a", {
    displayName: "Default Dark",
    tsxSource:
      "import { Html, Head, Tailwind, Body, Container, Section } from '@react-email/components';\nimport { ThemeProps, ProjectLogo } from \"@stackframe/emails\";\n\nexport function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {\n  return (\n    <Html>\n      <Head />\n      <Tailwind>\n        <Body className=\"bg-[#323232] font-sans text-white m-0 p-0\" style={{ overflowX: 'hidden' }}>\n          <div className=\"py-8 px-4 flex justify-center\">\n            <Container className=\"bg-black p-[45px] rounded-lg shadow-sm mx-auto\" style={{ width: '100%', maxWidth: '600px' }}>\n              <ProjectLogo data={projectLogos} mode=\"dark\" />\n              {children}\n            </Container>\n          </div>\n          {unsubscribeLink && (\n            <Section className=\"p-4 opacity-60 text-center\" style={{ textAlign: 'center' }}>\n              <a href={unsubscribeLink} className=\"text-blue-600\" target=\"_blank\" rel=\"noopener noreferrer\">Click here</a> to unsubscribe from these emails\n            </Section>\n          )}\n        </Body>\n      </Tailwind>\n    </Html>\n  );\n}\n\nEmailTheme.PreviewProps = {\n  unsubscribeLink: \"https://example.com\",\n} satisfies Partial<ThemeProps>\n"
  }],
  ["c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f", {
    displayName: "Default Colorful",
    tsxSource:
      "import { Html, Head, Tailwind, Body, Container, Section } from '@react-email/components';\nimport { ThemeProps, ProjectLogo } from \"@stackframe/emails\";\n\nexport function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {\n  return (\n    <Html>\n      <Head />\n      <Tailwind>\n        <Body className=\"bg-[#f0eef6] font-sans text-base m-0 p-0\" style={{ overflowX: 'hidden' }}>\n          <div className=\"py-8 px-4 flex justify-center\">\n            <Container className=\"bg-white p-[45px] rounded-2xl mx-auto\" style={{ width: '100%', maxWidth: '600px', borderTop: '4px solid #7c5ce0' }}>\n              <ProjectLogo data={projectLogos} mode=\"light\" />\n              {children}\n            </Container>\n          </div>\n          {unsubscribeLink && (\n            <Section className=\"p-4 opacity-60 text-center\" style={{ textAlign: 'center' }}>\n              <a href={unsubscribeLink} className=\"text-[#7c5ce0]\" target=\"_blank\" rel=\"noopener noreferrer\">Click here</a> to unsubscribe from these emails\n            </Section>\n          )}\n        </Body>\n      </Tailwind>\n    </Html>\n  );\n}\n\nEmailTheme.PreviewProps = {\n  unsubscribeLink: \"https://example.com\",\n} satisfies Partial<ThemeProps>\n"
  }]
])

/** The theme of a template whose `themeId` is `false`: no layout, only `Html`, `Tailwind` and `Body`. */
export const emptyTheme =
  "import { Html, Tailwind, Body } from '@react-email/components';\nexport function EmailTheme({ children }: { children: React.ReactNode }) {\n  return (\n    <Html>\n      <Tailwind>\n        <Body>\n          {children}\n        </Body>\n      </Tailwind>\n    </Html>\n  );\n}"

/** The source of a new template (`POST /internal/email-templates`), as the service's. */
export const newTemplateSource =
  "import { type } from \"arktype\"\nimport { Container } from \"@react-email/components\";\nimport { Subject, NotificationCategory, Props } from \"@stackframe/emails\";\n\nexport const variablesSchema = type({\n  count: \"number\"\n});\n\nexport function EmailTemplate({ user, variables }: Props<typeof variablesSchema.infer>) {\n  return (\n    <Container>\n      <Subject value={`Hello ${user.displayName}!`} />\n      <NotificationCategory value=\"Transactional\" />\n      <div className=\"font-bold\">Hi {user.displayName}!</div>\n      <br />\n      count is {variables.count}\n    </Container>\n  );\n}\n\nEmailTemplate.PreviewVariables = {\n  count: 10\n} satisfies typeof variablesSchema.infer"
