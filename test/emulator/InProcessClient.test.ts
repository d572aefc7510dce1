import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import { layerHttpClient } from "../../src/emulator/InProcessClient.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "./helpers.js"

describe("in-process HttpClient adapter", () => {
  it.effect("the SDK signs up, reads and updates the user, survives token expiry (TestClock) and signs out", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const StackLive = Stack.layerClient({
        projectId: emulator.demo.projectId,
        baseUrl: "http://localhost:8102",
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: layerHttpClient(emulator)
      })
      const program = Effect.gen(function* () {
        const { userId } = yield* Password.signUpWithPassword({ email: "sdk@example.com", password: "correct horse battery", noVerificationCallback: true })
        const user = yield* Users.getCurrent()
        expect(Option.map(user, (u) => [u.id, u.primaryEmail, u.hasPassword])).toEqual(Option.some([userId, "sdk@example.com", true]))
        const updated = yield* Users.updateCurrent({ displayName: "Ada", clientMetadata: { plan: "free" } })
        expect([updated.displayName, updated.clientMetadata]).toEqual(["Ada", { plan: "free" }])

        // past the access token's lifetime: the SDK refreshes through the token endpoint
        yield* TestClock.adjust("11 minutes")
        const later = yield* Users.getCurrent()
        expect(Option.map(later, (u) => u.displayName)).toEqual(Option.some("Ada"))
        const [session] = emulator.state.projects.get(emulator.demo.projectId)!.sessions.values()
        expect(session!.lastUsedAtMillis).toBe(11 * 60 * 1000) // refreshed at the new time

        yield* Sessions.signOut()
        expect(yield* Users.getCurrent()).toEqual(Option.none())
        const sessions = emulator.state.projects.get(emulator.demo.projectId)!.sessions
        expect(sessions.size).toBe(0)
      })
      yield* program.pipe(Effect.provide(StackLive))
    }))

  it.effect("SDK errors come back typed: a wrong password is EmailPasswordMismatch", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const StackLive = Stack.layerClient({
        projectId: emulator.demo.projectId,
        baseUrl: "http://localhost:8102",
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: layerHttpClient(emulator)
      })
      const error = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "typed@example.com", password: "correct horse battery", noVerificationCallback: true })
        return yield* Password.signInWithPassword({ email: "typed@example.com", password: "wrong password!" })
      }).pipe(Effect.flip, Effect.provide(StackLive))
      expect(error._tag).toBe("EmailPasswordMismatch")
    }))
})
