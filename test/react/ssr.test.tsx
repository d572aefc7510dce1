// @vitest-environment node
/**
 * The hooks render on the server (renderToString) without a `window`: plain hooks render their
 * loading state and start nothing; a Suspense hook inside a boundary renders the fallback.
 */
import { Effect } from "effect"
import { Suspense } from "react"
import { renderToString } from "react-dom/server"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { StackProvider, useContactChannels, useProject, useStackMutation, useStackQuery, useSuspenseUser, useUser } from "../../react/index.js"
import { makeApp } from "./support.js"
import type { App } from "./support.js"

let app: App

beforeEach(async () => {
  app = await makeApp()
})
afterEach(async () => {
  await app.dispose()
})

describe("server rendering", () => {
  it("plain hooks render 'loading' without touching window and send nothing", async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined")
    await app.signUp("ada@example.com")
    let ran = false
    const Page = () => {
      const user = useUser()
      const channels = useContactChannels()
      const project = useProject()
      const custom = useStackQuery(
        Effect.sync(() => {
          ran = true
        }),
        []
      )
      const save = useStackMutation(() => Effect.void)
      return (
        <p>
          {user.status}/{channels.status}/{project.status}/{custom.status}/{String(save.pending)}
        </p>
      )
    }
    const html = renderToString(
      <StackProvider runtime={app.runtime}>
        <Page />
      </StackProvider>
    )
    expect(html).toBe("<p>loading<!-- -->/<!-- -->loading<!-- -->/<!-- -->loading<!-- -->/<!-- -->loading<!-- -->/<!-- -->false</p>")
    expect(ran).toBe(false)
    expect(app.count("GET /users/me")).toBe(0)
  })

  it("a Suspense hook inside a boundary renders the fallback", () => {
    const Name = () => {
      const user = useSuspenseUser()
      return <span>{user?.primaryEmail ?? "nobody"}</span>
    }
    const html = renderToString(
      <StackProvider runtime={app.runtime}>
        <Suspense fallback={<span>loading</span>}>
          <Name />
        </Suspense>
      </StackProvider>
    )
    expect(html).toContain("loading")
  })
})
