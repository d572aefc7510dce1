/**
 * `Tokens.getAccessToken` (the official `getAccessToken({ minMillisUntilExpiration })`, SPEC.md §9:
 * 20 s minimum remaining life, a requested lifetime over 60 s refused), against the in-process
 * emulator issuing 50 s access tokens: the stored token is answered while it has the asked
 * lifetime left; asking for more than it has refreshes it first (one refresh request); a minimum
 * outside 0…60000 ms is an `InvalidArgument` with nothing sent; signed out is none.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as Tokens from "../../src/auth/Tokens.js"
import * as Stack from "../../src/Stack.js"
import { countingClient } from "../support/countingClient.js"
import { makeEmulator } from "../emulator/helpers.js"

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator({ accessTokenLifetimeSeconds: 50 })
  const counting = countingClient(emulator)
  const layer = Stack.layerClient({ projectId: emulator.demo.projectId, publishableClientKey: emulator.demo.publishableClientKey, httpClient: counting.layer })
  return { counting, layer }
})

describe("Tokens.getAccessToken", () => {
  it.live("answers the stored token while it has the asked lifetime left; asking for more refreshes it first", () =>
    Effect.gen(function* () {
      const { counting, layer } = yield* setup
      const outcome = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "tokens@example.com", password: "correct horse battery", noVerificationCallback: true })
        const plain = yield* Tokens.getAccessToken()
        const thirty = yield* Tokens.getAccessToken({ minMillisUntilExpiration: 30_000 })
        const refreshesBefore = counting.count("POST /auth/oauth/token")
        const fiftyFive = yield* Tokens.getAccessToken({ minMillisUntilExpiration: 55_000 })
        return { plain, thirty, refreshesBefore, fiftyFive }
      }).pipe(Effect.provide(layer))
      const plain = Redacted.value(Option.getOrThrow(outcome.plain))
      expect(Redacted.value(Option.getOrThrow(outcome.thirty))).toBe(plain)
      expect(outcome.refreshesBefore).toBe(0)
      expect(counting.count("POST /auth/oauth/token")).toBe(1)
      expect(Redacted.value(Option.getOrThrow(outcome.fiftyFive))).not.toBe(plain)
    }))

  it.live("a minimum outside 0…60000 ms is InvalidArgument with nothing sent; signed out is none", () =>
    Effect.gen(function* () {
      const { counting, layer } = yield* setup
      const outcome = yield* Effect.gen(function* () {
        const none = yield* Tokens.getAccessToken({ minMillisUntilExpiration: 10_000 })
        const tooLong = yield* Effect.flip(Tokens.getAccessToken({ minMillisUntilExpiration: 60_001 }))
        const negative = yield* Effect.flip(Tokens.getAccessToken({ minMillisUntilExpiration: -1 }))
        return { none, tooLong, negative }
      }).pipe(Effect.provide(layer))
      expect(outcome.none).toEqual(Option.none())
      expect(outcome.tooLong._tag === "InvalidArgument" && outcome.tooLong.argument).toBe("minMillisUntilExpiration")
      expect(outcome.negative._tag).toBe("InvalidArgument")
      expect(counting.count()).toBe(0)
    }))
})
