import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Redacted, type Scope, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as BrowserCookieStore from "../../src/session/BrowserCookieStore.js"
import * as Cookies from "../../src/session/cookies.js"
import { empty, fromStrings, type StoredTokens, TokenStore } from "../../src/session/TokenStore.js"

const projectId = "proj-1"

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

/** What another tab does when it signs in: writes the cookies itself. */
const otherTabSignsIn = (browser: FakeBrowser, refreshToken: string, accessToken: string, now: number) => {
  for (
    const cookie of Cookies.writeTokens(fromStrings(accessToken, refreshToken), {
      projectId,
      secure: browser.secure,
      now,
      existing: Cookies.parseCookieHeader(browser.document.cookie)
    })
  ) browser.document.cookie = cookie
}

describe("BrowserCookieStore", () => {
  it.effect("fails with the spec's message outside a browser", () =>
    Effect.gen(function* () {
      expect("document" in globalThis).toBe(false)
      const error = yield* Effect.flip(BrowserCookieStore.make({ projectId }))
      expect(error._tag).toBe("TokenStoreError")
      expect(error.message).toBe("Cannot use cookie token store on the server!")
      const fromLayer = yield* Effect.flip(Effect.provide(TokenStore, BrowserCookieStore.layer({ projectId })))
      expect(fromLayer.message).toBe("Cannot use cookie token store on the server!")
    }))

  it.effect("reads the tokens already in document.cookie", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:")
      otherTabSignsIn(browser, "r0", "a0", 1)
      const store = yield* BrowserCookieStore.make({ projectId })
      expect(texts(yield* store.get)).toEqual({ accessToken: "a0", refreshToken: "r0" })
    }))

  it.effect("writes the __Host- refresh cookie and stack-access over HTTPS, and deletes legacy cookies (not read over HTTPS)", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("https:")
      browser.document.cookie = "stack-refresh-proj-1=legacy; Path=/"
      const store = yield* BrowserCookieStore.make({ projectId })
      // any sibling subdomain can plant a cookie of that name: over HTTPS only __Host- is the app's own
      expect(texts(yield* store.get).refreshToken).toBeNull()
      yield* TestClock.setTime(4_200)
      const before = browser.assignments.length
      yield* store.set(fromStrings("a1", "r1"))
      expect([...browser.jar.keys()].sort()).toEqual(["__Host-stack-refresh-proj-1--default", "stack-access"])
      expect(JSON.parse(decodeURIComponent(browser.jar.get("__Host-stack-refresh-proj-1--default") ?? ""))).toEqual({
        refresh_token: "r1",
        updated_at_millis: 4_200
      })
      expect(browser.assignments.slice(before).filter((cookie) => !cookie.includes("Max-Age=0")).every((cookie) => cookie.includes("; Secure"))).toBe(
        true
      )
    }))

  it.effect("notices a cookie changed by another tab within 100 ms", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:")
      const store = yield* BrowserCookieStore.make({ projectId })
      const next = yield* store.changes.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow

      otherTabSignsIn(browser, "r-tab", "a-tab", 7)
      yield* TestClock.adjust("99 millis")
      expect(Option.isNone(Option.fromUndefinedOr(next.pollUnsafe()))).toBe(true)

      yield* TestClock.adjust("1 millis")
      const emitted = Array.from(yield* Fiber.join(next)).map(texts)
      expect(emitted).toEqual([{ accessToken: "a-tab", refreshToken: "r-tab" }])
      expect(texts(yield* store.get)).toEqual({ accessToken: "a-tab", refreshToken: "r-tab" })
    }))

  it.effect("does not re-emit its own write, but reports a later sign-out in another tab", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:")
      const store = yield* BrowserCookieStore.make({ projectId })
      const next = yield* store.changes.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow

      yield* store.set(fromStrings("a1", "r1"))
      yield* TestClock.adjust("1 second")
      expect(Option.isNone(Option.fromUndefinedOr(next.pollUnsafe()))).toBe(true)

      for (const name of [...browser.jar.keys()]) browser.document.cookie = `${name}=; Path=/; Max-Age=0`
      yield* TestClock.adjust("100 millis")
      expect(Array.from(yield* Fiber.join(next)).map(texts)).toEqual([texts(empty)])
    }))

  it.effect("emits each outside change once", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:")
      const store = yield* BrowserCookieStore.make({ projectId })
      const first = yield* store.changes.pipe(Stream.take(2), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow

      otherTabSignsIn(browser, "r1", "a1", 1)
      yield* TestClock.adjust("500 millis")
      otherTabSignsIn(browser, "r2", "a2", 2)
      yield* TestClock.adjust("100 millis")
      expect(Array.from(yield* Fiber.join(first)).map((tokens) => texts(tokens).refreshToken)).toEqual(["r1", "r2"])
    }))

  it.effect("with BroadcastChannel, a write in one tab reaches the other tab's store without polling document.cookie", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:", { broadcastChannel: true })
      const writer = yield* BrowserCookieStore.make({ projectId })
      const reader = yield* BrowserCookieStore.make({ projectId })
      const next = yield* reader.changes.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow

      const idleStart = browser.reads()
      yield* TestClock.adjust("10 seconds")
      expect(browser.reads() - idleStart).toBe(0)

      yield* writer.set(fromStrings("a-b", "r-b"))
      const emitted = Array.from(yield* Fiber.join(next)).map(texts)
      expect(emitted).toEqual([{ accessToken: "a-b", refreshToken: "r-b" }])
    }))

  it.effect("with BroadcastChannel, cookies written outside the SDK are read when the tab becomes visible again", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:", { broadcastChannel: true })
      const store = yield* BrowserCookieStore.make({ projectId })
      const next = yield* store.changes.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow

      otherTabSignsIn(browser, "r-server", "a-server", 3)
      yield* TestClock.adjust("10 seconds")
      expect(Option.isNone(Option.fromUndefinedOr(next.pollUnsafe()))).toBe(true)

      browser.document.visibilityState = "hidden"
      browser.dispatch("visibilitychange")
      browser.document.visibilityState = "visible"
      browser.dispatch("visibilitychange")
      const emitted = Array.from(yield* Fiber.join(next)).map(texts)
      expect(emitted).toEqual([{ accessToken: "a-server", refreshToken: "r-server" }])
    }))

  it.effect("crossTab: 'poll' polls every 100 ms even where BroadcastChannel exists (100 reads in 10 s idle)", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:", { broadcastChannel: true })
      yield* BrowserCookieStore.make({ projectId, crossTab: "poll" })
      yield* Effect.yieldNow
      const idleStart = browser.reads()
      yield* TestClock.adjust("10 seconds")
      expect(browser.reads() - idleStart).toBe(100)
    }))

  it.effect("the channel carries a bare 'changed', never a token", () =>
    Effect.gen(function* () {
      yield* installFakeBrowser("http:", { broadcastChannel: true })
      const listener = new BroadcastChannel(BrowserCookieStore.channelName(projectId))
      yield* Effect.addFinalizer(() => Effect.sync(() => listener.close()))
      const received = new Promise<unknown>((resolve) => {
        listener.onmessage = (event: MessageEvent) => resolve(event.data)
      })
      const store = yield* BrowserCookieStore.make({ projectId })
      yield* store.set(fromStrings("a-secret", "r-secret"))
      expect(yield* Effect.promise(() => received)).toBe("changed")
    }))

  it.effect("honours a custom poll interval", () =>
    Effect.gen(function* () {
      const browser = yield* installFakeBrowser("http:")
      const store = yield* BrowserCookieStore.make({ projectId, pollInterval: "1 second" })
      const next = yield* store.changes.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow

      otherTabSignsIn(browser, "r1", "a1", 1)
      yield* TestClock.adjust("999 millis")
      expect(Option.isNone(Option.fromUndefinedOr(next.pollUnsafe()))).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(next)).length).toBe(1)
    }))
})

// ---------------------------------------------------------------------------------------------
// A minimal browser
// ---------------------------------------------------------------------------------------------

/**
 * A `document` whose cookie jar honours `Max-Age=0` (and counts reads of `cookie`), an event target
 * for `visibilitychange`, and a `location` with a protocol. Without `broadcastChannel: true` the
 * page has no `BroadcastChannel` (Node's global is hidden while the scope lasts): the store polls.
 */
interface FakeBrowser {
  readonly document: { cookie: string; visibilityState: "visible" | "hidden" }
  readonly jar: Map<string, string>
  readonly assignments: Array<string>
  readonly secure: boolean
  /** How many times `document.cookie` was read. */
  readonly reads: () => number
  /** Fires an event of `document` (e.g. `visibilitychange`). */
  readonly dispatch: (type: string) => void
}

function installFakeBrowser(
  protocol: "http:" | "https:",
  options: { readonly broadcastChannel?: boolean } = {}
): Effect.Effect<FakeBrowser, never, Scope.Scope> {
  return Effect.acquireRelease(
    Effect.sync(() => {
      const jar = new Map<string, string>()
      const assignments: Array<string> = []
      const listeners = new Map<string, Set<() => void>>()
      let reads = 0
      const document = {
        visibilityState: "visible" as "visible" | "hidden",
        get cookie(): string {
          reads += 1
          return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
        },
        set cookie(assignment: string) {
          assignments.push(assignment)
          const [pair = "", ...attributes] = assignment.split(";")
          const eq = pair.indexOf("=")
          if (eq <= 0) return
          const name = pair.slice(0, eq).trim()
          const maxAge = attributes
            .map((attribute) => attribute.trim().split("="))
            .find(([key]) => key?.toLowerCase() === "max-age")?.[1]
          if (maxAge !== undefined && Number(maxAge) <= 0) jar.delete(name)
          else jar.set(name, pair.slice(eq + 1).trim())
        },
        addEventListener(type: string, listener: () => void) {
          const set = listeners.get(type) ?? new Set()
          set.add(listener)
          listeners.set(type, set)
        },
        removeEventListener(type: string, listener: () => void) {
          listeners.get(type)?.delete(listener)
        }
      }
      const scope = globalThis as Record<string, unknown>
      const channel = scope["BroadcastChannel"]
      scope["document"] = document
      scope["location"] = { protocol }
      if (options.broadcastChannel !== true) delete scope["BroadcastChannel"]
      return {
        browser: {
          document,
          jar,
          assignments,
          secure: protocol === "https:",
          reads: () => reads,
          dispatch: (type: string) => {
            for (const listener of [...(listeners.get(type) ?? [])]) listener()
          }
        },
        channel
      }
    }),
    ({ channel }) =>
      Effect.sync(() => {
        const scope = globalThis as Record<string, unknown>
        delete scope["document"]
        delete scope["location"]
        scope["BroadcastChannel"] = channel
      })
  ).pipe(Effect.map(({ browser }) => browser))
}
