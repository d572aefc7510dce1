/**
 * One contract, every token store: memory, custom, browser cookie, request.
 * Each store is built over its own backing storage, seeded with raw texts the way that storage
 * would really hold them (an object, cookies in `document.cookie`, a `Cookie` request header).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted, type Scope, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as BrowserCookieStore from "../../src/session/BrowserCookieStore.js"
import * as Cookies from "../../src/session/cookies.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import { empty, fromStrings, makeCustom, makeMemory, type StoredTokens, type TokenStoreError, type TokenStoreShape } from "../../src/session/TokenStore.js"

const projectId = "11111111-2222-3333-4444-555555555555"

/** Raw token texts a backing storage holds before the store is made. */
interface Seed {
  readonly accessToken: string | null
  readonly refreshToken: string | null
}

const noSeed: Seed = { accessToken: null, refreshToken: null }

type MakeStore = (seed: Seed) => Effect.Effect<TokenStoreShape, TokenStoreError, Scope.Scope>

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

const contract = (name: string, makeStore: MakeStore) =>
  describe(`${name} token store`, () => {
    it.effect("an empty store reads as no tokens", () =>
      Effect.gen(function* () {
        const store = yield* makeStore(noSeed)
        expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
      }))

    it.effect("reads the tokens its storage already holds", () =>
      Effect.gen(function* () {
        const store = yield* makeStore({ accessToken: "access-0", refreshToken: "refresh-0" })
        expect(texts(yield* store.get)).toEqual({ accessToken: "access-0", refreshToken: "refresh-0" })
      }))

    it.effect("reads back what was set", () =>
      Effect.gen(function* () {
        const store = yield* makeStore(noSeed)
        yield* store.set(fromStrings("access-1", "refresh-1"))
        expect(texts(yield* store.get)).toEqual({ accessToken: "access-1", refreshToken: "refresh-1" })
      }))

    it.effect("a later set replaces an earlier one", () =>
      Effect.gen(function* () {
        const store = yield* makeStore({ accessToken: "access-0", refreshToken: "refresh-0" })
        yield* store.set(fromStrings("access-2", "refresh-2"))
        expect(texts(yield* store.get)).toEqual({ accessToken: "access-2", refreshToken: "refresh-2" })
        yield* store.set(fromStrings(undefined, "refresh-3"))
        expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: "refresh-3" })
      }))

    it.effect("reads back an access token set without a refresh token", () =>
      Effect.gen(function* () {
        const store = yield* makeStore(noSeed)
        yield* store.set(fromStrings("access-only", undefined))
        expect(texts(yield* store.get)).toEqual({ accessToken: "access-only", refreshToken: null })
      }))

    it.effect("setting none clears a token", () =>
      Effect.gen(function* () {
        const store = yield* makeStore({ accessToken: "access-0", refreshToken: "refresh-0" })
        yield* store.set({ accessToken: Option.none(), refreshToken: Option.some(Redacted.make("refresh-0")) })
        expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: "refresh-0" })
        yield* store.set(empty)
        expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
      }))

    it.effect("the text 'undefined' is never returned as a token", () =>
      Effect.gen(function* () {
        const seeded = yield* makeStore({ accessToken: "undefined", refreshToken: "undefined" })
        expect(texts(yield* seeded.get)).toEqual({ accessToken: null, refreshToken: null })

        const store = yield* makeStore(noSeed)
        yield* store.set(fromStrings("undefined", "undefined"))
        expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
        yield* store.set(fromStrings("", "refresh-4"))
        expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: "refresh-4" })
      }))

    it.effect("does not report its own writes as changes", () =>
      Effect.gen(function* () {
        const store = yield* makeStore(noSeed)
        const fiber = yield* store.changes.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
        yield* Effect.yieldNow // let the subscriber subscribe
        yield* store.set(fromStrings("access-5", "refresh-5"))
        yield* TestClock.adjust("1 second")
        const done = Option.fromUndefinedOr(fiber.pollUnsafe())
        // Still waiting (polling stores), or ended without a value (stores nobody else writes to).
        if (Option.isSome(done)) {
          expect(Exit.isSuccess(done.value) && done.value.value.length === 0).toBe(true)
        }
      }))
  })

// ---------------------------------------------------------------------------------------------
// The stores
// ---------------------------------------------------------------------------------------------

contract("memory", (seed) => makeMemory(fromStrings(seed.accessToken, seed.refreshToken)))

contract("custom", (seed) =>
  Effect.sync(() => {
    let row: { accessToken: string | null; refreshToken: string | null } = { ...seed }
    return makeCustom({
      get: () => row,
      set: async (tokens) => {
        row = { ...tokens }
      }
    })
  }))

contract("browser cookie", (seed) =>
  Effect.gen(function* () {
    const jar = yield* installFakeBrowser("https:")
    for (const cookie of seedCookies(seed, true)) jar.document.cookie = cookie
    return yield* BrowserCookieStore.make({ projectId })
  }))

contract("request", (seed) => RequestTokenStore.make(new Headers({ cookie: seedCookieHeader(seed) }), { projectId }))

contract("request (x-stack-auth)", (seed) =>
  RequestTokenStore.make(
    new Headers(
      seed.accessToken === "undefined" || seed.refreshToken === "undefined"
        // a header with "undefined" is rejected, so that seed is carried by cookies instead
        ? { cookie: seedCookieHeader(seed) }
        : { "x-stack-auth": JSON.stringify(seed) }
    ),
    { projectId }
  ))

// ---------------------------------------------------------------------------------------------
// Backing storages
// ---------------------------------------------------------------------------------------------

/** `Set-Cookie`-style strings holding a seed in the official format. */
function seedCookies(seed: Seed, secure: boolean): ReadonlyArray<string> {
  const out: Array<string> = []
  if (seed.refreshToken !== null) {
    out.push(
      Cookies.serializeCookie(Cookies.refreshCookieName(projectId, secure), Cookies.refreshCookieValue(seed.refreshToken, 1_000), {
        maxAgeSeconds: Cookies.refreshCookieMaxAgeSeconds,
        secure
      })
    )
    if (seed.accessToken !== null) {
      out.push(
        Cookies.serializeCookie(Cookies.accessCookieName, JSON.stringify([seed.refreshToken, seed.accessToken]), {
          maxAgeSeconds: Cookies.accessCookieMaxAgeSeconds,
          secure
        })
      )
    }
  }
  return out
}

/** A `Cookie` request header holding a seed. */
function seedCookieHeader(seed: Seed): string {
  return seedCookies(seed, false).map((cookie) => cookie.split(";")[0]).join("; ")
}

/** A minimal `document` with a cookie jar that honours `Max-Age=0`, and a `location`. */
interface FakeBrowser {
  readonly document: { cookie: string }
}

function installFakeBrowser(protocol: "http:" | "https:"): Effect.Effect<FakeBrowser, never, Scope.Scope> {
  return Effect.acquireRelease(
    Effect.sync(() => {
      const jar = new Map<string, string>()
      const document = {
        get cookie(): string {
          return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
        },
        set cookie(assignment: string) {
          const [pair = "", ...attributes] = assignment.split(";")
          const eq = pair.indexOf("=")
          if (eq <= 0) return
          const name = pair.slice(0, eq).trim()
          const maxAge = attributes
            .map((attribute) => attribute.trim().split("="))
            .find(([key]) => key?.toLowerCase() === "max-age")?.[1]
          if (maxAge !== undefined && Number(maxAge) <= 0) jar.delete(name)
          else jar.set(name, pair.slice(eq + 1).trim())
        }
      }
      const scope = globalThis as Record<string, unknown>
      scope["document"] = document
      scope["location"] = { protocol }
      return { document }
    }),
    () =>
      Effect.sync(() => {
        const scope = globalThis as Record<string, unknown>
        delete scope["document"]
        delete scope["location"]
      })
  )
}
