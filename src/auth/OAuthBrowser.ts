/**
 * The browser behind the OAuth flow (PROTOCOL.md §5.5): the current page's URL, the cookie jar
 * that holds the PKCE verifier (`stack-oauth-outer-{state}`), navigation to the provider, and the
 * address-bar rewrite (`history.replaceState`) after the callback. `OAuth.ts` only talks to this
 * service, so the flow runs (and is tested) in Node without any `window`.
 *
 * - {@link layerBrowser}: `globalThis.document` / `location` / `history`; fails with
 *   {@link OAuthBrowserUnavailable} where they do not exist (a server).
 * - {@link makeMemory} / {@link layerMemory}: an in-memory page for tests and non-browser hosts:
 *   a cookie jar honouring `Max-Age` (time from Effect's `Clock`) that stores each cookie string
 *   as a browser does (effect's `Set-Cookie` parser, `effect/http/Cookies`, read through the
 *   session's `parseSetCookie`; names and values decoded, so they read back as `document.cookie`
 *   would give them), the current URL, the list of navigations, and an optional `onNavigate`
 *   hook that plays the part of the browser following redirects (it returns the URL the page
 *   finally lands on).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { OAuth, OAuthBrowser } from "stack-auth-effect"
 *
 * const program = Effect.gen(function* () {
 *   const page = OAuthBrowser.makeMemory({ url: "http://localhost:3000/sign-in" })
 *   yield* OAuth.signInWithOAuth({ provider: "github" }).pipe(Effect.provide(page.layer))
 *   return page.navigations // ["https://…/authorize?…"]
 * })
 * ```
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Cookies from "../session/cookies.js"
import { parseSetCookie } from "../session/setCookie.js"

/** What the OAuth flow needs from the page it runs in. */
export interface OAuthBrowserShape {
  /** The page's absolute URL (`location.href`). */
  readonly currentUrl: Effect.Effect<string>
  /** The cookies the page can read (`document.cookie`), URL-decoded. */
  readonly cookies: Effect.Effect<Cookies.CookieMap>
  /** Writes one cookie string as `Cookies` serialises it (`document.cookie = …`); `Max-Age=0` deletes. */
  readonly setCookie: (cookie: string) => Effect.Effect<void>
  /** Navigates the page (`location.assign`). */
  readonly navigate: (url: string) => Effect.Effect<void>
  /** Replaces the address bar's URL without navigating (`history.replaceState`). */
  readonly replaceUrl: (url: string) => Effect.Effect<void>
}

/** The browser behind the OAuth flow. */
export class OAuthBrowser extends Context.Service<OAuthBrowser, OAuthBrowserShape>()("stack-auth-effect/OAuthBrowser") {}

/** No `document` / `location` / `history` in this environment. */
export class OAuthBrowserUnavailable extends Data.TaggedError("OAuthBrowserUnavailable")<{ readonly message: string }> {}

interface BrowserGlobals {
  readonly document: { cookie: string }
  readonly location: { readonly href: string; assign(url: string): void }
  readonly history: { replaceState(data: unknown, unused: string, url?: string): void; readonly state: unknown }
}

const browserGlobals = (): BrowserGlobals | undefined => {
  const g = globalThis as {
    readonly document?: { cookie?: unknown }
    readonly location?: { readonly href?: unknown; readonly assign?: unknown }
    readonly history?: { readonly replaceState?: unknown }
  }
  if (typeof g.document?.cookie !== "string") return undefined
  if (typeof g.location?.href !== "string" || typeof g.location.assign !== "function") return undefined
  if (typeof g.history?.replaceState !== "function") return undefined
  return g as unknown as BrowserGlobals
}

/** The page of a real browser (`document.cookie`, `location`, `history`). */
export const makeBrowser: Effect.Effect<OAuthBrowserShape, OAuthBrowserUnavailable> = Effect.suspend(() => {
  const browser = browserGlobals()
  if (browser === undefined) {
    return Effect.fail(new OAuthBrowserUnavailable({ message: "OAuth sign-in needs a browser page (document, location, history)." }))
  }
  return Effect.succeed<OAuthBrowserShape>({
    currentUrl: Effect.sync(() => browser.location.href),
    cookies: Effect.sync(() => Cookies.parseCookieHeader(browser.document.cookie)),
    setCookie: (cookie) =>
      Effect.sync(() => {
        browser.document.cookie = cookie
      }),
    navigate: (url) => Effect.sync(() => browser.location.assign(url)),
    replaceUrl: (url) => Effect.sync(() => browser.history.replaceState(browser.history.state, "", url))
  })
})

/** {@link OAuthBrowser} over the real browser page. */
export const layerBrowser: Layer.Layer<OAuthBrowser, OAuthBrowserUnavailable> = Layer.effect(OAuthBrowser, makeBrowser)

/** A cookie of the in-memory jar. */
export interface MemoryCookie {
  readonly value: string
  /** The `Max-Age` it was written with. */
  readonly maxAgeSeconds: number | undefined
  /** When it expires (epoch ms from `Clock`), if it has a `Max-Age`. */
  readonly expiresAtMillis: number | undefined
  /** The cookie string as written. */
  readonly raw: string
}

/** Options of {@link makeMemory}. */
export interface MemoryOptions {
  /** The page's URL at the start. */
  readonly url: string
  /**
   * Plays the browser following a navigation: return the URL the page lands on (after redirects),
   * or nothing to stay on the navigated URL.
   */
  readonly onNavigate?: ((url: string) => Effect.Effect<string | void>) | undefined
}

/** An in-memory page: the service, and what happened to it. */
export interface MemoryBrowser {
  readonly service: OAuthBrowserShape
  readonly layer: Layer.Layer<OAuthBrowser>
  /** The cookie jar by name (expired cookies are dropped when read through the service). */
  readonly jar: Map<string, MemoryCookie>
  /** Every URL passed to `navigate`, in order. */
  readonly navigations: ReadonlyArray<string>
  /** Every URL passed to `replaceUrl`, in order. */
  readonly replacements: ReadonlyArray<string>
  /** The page's current URL. */
  readonly url: () => string
  /** Moves the page (e.g. the provider redirected the browser back to the app). */
  readonly setUrl: (url: string) => void
}

/** Builds an in-memory page. */
export const makeMemory = (options: MemoryOptions): MemoryBrowser => {
  const jar = new Map<string, MemoryCookie>()
  const navigations: Array<string> = []
  const replacements: Array<string> = []
  let current = options.url
  const live = (now: number) => {
    for (const [name, cookie] of jar) if (cookie.expiresAtMillis !== undefined && cookie.expiresAtMillis <= now) jar.delete(name)
    return new Map([...jar].map(([name, cookie]) => [name, cookie.value] as const))
  }
  const service: OAuthBrowserShape = {
    currentUrl: Effect.sync(() => current),
    cookies: Effect.map(Clock.currentTimeMillis, live),
    setCookie: (cookie) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const parsed = Option.getOrUndefined(parseSetCookie(cookie))
        if (parsed === undefined) return
        const maxAge = parsed.maxAgeSeconds
        if (maxAge !== undefined && maxAge <= 0) {
          jar.delete(parsed.name)
          return
        }
        jar.set(parsed.name, {
          value: parsed.value,
          maxAgeSeconds: maxAge,
          expiresAtMillis: maxAge === undefined ? undefined : now + maxAge * 1000,
          raw: cookie
        })
      }),
    navigate: (url) =>
      Effect.gen(function* () {
        navigations.push(url)
        current = url
        if (options.onNavigate !== undefined) {
          const landed = yield* options.onNavigate(url)
          if (typeof landed === "string") current = landed
        }
      }),
    replaceUrl: (url) =>
      Effect.sync(() => {
        replacements.push(url)
        current = url
      })
  }
  return {
    service,
    layer: Layer.succeed(OAuthBrowser, service),
    jar,
    navigations,
    replacements,
    url: () => current,
    setUrl: (url) => {
      current = url
    }
  }
}

/** {@link OAuthBrowser} over a fresh in-memory page. */
export const layerMemory = (options: MemoryOptions): Layer.Layer<OAuthBrowser> => makeMemory(options).layer

/** What a server route answers after running an OAuth step with {@link makeServerRequest}. */
export interface ServerOutcome {
  /** Where to redirect the browser (the provider, or nothing when the flow did not navigate). */
  readonly redirect: string | undefined
  /** `Set-Cookie` values to send (the PKCE verifier cookie, its deletion). */
  readonly setCookies: ReadonlyArray<string>
}

/** A page on the server side of a redirect-based flow. */
export interface ServerRequestBrowser {
  readonly service: OAuthBrowserShape
  readonly layer: Layer.Layer<OAuthBrowser>
  /** What to answer the browser: the redirect and the cookies to set. */
  readonly outcome: Effect.Effect<ServerOutcome>
}

/**
 * The OAuth flow in a server route (server-side redirect): the request's URL and `Cookie`
 * header stand for the page; cookies the flow writes and the navigation it makes are collected
 * for the route's response (`302 Location` + `Set-Cookie`). Run `OAuth.signInWithOAuth` in the
 * route that starts the flow and `OAuth.handleCallback` in the callback route, each with a
 * browser made from its own request.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { OAuth, OAuthBrowser } from "stack-auth-effect"
 *
 * const startRoute = (request: Request) =>
 *   Effect.gen(function* () {
 *     const page = OAuthBrowser.makeServerRequest({ url: request.url, cookieHeader: request.headers.get("cookie") })
 *     yield* OAuth.signInWithOAuth({ provider: "github" }).pipe(Effect.provide(page.layer))
 *     const { redirect, setCookies } = yield* page.outcome // answer 302 to `redirect` with the cookies
 *     const headers = new Headers(setCookies.map((cookie): [string, string] => ["set-cookie", cookie]))
 *     if (redirect !== undefined) headers.set("location", redirect)
 *     return new Response(null, { status: 302, headers })
 *   })
 * ```
 */
export const makeServerRequest = (request: { readonly url: string; readonly cookieHeader?: string | null | undefined }): ServerRequestBrowser => {
  const jar = new Map(Cookies.parseCookieHeader(request.cookieHeader ?? ""))
  const setCookies: Array<string> = []
  let redirect: string | undefined
  let current = request.url
  const service: OAuthBrowserShape = {
    currentUrl: Effect.sync(() => current),
    cookies: Effect.sync((): Cookies.CookieMap => new Map(jar)),
    setCookie: (cookie) =>
      Effect.sync(() => {
        setCookies.push(cookie)
        const parsed = Option.getOrUndefined(parseSetCookie(cookie))
        if (parsed === undefined) return
        if (parsed.maxAgeSeconds !== undefined && parsed.maxAgeSeconds <= 0) jar.delete(parsed.name)
        else jar.set(parsed.name, parsed.value)
      }),
    navigate: (url) =>
      Effect.sync(() => {
        redirect = url
      }),
    replaceUrl: (url) =>
      Effect.sync(() => {
        current = url
      })
  }
  return {
    service,
    layer: Layer.succeed(OAuthBrowser, service),
    outcome: Effect.sync(() => ({ redirect, setCookies: [...setCookies] }))
  }
}
