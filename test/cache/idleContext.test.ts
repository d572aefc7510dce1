/**
 * What an idle client context holds (issue 14: heap per `Stack.layerClient`): the session hears
 * its token store and the query cache hears the session through plain listeners, so a built
 * context runs no fiber while nobody calls; changes still arrive. Counted, never timed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as Users from "../../src/users/Users.js"
import * as QueryCache from "../../src/cache/QueryCache.js"
import { Session } from "../../src/core/Session.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import type { StoredTokens, TokenStoreShape } from "../../src/session/TokenStore.js"
import { makeFiberCount } from "../support/fibers.js"

const projectId = "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f"
const baseUrl = "http://127.0.0.1:9"

/** A memory store whose outside changes the test makes (as another tab would), heard through `listen`. */
const makeOutsideStore = () => {
  const inner = Effect.runSync(TokenStore.makeMemory())
  const listeners = new Set<(tokens: StoredTokens) => void>()
  const store: TokenStoreShape = {
    get: inner.get,
    set: inner.set,
    changes: inner.changes,
    listen: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
  const changeOutside = (tokens: StoredTokens) =>
    Effect.andThen(
      inner.set(tokens),
      Effect.sync(() => {
        for (const listener of listeners) listener(tokens)
      })
    )
  return { store, changeOutside, listeners }
}

describe("an idle Stack.layerClient context", () => {
  it.effect("starts no fiber: the cache watches its session through a listener, not a watcher fiber", () =>
    Effect.gen(function* () {
      const fibers = makeFiberCount()
      yield* Layer.build(Stack.layerClient({ projectId, baseUrl, tokenStore: "memory" })).pipe(fibers.track)
      const live = fibers.live()
      expect(live).toBe(0)
    }))

  it.effect("hears a change of its store made outside (another tab): one listener each, the cache's session generation grows", () =>
    Effect.gen(function* () {
      const outside = makeOutsideStore()
      const fibers = makeFiberCount()
      const context = yield* Layer.build(
        Stack.layerClient({ projectId, baseUrl, tokenStore: Layer.succeed(TokenStore.TokenStore, outside.store) })
      ).pipe(fibers.track)
      expect(fibers.live()).toBe(0)
      expect(outside.listeners.size).toBe(1)
      const before = yield* QueryCache.QueryCache.pipe(Effect.flatMap((cache) => cache.version), Effect.provide(context))
      yield* outside.changeOutside(TokenStore.fromStrings("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "refresh-token-of-another-tab"))
      const session = yield* Effect.provide(Session, context)
      const tokens = yield* session.current
      expect(Option.isSome(tokens.refreshToken)).toBe(true)
      const after = yield* QueryCache.QueryCache.pipe(Effect.flatMap((cache) => cache.version), Effect.provide(context))
      expect(after.generation).toBe(before.generation + 1)
    }))
})

describe("Stack.layerClient's default fetch client", () => {
  it.effect("is built once and shared, unless the layer is given a fetch of the app: then that fetch sends its requests", () =>
    Effect.gen(function* () {
      const sent: Array<string> = []
      const fakeFetch: typeof globalThis.fetch = async (input) => {
        sent.push(String(input instanceof Request ? input.url : input))
        return new Response("{}", { status: 500 })
      }
      const signedIn = TokenStore.fromStrings(
        "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1IiwiZXhwIjo0MTAyNDQ0ODAwfQ.c2ln",
        "refresh-token-of-the-test"
      )
      const layer = Stack.layerClient({
        projectId,
        baseUrl,
        tokenStore: TokenStore.layerMemory(signedIn),
        retryPolicy: RetryPolicy.layerNoRetries
      }).pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fakeFetch)))
      const exit = yield* Effect.exit(Effect.scoped(Effect.flatMap(Layer.build(layer), (context) => Effect.provide(Users.getCurrent(), context))))
      expect(exit._tag).toBe("Failure")
      expect(sent).toEqual([`${baseUrl}/api/v1/users/me`])
    }))
})
