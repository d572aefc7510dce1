// @vitest-environment happy-dom
/**
 * The hooks of `makeStackHooks(runtime)` at run time: they run on that runtime (queries, Suspense,
 * mutations, callbacks, the domain hooks), need a provider, and refuse a provider of another
 * runtime with an error that says what to do. Their types are pinned in test/types/reactHooks.test.ts.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Layer, ManagedRuntime } from "effect"
import { Suspense, version as reactVersion } from "react"
import { renderToString } from "react-dom/server"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as Users from "../../src/users/Users.js"
import { makeStackHooks, StackProvider } from "../../react/index.js"
import type { StackErrorHandler } from "../../react/index.js"
import { makeApp } from "./support.js"
import type { App } from "./support.js"

let app: App
let hooks: ReturnType<typeof makeHooks>
const makeHooks = (current: App) => makeStackHooks(current.runtime)

beforeEach(async () => {
  app = await makeApp()
  hooks = makeHooks(app)
})
afterEach(async () => {
  cleanup()
  await app.dispose()
})

describe(`React ${reactVersion}: makeStackHooks(runtime)`, () => {
  it("the typed hooks run queries, Suspense queries and mutations on the runtime (one request per entry)", async () => {
    await app.signUp("ada@example.com")
    const Channels = () => {
      const channels = hooks.useStackQuery(ContactChannels.list(), [])
      const user = hooks.useUser({ or: "throw" })
      return (
        <span data-testid="channels">
          {channels.status === "success" && user.status === "success"
            ? `${user.data.primaryEmail}:${channels.data.map((channel) => channel.value).sort().join(",")}`
            : "loading"}
        </span>
      )
    }
    const SuspenseName = () => {
      const user = hooks.useSuspenseUser()
      return <span data-testid="suspense">{user?.primaryEmail ?? "nobody"}</span>
    }
    const Add = () => {
      const add = hooks.useStackMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
      return (
        <button type="button" onClick={() => void add.run("second@example.com")}>
          add
        </button>
      )
    }
    render(
      <StackProvider runtime={app.runtime}>
        <Channels />
        <Suspense fallback={<span>…</span>}>
          <SuspenseName />
        </Suspense>
        <Add />
      </StackProvider>
    )
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("ada@example.com:ada@example.com"))
    await waitFor(() => expect(screen.getByTestId("suspense").textContent).toBe("ada@example.com"))
    expect(app.count("GET /users/me")).toBe(1)
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("ada@example.com:ada@example.com,second@example.com"))
    expect(app.count("GET /contact-channels")).toBe(2)
  })

  it("useStackCallback's failure reaches the provider's onError; useStackRuntime returns the runtime", async () => {
    const onError = vi.fn<StackErrorHandler>()
    let seen: unknown = null
    const Rename = () => {
      seen = hooks.useStackRuntime()
      const rename = hooks.useStackCallback(() => Users.updateCurrent({ displayName: "x" }))
      return (
        <button type="button" onClick={() => rename()}>
          go
        </button>
      )
    }
    render(
      <StackProvider runtime={app.runtime} onError={onError}>
        <Rename />
      </StackProvider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect((onError.mock.calls[0]![0] as { readonly _tag: string })._tag).toBe("UserNotSignedIn")
    expect(seen).toBe(app.runtime)
  })

  it("a typed hook under a provider of another runtime throws an error that says what to do, and sends nothing", () => {
    const other = ManagedRuntime.make(Layer.empty)
    const Probe = () => {
      hooks.useUser()
      return null
    }
    expect(() =>
      renderToString(
        <StackProvider runtime={other}>
          <Probe />
        </StackProvider>
      )
    ).toThrow(/makeStackHooks\(runtime\) for another runtime[\s\S]*<StackProvider runtime=\{runtime\}>/)
    expect(app.count()).toBe(0)
  })

  it("a typed hook outside any provider throws the provider error", () => {
    const Probe = () => {
      hooks.useStackQuery(ContactChannels.list(), [])
      return null
    }
    expect(() => renderToString(<Probe />)).toThrow(/useStackQuery must be used inside <StackProvider/)
  })
})
