/**
 * Helpers for the React hook tests over real HTTP: the emulator's Node server on 127.0.0.1 for a
 * test file, an app runtime over it with a counting `fetch`, and small DOM readers.
 */
import { cleanup, screen } from "@testing-library/react"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll } from "vitest"
import type { RunningServer } from "../../src/emulator/server.js"
import * as Stack from "../../src/Stack.js"
import { countingFetch, startServer } from "../e2e/support.js"

/**
 * Starts the emulator's Node server before the file's tests and stops it (after unmounting what
 * they rendered) once they ran. `server()` is the running server; `clientRuntime(fetch, projectId)`
 * an app runtime of `Stack.layerClient` over it (the demo project by default; `"internal"` without
 * a publishable key), in-memory tokens, its requests counted by `fetch`.
 */
export const emulatorServerForFile = () => {
  let main: { server: RunningServer; stop: () => Promise<void> } | undefined
  beforeAll(async () => {
    main = await startServer({ passwordHashIterations: 1000 })
  })
  afterAll(async () => {
    cleanup()
    await main?.stop()
  })
  const server = (): RunningServer => {
    if (main === undefined) throw new Error("the emulator server is not started yet")
    return main.server
  }
  const clientRuntime = (fetch = countingFetch(), projectId = server().emulator.demo.projectId) =>
    ManagedRuntime.make(
      Stack.layerClient({
        projectId,
        ...(projectId === "internal" ? {} : { publishableClientKey: server().emulator.demo.publishableClientKey }),
        baseUrl: server().baseUrl,
        httpClient: fetch.layer,
        tokenStore: "memory"
      })
    )
  return { server, clientRuntime }
}

/** The text of the element with `data-testid` `id`. */
export const text = (id: string): string | null => screen.getByTestId(id).textContent

/** An e-mail address no other test uses. */
export const unique = (name: string): string => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
