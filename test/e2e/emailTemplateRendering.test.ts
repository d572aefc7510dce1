/**
 * End to end over real HTTP against the emulator server (issue 16 item 7): an admin changes the
 * project's verification template through `EmailTemplates.update` and gets it back rendered as the
 * service's preview (React e-mail HTML inside the project's theme, "John Doe"/"My Project"); a
 * source that does not render is `EmailRenderingError` with the service's text and is not saved;
 * a user who signs up afterwards gets the changed template, rendered with the project's name and
 * the verification link, in the outbox.
 */
import { Effect, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { EmailTemplates, Stack } from "../../src/index.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ passwordHashIterations: 1000 })

const verificationId = "e7d009ce-8d47-4528-b245-5bf119f2ffa3"

const adminLayer = () =>
  Stack.layerAdmin({
    projectId: main.server.emulator.demo.projectId,
    baseUrl: main.server.baseUrl,
    httpClient: countingFetch().layer,
    superSecretAdminKey: main.server.emulator.demo.superSecretAdminKey
  })

const clientLayer = () =>
  Stack.layerClient({
    projectId: main.server.emulator.demo.projectId,
    publishableClientKey: main.server.emulator.demo.publishableClientKey,
    baseUrl: main.server.baseUrl,
    httpClient: countingFetch().layer,
    tokenStore: TokenStore.layerMemory(TokenStore.empty)
  })

const changedSource = `import { type } from "arktype"
import { Button, Section, Text, Heading } from "@react-email/components"
import { Subject, NotificationCategory, Props } from "@stackframe/emails"

export const variablesSchema = type({ emailVerificationLink: "string" })

export function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {
  const greeting = user.displayName ?? "there"
  return (
    <>
      <Subject value={\`Welcome to \${project.displayName} & confirm\`} />
      <NotificationCategory value="Transactional" />
      <Section>
        <Heading as="h2">Welcome to {project.displayName}, {greeting}</Heading>
        <Text>One click & you are in:</Text>
        <Button href={variables.emailVerificationLink}>Confirm</Button>
      </Section>
    </>
  )
}

EmailTemplate.PreviewVariables = { emailVerificationLink: "https://preview.example/verify" } satisfies typeof variablesSchema.infer
`

describe("e-mail templates render over HTTP", () => {
  it("update renders the preview, a broken source is refused, and the next verification e-mail uses the changed template", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        yield* AdminProjects.updateCurrent({
          config: {
            emailConfig: {
              type: "standard",
              host: "127.0.0.1",
              port: 2525,
              username: "mailer",
              password: Redacted.make("pw"),
              senderName: "Tests",
              senderEmail: "noreply@example.com"
            }
          }
        })
        const preview = yield* EmailTemplates.update(verificationId, { tsxSource: changedSource })
        const broken = yield* Effect.flip(EmailTemplates.update(verificationId, { tsxSource: "export function EmailTemplate() { return <p>unclosed }" }))
        const subjectless = yield* Effect.flip(
          EmailTemplates.update(verificationId, {
            tsxSource:
              "import { NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <NotificationCategory value=\"Transactional\" /> }"
          })
        )
        const listed = yield* EmailTemplates.list()
        return { preview, broken, subjectless, listed }
      }).pipe(Effect.provide(adminLayer()))
    )
    // react-email's markup (React's `<!-- -->` between adjacent texts, Text's margins written out)
    expect(result.preview).toContain("<h2>Welcome to <!-- -->My Project<!-- -->, <!-- -->John Doe</h2>")
    expect(result.preview).toContain("<p style=\"font-size:14px;line-height:24px;margin-top:16px;margin-bottom:16px\">One click &amp; you are in:</p>")
    expect(result.preview).toContain("<a href=\"https://preview.example/verify\"")
    expect(result.preview).toContain("Click here</a> to unsubscribe from these emails")
    expect(result.broken._tag).toBe("EmailRenderingError")
    expect(result.broken._tag === "EmailRenderingError" && result.broken.details.error).toMatch(
      /^Build failed with \d+ errors?:\nvirtual:\/template\.tsx:\d+:\d+: ERROR: /
    )
    expect(result.subjectless._tag === "EmailRenderingError" && result.subjectless.details.error).toBe("Subject is required, import it from @stackframe/emails")
    expect(result.listed.find((template) => template.id === verificationId)?.tsxSource).toBe(changedSource)
    expect(defaultTemplates[0]!.tsxSource).not.toBe(changedSource)

    const email = `render-${Date.now()}@example.com`
    await Effect.runPromise(
      Password.signUpWithPassword({ email, password: "correct horse battery", verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })
        .pipe(
          Effect.provide(clientLayer())
        )
    )
    const mail = main.server.emulator.latestEmail({ email })!
    const projectName = main.server.emulator.state.projects.get(main.server.emulator.demo.projectId)!.displayName
    expect(mail.subject).toBe(`Welcome to ${projectName} & confirm`)
    expect(mail.html).toContain("Welcome to ")
    expect(mail.html).toContain(", <!-- -->there</h2>")
    expect(mail.html).toContain(`<a href="${mail.link!.replace(/&/g, "&amp;")}"`)
    expect(mail.html).not.toContain("John Doe")
    expect(mail.text).toContain(mail.link!)
  })
})
