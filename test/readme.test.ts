/** The README's examples work as written (imports rewritten to the source tree). */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as Emulator from "../src/emulator/index.js"
import { Password, Sessions, Stack, Users } from "../src/index.js"

describe("README", () => {
  it.effect("the offline test example signs up against the in-process emulator", () =>
    Effect.gen(function* () {
      const TestStack = Layer.unwrapEffect(
        Effect.map(Emulator.make(), (emulator) =>
          Stack.layerClient({ projectId: emulator.demo.projectId, httpClient: Emulator.layerHttpClient(emulator) })
        )
      )
      const user = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse battery" })
        return yield* Users.getCurrent()
      }).pipe(Effect.provide(TestStack))
      expect(Option.getOrThrow(user).primaryEmail).toBe("ada@example.com")
    }))

  it.effect("the quick start's program: sign in, read, update, sign out; a wrong password is caught by tag", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.make()
      const StackLive = Stack.layerClient({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: Emulator.layerHttpClient(emulator)
      })
      yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse" }).pipe(Effect.provide(StackLive))
      const program = (password: string) =>
        Effect.gen(function* () {
          yield* Password.signInWithPassword({ email: "ada@example.com", password })
          const user = yield* Users.getCurrent()
          yield* Users.updateCurrent({ displayName: "Ada Lovelace" })
          yield* Sessions.signOut()
          return Option.map(user, (u) => u.primaryEmail)
        }).pipe(Effect.catchTag("EmailPasswordMismatch", () => Effect.succeed(Option.none())))
      expect(yield* program("correct horse").pipe(Effect.provide(StackLive))).toEqual(Option.some("ada@example.com"))
      expect(yield* program("wrong horse").pipe(Effect.provide(StackLive))).toEqual(Option.none())
    }))
})
