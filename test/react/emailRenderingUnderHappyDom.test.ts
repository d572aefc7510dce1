// @vitest-environment happy-dom
/**
 * The emulator's e-mail rendering (a worker thread resolving react-email from the emulator's own
 * location, `src/emulator/rendering/`) works when the emulator runs in a test under happy-dom, as
 * the React binding's tests run it: the worker runs in Node, not in the DOM environment, so the
 * verification e-mail of a sign-up is react-email's HTML.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"

describe("e-mail rendering under happy-dom", () => {
  it("a sign-up's verification e-mail is rendered by react-email in the worker", async () => {
    expect(typeof document).toBe("object")
    const email = await Effect.runPromise(
      Effect.gen(function* () {
        const emulator = yield* Emulator.make()
        const answer = yield* emulator.handle(
          new Request("http://localhost:8102/api/v1/auth/password/sign-up", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-stack-project-id": emulator.demo.projectId,
              "x-stack-access-type": "client",
              "x-stack-publishable-client-key": emulator.demo.publishableClientKey
            },
            body: JSON.stringify({
              email: "happy@example.com",
              password: "correct horse battery",
              verification_callback_url: "http://localhost:3000/handler/email-verification"
            })
          })
        )
        expect(answer.status).toBe(200)
        return emulator.latestEmail({ email: "happy@example.com" })
      })
    )
    expect(email?.subject).toBe("Verify your email at Demo Project")
    expect(email?.html).toMatch(/^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1.0 Transitional\/\/EN"/)
    expect(email?.html).toContain("Verify my email")
  }, 120_000)
})
