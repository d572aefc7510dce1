// @vitest-environment happy-dom
/**
 * Server-to-client hydration (issue 15): the server's `Hydration.dehydrate()` for the request's
 * session, handed to `StackProvider`'s `initialState`, makes the browser's first render show the
 * signed-in user — no "loading" and no `GET /users/me` (one request saved per page load, counted
 * here) — and stores the tokens the browser's store lacks. In process and over real HTTP.
 */
import { cleanup, configure, render, screen, waitFor } from "@testing-library/react"
import { Effect, ManagedRuntime, Option } from "effect"
import { version as reactVersion } from "react"
import { renderToString } from "react-dom/server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Emulator from "../../src/emulator/index.js"
import type { RunningServer } from "../../src/emulator/server.js"
import * as Stack from "../../src/Stack.js"
import * as Hydration from "../../src/users/Hydration.js"
import * as Users from "../../src/users/Users.js"
import { StackProvider, useUser } from "../../react/index.js"
import type { StackRuntime } from "../../react/index.js"
import { countingClient } from "../cache/support.js"
import { countingFetch, startServer } from "../e2e/support.js"
import { password } from "./support.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })

let emulator: Emulator.Emulator
let main: { server: RunningServer; stop: () => Promise<void> }

beforeAll(async () => {
  emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
  main = await startServer({ passwordHashIterations: 1000 })
})
afterAll(async () => {
  cleanup()
  await main?.stop()
})

const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`

/** An app runtime over the in-process emulator (memory tokens) and its request counter. */
const inProcessApp = () => {
  const http = countingClient(emulator)
  const runtime = ManagedRuntime.make(
    Stack.layerClient({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      httpClient: http.layer,
      tokenStore: "memory"
    })
  )
  return { runtime, count: http.count }
}

/** What the server of the page does: signs in (the request's session) and dehydrates, as page text. */
const serverPage = async (runtime: ManagedRuntime.ManagedRuntime<Stack.ClientServices, unknown>, email: string) => {
  await runtime.runPromise(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
  const text = Hydration.serialize(await runtime.runPromise(Hydration.dehydrate()))
  return JSON.parse(text) as Hydration.Dehydrated
}

const Greeting = (props: { readonly seen: Array<string> }) => {
  const user = useUser()
  const shown = user.status === "success" ? (user.data === null ? "nobody" : (user.data.primaryEmail ?? "?")) : user.status
  props.seen.push(shown)
  return <span data-testid="greeting">{shown}</span>
}

describe(`React ${reactVersion}: server-to-client hydration`, () => {
  it("with initialState the first render shows the user and the browser sends no GET /users/me; without it, loading and one request", async () => {
    const server = inProcessApp()
    const email = unique("hydrated")
    const initialState = await serverPage(server.runtime, email)
    const browser = inProcessApp()
    const seen: Array<string> = []
    render(
      <StackProvider runtime={browser.runtime as StackRuntime<never>} initialState={initialState}>
        <Greeting seen={seen} />
      </StackProvider>
    )
    expect(seen[0]).toBe(email)
    await waitFor(() => expect(screen.getByTestId("greeting").textContent).toBe(email))
    expect(seen.every((shown) => shown === email)).toBe(true)
    expect(browser.count("GET /users/me")).toBe(0)
    // the tokens were stored: the browser's session acts as the user
    const renamed = await browser.runtime.runPromise(Users.updateCurrent({ displayName: "Hydrated" }))
    expect(renamed.primaryEmail).toBe(email)
    cleanup()

    const plain = inProcessApp()
    await plain.runtime.runPromise(Password.signInWithPassword({ email, password }))
    const plainSeen: Array<string> = []
    render(
      <StackProvider runtime={plain.runtime as StackRuntime<never>}>
        <Greeting seen={plainSeen} />
      </StackProvider>
    )
    expect(plainSeen[0]).toBe("loading")
    await waitFor(() => expect(screen.getByTestId("greeting").textContent).toBe(email))
    expect(plain.count("GET /users/me")).toBe(1)
    cleanup()
    await Promise.all([server.runtime.dispose(), browser.runtime.dispose(), plain.runtime.dispose()])
  })

  it("a signed-out page hands over nobody: the first render shows nobody, with no request", async () => {
    const server = inProcessApp()
    const initialState = await server.runtime.runPromise(Hydration.dehydrate())
    expect(initialState).toEqual({ version: 1, user: null, accessToken: null, refreshToken: null })
    const browser = inProcessApp()
    const seen: Array<string> = []
    render(
      <StackProvider runtime={browser.runtime as StackRuntime<never>} initialState={initialState}>
        <Greeting seen={seen} />
      </StackProvider>
    )
    expect(seen[0]).toBe("nobody")
    await waitFor(() => expect(seen.length).toBeGreaterThan(1))
    expect(browser.count("GET /users/me")).toBe(0)
    cleanup()
    await Promise.all([server.runtime.dispose(), browser.runtime.dispose()])
  })

  it("server rendering with initialState renders the user, not 'loading'", async () => {
    const server = inProcessApp()
    const email = unique("ssr")
    const initialState = await serverPage(server.runtime, email)
    const html = renderToString(
      <StackProvider runtime={server.runtime as StackRuntime<never>} initialState={initialState}>
        <Greeting seen={[]} />
      </StackProvider>
    )
    expect(html).toContain(email)
    expect(html).not.toContain("loading")
    await server.runtime.dispose()
  })

  it("a value that is not a hand-over goes to onError (InvalidHydration) and the hook loads as usual", async () => {
    const browser = inProcessApp()
    const reported: Array<unknown> = []
    const seen: Array<string> = []
    render(
      <StackProvider
        runtime={browser.runtime as StackRuntime<never>}
        onError={(error) => reported.push(error)}
        initialState={{ version: 2 } as unknown as Hydration.Dehydrated}
      >
        <Greeting seen={seen} />
      </StackProvider>
    )
    expect(seen[0]).toBe("loading")
    await waitFor(() => expect(screen.getByTestId("greeting").textContent).toBe("nobody"))
    expect(reported.map((error) => (error as { readonly _tag?: string })._tag)).toEqual(["InvalidHydration"])
    cleanup()
    await browser.runtime.dispose()
  })

  it("serialize keeps the text inside a <script>: no '<', '>' or '&' survive, and JSON.parse reads it back", () => {
    const value: Hydration.Dehydrated = { version: 1, user: null, accessToken: "</script><script>alert(1)</script>&", refreshToken: "r\u2028" }
    const text = Hydration.serialize(value)
    expect(text).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(text)).toEqual(value)
  })

  it("over HTTP: the hydrated browser sends no GET /users/me and its first render shows the user", async () => {
    const layer = (fetch: ReturnType<typeof countingFetch>) =>
      Stack.layerClient({
        projectId: main.server.emulator.demo.projectId,
        publishableClientKey: main.server.emulator.demo.publishableClientKey,
        baseUrl: main.server.baseUrl,
        httpClient: fetch.layer,
        tokenStore: "memory"
      })
    const serverFetch = countingFetch()
    const serverRuntime = ManagedRuntime.make(layer(serverFetch))
    const email = unique("http-hydrated")
    const initialState = await serverPage(serverRuntime, email)
    expect(serverFetch.count("GET /users/me")).toBe(1)
    const browserFetch = countingFetch()
    const browserRuntime = ManagedRuntime.make(layer(browserFetch))
    const seen: Array<string> = []
    render(
      <StackProvider runtime={browserRuntime as StackRuntime<never>} initialState={initialState}>
        <Greeting seen={seen} />
      </StackProvider>
    )
    expect(seen[0]).toBe(email)
    await waitFor(() => expect(seen.length).toBeGreaterThan(1))
    expect(browserFetch.count("GET /users/me")).toBe(0)
    const user = await browserRuntime.runPromise(Users.getCurrent())
    expect(Option.getOrThrow(user).primaryEmail).toBe(email)
    cleanup()
    await Promise.all([serverRuntime.dispose(), browserRuntime.dispose()])
  })
})
