/**
 * Outside a browser (no `document`), `Stack.layerClient` keeps tokens in memory by default: the
 * layer builds without a cookie store error, and a new runtime starts signed out.
 */
import { Effect, ManagedRuntime, Option } from "effect"
import { Password, Stack, Users } from "stack-auth-effect"
import * as Emulator from "stack-auth-effect/emulator"
import { describe, expect, it } from "vitest"

describe("the server's default token store", () => {
  it("is memory: works without a document, and a new runtime is signed out", async () => {
    expect("document" in globalThis).toBe(false)
    const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie))
    const layer = () => Stack.layerClient({ projectId: emulator.demo.projectId, httpClient: Emulator.layerHttpClient(emulator) })
    const first = ManagedRuntime.make(layer())
    await first.runPromise(
      Password.signUpWithPassword({ email: `node-${Date.now()}@example.com`, password: "correct horse battery", noVerificationCallback: true }).pipe(
        Effect.orDie
      )
    )
    expect(Option.isSome(await first.runPromise(Users.getCurrent().pipe(Effect.orDie)))).toBe(true)
    await first.dispose()
    const second = ManagedRuntime.make(layer())
    expect(Option.isNone(await second.runPromise(Users.getCurrent().pipe(Effect.orDie)))).toBe(true)
    await second.dispose()
  })

  it("tokenStore: \"cookie\" outside a browser fails the layer with the spec's message", async () => {
    const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie))
    const runtime = ManagedRuntime.make(
      Stack.layerClient({ projectId: emulator.demo.projectId, httpClient: Emulator.layerHttpClient(emulator), tokenStore: "cookie" })
    )
    const exit = await runtime.runPromiseExit(Users.getCurrent())
    expect(exit._tag).toBe("Failure")
    expect(JSON.stringify(exit)).toContain("Cannot use cookie token store on the server!")
    await runtime.dispose()
  })
})
