/**
 * The framework cookie store adapter (PROTOCOL.md §5.2 "nextjs-cookie" on the server, §5.3 cookie
 * names, values and attributes), over a fake of Next's `cookies()` store: the token-store
 * contract, exact cookie writes, the official reading rules, HTTPS names, frameworks that forbid
 * writes, stores without `getAll()`, and the structural fit of Next's cookie types.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { expectTypeOf } from "vitest"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import * as Cookies from "../../src/session/cookies.js"
import { empty, fromStrings, type StoredTokens } from "../../src/session/TokenStore.js"

const projectId = "11111111-2222-3333-4444-555555555555"
const refreshName = `stack-refresh-${projectId}--default`
const hostRefreshName = `__Host-stack-refresh-${projectId}--default`

interface Call {
  readonly op: "set" | "delete"
  readonly name: string
  readonly value?: string
  readonly options?: CookieTokenStore.FrameworkCookieOptions
}

/** A fake of Next's request cookie store: `get` returns `{ name, value }`, writes are recorded. */
class FakeCookies implements CookieTokenStore.FrameworkCookies {
  readonly jar = new Map<string, string>()
  readonly calls: Array<Call> = []
  constructor(seed: Record<string, string> = {}, readonly readOnly = false) {
    for (const [name, value] of Object.entries(seed)) this.jar.set(name, value)
  }
  get = (name: string) => (this.jar.has(name) ? { name, value: this.jar.get(name)! } : undefined)
  getAll = () => [...this.jar].map(([name, value]) => ({ name, value }))
  set = (name: string, value: string, options: CookieTokenStore.FrameworkCookieOptions) => {
    if (this.readOnly) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
    this.calls.push({ op: "set", name, value, options })
    if (options.maxAge === 0) this.jar.delete(name)
    else this.jar.set(name, value)
  }
  delete = (name: string) => {
    if (this.readOnly) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
    this.calls.push({ op: "delete", name })
    this.jar.delete(name)
  }
}

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

const refreshValue = (token: string, at: number) => JSON.stringify({ refresh_token: token, updated_at_millis: at })

const options = (maxAge: number, secure: boolean, domain?: string): CookieTokenStore.FrameworkCookieOptions => ({
  maxAge,
  path: "/",
  sameSite: "lax",
  secure,
  httpOnly: false,
  ...(domain === undefined ? {} : { domain })
})

describe("CookieTokenStore: token-store contract", () => {
  it.effect("an empty store reads as no tokens", () =>
    Effect.gen(function* () {
      const store = yield* CookieTokenStore.make(new FakeCookies(), { projectId })
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
    }))

  it.effect("reads the tokens the cookies already hold", () =>
    Effect.gen(function* () {
      const cookies = new FakeCookies({ [refreshName]: refreshValue("refresh-0", 1), "stack-access": JSON.stringify(["refresh-0", "access-0"]) })
      const store = yield* CookieTokenStore.make(cookies, { projectId })
      expect(texts(yield* store.get)).toEqual({ accessToken: "access-0", refreshToken: "refresh-0" })
      expect(texts(CookieTokenStore.readTokens(cookies, { projectId }))).toEqual({ accessToken: "access-0", refreshToken: "refresh-0" })
    }))

  it.effect("reads back what was set; a later set replaces it; none clears", () =>
    Effect.gen(function* () {
      const cookies = new FakeCookies()
      const store = yield* CookieTokenStore.make(cookies, { projectId })
      yield* store.set(fromStrings("access-1", "refresh-1"))
      expect(texts(yield* store.get)).toEqual({ accessToken: "access-1", refreshToken: "refresh-1" })
      yield* store.set(fromStrings(undefined, "refresh-2"))
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: "refresh-2" })
      yield* store.set(fromStrings("access-only", undefined))
      expect(texts(yield* store.get)).toEqual({ accessToken: "access-only", refreshToken: null })
      yield* store.set(empty)
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
      // a new store over the same cookies (the next request) sees what the cookies hold
      yield* store.set(fromStrings("access-3", "refresh-3"))
      const next = yield* CookieTokenStore.make(cookies, { projectId })
      expect(texts(yield* next.get)).toEqual({ accessToken: "access-3", refreshToken: "refresh-3" })
    }))

  it.effect("unusable texts are never stored", () =>
    Effect.gen(function* () {
      const store = yield* CookieTokenStore.make(new FakeCookies(), { projectId })
      yield* store.set({ accessToken: Option.some(Redacted.make("undefined")), refreshToken: Option.some(Redacted.make("")) })
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
    }))
})

describe("CookieTokenStore: cookie names, values and attributes (PROTOCOL.md §5.3)", () => {
  it.effect("over HTTP: stack-refresh-{projectId}--default (JSON, 1 year) and stack-access ([refresh, access], 1 day)", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_700_000_000_123)
      const cookies = new FakeCookies()
      const store = yield* CookieTokenStore.make(cookies, { projectId })
      yield* store.set(fromStrings("access-1", "refresh-1"))
      expect(cookies.calls).toEqual([
        { op: "set", name: refreshName, value: refreshValue("refresh-1", 1_700_000_000_123), options: options(31_536_000, false) },
        { op: "set", name: "stack-access", value: JSON.stringify(["refresh-1", "access-1"]), options: options(86_400, false) }
      ])
      for (const call of cookies.calls) {
        expect(call.options).toMatchObject({ path: "/", sameSite: "lax", httpOnly: false })
      }
    }))

  it.effect("over HTTPS (stack-is-https marker, or the secure option): __Host- refresh cookie, Secure", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(5_000)
      const marked = new FakeCookies({ "stack-is-https": "true" })
      yield* (yield* CookieTokenStore.make(marked, { projectId })).set(fromStrings("a", "r"))
      expect(marked.calls).toEqual([
        { op: "set", name: hostRefreshName, value: refreshValue("r", 5_000), options: options(31_536_000, true) },
        { op: "set", name: "stack-access", value: JSON.stringify(["r", "a"]), options: options(86_400, true) }
      ])
      const configured = new FakeCookies()
      yield* (yield* CookieTokenStore.make(configured, { projectId, secure: true })).set(fromStrings("a", "r"))
      expect(configured.calls.map((call) => [call.name, call.options?.secure])).toEqual([[hostRefreshName, true], ["stack-access", true]])
      // the option wins over the marker
      const forcedHttp = new FakeCookies({ "stack-is-https": "true" })
      yield* (yield* CookieTokenStore.make(forcedHttp, { projectId, secure: false })).set(fromStrings("a", "r"))
      expect(forcedHttp.calls[0]!.name).toBe(refreshName)
    }))

  it.effect("signing out deletes the refresh and access cookies", () =>
    Effect.gen(function* () {
      const cookies = new FakeCookies({ [refreshName]: refreshValue("r", 1), "stack-access": JSON.stringify(["r", "a"]) })
      const store = yield* CookieTokenStore.make(cookies, { projectId })
      yield* store.set(empty)
      expect(cookies.calls).toEqual([{ op: "delete", name: refreshName }, { op: "delete", name: "stack-access" }])
      expect([...cookies.jar.keys()]).toEqual([])
    }))

  it.effect("the __Host- cookie is read first; legacy and other refresh cookies are deleted on the next write, a --custom- one only for a configured domain", () =>
    Effect.gen(function* () {
      const customName = Cookies.customRefreshCookieName(projectId, "example.com")
      const foreignCustom = Cookies.customRefreshCookieName(projectId, "elsewhere.example")
      const cookies = new FakeCookies({
        [`stack-refresh-${projectId}`]: "legacy-refresh",
        "stack-refresh": "global-legacy",
        [refreshName]: refreshValue("newer", 9_999_999_999_999),
        [hostRefreshName]: refreshValue("host", 1),
        [customName]: refreshValue("custom", 2),
        [foreignCustom]: refreshValue("foreign", 3),
        "unrelated": "kept"
      })
      const store = yield* CookieTokenStore.make(cookies, { projectId, cookieDomains: ["example.com"] })
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: "host" })
      yield* store.set(fromStrings("a", "r"))
      expect(cookies.calls.slice(2)).toEqual([
        { op: "delete", name: `stack-refresh-${projectId}` },
        { op: "delete", name: "stack-refresh" },
        // __Host- and Domain= cookies need their attributes to be deleted
        { op: "set", name: hostRefreshName, value: "", options: options(0, true) },
        { op: "set", name: customName, value: "", options: options(0, false, "example.com") }
      ])
      expect([...cookies.jar.keys()].sort()).toEqual([refreshName, "stack-access", foreignCustom, "unrelated"].sort())
    }))

  it.effect("over HTTP the app's own --default cookie outranks legacy ones; then legacy; then configured --custom- ones by updated_at_millis", () =>
    Effect.gen(function* () {
      const customName = Cookies.customRefreshCookieName(projectId, "example.com")
      const otherCustom = Cookies.customRefreshCookieName(projectId, "app.example.com")
      const read = (seed: Record<string, string>) =>
        Effect.flatMap(CookieTokenStore.make(new FakeCookies(seed), { projectId, cookieDomains: ["example.com", "app.example.com"] }), (store) => store.get)
      const legacy = { [`stack-refresh-${projectId}`]: "legacy-refresh" }
      expect(texts(yield* read({ ...legacy, [refreshName]: refreshValue("own", 100) })).refreshToken).toBe("own")
      expect(texts(yield* read({ ...legacy, [customName]: refreshValue("custom", 300) })).refreshToken).toBe("legacy-refresh")
      const both = { [customName]: refreshValue("newest", 300), [otherCustom]: refreshValue("older", 200), "stack-access": JSON.stringify(["older", "x"]) }
      expect(texts(yield* read(both))).toEqual({ accessToken: null, refreshToken: "newest" })
    }))

  it.effect("malformed cookies read as absent, never as a failure", () =>
    Effect.gen(function* () {
      const cookies = new FakeCookies({ [refreshName]: "{not json", "stack-access": "[1,2" })
      const store = yield* CookieTokenStore.make(cookies, { projectId })
      expect(texts(yield* store.get)).toEqual({ accessToken: null, refreshToken: null })
      const throwing: CookieTokenStore.FrameworkCookies = {
        get: () => {
          throw new Error("outside a request scope")
        },
        getAll: () => {
          throw new Error("outside a request scope")
        },
        set: () => undefined,
        delete: () => undefined
      }
      expect(texts(yield* (yield* CookieTokenStore.make(throwing, { projectId })).get)).toEqual({ accessToken: null, refreshToken: null })
    }))

  it.effect("a framework that forbids writes (a Server Component): skipped silently, the tokens serve the request from memory", () =>
    Effect.gen(function* () {
      const cookies = new FakeCookies({ [refreshName]: refreshValue("r", 1) }, true)
      const store = yield* CookieTokenStore.make(cookies, { projectId })
      yield* store.set(fromStrings("fresh-access", "r"))
      expect(texts(yield* store.get)).toEqual({ accessToken: "fresh-access", refreshToken: "r" })
      expect(cookies.calls).toEqual([])
      expect(cookies.jar.get(refreshName)).toBe(refreshValue("r", 1))
    }))

  it.effect("a store without getAll() reads the known names", () =>
    Effect.gen(function* () {
      const jar = new Map([[hostRefreshName, refreshValue("host-r", 5)], ["stack-access", JSON.stringify(["host-r", "host-a"])], ["stack-is-https", "true"]])
      const writes: Array<string> = []
      const minimal: CookieTokenStore.FrameworkCookies = {
        get: (name) => jar.get(name),
        set: (name) => void writes.push(`set ${name}`),
        delete: (name) => void writes.push(`delete ${name}`)
      }
      const store = yield* CookieTokenStore.make(minimal, { projectId })
      expect(texts(yield* store.get)).toEqual({ accessToken: "host-a", refreshToken: "host-r" })
      yield* store.set(fromStrings("a2", "r2"))
      expect(writes).toEqual([`set ${hostRefreshName}`, "set stack-access"])
    }))

  it("cookieWrites serialise to exactly what Cookies.writeTokens produces", () => {
    const existing = new Map([
      [`stack-refresh-${projectId}`, "x"],
      [hostRefreshName, "x"],
      [refreshName, "x"],
      [Cookies.customRefreshCookieName(projectId, "shop.example.com"), "x"],
      [Cookies.customRefreshCookieName(projectId, "not-configured.example"), "x"],
      ["other", "x"]
    ])
    const cases: ReadonlyArray<StoredTokens> = [fromStrings("a", "r"), fromStrings(undefined, "r"), fromStrings("a", undefined), empty]
    for (const tokens of cases) {
      for (const secure of [false, true]) {
        const write = { projectId, secure, now: 42, existing, cookieDomains: ["shop.example.com"] }
        expect(CookieTokenStore.cookieWrites(tokens, write).flatMap((one) => Option.toArray(CookieTokenStore.serializeWrite(one)))).toEqual(
          Cookies.writeTokens(tokens, write)
        )
      }
    }
  })

  it("Next's cookie store types fit the structural type", () => {
    interface NextResponseCookie {
      name: string
      value: string
      domain?: string
      path?: string
      expires?: number | Date
      secure?: boolean
      sameSite?: "strict" | "lax" | "none"
      partitioned?: boolean
      httpOnly?: boolean
      maxAge?: number
      priority?: "low" | "medium" | "high"
    }
    type NextRequestCookie = Pick<NextResponseCookie, "name" | "value">
    interface NextReadonlyRequestCookies {
      get(...args: [name: string] | [NextRequestCookie]): NextRequestCookie | undefined
      getAll(...args: [name: string] | [NextRequestCookie] | []): Array<NextRequestCookie>
      has(name: string): boolean
      set(...args: [key: string, value: string, cookie?: Partial<NextResponseCookie>] | [options: NextResponseCookie]): this
      delete(...args: [key: string] | [options: Omit<NextResponseCookie, "value" | "expires">]): this
    }
    expectTypeOf<NextReadonlyRequestCookies>().toMatchTypeOf<CookieTokenStore.FrameworkCookies>()
  })
})
