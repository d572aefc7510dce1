/**
 * What an idle client context holds, end to end over real HTTP against the emulator server
 * (issue 14: heap per `Stack.layerClient`): two apps over the default `fetch` client (built once
 * per process and shared) each answer for their own user, and neither runs a fiber once its calls
 * are done; the session's changes reach the cache through a listener, not a watcher fiber.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as QueryCache from "../../src/cache/QueryCache.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { useServer } from "./support.js"
import { makeFiberCount } from "../support/fibers.js"

const main = useServer()

const password = "correct horse battery"
const uniqueEmail = (label: string) => `e2e-idle-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A client app over the default fetch client (no override), its fibers tracked. */
const app = Effect.gen(function* () {
  const fibers = makeFiberCount()
  const context = yield* Layer.build(
    Stack.layerClient({
      projectId: main.server.emulator.demo.projectId,
      publishableClientKey: main.server.emulator.demo.publishableClientKey,
      baseUrl: main.server.baseUrl,
      tokenStore: "memory"
    })
  ).pipe(fibers.track)
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof Stack.layerClient>>>) => effect.pipe(Effect.provide(context), fibers.track)
  /**
   * The fibers still running once the app's calls have settled: a request's own fibers end a little
   * after its answer is read (the fetch's fiber, the body), so this waits for them, polling every
   * 5 ms for at most 10 s (generous: a loaded machine is slow to run them); the count is the
   * assertion, not the time.
   */
  const idleFibers = Effect.gen(function* () {
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline && fibers.live() > 0) yield* Effect.sleep("5 millis")
    return fibers.live()
  })
  return { context, run, idleFibers }
})

describe("e2e: an idle client context", () => {
  it.live("two apps over the default fetch client each read their own user, and run no fiber once idle", () =>
    Effect.gen(function* () {
      const ada = yield* app
      const bob = yield* app
      const adaEmail = uniqueEmail("ada")
      const bobEmail = uniqueEmail("bob")
      yield* ada.run(Password.signUpWithPassword({ email: adaEmail, password, noVerificationCallback: true }))
      yield* bob.run(Password.signUpWithPassword({ email: bobEmail, password, noVerificationCallback: true }))
      const [adaUser, bobUser] = yield* Effect.all([ada.run(Users.getCurrent()), bob.run(Users.getCurrent())], { concurrency: 2 })
      expect(Option.map(adaUser, (user) => user.primaryEmail)).toEqual(Option.some(adaEmail))
      expect(Option.map(bobUser, (user) => user.primaryEmail)).toEqual(Option.some(bobEmail))
      expect(yield* ada.idleFibers).toBe(0)
      expect(yield* bob.idleFibers).toBe(0)
    }))

  it.live("a session change reaches the cache without a read: the cache's session generation grows when the session is cleared", () =>
    Effect.gen(function* () {
      const ada = yield* app
      yield* ada.run(Password.signUpWithPassword({ email: uniqueEmail("clear"), password, noVerificationCallback: true }))
      expect(Option.isSome(yield* ada.run(Users.getCurrent()))).toBe(true)
      const version = ada.run(Effect.flatMap(QueryCache.QueryCache, (cache) => cache.version))
      const before = yield* version
      // the session alone, no cache call: only the cache's listener on the session can see it
      yield* ada.run(Effect.flatMap(Session, (session) => session.clear))
      const after = yield* version
      expect(after.generation).toBe(before.generation + 1)
      expect(yield* ada.idleFibers).toBe(0)
      expect(yield* ada.run(Users.getCurrent())).toEqual(Option.none())
    }))
})
