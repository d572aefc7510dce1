/**
 * `Tokens.getAccessToken({ minMillisUntilExpiration })` end to end over real HTTP against the
 * emulator server issuing 50 s access tokens: 30 s asked → the stored token, no request;
 * 55 s asked → one refresh (`POST /auth/oauth/token`) and the new token.
 */
import { Effect, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Tokens from "../../src/auth/Tokens.js"
import * as Stack from "../../src/Stack.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ accessTokenLifetimeSeconds: 50 })

describe("getAccessToken with a minimum remaining lifetime over HTTP", () => {
  it("30 s asked of a 50 s token: the stored one; 55 s asked: one refresh and a new token", async () => {
    const fetch = countingFetch()
    const layer = Stack.layerClient({
      projectId: main.server.emulator.demo.projectId,
      publishableClientKey: main.server.emulator.demo.publishableClientKey,
      baseUrl: main.server.baseUrl,
      httpClient: fetch.layer
    })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: `e2e-min-life-${Date.now()}@example.com`, password: "correct horse", noVerificationCallback: true })
        const thirty = yield* Tokens.getAccessToken({ minMillisUntilExpiration: 30_000 })
        const refreshesBefore = fetch.count("POST /auth/oauth/token")
        const fiftyFive = yield* Tokens.getAccessToken({ minMillisUntilExpiration: 55_000 })
        return { thirty, refreshesBefore, fiftyFive }
      }).pipe(Effect.provide(layer))
    )
    expect(outcome.refreshesBefore).toBe(0)
    expect(fetch.count("POST /auth/oauth/token")).toBe(1)
    expect(Redacted.value(Option.getOrThrow(outcome.fiftyFive))).not.toBe(Redacted.value(Option.getOrThrow(outcome.thirty)))
  })
})
