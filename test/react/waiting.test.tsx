// @vitest-environment happy-dom
/**
 * The `waiting` flag of a query result: `true` while the query runs again in the background with
 * its previous result on screen (after a mutation invalidated what it read, or `refetch()`),
 * `false` once the new result is shown and on the first load. The refresh requests are held
 * back until the test releases them, so every step is observed (no timing).
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { version as reactVersion } from "react"
import type { ReactNode } from "react"
import { describe, expect, it } from "vitest"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import { Effect } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { StackProvider, useContactChannels, useStackMutation, useUser } from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"

let app: App

useFreshApp((made) => (app = made))

const renameOnServer = (email: string, displayName: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const users = yield* ServerUsers.list()
      const user = users.items.find((candidate) => candidate.primaryEmail === email)
      if (user === undefined) return yield* Effect.die(new Error(`no user ${email}`))
      yield* ServerUsers.update(user.id, { displayName })
    }).pipe(
      Effect.provide(
        Stack.layerServer({
          projectId: app.emulator.demo.projectId,
          publishableClientKey: app.emulator.demo.publishableClientKey,
          secretServerKey: app.emulator.demo.secretServerKey,
          httpClient: Emulator.layerHttpClient(app.emulator),
          tokenStore: "memory"
        })
      )
    )
  )

const Provider = (props: { readonly children: ReactNode }) => <StackProvider runtime={app.runtime}>{props.children}</StackProvider>

describe(`React ${reactVersion}: a query result's waiting flag`, () => {
  it("a mutation invalidates: waiting true with the old data, then false with the new", async () => {
    await app.signUp("ada@example.com")
    const seen: Array<string> = []
    const Channels = () => {
      const channels = useContactChannels()
      const text = channels.status === "success"
        ? `${channels.waiting ? "waiting" : "idle"}:${channels.data.map((channel) => channel.value).sort().join(",")}`
        : `${channels.status}:${String(channels.waiting)}`
      seen.push(text)
      return <span data-testid="channels">{text}</span>
    }
    const Add = () => {
      const add = useStackMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
      return (
        <button type="button" onClick={() => void add.run("second@example.com")}>
          add
        </button>
      )
    }
    render(
      <Provider>
        <Channels />
        <Add />
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("idle:ada@example.com"))
    expect(seen.filter((text) => text.startsWith("loading"))).toEqual(seen.filter((text) => text === "loading:false"))
    const release = app.hold("GET /contact-channels")
    const before = seen.length
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("waiting:ada@example.com"))
    release()
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("idle:ada@example.com,second@example.com"))
    const after = seen.slice(before)
    const firstWaiting = after.indexOf("waiting:ada@example.com")
    expect(firstWaiting).toBeGreaterThanOrEqual(0)
    // once waiting, never back to "idle" with the old data: the next idle shows the new data
    expect(after.slice(firstWaiting).filter((text) => text.startsWith("idle"))).toEqual(
      after.slice(firstWaiting).filter((text) => text === "idle:ada@example.com,second@example.com")
    )
    expect(app.count("GET /contact-channels")).toBe(2)
  })

  it("refetch(): waiting true with the old user, then false with the new one", async () => {
    await app.signUp("ada@example.com")
    let refetch: () => void = () => {}
    const Name = () => {
      const user = useUser()
      refetch = user.refetch
      return (
        <span data-testid="name">
          {user.status === "success" ? `${user.waiting ? "waiting" : "idle"}:${user.data?.displayName ?? "none"}` : user.status}
        </span>
      )
    }
    render(
      <Provider>
        <Name />
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("name").textContent).toBe("idle:none"))
    // changed by a server (its own memory token store: the page's cookie session stays as it is)
    await renameOnServer("ada@example.com", "Changed elsewhere")
    const release = app.hold("GET /users/me")
    act(() => refetch())
    await waitFor(() => expect(screen.getByTestId("name").textContent).toBe("waiting:none"))
    release()
    await waitFor(() => expect(screen.getByTestId("name").textContent).toBe("idle:Changed elsewhere"))
    expect(app.count("GET /users/me")).toBe(2)
  })

  it("a background refresh that fails ends the wait: the old data stays, waiting false", async () => {
    await app.signUp("ada@example.com")
    const Channels = () => {
      const channels = useContactChannels()
      return (
        <span data-testid="channels">
          {channels.status === "success"
            ? `${channels.waiting ? "waiting" : "idle"}:${channels.data.map((channel) => channel.value).join(",")}`
            : channels.status}
        </span>
      )
    }
    const Add = () => {
      const add = useStackMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
      return (
        <button type="button" onClick={() => void add.run("second@example.com")}>
          add
        </button>
      )
    }
    render(
      <Provider>
        <Channels />
        <Add />
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("idle:ada@example.com"))
    const release = app.hold("GET /contact-channels")
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("waiting:ada@example.com"))
    const repair = app.breakDown("GET /contact-channels")
    release()
    await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("idle:ada@example.com"))
    repair()
  })
})
