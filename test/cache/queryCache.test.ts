/**
 * The query cache's rules (DESIGN.md §3), read through `Users.getCurrent` against the in-process
 * emulator, counting the requests the app sends.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Ref, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as QueryCache from "../../src/cache/QueryCache.js"
import { Password, Sessions, Users } from "../../src/index.js"
import { clientApp, makeEmulator, password, signUp } from "./support.js"

const me = "GET /users/me"

/** Lets other fibers run until `done` holds (at most 1000 turns; the assertion after it decides). */
const until = (done: () => boolean) =>
  Effect.gen(function* () {
    for (let turn = 0; turn < 1000 && !done(); turn++) yield* Effect.yieldNow
  })

describe("QueryCache: the current user", () => {
  it.effect("20 concurrent reads of the current user send 1 request", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      const users = yield* Effect.all(Array.from({ length: 20 }, () => Users.getCurrent()), { concurrency: "unbounded" }).pipe(
        Effect.provide(app.context)
      )
      expect(app.count(me)).toBe(1)
      expect(users.every((user) => Option.getOrThrow(user).primaryEmail === "ada@example.com")).toBe(true)
    }))

  it.effect("20 sequential reads within the cache lifetime (5 s after the last read) send 1 request", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      for (let i = 0; i < 20; i++) {
        yield* Users.getCurrent().pipe(Effect.provide(app.context))
        yield* TestClock.adjust("4 seconds")
      }
      expect(app.count(me)).toBe(1)
    }))

  it.effect("an entry nobody subscribes to expires 5 s after the last reader left: the next read asks again", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      yield* TestClock.adjust(4_999)
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(app.count(me)).toBe(1)
      yield* TestClock.adjust(5_000)
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(app.count(me)).toBe(2)
    }))

  it.effect("an entry lives while it has a subscriber, however long", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      const subscriber = yield* QueryCache.subscribe(Users.currentUserCacheKey).pipe(
        Stream.runDrain,
        Effect.provide(app.context),
        Effect.forkChild
      )
      yield* TestClock.adjust("1 hour")
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(app.count(me)).toBe(1)
      yield* Fiber.interrupt(subscriber)
      yield* TestClock.adjust("5 seconds")
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(app.count(me)).toBe(2)
    }))

  it.effect("a read after Users.updateCurrent sends a fresh request and sees the update", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      const before = yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(Option.getOrThrow(before).displayName).toBeNull()
      yield* Users.updateCurrent({ displayName: "Ada Lovelace" }).pipe(Effect.provide(app.context))
      const after = yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(app.count(me)).toBe(2)
      expect(Option.getOrThrow(after).displayName).toBe("Ada Lovelace")
      // and again, at once (no throttle on reads that need fresh data)
      yield* Users.updateCurrent({ displayName: "Countess" }).pipe(Effect.provide(app.context))
      expect(Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(app.context))).displayName).toBe("Countess")
      expect(app.count(me)).toBe(3)
    }))

  it.effect("sign-out then sign-in as another user never shows the previous user's data", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "bob@example.com")
      yield* Sessions.signOut().pipe(Effect.provide(app.context))
      yield* signUp(app, "ada@example.com")
      const ada = yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(Option.getOrThrow(ada).primaryEmail).toBe("ada@example.com")

      yield* Sessions.signOut().pipe(Effect.provide(app.context))
      expect(yield* Users.getCurrent().pipe(Effect.provide(app.context))).toEqual(Option.none())

      yield* Password.signInWithPassword({ email: "bob@example.com", password }).pipe(Effect.provide(app.context))
      const bob = yield* Users.getCurrent().pipe(Effect.provide(app.context))
      expect(Option.getOrThrow(bob).primaryEmail).toBe("bob@example.com")
      // signing in as another user without signing out first clears the entry too
      yield* Password.signInWithPassword({ email: "ada@example.com", password }).pipe(Effect.provide(app.context))
      expect(Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(app.context))).primaryEmail).toBe("ada@example.com")
      // ada, bob, ada again (signed out, the SDK answers "nobody" without a request)
      expect(app.count(me)).toBe(3)
    }))

  it.effect("a read that started under the previous user never fills the entry for the next one", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      const gate = yield* Deferred.make<void>()
      const runs = yield* Ref.make(0)
      const read = QueryCache.cached(
        ["user", "profile"],
        Effect.andThen(Ref.updateAndGet(runs, (n) => n + 1), Effect.tap(Users.getCurrent(), Deferred.await(gate)))
      )
      const slow = yield* read.pipe(Effect.provide(app.context), Effect.forkChild)
      yield* Effect.yieldNow
      yield* Sessions.signOut().pipe(Effect.provide(app.context))
      yield* Password.signInWithPassword({ email: "ada@example.com", password }).pipe(Effect.provide(app.context))
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(slow)
      yield* read.pipe(Effect.provide(app.context))
      expect(yield* Ref.get(runs)).toBe(2)
    }))

  it.effect("a session change empties a subscribed entry and bumps the version signal's generation", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      const before = yield* Effect.flatMap(QueryCache.QueryCache, (cache) => cache.version).pipe(Effect.provide(app.context))
      const emptied = yield* QueryCache.subscribe(Users.currentUserCacheKey).pipe(
        Stream.filter((state) => state.status === "empty"),
        Stream.runHead,
        Effect.provide(app.context),
        Effect.forkChild
      )
      const nextGeneration = yield* QueryCache.changes.pipe(
        Stream.filter((version) => version.generation > before.generation),
        Stream.runHead,
        Effect.provide(app.context),
        Effect.forkChild
      )
      yield* Effect.yieldNow
      yield* Sessions.signOut().pipe(Effect.provide(app.context))
      const state = Option.getOrThrow(yield* Fiber.join(emptied))
      expect(Option.isNone(state.value)).toBe(true)
      expect(Option.getOrThrow(yield* Fiber.join(nextGeneration)).generation).toBe(before.generation + 1)
    }))

  it.effect("Stack's queryCache: false turns caching off", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator, { queryCache: false })
      yield* signUp(app, "ada@example.com")
      yield* Effect.all(Array.from({ length: 3 }, () => Users.getCurrent()), { concurrency: "unbounded" }).pipe(
        Effect.provide(app.context)
      )
      expect(app.count(me)).toBe(3)
    }))

  it.effect("each app gets its own cache: two apps in one process never share entries", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const first = yield* clientApp(emulator)
      const second = yield* clientApp(emulator)
      yield* signUp(first, "ada@example.com")
      yield* signUp(second, "bob@example.com")
      const ada = yield* Users.getCurrent().pipe(Effect.provide(first.context))
      const bob = yield* Users.getCurrent().pipe(Effect.provide(second.context))
      expect(Option.getOrThrow(ada).primaryEmail).toBe("ada@example.com")
      expect(Option.getOrThrow(bob).primaryEmail).toBe("bob@example.com")
      expect(first.count(me) + second.count(me)).toBe(2)
    }))
})

describe("QueryCache: failures, throttling, one fetch at a time", () => {
  it.effect("failures are not cached: the next read asks again", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make(0)
      const read = QueryCache.cached(
        ["flaky"],
        Effect.flatMap(Ref.updateAndGet(runs, (n) => n + 1), (n) => (n < 3 ? Effect.fail(`attempt ${n}`) : Effect.succeed(n)))
      )
      const program = Effect.gen(function* () {
        expect(yield* Effect.flip(read)).toBe("attempt 1")
        expect(yield* Effect.flip(read)).toBe("attempt 2")
        expect(yield* read).toBe(3)
        expect(yield* read).toBe(3)
      })
      yield* program.pipe(Effect.provide(QueryCache.layer()))
      expect(yield* Ref.get(runs)).toBe(3)
    }))

  it.effect("concurrent readers of a failing read share the one failure", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make(0)
      const read = QueryCache.cached(["failing"], Effect.andThen(Ref.update(runs, (n) => n + 1), Effect.fail("nope" as const)))
      const results = yield* Effect.all(Array.from({ length: 5 }, () => Effect.flip(read)), { concurrency: "unbounded" }).pipe(
        Effect.provide(QueryCache.layer())
      )
      expect(results).toEqual(["nope", "nope", "nope", "nope", "nope"])
      expect(yield* Ref.get(runs)).toBe(1)
    }))

  it.effect("a subscribed entry is refreshed after invalidation at most once per 300 ms", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      yield* Users.getCurrent().pipe(Effect.provide(app.context))
      type Entry = Option.Option<Option.Option<{ readonly displayName: string | null }>>
      // the subscriber sees each fresh value once: the first read, then one refresh per window
      const subscriber = yield* QueryCache.subscribe(Users.currentUserCacheKey).pipe(
        Stream.filter((state) => state.fresh),
        Stream.changesWith((a, b) => a.version === b.version),
        Stream.map((state) => Option.getOrThrow(Option.getOrThrow(state.value as Entry)).displayName),
        Stream.take(3),
        Stream.runCollect,
        Effect.provide(app.context),
        Effect.forkChild
      )
      yield* Effect.yieldNow
      yield* Users.updateCurrent({ displayName: "one" }).pipe(Effect.provide(app.context))
      for (let i = 0; i < 10; i++) yield* QueryCache.invalidate(["user"]).pipe(Effect.provide(app.context))
      yield* TestClock.adjust(299)
      expect(app.count(me)).toBe(1)
      yield* TestClock.adjust(1)
      yield* until(() => app.count(me) === 2)
      expect(app.count(me)).toBe(2)
      yield* Users.updateCurrent({ displayName: "two" }).pipe(Effect.provide(app.context))
      yield* TestClock.adjust(100)
      expect(app.count(me)).toBe(2)
      yield* TestClock.adjust(200)
      yield* until(() => app.count(me) === 3)
      expect(app.count(me)).toBe(3)
      expect([...(yield* Fiber.join(subscriber))]).toEqual([null, "one", "two"])
    }))

  it.effect("a read after an invalidation waits for the fetch in flight, then fetches once more (concurrency 1)", () =>
    Effect.gen(function* () {
      const gates = [yield* Deferred.make<void>(), yield* Deferred.make<void>()]
      const runs = yield* Ref.make(0)
      const read = QueryCache.cached(
        ["slow"],
        Effect.flatMap(Ref.updateAndGet(runs, (n) => n + 1), (n) => Effect.as(Deferred.await(gates[n - 1]!), n))
      )
      yield* Effect.gen(function* () {
        const first = yield* Effect.forkChild(read)
        yield* Effect.yieldNow
        yield* QueryCache.invalidate(["slow"])
        const second = yield* Effect.forkChild(read)
        const third = yield* Effect.forkChild(read)
        yield* Effect.yieldNow
        expect(yield* Ref.get(runs)).toBe(1)
        yield* Deferred.succeed(gates[0]!, undefined)
        expect(yield* Fiber.join(first)).toBe(1)
        yield* Deferred.succeed(gates[1]!, undefined)
        expect(yield* Fiber.join(second)).toBe(2)
        expect(yield* Fiber.join(third)).toBe(2)
        expect(yield* read).toBe(2)
      }).pipe(Effect.provide(QueryCache.layer()))
      expect(yield* Ref.get(runs)).toBe(2)
    }))

  it.effect("an interrupted reader does not cancel the shared fetch of the others", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const runs = yield* Ref.make(0)
      const read = QueryCache.cached(["shared"], Effect.andThen(Ref.update(runs, (n) => n + 1), Effect.as(Deferred.await(gate), "v")))
      yield* Effect.gen(function* () {
        const leaving = yield* Effect.forkChild(read)
        const staying = yield* Effect.forkChild(read)
        yield* Effect.yieldNow
        yield* Fiber.interrupt(leaving)
        yield* Deferred.succeed(gate, undefined)
        expect(yield* Fiber.join(staying)).toBe("v")
      }).pipe(Effect.provide(QueryCache.layer()))
      expect(yield* Ref.get(runs)).toBe(1)
    }))

  it.effect("without a QueryCache, cached just runs the effect and invalidate does nothing", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make(0)
      const read = QueryCache.cached(["plain"], Ref.updateAndGet(runs, (n) => n + 1))
      expect(yield* read).toBe(1)
      yield* QueryCache.invalidate(["plain"])
      expect(yield* read).toBe(2)
    }))

  it.effect("invalidation is by prefix", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make<Array<string>>([])
      const read = (key: ReadonlyArray<string>) => QueryCache.cached(key, Ref.update(runs, (all) => [...all, key.join("/")]))
      yield* Effect.gen(function* () {
        yield* read(["team", "a"])
        yield* read(["team", "b"])
        yield* read(["teams", "me"])
        yield* QueryCache.invalidate(["team", "a"])
        yield* read(["team", "a"])
        yield* read(["team", "b"])
        yield* read(["teams", "me"])
        yield* QueryCache.invalidate(["team"])
        yield* read(["team", "a"])
        yield* read(["team", "b"])
        yield* read(["teams", "me"])
      }).pipe(Effect.provide(QueryCache.layer()))
      expect(yield* Ref.get(runs)).toEqual(["team/a", "team/b", "teams/me", "team/a", "team/a", "team/b"])
    }))
})
