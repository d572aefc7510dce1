/**
 * Type tests of the e-mail hooks from `makeStackHooks(runtime)`: `useEmailDeliveryStats` only with
 * `ServerAccess`, the theme, template, draft and preview hooks only with `AdminAccess`, their
 * results typed by the SDK calls they read. Checked by `tsc`; a no-op at run time.
 */
import { ManagedRuntime } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type * as EmailThemes from "../../src/emails/EmailThemes.js"
import type * as ServerEmails from "../../src/emails/ServerEmails.js"
import * as Stack from "../../src/Stack.js"
import { makeStackHooks } from "../../react/index.js"
import type { StackQueryResult } from "../../react/index.js"
import type { ErrorOf, SuccessOf } from "./support.js"

const keys = { projectId: "p", publishableClientKey: "pck_x" }
const client = makeStackHooks(ManagedRuntime.make(Stack.layerClient(keys)))
const server = makeStackHooks(ManagedRuntime.make(Stack.layerServer({ ...keys, secretServerKey: "ssk_x" })))
const admin = makeStackHooks(ManagedRuntime.make(Stack.layerAdmin({ projectId: "p", superSecretAdminKey: "sak_x" })))
const both = makeStackHooks(ManagedRuntime.make(Stack.layerAdmin({ projectId: "p", superSecretAdminKey: "sak_x", secretServerKey: "ssk_x" })))

/** Never called: hooks only run inside a component. */
const typeOnly = (_body: () => void): void => {}

describe("e-mail hooks typed by the runtime", () => {
  it("a client runtime has none of them", () => {
    typeOnly(() => {
      // @ts-expect-error no ServerAccess
      client.useEmailDeliveryStats()
      // @ts-expect-error no AdminAccess
      client.useEmailThemes()
      // @ts-expect-error no AdminAccess
      client.useSuspenseEmailTemplates()
    })
  })

  it("a server runtime has the delivery statistics, not the admin hooks", () => {
    typeOnly(() => {
      expectTypeOf(server.useEmailDeliveryStats()).toEqualTypeOf<
        StackQueryResult<ServerEmails.EmailDeliveryInfo, ErrorOf<ReturnType<typeof ServerEmails.getDeliveryStats>>>
      >()
      expectTypeOf(server.useSuspenseEmailDeliveryStats()).toEqualTypeOf<ServerEmails.EmailDeliveryInfo>()
      // @ts-expect-error no AdminAccess
      server.useEmailThemes()
    })
  })

  it("an admin runtime has the theme, template, draft and preview hooks; the statistics only with the server key", () => {
    typeOnly(() => {
      expectTypeOf(admin.useEmailThemes()).toEqualTypeOf<
        StackQueryResult<SuccessOf<ReturnType<typeof EmailThemes.list>>, ErrorOf<ReturnType<typeof EmailThemes.list>>>
      >()
      expectTypeOf(admin.useSuspenseEmailThemes()).toEqualTypeOf<ReadonlyArray<EmailThemes.EmailThemeSummary>>()
      expectTypeOf(admin.useSuspenseEmailTheme("id")).toEqualTypeOf<EmailThemes.EmailTheme>()
      expectTypeOf(admin.useSuspenseEmailPreview({ templateId: "t" })).toEqualTypeOf<EmailThemes.EmailPreview>()
      expectTypeOf(admin.useEmailTemplates).toBeFunction()
      expectTypeOf(admin.useSuspenseEmailDrafts).toBeFunction()
      // @ts-expect-error no ServerAccess without the secret server key
      admin.useEmailDeliveryStats()
      expectTypeOf(both.useEmailDeliveryStats).toBeFunction()
      expectTypeOf(both.useEmailThemes).toBeFunction()
    })
  })
})
