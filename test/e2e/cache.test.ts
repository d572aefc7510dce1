/**
 * The query cache end to end over real HTTP against the emulator server: the same counts as the
 * unit tests (test/cache), measured on the wire with a counting `fetch`. Time for the cache's
 * lifetime comes from `TestClock`; the requests are real.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const password = "correct horse battery"
const uniqueEmail = (label: string) => `e2e-cache-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A client app over real `fetch` with its own session and cache, counting requests. */
const app = Effect.gen(function* () {
  const fetch = countingFetch()
  const context = yield* Layer.build(
    Stack.layerClient({
      projectId: main.server.emulator.demo.projectId,
      publishableClientKey: main.server.emulator.demo.publishableClientKey,
      baseUrl: main.server.baseUrl,
      httpClient: fetch.layer
    })
  )
  return { context, count: fetch.count }
})

describe("e2e: query cache", () => {
  it.effect("20 concurrent reads of the current user send 1 request", () =>
    Effect.gen(function* () {
      const { context, count } = yield* app
      const email = uniqueEmail("concurrent")
      yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(Effect.provide(context))
      const users = yield* Effect.all(Array.from({ length: 20 }, () => Users.getCurrent()), { concurrency: "unbounded" }).pipe(
        Effect.provide(context)
      )
      expect(users.every((user) => Option.getOrThrow(user).primaryEmail === email)).toBe(true)
      expect(count("GET /users/me")).toBe(1)
    }))

  it.effect("20 sequential reads within 5 s send 1; after 5 s without a reader the next sends 1 more", () =>
    Effect.gen(function* () {
      const { context, count } = yield* app
      yield* Password.signUpWithPassword({ email: uniqueEmail("sequential"), password, noVerificationCallback: true }).pipe(Effect.provide(context))
      for (let i = 0; i < 20; i++) {
        yield* Users.getCurrent().pipe(Effect.provide(context))
        yield* TestClock.adjust("200 millis")
      }
      expect(count("GET /users/me")).toBe(1)
      yield* TestClock.adjust("5 seconds")
      yield* Users.getCurrent().pipe(Effect.provide(context))
      expect(count("GET /users/me")).toBe(2)
    }))

  it.effect("a read after an update sends a fresh request and sees the update", () =>
    Effect.gen(function* () {
      const { context, count } = yield* app
      yield* Password.signUpWithPassword({ email: uniqueEmail("update"), password, noVerificationCallback: true }).pipe(Effect.provide(context))
      yield* Users.getCurrent().pipe(Effect.provide(context))
      yield* Users.updateCurrent({ displayName: "Ada Lovelace" }).pipe(Effect.provide(context))
      const after = yield* Users.getCurrent().pipe(Effect.provide(context))
      expect(Option.getOrThrow(after).displayName).toBe("Ada Lovelace")
      expect(count("GET /users/me")).toBe(2)
    }))

  it.effect("sign-out and sign-in as another user never shows the previous user's data", () =>
    Effect.gen(function* () {
      const { context, count } = yield* app
      const first = uniqueEmail("first")
      const second = uniqueEmail("second")
      yield* Password.signUpWithPassword({ email: first, password, noVerificationCallback: true }).pipe(Effect.provide(context))
      yield* Sessions.signOut().pipe(Effect.provide(context))
      yield* Password.signUpWithPassword({ email: second, password, noVerificationCallback: true }).pipe(Effect.provide(context))
      expect(Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(context))).primaryEmail).toBe(second)
      yield* Sessions.signOut().pipe(Effect.provide(context))
      expect(yield* Users.getCurrent().pipe(Effect.provide(context))).toEqual(Option.none())
      yield* Password.signInWithPassword({ email: first, password }).pipe(Effect.provide(context))
      expect(Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(context))).primaryEmail).toBe(first)
      expect(count("GET /users/me")).toBe(2)
    }))

  it.effect("contact channels: 10 concurrent lists send 1; a list after adding one sends 1 more and shows it", () =>
    Effect.gen(function* () {
      const { context, count } = yield* app
      const email = uniqueEmail("channels")
      yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(Effect.provide(context))
      yield* Effect.all(Array.from({ length: 10 }, () => ContactChannels.list()), { concurrency: "unbounded" }).pipe(
        Effect.provide(context)
      )
      expect(count("GET /contact-channels")).toBe(1)
      const extra = uniqueEmail("extra")
      yield* ContactChannels.create({ value: extra, usedForAuth: false }).pipe(Effect.provide(context))
      const channels = yield* ContactChannels.list().pipe(Effect.provide(context))
      expect(channels.map((channel) => channel.value).sort()).toEqual([email, extra].sort())
      expect(count("GET /contact-channels")).toBe(2)
    }))
})
