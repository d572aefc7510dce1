/**
 * A token store over a server-rendering framework's cookie store — the object Next.js' `cookies()`
 * returns, or anything with the same shape (structural types; no dependency on the framework).
 * This is the server side of the official SDK's `"nextjs-cookie"` store (PROTOCOL.md §5.2, §5.3):
 *
 * - reads with the rules of `src/session/cookies.ts`: the `__Host-stack-refresh-{projectId}--default`
 *   cookie first, which no other site can plant; over HTTPS nothing else but the `--custom-`
 *   cookies of `cookieDomains`; over HTTP then `stack-refresh-{projectId}--default`, the legacy
 *   `stack-refresh-{projectId}` / `stack-refresh`, the `--custom-` cookies; the access token from
 *   `stack-access` = `["<refresh>", "<access>"]` only when its refresh token matches;
 * - writes (a refresh, a sign-in, a sign-out) the refresh cookie
 *   `{"refresh_token", "updated_at_millis"}` for 1 year (31 536 000 s), `stack-access` for 1 day
 *   (86 400 s), `Path=/`, `SameSite=Lax`, `Secure` over HTTPS, never `HttpOnly` (browser code
 *   reads them), and deletes every other refresh cookie of the project that the deletion really
 *   removes (a `--custom-` one only for a domain of `cookieDomains`, with that `Domain`);
 * - over HTTPS (option `secure`, by default: the browser set the `stack-is-https` marker cookie)
 *   the refresh cookie is `__Host-stack-refresh-{projectId}--default`;
 * - where the framework forbids writes (Next.js throws when a Server Component sets a cookie) the
 *   write is skipped silently, as the official SDK does; the new tokens still serve the rest of
 *   the request from memory.
 *
 * Build one store per request, over that request's cookie store.
 *
 * @example
 * ```ts
 * // app/api/me/route.ts (Next.js App Router)
 * import { Effect, ManagedRuntime, Option } from "effect"
 * import { ServerUsers, Stack } from "stack-auth-effect"
 * import { CookieTokenStore } from "stack-auth-effect/next"
 *
 * declare const projectId: string, secretServerKey: string // your project's keys
 * declare function cookies(): Promise<CookieTokenStore.FrameworkCookies> // `cookies` of next/headers
 *
 * const runtime = ManagedRuntime.make(Stack.layerServer({ projectId, secretServerKey }))
 * export async function GET() {
 *   const store = await cookies()
 *   const user = await runtime.runPromise(
 *     ServerUsers.getCurrent().pipe(Effect.provide(CookieTokenStore.layerSession(store, { projectId })))
 *   )
 *   // plain JSON for the browser (not the Option): the user's id, or null when signed out
 *   return Response.json(Option.match(user, { onNone: () => null, onSome: (found) => ({ id: found.id }) }))
 * }
 * ```
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import type { StackClient } from "../core/StackClient.js"
import * as Cookies from "../session/cookies.js"
import * as SessionModule from "../session/Session.js"
import type { Session } from "../session/Session.js"
import { sanitize, type StoredTokens, TokenStore, type TokenStoreShape } from "../session/TokenStore.js"

// ---------------------------------------------------------------------------------------------
// The framework's cookie store, structurally
// ---------------------------------------------------------------------------------------------

/** The attributes this store writes a cookie with (Next's `ResponseCookie` options accept them). */
export interface FrameworkCookieOptions {
  /** Lifetime in seconds; `0` deletes. */
  readonly maxAge: number
  readonly path: "/"
  readonly sameSite: "lax"
  readonly secure: boolean
  /** Always false: the browser code of the SDK reads the cookies. */
  readonly httpOnly: false
  /** Only for the cross-subdomain `--custom-` refresh cookies. */
  readonly domain?: string
}

/**
 * A framework's cookie store: `get(name)` returning `{ value }` (Next's `RequestCookie`) or the
 * value itself, `set(name, value, options)`, `delete(name)`, and, when available, `getAll()` (needed
 * to find the `--custom-` refresh cookies of cross-subdomain sign-in). Values are plain (the
 * framework URL-encodes and decodes them).
 */
export interface FrameworkCookies {
  readonly get: (name: string) => { readonly value: string } | string | null | undefined
  readonly getAll?: (() => ReadonlyArray<{ readonly name: string; readonly value: string }>) | undefined
  readonly set: (name: string, value: string, options: FrameworkCookieOptions) => unknown
  readonly delete: (name: string) => unknown
}

/** Options of the store. */
export interface CookieTokenStoreOptions {
  /** The project whose refresh cookie is read and written. */
  readonly projectId: string
  /**
   * The site is served over HTTPS (`__Host-` refresh cookie name, `Secure`). Default: the browser
   * set the `stack-is-https` marker cookie.
   */
  readonly secure?: boolean | undefined
  /**
   * The domains this app is served under (the host or a parent of it) whose cross-subdomain
   * `--custom-` refresh cookies, written by the official SDK for a trusted parent domain, count
   * and are deleted with `Domain=<domain>` when the tokens change. None by default: such cookies
   * are then ignored and left alone. Entries that are not domain names (a scheme, a port, a leading
   * dot) match nothing.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

// ---------------------------------------------------------------------------------------------
// Cookie writes
// ---------------------------------------------------------------------------------------------

/** One cookie to set (`maxAge > 0`) or delete (`maxAge` 0, empty value). */
export interface CookieWrite {
  readonly name: string
  readonly value: string
  readonly options: FrameworkCookieOptions
}

/**
 * The cookies that store a token pair — the list of `Cookies.tokenCookies` (the refresh cookie or
 * its deletion, then `stack-access` or its deletion, then the deletion of the project's other
 * refresh cookies this store can really remove) with the framework's options.
 */
export const cookieWrites = (tokens: StoredTokens, options: Cookies.WriteOptions): ReadonlyArray<CookieWrite> =>
  Cookies.tokenCookies(tokens, options).map((cookie) => ({
    name: cookie.name,
    value: cookie.value,
    options: {
      maxAge: cookie.maxAgeSeconds,
      path: "/",
      sameSite: "lax",
      // `__Host-` cookies are always Secure (browsers refuse them otherwise)
      secure: cookie.secure || cookie.name.startsWith("__Host-"),
      httpOnly: false,
      ...(cookie.domain === undefined ? {} : { domain: cookie.domain })
    }
  }))

/**
 * A {@link CookieWrite} as a `Set-Cookie` header value (built by the SDK's one cookie writer,
 * which encodes the name and value); `Option.none()` when its `domain` is not a domain name.
 */
export const serializeWrite = (write: CookieWrite): Option.Option<string> =>
  Cookies.serializeTokenCookie({
    name: write.name,
    value: write.value,
    maxAgeSeconds: write.options.maxAge,
    secure: write.options.secure,
    domain: write.options.domain
  })

// ---------------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------------

/** The names read when the framework offers no `getAll()`. */
const knownNames = (projectId: string, cookieDomains: ReadonlyArray<string> | undefined): ReadonlyArray<string> => [
  ...(cookieDomains ?? []).map((domain) => Cookies.customRefreshCookieName(projectId, domain)),
  Cookies.legacyRefreshCookieName(projectId),
  Cookies.globalLegacyRefreshCookieName,
  Cookies.refreshCookieName(projectId, false),
  Cookies.refreshCookieName(projectId, true),
  Cookies.accessCookieName,
  Cookies.isHttpsCookieName
]

const valueOf = (cookie: unknown): string | undefined => {
  if (typeof cookie === "string") return cookie
  if (typeof cookie === "object" && cookie !== null) {
    const value = (cookie as { readonly value?: unknown }).value
    return typeof value === "string" ? value : undefined
  }
  return undefined
}

/**
 * The cookies of the store as a map; a throwing store reads as no cookies. Without `getAll()`,
 * the names this SDK reads: the project's refresh cookies (with the `--custom-` ones of
 * `cookieDomains`), `stack-access` and `stack-is-https`.
 */
export const readCookies = (
  cookies: FrameworkCookies,
  projectId: string,
  cookieDomains?: ReadonlyArray<string> | undefined
): Cookies.CookieMap => {
  const map = new Map<string, string>()
  try {
    if (typeof cookies.getAll === "function") {
      for (const cookie of cookies.getAll()) {
        const value = valueOf(cookie)
        if (typeof cookie?.name === "string" && value !== undefined && !map.has(cookie.name)) map.set(cookie.name, value)
      }
      return map
    }
    for (const name of knownNames(projectId, cookieDomains)) {
      const value = valueOf(cookies.get(name))
      if (value !== undefined) map.set(name, value)
    }
  } catch {
    // a store that cannot be read (outside a request) holds nothing we can use
  }
  return map
}

/** Applies one write; `false` when the framework refused it (threw). */
const apply = (cookies: FrameworkCookies, write: CookieWrite): boolean => {
  try {
    // A plain deletion goes through the framework's `delete`; `__Host-` and `Domain=` cookies
    // need their attributes to be deleted, so they are overwritten with Max-Age=0 instead.
    if (write.options.maxAge === 0 && write.options.domain === undefined && !write.name.startsWith("__Host-")) {
      cookies.delete(write.name)
    } else {
      cookies.set(write.name, write.value, write.options)
    }
    return true
  } catch {
    return false
  }
}

/**
 * Makes the store over a framework cookie store. Never fails: unreadable cookies read as signed
 * out, refused writes are skipped (logged at debug level, without token text).
 */
export const make = (cookies: FrameworkCookies, options: CookieTokenStoreOptions): Effect.Effect<TokenStoreShape> =>
  Effect.gen(function* () {
    const { projectId } = options
    const { cookieDomains } = options
    const jar = () => readCookies(cookies, projectId, cookieDomains)
    /** What this store wrote, served to later reads of the same request. */
    const written = yield* Ref.make(Option.none<StoredTokens>())
    const lock = yield* Semaphore.make(1)

    const get: Effect.Effect<StoredTokens> = Effect.flatMap(Ref.get(written), (tokens) =>
      Option.match(tokens, {
        onSome: Effect.succeed,
        onNone: () =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const existing = jar()
            return Cookies.readTokens(existing, projectId, { now, secure: Cookies.servedOverHttps(options.secure, existing), cookieDomains })
          })
      }))

    const set = (raw: StoredTokens): Effect.Effect<void> =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const tokens = sanitize(raw)
          const now = yield* Clock.currentTimeMillis
          const existing = jar()
          const writes = cookieWrites(tokens, { projectId, secure: Cookies.servedOverHttps(options.secure, existing), now, existing, cookieDomains })
          const refused = writes.filter((write) => !apply(cookies, write)).length
          if (refused > 0) {
            yield* Effect.logDebug(`Cookie token store: the framework refused ${refused} cookie write(s); kept for this request only`)
          }
          yield* Ref.set(written, Option.some(tokens))
        })
      )

    return { get, set, changes: Stream.empty } satisfies TokenStoreShape
  })

/** The store as the `TokenStore` service. */
export const layer = (cookies: FrameworkCookies, options: CookieTokenStoreOptions): Layer.Layer<TokenStore> => Layer.effect(TokenStore, make(cookies, options))

/**
 * A session over the framework's cookies for one request: provide it to an effect run by an
 * app-wide runtime (built from `Stack.layerServer`, say) and the effect's calls use — and refresh
 * into the cookies — this request's tokens.
 */
export const layerSession = (
  cookies: FrameworkCookies,
  options: CookieTokenStoreOptions
): Layer.Layer<Session | TokenStore, never, StackClient> => SessionModule.layer.pipe(Layer.provideMerge(layer(cookies, options)))

/**
 * The tokens the cookies hold, without making a store, read at the current time (`Date.now()`).
 * `cookieDomains` entries that are not domain names match no cookie.
 */
export const readTokens = (cookies: FrameworkCookies, options: CookieTokenStoreOptions): StoredTokens => {
  const existing = readCookies(cookies, options.projectId, options.cookieDomains)
  return Cookies.readTokens(existing, options.projectId, {
    now: Date.now(),
    secure: Cookies.servedOverHttps(options.secure, existing),
    cookieDomains: options.cookieDomains
  })
}
