/**
 * Attacker's review of cross-tab sync (`BrowserCookieStore` over `BroadcastChannel`): anything a
 * hostile script or tab posts on the project's channel (any shape, any size, token-looking
 * values) neither crashes the store nor makes it adopt a value from the message: the store only
 * ever holds what its cookies say.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted, type Scope } from "effect"
import * as BrowserCookieStore from "../../src/session/BrowserCookieStore.js"
import { fromStrings, type StoredTokens } from "../../src/session/TokenStore.js"

const projectId = "proj-attack"

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

/** A `document` with a cookie jar (Max-Age=0 deletes) and Node's own `BroadcastChannel`. */
const installBrowser: Effect.Effect<{ readonly reads: () => number }, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => {
    const jar = new Map<string, string>()
    let reads = 0
    const scope = globalThis as Record<string, unknown>
    scope["document"] = {
      visibilityState: "visible",
      get cookie(): string {
        reads += 1
        return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
      },
      set cookie(assignment: string) {
        const [pair = "", ...attributes] = assignment.split(";")
        const eq = pair.indexOf("=")
        if (eq <= 0) return
        const name = pair.slice(0, eq).trim()
        const maxAge = attributes.map((attribute) => attribute.trim().split("=")).find(([key]) => key?.toLowerCase() === "max-age")?.[1]
        if (maxAge !== undefined && Number(maxAge) <= 0) jar.delete(name)
        else jar.set(name, pair.slice(eq + 1).trim())
      },
      addEventListener: () => undefined,
      removeEventListener: () => undefined
    }
    scope["location"] = { protocol: "http:" }
    return { reads: () => reads }
  }),
  () =>
    Effect.sync(() => {
      const scope = globalThis as Record<string, unknown>
      delete scope["document"]
      delete scope["location"]
    })
)

/** Lets the channel deliver what was posted (Node delivers messages on a later turn). */
const delivered = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 50)))

describe("cross-tab sync under attack", () => {
  it.effect("hostile messages of any shape on the channel do not crash the store nor put their values in it", () =>
    Effect.gen(function* () {
      yield* installBrowser
      const store = yield* BrowserCookieStore.make({ projectId, crossTab: "broadcast" })
      const hostile = new BroadcastChannel(BrowserCookieStore.channelName(projectId))
      yield* Effect.addFinalizer(() => Effect.sync(() => hostile.close()))
      for (
        const message of [
          { accessToken: "evil-access", refreshToken: "evil-refresh" },
          { type: BrowserCookieStore.changedMessage, accessToken: "evil-access", refreshToken: "evil-refresh" },
          [BrowserCookieStore.changedMessage, "evil-refresh"],
          `${BrowserCookieStore.changedMessage}:evil-refresh`,
          null,
          undefined,
          42,
          new Uint8Array(1024 * 1024),
          "x".repeat(1024 * 1024),
          BrowserCookieStore.changedMessage
        ]
      ) {
        hostile.postMessage(message)
      }
      yield* delivered
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })

      // the store still works: its own write is what it holds, not the messages' values
      yield* store.set(fromStrings("a-own", "r-own"))
      hostile.postMessage({ accessToken: "evil-access", refreshToken: "evil-refresh" })
      hostile.postMessage(BrowserCookieStore.changedMessage)
      yield* delivered
      expect(texts(yield* store.get)).toEqual({ accessToken: "a-own", refreshToken: "r-own" })
    }))
})
