/**
 * The pages of the OAuth flow (`OAuthBrowser`: a real page over `document.cookie`, the in-memory
 * page, the server-route page) and every cookie string the SDK writes (issue 25 item 2's class):
 *
 * - one `Set-Cookie` reader: each page stores a cookie string as a browser does — under its
 *   decoded name, its value decoded when it is valid percent-encoding —, so what the flow writes
 *   under `stack-oauth-outer-{state}` reads back (and is deleted) under that name, whatever the
 *   state, and a string that is not valid percent-encoding never throws;
 * - one builder: every cookie string of every writer (the token cookies of the browser store and
 *   of the Next.js store, the OAuth verifier and its deletion, the HTTPS marker) is exactly what
 *   the builder writes for the cookie it sets, so no writer adds, drops or reorders an attribute.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Option, Redacted, Schema, type Scope } from "effect"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import * as BrowserCookieStore from "../../src/session/BrowserCookieStore.js"
import * as Cookies from "../../src/session/cookies.js"
import * as SetCookie from "../../src/session/setCookie.js"
import { type StoredTokens } from "../../src/session/TokenStore.js"
import { CookieJar } from "../reliability/cookieJar.js"

const projectId = "proj-1"
const site = { host: "app.example.com", https: true } as const
const url = "https://app.example.com/sign-in"

/** `document`, `location` (and `history`) of a page of the app over a browser's jar, restored with the scope. */
const realPage = (jar: CookieJar, assignments: Array<string> = []) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const scope = globalThis as Record<string, unknown>
      const saved = { document: scope["document"], location: scope["location"], history: scope["history"], channel: scope["BroadcastChannel"] }
      scope["document"] = {
        get cookie() {
          return jar.header(site)
        },
        set cookie(assignment: string) {
          assignments.push(assignment)
          jar.set(assignment, site)
        }
      }
      scope["location"] = { protocol: "https:", hostname: site.host, href: url, assign: () => undefined }
      scope["history"] = { state: null, replaceState: () => undefined }
      delete scope["BroadcastChannel"]
      return saved
    }),
    (saved) =>
      Effect.sync(() => {
        const scope = globalThis as Record<string, unknown>
        for (const [key, value] of Object.entries({ document: saved.document, location: saved.location, history: saved.history })) {
          if (value === undefined) delete scope[key]
          else scope[key] = value
        }
        scope["BroadcastChannel"] = saved.channel
      })
  )

/** The three pages, fresh: a real page (over an RFC 6265 jar), the in-memory page, the server-route page. */
const pages = (): Effect.Effect<ReadonlyArray<readonly [string, OAuthBrowser.OAuthBrowserShape]>, OAuthBrowser.OAuthBrowserUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    yield* realPage(new CookieJar())
    return [
      ["the real page", yield* OAuthBrowser.makeBrowser],
      ["the in-memory page", OAuthBrowser.makeMemory({ url }).service],
      ["the server-route page", OAuthBrowser.makeServerRequest({ url }).service]
    ] as const
  })

const hostileStates = ["x; Domain=evil.example; Max-Age=31536000", "a%3Bb", "x=y", "sp ace,comma\"quote", "%E0%A4%A", "é(ü)"]

describe("OAuthBrowser pages: one Set-Cookie reader, as a browser stores the cookie", () => {
  it.effect("the verifier written under stack-oauth-outer-{state} reads back under that name and is deleted, whatever the state", () =>
    Effect.gen(function* () {
      for (const [page, browser] of yield* pages()) {
        for (const state of hostileStates) {
          const name = Cookies.oauthVerifierCookieName(state)
          yield* browser.setCookie(Cookies.serializeOAuthVerifier(state, "v;1 %", true))
          expect({ page, state, value: (yield* browser.cookies).get(name) }).toEqual({ page, state, value: "v;1 %" })
          yield* browser.setCookie(Cookies.serializeDeletion(name, { secure: true }))
          expect({ page, state, left: [...(yield* browser.cookies).keys()] }).toEqual({ page, state, left: [] })
        }
      }
    }))

  it.effect("a cookie string whose value is not valid percent-encoding is stored as it is, never a throw", () =>
    Effect.gen(function* () {
      for (const [page, browser] of yield* pages()) {
        yield* browser.setCookie("x=%E0%A4%A; Path=/; Max-Age=60; SameSite=Lax; Secure")
        expect({ page, value: (yield* browser.cookies).get("x") }).toEqual({ page, value: "%E0%A4%A" })
      }
    }))
})

/** The string the builder writes for the cookie a string sets: equal to the string when a writer used the builder. */
const rebuilt = (cookie: string): string | undefined => {
  const parsed = Option.getOrUndefined(SetCookie.parseSetCookie(cookie))
  if (parsed === undefined || parsed.maxAgeSeconds === undefined) return undefined
  const host = { name: parsed.name, value: parsed.value, maxAgeSeconds: parsed.maxAgeSeconds, secure: parsed.secure }
  return parsed.domain === undefined ? SetCookie.hostCookie(host) : Option.getOrUndefined(SetCookie.domainCookie({ ...host, domain: parsed.domain }))
}

/** An integer from `minimum` to `maximum`. */
const inRange = (minimum: number, maximum: number) => Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))

/** One of the arbitraries, picked at random. */
const oneOf = <A>(...options: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(inRange(0, options.length - 1), (index) => options[index]!)

/** A text of characters drawn from `char`. */
const textOf = (char: Arbitrary.Arbitrary<string>) => Arbitrary.map(Arbitrary.array(char), (chars) => chars.join(""))

/** Any code point but a surrogate (ASCII, the rest of the BMP, the astral planes). */
const codePoint = oneOf(inRange(0, 0x7f), inRange(0x80, 0xd7ff), inRange(0xe000, 0xffff), inRange(0x10000, 0x10ffff))

/** Hostile texts: any UTF-16 but lone surrogates, with the characters that end a cookie or a header. */
const hostileText = oneOf(
  textOf(Arbitrary.map(codePoint, (point) => String.fromCodePoint(point))),
  textOf(Arbitrary.schema(Schema.Literals([";", "=", ",", " ", "\r", "\n", "\0", "\"", "%", "(", ")", "a", "\u00ff"])))
)

const tokensOf = (access: string, refresh: string): StoredTokens => ({
  accessToken: access === "" ? Option.none() : Option.some(Redacted.make(access)),
  refreshToken: refresh === "" ? Option.none() : Option.some(Redacted.make(refresh))
})

describe("every cookie string the SDK writes is the builder's", () => {
  it.prop(
    "the token cookies, the Next.js writes, the OAuth verifier, its deletion and the HTTPS marker",
    [hostileText, hostileText, hostileText, Arbitrary.schema(Schema.Boolean), Arbitrary.array(Arbitrary.all([hostileText, hostileText]), { maxLength: 4 })],
    ([access, refresh, state, secure, existing]) => {
      const write = { projectId, secure, now: 42, existing: new Map(existing), cookieDomains: ["example.com"] }
      const written = [
        ...Cookies.writeTokens(tokensOf(access, refresh), write),
        ...CookieTokenStore.cookieWrites(tokensOf(access, refresh), write).flatMap((cookie) => Option.toArray(CookieTokenStore.serializeWrite(cookie))),
        Cookies.serializeOAuthVerifier(state, refresh, secure),
        Cookies.serializeDeletion(Cookies.oauthVerifierCookieName(state), { secure }),
        Cookies.serializeIsHttpsMarker()
      ]
      for (const cookie of written) expect(rebuilt(cookie)).toBe(cookie)
    },
    // as many runs as fast-check's default
    { arbitrary: { runs: 100 } }
  )

  it.effect("the browser cookie store's document.cookie assignments, with hostile tokens and planted cookies", () =>
    Effect.gen(function* () {
      const jar = new CookieJar()
      jar.set(`${Cookies.customRefreshCookieName(projectId, "example.com")}=planted; Domain=example.com; Path=/; Secure`, site)
      jar.set(`${encodeURIComponent("stack-refresh-proj-1; Max-Age=9")}=x; Path=/; Secure`, site)
      const assignments: Array<string> = []
      yield* realPage(jar, assignments)
      const store = yield* BrowserCookieStore.make({ projectId, crossTab: "poll", cookieDomains: ["example.com"] })
      for (const [access, refresh] of [["a; Domain=evil.example", "r\r\nSet-Cookie: x=1"], ["a=b,c", "r%E0 (é)"], ["", ""]] as const) {
        yield* store.set(tokensOf(access, refresh))
      }
      expect(assignments.length).toBeGreaterThan(4)
      for (const cookie of assignments) expect(rebuilt(cookie)).toBe(cookie)
      expect(jar.refused).toEqual([])
    }))
})
