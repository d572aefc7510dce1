/**
 * Cookie tossing (issue 25 item 1), in-process: the app runs at https://app.example.com, a sibling
 * subdomain (https://evil.example.com) plants cookies for the whole `example.com` under the names
 * the SDK reads — the `--custom-` cross-subdomain name with a timestamp from the future, the
 * `--default` name, the legacy names, a `--custom-` name that decodes to attributes. Each store
 * (the browser cookie store over `document.cookie`, the Next.js cookie store, the request store)
 * runs over one browser cookie jar (`cookieJar.ts`, RFC 6265 storage: the planted cookies live
 * beside the app's own). Rules:
 *
 * - a planted cookie never signs the visitor in as someone else: not before a sign-in, not after
 *   it, not after a sign-out;
 * - a sign-in always sticks: the next page load reads the visitor's own session;
 * - with the sibling domain configured (`cookieDomains`), its `--custom-` cookie may hand a
 *   session over, but never outranks the visitor's own, and the SDK's deletion really removes it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted, type Scope } from "effect"
import { crockfordAlphabet, encodeBase32 } from "../../src/core/internal/base32.js"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import * as BrowserCookieStore from "../../src/session/BrowserCookieStore.js"
import * as Cookies from "../../src/session/cookies.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import { empty, fromStrings, type StoredTokens, TokenStore, type TokenStoreShape } from "../../src/session/TokenStore.js"
import * as Stack from "../../src/Stack.js"
import { CookieJar } from "./cookieJar.js"

const projectId = "11111111-2222-3333-4444-555555555555"
const app = { host: "app.example.com", https: true } as const
const sibling = { host: "evil.example.com", https: true } as const
const attacker = "attacker-refresh-token"

const refreshText = (tokens: StoredTokens): string | null => Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))

/** What the attacker's page on the sibling subdomain sets for all of `example.com`. */
const plant = (jar: CookieJar): void => {
  const value = encodeURIComponent(JSON.stringify({ refresh_token: attacker, updated_at_millis: 9e15 }))
  // a --custom- name whose base32 decodes to attributes: its "deletion" once made a one-year cookie
  const hostile = new TextEncoder().encode("app.example.com; max-age=31536000; samesite=none")
  const hostileName = `${Cookies.legacyRefreshCookieName(projectId)}--custom-${encodeBase32(hostile, crockfordAlphabet.toUpperCase())}`
  for (
    const name of [
      Cookies.customRefreshCookieName(projectId, "example.com"),
      Cookies.refreshCookieName(projectId, false),
      hostileName
    ]
  ) jar.set(`${name}=${value}; Domain=example.com; Path=/; Secure; SameSite=Lax`, sibling)
  for (const name of [Cookies.legacyRefreshCookieName(projectId), Cookies.globalLegacyRefreshCookieName]) {
    jar.set(`${name}=${attacker}; Domain=example.com; Path=/; Secure`, sibling)
  }
}

/** A page load of the app: a new store over the jar, made by `open`. */
type Open = (jar: CookieJar) => Effect.Effect<TokenStoreShape, unknown, Scope.Scope>

/** The rules, for one kind of store. */
const tossingRules = (open: Open) => {
  it.effect("a planted cookie never signs the visitor in as someone else, before a sign-in, after it or after a sign-out", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      plant(jar)
      expect(refreshText(yield* (yield* open(jar)).get)).toBeNull()
      const page = yield* open(jar)
      yield* page.set(fromStrings("visitor-access", "visitor-refresh"))
      expect(refreshText(yield* (yield* open(jar)).get)).toBe("visitor-refresh")
      yield* (yield* open(jar)).set(empty)
      expect(refreshText(yield* (yield* open(jar)).get)).toBeNull()
    }))

  it.effect("a sign-in always sticks, every time, while the planted cookies live", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      for (let round = 0; round < 3; round++) {
        plant(jar)
        yield* (yield* open(jar)).set(fromStrings(`access-${round}`, `visitor-${round}`))
        expect(refreshText(yield* (yield* open(jar)).get)).toBe(`visitor-${round}`)
        yield* (yield* open(jar)).set(empty)
        expect(refreshText(yield* (yield* open(jar)).get)).toBeNull()
      }
      // nothing the SDK wrote was refused (no broken Domain, no header a browser drops)
      expect(jar.refused).toEqual([])
    }))
}

/** The rules with the sibling's parent domain configured: its cookie counts, never over the visitor's own, and is really deleted. */
const configuredRules = (open: Open) => {
  it.effect("with example.com configured, the --custom- cookie never outranks the visitor's own, and a sign-out removes it", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      plant(jar)
      const custom = Cookies.customRefreshCookieName(projectId, "example.com")
      yield* (yield* open(jar)).set(fromStrings("visitor-access", "visitor-refresh"))
      expect(refreshText(yield* (yield* open(jar)).get)).toBe("visitor-refresh")
      expect(jar.count(custom)).toBe(0)
      plant(jar)
      expect(refreshText(yield* (yield* open(jar)).get)).toBe("visitor-refresh")
      yield* (yield* open(jar)).set(empty)
      expect(jar.count(custom)).toBe(0)
      expect(refreshText(yield* (yield* open(jar)).get)).toBeNull()
    }))
}

// ---------------------------------------------------------------------------------------------
// The stores over the jar
// ---------------------------------------------------------------------------------------------

/** `document` and `location` of a page of the app whose cookies are the jar's (restored with the scope). */
const installPage = (jar: CookieJar) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const scope = globalThis as Record<string, unknown>
      const saved = { document: scope["document"], location: scope["location"], channel: scope["BroadcastChannel"] }
      scope["document"] = {
        get cookie() {
          return jar.header(app)
        },
        set cookie(assignment: string) {
          jar.set(assignment, app)
        }
      }
      scope["location"] = { protocol: "https:", hostname: app.host }
      delete scope["BroadcastChannel"]
      return saved
    }),
    (saved) =>
      Effect.sync(() => {
        const scope = globalThis as Record<string, unknown>
        scope["document"] = saved.document
        scope["location"] = saved.location
        scope["BroadcastChannel"] = saved.channel
      })
  )

/** A page of the app over the jar, with the browser cookie store. */
const browserPage = (jar: CookieJar, cookieDomains?: ReadonlyArray<string>) =>
  installPage(jar).pipe(Effect.andThen(BrowserCookieStore.make({ projectId, crossTab: "poll", cookieDomains })))

/** Next's `cookies()` of one request to the app: reads the jar's `Cookie` header, writes `Set-Cookie`s to it as Next serialises them. */
const nextCookies = (jar: CookieJar): CookieTokenStore.FrameworkCookies => {
  const read = () => Cookies.parseCookieHeader(jar.header(app))
  return {
    get: (name) => Option.getOrUndefined(Option.map(Option.fromNullishOr(read().get(name)), (value) => ({ value }))),
    getAll: () => [...read()].map(([name, value]) => ({ name, value })),
    set: (name, value, options) =>
      jar.set(
        [
          `${name}=${encodeURIComponent(value)}`,
          `Path=${options.path}`,
          `Max-Age=${options.maxAge}`,
          ...(options.domain === undefined ? [] : [`Domain=${options.domain}`]),
          ...(options.secure ? ["Secure"] : []),
          "SameSite=Lax"
        ].join("; "),
        app
      ),
    delete: (name) => jar.set(`${name}=; Path=/; Max-Age=0`, app)
  }
}

describe("cookie tossing: the browser cookie store", () => {
  tossingRules((jar) => browserPage(jar))
  configuredRules((jar) => browserPage(jar, ["example.com"]))
})

describe("cookie tossing: the Next.js cookie store (HTTPS site)", () => {
  tossingRules((jar) => CookieTokenStore.make(nextCookies(jar), { projectId, secure: true }))
  configuredRules((jar) => CookieTokenStore.make(nextCookies(jar), { projectId, secure: true, cookieDomains: ["example.com"] }))
})

describe("cookie tossing: the request store (read-only)", () => {
  it.effect("a request carrying planted cookies reads as the visitor's own session, or as signed out", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      plant(jar)
      const read = (secure: boolean | undefined) => RequestTokenStore.readRequestTokens({ headers: { cookie: jar.header(app) } }, { projectId, secure })
      expect(refreshText(yield* read(true))).toBeNull()
      // without the option, the browser's `stack-is-https` marker tells an HTTPS site
      jar.set("stack-is-https=true; Path=/; Max-Age=31536000; Secure", app)
      expect(refreshText(yield* read(undefined))).toBeNull()
      for (const cookie of Cookies.writeTokens(fromStrings("a", "visitor-refresh"), { projectId, secure: true, now: 1, existing: new Map() })) {
        jar.set(cookie, app)
      }
      expect(refreshText(yield* read(undefined))).toBe("visitor-refresh")
    }))
})

// ---------------------------------------------------------------------------------------------
// Where apps configure the SDK: Stack.layerClient's cookie store, RequestAuth / HttpApiAuth
// ---------------------------------------------------------------------------------------------

/**
 * The official SDK's cross-subdomain session: a `--custom-` refresh cookie for all of
 * `example.com`, written by the app itself on `app.example.com`, with its `stack-access`.
 */
const shareSession = (jar: CookieJar, refreshToken: string, accessToken: string): void => {
  const value = encodeURIComponent(JSON.stringify({ refresh_token: refreshToken, updated_at_millis: 1 }))
  jar.set(`${Cookies.customRefreshCookieName(projectId, "example.com")}=${value}; Domain=example.com; Path=/; Secure; SameSite=Lax`, app)
  jar.set(`${Cookies.accessCookieName}=${encodeURIComponent(JSON.stringify([refreshToken, accessToken]))}; Path=/; Secure`, app)
}

describe("cookie tossing: cookieDomains through Stack.layerClient's cookie store", () => {
  /** The tokens a page of the app reads through `Stack.layerClient`'s token store (the browser default, or `"cookie"`). */
  const pageTokens = (jar: CookieJar, options: Pick<Stack.ClientOptions, "cookieDomains" | "tokenStore">) =>
    installPage(jar).pipe(
      Effect.andThen(
        Effect.flatMap(TokenStore, (store) => store.get).pipe(
          Effect.provide(Stack.layerClient({ projectId, publishableClientKey: "pck_test", ...options }))
        )
      )
    )

  it.effect("a configured domain's --custom- cookie is read; an unconfigured one is not", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      shareSession(jar, "shared-refresh", "shared-access")
      for (const tokenStore of [undefined, "cookie"] as const) {
        expect(refreshText(yield* pageTokens(jar, { tokenStore, cookieDomains: ["example.com"] }))).toBe("shared-refresh")
        expect(refreshText(yield* pageTokens(jar, { tokenStore }))).toBeNull()
        expect(refreshText(yield* pageTokens(jar, { tokenStore, cookieDomains: ["other.example"] }))).toBeNull()
      }
    }))

  it.effect("with example.com configured, a planted --custom- cookie never outranks the visitor's own", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      for (const cookie of Cookies.writeTokens(fromStrings("visitor-access", "visitor-refresh"), { projectId, secure: true, now: 1, existing: new Map() })) {
        jar.set(cookie, app)
      }
      plant(jar)
      expect(refreshText(yield* pageTokens(jar, { cookieDomains: ["example.com"] }))).toBe("visitor-refresh")
    }))
})
