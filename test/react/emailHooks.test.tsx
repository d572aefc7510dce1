// @vitest-environment happy-dom
/**
 * The e-mail hooks (issue 29 item 6: `useEmailThemes`, `useEmailTemplates`, `useEmailDeliveryStats`
 * and their Suspense twins, with `useEmailTheme(id)`, `useEmailDrafts`, `useEmailPreview`), from
 * `makeStackHooks` over a runtime with admin and server access, against the in-process emulator
 * (whose routes follow the service at 2f719903: internal/email-themes, internal/email-templates,
 * internal/email-drafts, emails/delivery-info, emails/render-email). A write through the SDK
 * refreshes the hooks that read what it changed.
 */
import { act, cleanup, configure, render, screen, waitFor } from "@testing-library/react"
import { Effect, ManagedRuntime } from "effect"
import { Suspense } from "react"
import { afterEach, describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"
import { EmailDrafts, EmailThemes, ServerEmails, ServerUsers, Stack } from "../../src/index.js"
import { makeStackHooks, StackProvider } from "../../react/index.js"
import type { EmailConfig } from "../../src/emulator/State.js"

// the demo project's own SMTP server (sending e-mail needs one)
const customServer: EmailConfig = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "smtp-password",
  senderName: "Example",
  senderEmail: "noreply@example.com"
}

configure({ asyncUtilTimeout: 10_000 })
afterEach(cleanup)

const setup = async () => {
  const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000, demo: { config: { emailConfig: customServer } } }).pipe(Effect.orDie))
  const runtime = ManagedRuntime.make(
    Stack.layerAdmin({
      projectId: emulator.demo.projectId,
      httpClient: Emulator.layerHttpClient(emulator),
      superSecretAdminKey: emulator.demo.superSecretAdminKey,
      secretServerKey: emulator.demo.secretServerKey,
      tokenStore: "memory"
    })
  )
  return { emulator, runtime, hooks: makeStackHooks(runtime) }
}

const text = (id: string) => screen.getByTestId(id).textContent

describe("e-mail hooks", () => {
  it("useEmailThemes, useEmailTemplates, useEmailDrafts, useEmailDeliveryStats read; writes through the SDK refresh them", async () => {
    const { runtime, hooks } = await setup()
    try {
      const View = () => {
        const themes = hooks.useEmailThemes()
        const templates = hooks.useEmailTemplates()
        const drafts = hooks.useEmailDrafts()
        const stats = hooks.useEmailDeliveryStats()
        if (themes.status !== "success" || templates.status !== "success" || drafts.status !== "success" || stats.status !== "success") {
          return <span data-testid="emails">loading</span>
        }
        return (
          <span data-testid="emails">
            {[
              `themes:${themes.data.map((theme) => theme.displayName).join("+")}`,
              `templates:${templates.data.length}`,
              `drafts:${
                drafts.data.map((draft) => `${draft.displayName}@${draft.sentAt === null || draft.sentAt === undefined ? "unsent" : "sent"}`).join("+")
              }`,
              `sent:${stats.data.stats.day.sent}`
            ].join("|")}
          </span>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <View />
        </StackProvider>
      )
      await waitFor(() => expect(text("emails")).toBe("themes:Default Light+Default Dark+Default Colorful|templates:7|drafts:|sent:0"))
      const user = await runtime.runPromise(ServerUsers.create({ primaryEmail: "hooks@example.com" }))
      const draftId = await act(() => runtime.runPromise(EmailDrafts.create({ displayName: "Hello" })))
      await act(() => runtime.runPromise(EmailThemes.create("Brand")))
      await waitFor(() => expect(text("emails")).toBe("themes:Default Light+Default Dark+Default Colorful+Brand|templates:7|drafts:Hello@unsent|sent:0"))
      await act(() => runtime.runPromise(ServerEmails.sendEmail({ userIds: [user.id], draftId })))
      await waitFor(() => expect(text("emails")).toBe("themes:Default Light+Default Dark+Default Colorful+Brand|templates:7|drafts:Hello@sent|sent:1"))
    } finally {
      await runtime.dispose()
    }
  })

  it("the Suspense twins, useEmailTheme(id) and useEmailPreview", async () => {
    const { runtime, hooks } = await setup()
    try {
      const themes = await runtime.runPromise(EmailThemes.list())
      const View = () => {
        const list = hooks.useSuspenseEmailThemes()
        const templates = hooks.useSuspenseEmailTemplates()
        const drafts = hooks.useSuspenseEmailDrafts()
        const stats = hooks.useSuspenseEmailDeliveryStats()
        const theme = hooks.useSuspenseEmailTheme(themes[1]!.id)
        const plain = hooks.useEmailTheme(themes[0]!.id)
        const preview = hooks.useSuspenseEmailPreview({ templateId: templates[0]!.id, themeId: false })
        const other = hooks.useEmailPreview({ templateTsxSource: "export function EmailTemplate() { return <b>x</b> }" })
        return (
          <span data-testid="suspense">
            {[
              list.length,
              templates.length,
              drafts.length,
              stats.capacity.boostMultiplier,
              theme.displayName,
              plain.status === "success" ? plain.data.displayName : "…",
              preview.subject,
              other.status === "success" ? other.data.html.includes("<b>x</b>") : "…"
            ].join("|")}
          </span>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <Suspense fallback={<span data-testid="suspense">loading</span>}>
            <View />
          </Suspense>
        </StackProvider>
      )
      await waitFor(() => expect(text("suspense")).toBe("3|7|0|1|Default Dark|Default Light|Verify your email at Demo Project|true"))
    } finally {
      await runtime.dispose()
    }
  })
})
