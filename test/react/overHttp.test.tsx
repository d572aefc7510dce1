// @vitest-environment happy-dom
/**
 * End to end over real HTTP: the hooks of `makeStackHooks(runtime)` against the emulator's Node
 * server (127.0.0.1, free port), with a counting `fetch`. A mutation invalidates what a query read:
 * the query shows its old data with `waiting: true` while the refresh request is held back, then the
 * new data with `waiting: false`; one refresh request on the wire.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { ManagedRuntime } from "effect"
import { version as reactVersion } from "react"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import type { RunningServer } from "../../src/emulator/server.js"
import * as Stack from "../../src/Stack.js"
import { makeStackHooks, StackProvider } from "../../react/index.js"
import { countingFetch, startServer } from "../e2e/support.js"
import { holdable, password } from "./support.js"

let main: { server: RunningServer; stop: () => Promise<void> }

beforeAll(async () => {
  main = await startServer({ passwordHashIterations: 1000 })
})
afterAll(async () => {
  cleanup()
  await main?.stop()
})

describe(`React ${reactVersion} over HTTP: makeStackHooks and waiting`, () => {
  it("a mutation invalidates: waiting true with the old data, then false with the new (one refresh request)", async () => {
    const fetch = countingFetch()
    const gates = holdable(fetch.layer)
    const runtime = ManagedRuntime.make(
      Stack.layerClient({
        projectId: main.server.emulator.demo.projectId,
        publishableClientKey: main.server.emulator.demo.publishableClientKey,
        baseUrl: main.server.baseUrl,
        httpClient: gates.layer,
        tokenStore: "memory"
      })
    )
    const { useStackMutation, useContactChannels } = makeStackHooks(runtime)
    try {
      const email = `react-http-${Date.now()}@example.com`
      await runtime.runPromise(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
      const Channels = () => {
        const channels = useContactChannels()
        return (
          <span data-testid="channels">
            {channels.status === "success"
              ? `${channels.waiting ? "waiting" : "idle"}:${channels.data.length}`
              : channels.status}
          </span>
        )
      }
      const Add = () => {
        const add = useStackMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
        return (
          <button type="button" onClick={() => void add.run(`second-${email}`)}>
            add
          </button>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <Channels />
          <Add />
        </StackProvider>
      )
      await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("idle:1"))
      const release = gates.hold("GET /contact-channels")
      fireEvent.click(screen.getByRole("button"))
      await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("waiting:1"))
      release()
      await waitFor(() => expect(screen.getByTestId("channels").textContent).toBe("idle:2"))
      expect(fetch.count("GET /contact-channels")).toBe(2)
      expect(fetch.count("POST /contact-channels")).toBe(1)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })
})
