/**
 * Per-request token store choice (`x-stack-auth` header, framework cookies, `cookie` header), the
 * per-request session with server access, and the `x-stack-auth` hand-over helpers, against the
 * in-process emulator. Also the redirect trust read from the project's trusted domains.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Emulator from "../../src/emulator/index.js"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import * as Next from "../../src/next/index.js"
import * as RequestSession from "../../src/next/RequestSession.js"
import * as Cookies from "../../src/session/cookies.js"
import { Session } from "../../src/session/Session.js"
import { fromStrings, type StoredTokens, TokenStore } from "../../src/session/TokenStore.js"
import * as Stack from "../../src/Stack.js"
import * as Redirects from "../../src/urls/Redirects.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

/** The tokens a store layer holds. */
const held = (layer: Layer.Layer<TokenStore, unknown>) => Effect.flatMap(TokenStore, (store) => store.get).pipe(Effect.provide(layer), Effect.map(texts))

const projectId = "11111111-2222-3333-4444-555555555555"

const memoryCookies = (seed: Record<string, string> = {}) => {
  const jar = new Map(Object.entries(seed))
  const written: Array<string> = []
  const cookies: CookieTokenStore.FrameworkCookies = {
    get: (name) => jar.get(name),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    set: (name, value, options) => {
      written.push(name)
      if (options.maxAge === 0) jar.delete(name)
      else jar.set(name, value)
    },
    delete: (name) => void jar.delete(name)
  }
  return { cookies, jar, written }
}

const cookieHeaderFor = (tokens: StoredTokens) =>
  Cookies.writeTokens(tokens, { projectId, secure: false, now: 1, existing: new Map() }).map((cookie) => cookie.split(";")[0]).join("; ")

describe("RequestSession.layerTokenStore", () => {
  const headerTokens = fromStrings("header-access", "header-refresh")
  const cookieTokens = fromStrings("cookie-access", "cookie-refresh")

  it.effect("the x-stack-auth header wins over the framework's cookies; without it the cookies serve (and take writes)", () =>
    Effect.gen(function* () {
      const { cookies, written } = memoryCookies({
        [Cookies.refreshCookieName(projectId, false)]: Cookies.refreshCookieValue("cookie-refresh", 1),
        "stack-access": JSON.stringify(["cookie-refresh", "cookie-access"])
      })
      const withHeader = new Request("http://app.test/", { headers: Next.authHeaders(headerTokens) })
      expect(yield* held(RequestSession.layerTokenStore({ request: withHeader, cookies }, { projectId }))).toEqual(texts(headerTokens))
      const withoutHeader = new Request("http://app.test/")
      expect(yield* held(RequestSession.layerTokenStore({ request: withoutHeader, cookies }, { projectId }))).toEqual(texts(cookieTokens))
      // the cookie store is the writable one
      yield* Effect.flatMap(TokenStore, (store) => store.set(fromStrings("new-access", "cookie-refresh"))).pipe(
        Effect.provide(RequestSession.layerTokenStore({ request: withoutHeader, cookies }, { projectId }))
      )
      expect(written).toContain("stack-access")
    }))

  it.effect("only a request: its x-stack-auth header, else its cookie header (Fetch headers or a Node header record)", () =>
    Effect.gen(function* () {
      expect(
        yield* held(
          RequestSession.layerTokenStore({ request: { headers: { "X-Stack-Auth": JSON.stringify({ accessToken: "a", refreshToken: "r" }) } } }, { projectId })
        )
      )
        .toEqual({ accessToken: "a", refreshToken: "r" })
      const cookie = cookieHeaderFor(cookieTokens)
      expect(yield* held(RequestSession.layerTokenStore({ request: new Headers({ cookie }) }, { projectId }))).toEqual(texts(cookieTokens))
      expect(yield* held(RequestSession.layerTokenStore({ request: { headers: { cookie: [cookie] } } }, { projectId }))).toEqual(texts(cookieTokens))
      expect(yield* held(RequestSession.layerTokenStore({}, { projectId }))).toEqual({ accessToken: null, refreshToken: null })
    }))

  it.effect("the site's HTTPS and cookie domains reach the request store: a planted cookie of another name or domain is not read", () =>
    Effect.gen(function* () {
      const custom = Cookies.customRefreshCookieName(projectId, "example.com")
      const planted = `${Cookies.legacyRefreshCookieName(projectId)}=attacker; ${custom}=${
        encodeURIComponent(JSON.stringify({ refresh_token: "custom", updated_at_millis: 1 }))
      }`
      const request = new Request("https://app.example.com/", { headers: { cookie: planted } })
      expect((yield* held(RequestSession.layerTokenStore({ request }, { projectId, secure: true }))).refreshToken).toBeNull()
      const configured = RequestSession.layerTokenStore({ request }, { projectId, secure: true, cookieDomains: ["example.com"] })
      expect((yield* held(configured)).refreshToken).toBe("custom")
    }))

  it.effect("a malformed x-stack-auth header is a TokenStoreError, even when cookies are there", () =>
    Effect.gen(function* () {
      const { cookies } = memoryCookies()
      const request = new Request("http://app.test/", { headers: { "x-stack-auth": JSON.stringify({ accessToken: "only-one" }) } })
      const error = yield* Effect.flip(held(RequestSession.layerTokenStore({ request, cookies }, { projectId })))
      expect(error).toMatchObject({ _tag: "TokenStoreError", message: "Invalid x-stack-auth header: both accessToken and refreshToken are required" })
    }))
})

describe("RequestSession with the in-process emulator", () => {
  it.effect("a per-request session over the cookies reads the user with server access; the hand-over header round-trips", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.make()
      const base = {
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: Emulator.layerHttpClient(emulator)
      }
      // the browser: sign up, then hand its tokens over
      const browser = Stack.layerClient(base)
      const { tokens, headers, json, userId } = yield* Effect.gen(function* () {
        const { userId } = yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse battery", noVerificationCallback: true })
        const tokens = yield* Effect.flatMap(Session, (session) => session.current)
        const headers = yield* Next.currentAuthHeaders
        const json = yield* Next.currentAuthJson
        return { tokens, headers, json, userId }
      }).pipe(Effect.provide(browser))
      expect(json).toEqual(texts(tokens))
      expect(JSON.parse(headers["x-stack-auth"]!)).toEqual(texts(tokens))

      // the server: an app-wide server layer, a session per request
      const server = Stack.layerServer({ ...base, secretServerKey: emulator.demo.secretServerKey })
      const { cookies } = memoryCookies()
      yield* Effect.flatMap(TokenStore, (store) => store.set(tokens)).pipe(
        Effect.provide(CookieTokenStore.layer(cookies, { projectId: emulator.demo.projectId }))
      )
      const viaCookies = yield* ServerUsers.getCurrent().pipe(
        Effect.provide(CookieTokenStore.layerSession(cookies, { projectId: emulator.demo.projectId })),
        Effect.provide(server)
      )
      expect(Option.map(viaCookies, (user) => user.id)).toEqual(Option.some(userId))
      const viaHeader = yield* ServerUsers.getCurrent().pipe(
        Effect.provide(RequestSession.layerSession({ request: new Request("http://app.test/", { headers }) }, { projectId: emulator.demo.projectId })),
        Effect.provide(server)
      )
      expect(Option.map(viaHeader, (user) => user.primaryEmail)).toEqual(Option.some("ada@example.com"))

      // signed out: both tokens null
      const signedOut = yield* Effect.gen(function* () {
        yield* Password.signInWithPassword({ email: "ada@example.com", password: "correct horse battery" })
        yield* Sessions.signOut()
        return yield* Next.currentAuthJson
      }).pipe(Effect.provide(Stack.layerClient(base)))
      expect(signedOut).toEqual({ accessToken: null, refreshToken: null })
    }))

  it.effect("redirect trust from the project's trusted domains", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.make({
        demo: { config: { domains: [{ domain: "https://*.partner.example", handlerPath: "/handler" }] } }
      })
      const layer = Redirects.layerTrustFromProject().pipe(
        Layer.provide(
          Stack.layerClient({
            projectId: emulator.demo.projectId,
            publishableClientKey: emulator.demo.publishableClientKey,
            httpClient: Emulator.layerHttpClient(emulator)
          })
        )
      )
      const trust = yield* Effect.provide(Redirects.RedirectTrust, layer)
      expect(trust).toEqual({ trustedDomains: ["https://*.partner.example"], allowLocalhost: false })
      const navigations: Array<string> = []
      const method = Redirects.layerMethod(Redirects.methodCustom((url) => void navigations.push(url), { currentUrl: () => "https://app.example/", wait: 0 }))
      yield* Redirects.redirectToUrl("https://shop.partner.example/x").pipe(Effect.provide(Layer.merge(layer, method)))
      expect(navigations).toEqual(["https://shop.partner.example/x"])
    }))
})
