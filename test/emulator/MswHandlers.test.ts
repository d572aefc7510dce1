import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { setupServer } from "msw/node"
import type { Emulator } from "../../src/emulator/Emulator.js"
import { mswHandlers } from "../../src/emulator/MswHandlers.js"
import { makeEmulator } from "./helpers.js"

const baseUrl = "http://emulator.msw.test"

describe("msw adapter", () => {
  let emulator: Emulator
  const server = setupServer()

  beforeAll(async () => {
    emulator = await Effect.runPromise(makeEmulator())
    server.use(...mswHandlers(emulator, `${baseUrl}/`))
    server.listen({ onUnhandledFrame: "error" })
  })
  afterAll(() => server.close())

  it("answers fetch with the emulator: welcome, sign-up, me", async () => {
    const welcome = await fetch(`${baseUrl}/api/v1`)
    expect(welcome.status).toBe(200)
    expect(await welcome.text()).toContain("Authentication: None")

    const headers = {
      "x-stack-project-id": emulator.demo.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": emulator.demo.publishableClientKey
    }
    const signUp = await fetch(`${baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ email: "msw@example.com", password: "correct horse battery" })
    })
    expect(signUp.status).toBe(200)
    const tokens = (await signUp.json()) as { access_token: string }
    const me = await fetch(`${baseUrl}/api/v1/users/me`, { headers: { ...headers, "x-stack-access-token": tokens.access_token } })
    expect(((await me.json()) as { primary_email: string }).primary_email).toBe("msw@example.com")
    const unknown = await fetch(`${baseUrl}/api/v2/nothing`)
    expect(unknown.status).toBe(404)
  })
})
