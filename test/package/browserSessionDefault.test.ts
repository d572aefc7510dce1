// @vitest-environment happy-dom
/**
 * In a browser, `Stack.layerClient` keeps the session in the browser cookie store by default, as
 * the official client's `tokenStore` option does: a reload (a new runtime over the same
 * `document.cookie`) is still signed in. Imported by the package's name, as an app imports it.
 */
import { Effect, ManagedRuntime, Option } from "effect"
import { BrowserCookieStore, Password, Stack, TokenStore, Users } from "stack-auth-effect"
import * as Emulator from "stack-auth-effect/emulator"
import { afterEach, describe, expect, it } from "vitest"
import { countingClient } from "../support/countingClient.js"

const password = "correct horse battery"

const clearCookies = () => {
  for (const pair of document.cookie.split(";")) {
    const name = pair.split("=")[0]!.trim()
    if (name !== "") document.cookie = `${name}=; Max-Age=0; Path=/`
  }
}

afterEach(clearCookies)

describe("the browser's default token store", () => {
  it("is exported from the package entry point", () => {
    expect(typeof BrowserCookieStore.layer).toBe("function")
    expect(BrowserCookieStore.notInBrowserMessage).toBe("Cannot use cookie token store on the server!")
  })

  it("keeps a browser session across a reload (a new runtime over the same cookies), with no sign-in request", async () => {
    const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie))
    const http = countingClient(emulator)
    const layer = () =>
      Stack.layerClient({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: http.layer
      })
    const first = ManagedRuntime.make(layer())
    const email = `reload-${Date.now()}@example.com`
    const { userId } = await first.runPromise(Password.signUpWithPassword({ email, password }).pipe(Effect.orDie))
    await first.dispose()
    expect(document.cookie).toContain(`stack-refresh-${emulator.demo.projectId}`)

    // the reload: a fresh runtime, nothing kept in memory
    const second = ManagedRuntime.make(layer())
    const signIns = http.count("POST /auth/password/sign-in")
    const user = await second.runPromise(Users.getCurrent().pipe(Effect.orDie))
    await second.dispose()
    expect(Option.map(user, (found) => found.id)).toEqual(Option.some(userId))
    expect(http.count("POST /auth/password/sign-in")).toBe(signIns)
  })

  it("tokenStore: \"memory\" opts out: a reload is signed out", async () => {
    const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie))
    const layer = () =>
      Stack.layerClient({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: Emulator.layerHttpClient(emulator),
        tokenStore: "memory"
      })
    const first = ManagedRuntime.make(layer())
    await first.runPromise(Password.signUpWithPassword({ email: `memory-${Date.now()}@example.com`, password }).pipe(Effect.orDie))
    await first.dispose()
    expect(document.cookie).not.toContain("stack-refresh-")
    const second = ManagedRuntime.make(layer())
    expect(Option.isNone(await second.runPromise(Users.getCurrent().pipe(Effect.orDie)))).toBe(true)
    await second.dispose()
  })

  it("an explicit store layer still wins", async () => {
    const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie))
    const runtime = ManagedRuntime.make(
      Stack.layerClient({
        projectId: emulator.demo.projectId,
        httpClient: Emulator.layerHttpClient(emulator),
        tokenStore: TokenStore.layerMemory()
      })
    )
    await runtime.runPromise(Password.signUpWithPassword({ email: `explicit-${Date.now()}@example.com`, password }).pipe(Effect.orDie))
    await runtime.dispose()
    expect(document.cookie).not.toContain("stack-refresh-")
  })
})
