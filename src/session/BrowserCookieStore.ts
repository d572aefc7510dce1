/**
 * The browser cookie token store (the official SDK's `"cookie"` store): tokens live in `document.cookie`
 * in the official SDK's format (`cookies.ts`), so they survive reloads, are shared with other tabs
 * and reach the app's own server on every request.
 *
 * - Outside a browser (no `document`) the store fails with {@link TokenStoreError}
 *   "Cannot use cookie token store on the server!".
 * - `changes` notices cookies written by someone else (another tab, the server); this store's own
 *   writes are not reported. Where `BroadcastChannel` exists (every current browser) it does so
 *   without polling: a store that writes the cookies tells the stores of the other tabs (and of
 *   other runtimes in the same page) on the channel `stack-auth-effect:tokens:<projectId>` — a
 *   bare "changed", never a token —, and they read `document.cookie` once. Cookies written by
 *   someone else than this SDK (a `Set-Cookie` of the app's server, the official SDK in another
 *   tab) are read when the browser reports a cookie change (`cookieStore`'s `change` event, where
 *   it exists), when the tab gets the focus or becomes visible again. Without `BroadcastChannel`
 *   (or with `crossTab: "poll"`) the store polls `document.cookie` every 100 ms, as the official
 *   SDK does (SPEC.md §9).
 * - Reading follows `cookies.ts`: the page's own `__Host-` refresh cookie first and, over HTTPS,
 *   nothing else but the `--custom-` cookies of `cookieDomains`, so a cookie planted by a sibling
 *   subdomain never signs the visitor in; writes delete only what the deletion really removes.
 * - As the official SDK, an access token without a refresh token cannot live in the cookies
 *   (`stack-access` is keyed by the refresh token); the store keeps it in memory as long as the
 *   refresh token in the cookies is unchanged.
 *
 * `document` is reached through `globalThis`, so this module compiles and loads in Node.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as Schedules from "../core/Schedules.js"
import * as Cookies from "./cookies.js"
import { empty, equals, type StoredTokens, token, TokenStore, TokenStoreError, type TokenStoreShape } from "./TokenStore.js"
import { Listeners } from "./listeners.js"

/** Options of the browser cookie store. */
export interface BrowserCookieStoreOptions {
  /** The project whose refresh cookie is read and written. */
  readonly projectId: string
  /** How often `document.cookie` is polled for outside changes (polling only); 100 ms by default. */
  readonly pollInterval?: Duration.Input | undefined
  /**
   * How other tabs' changes are noticed: `"broadcast"` (a `BroadcastChannel` message, plus the
   * browser's cookie-change, focus and visibility events; no polling) or `"poll"` (read
   * `document.cookie` every `pollInterval`). Default: `"broadcast"` where `BroadcastChannel` exists,
   * else `"poll"`. `"broadcast"` without `BroadcastChannel` falls back to polling.
   */
  readonly crossTab?: "broadcast" | "poll" | undefined
  /**
   * The domains this app is served under (the page's host or a parent of it) whose
   * cross-subdomain `--custom-` refresh cookies — written by the official SDK for a trusted parent
   * domain — count, and are deleted with `Domain=<domain>` when the tokens change. None by
   * default: such cookies are ignored and left alone, so a sibling subdomain cannot plant a
   * session. Entries that are not domain names (a scheme, a port, a leading dot) match nothing.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
}

/** The `BroadcastChannel` name the stores of one project share. */
export const channelName = (projectId: string): string => `stack-auth-effect:tokens:${projectId}`

/** The one message posted on the channel: the cookies changed (read them). */
export const changedMessage = "changed"

/** Default interval between two reads of `document.cookie` (SPEC.md §9 "Cookie poll interval"). */
export const defaultPollInterval: Duration.Duration = Schedules.cookiePollInterval

/** The message of the error raised when no `document` exists (the official SDK's wording). */
export const notInBrowserMessage = "Cannot use cookie token store on the server!"

/**
 * Makes a cookie token store over `document.cookie`. The polling fiber behind `changes` lives as
 * long as the scope.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { BrowserCookieStore } from "stack-auth-effect"
 *
 * declare const projectId: string // your project's id
 * const program = Effect.gen(function* () {
 *   const store = yield* BrowserCookieStore.make({ projectId })
 *   yield* store.changes.pipe(Stream.runForEach(() => Effect.log("tokens changed in another tab")), Effect.forkScoped)
 * })
 * ```
 */
export const make = (options: BrowserCookieStoreOptions): Effect.Effect<TokenStoreShape, TokenStoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const browser = yield* browserGlobals
    const { projectId } = options
    const { cookieDomains } = options
    const interval = options.pollInterval === undefined ? defaultPollInterval : Duration.fromInputUnsafe(options.pollInterval)

    /** The tokens last seen in (or written to) the cookies: the baseline for `changes`. */
    const last = yield* Ref.make<StoredTokens>(empty)
    const lock = yield* Semaphore.make(1)
    // who hears the changes read from the cookies: the session synchronously (a plain listener
    // set, no fiber), `changes` subscribers through a `PubSub` (a queue each while they run)
    const listeners = new Listeners<StoredTokens>()
    const outside = yield* PubSub.unbounded<StoredTokens>()
    yield* Effect.addFinalizer(() => PubSub.shutdown(outside))

    const readJar = (remembered: StoredTokens, now: number): StoredTokens => {
      const fromCookies = Cookies.readTokens(Cookies.parseCookieHeader(readCookieString(browser)), projectId, {
        now,
        secure: isSecure(browser),
        cookieDomains
      })
      // Keep an access token we hold in memory while the cookies still hold its refresh token
      // (or, as both have none, when it was set without a refresh token).
      return Option.isNone(fromCookies.accessToken) &&
          equals({ ...empty, refreshToken: fromCookies.refreshToken }, { ...empty, refreshToken: remembered.refreshToken })
        ? { ...fromCookies, accessToken: remembered.accessToken }
        : fromCookies
    }

    yield* Ref.set(last, readJar(empty, yield* Clock.currentTimeMillis))

    const get: Effect.Effect<StoredTokens> = Effect.zipWith(Ref.get(last), Clock.currentTimeMillis, readJar)

    const set = (raw: StoredTokens): Effect.Effect<void> =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const tokens = sanitize(raw)
          const now = yield* Clock.currentTimeMillis
          const existing = Cookies.parseCookieHeader(readCookieString(browser))
          const written = Cookies.writeTokens(tokens, { projectId, secure: isSecure(browser), now, existing, cookieDomains })
          yield* Effect.sync(() => {
            for (const cookie of written) writeCookieString(browser, cookie)
          })
          yield* Ref.set(last, tokens)
        })
      )

    const poll: Effect.Effect<void> = lock.withPermits(1)(
      Effect.gen(function* () {
        const previous = yield* Ref.get(last)
        const current = readJar(previous, yield* Clock.currentTimeMillis)
        if (equals(current, previous)) return
        yield* Ref.set(last, current)
        PubSub.publishUnsafe(outside, current)
        listeners.emit(current)
      })
    )

    const heard = { changes: Stream.fromPubSub(outside), listen: (listener: (tokens: StoredTokens) => void) => listeners.add(listener) }
    const channel = options.crossTab === "poll" ? undefined : yield* openChannel(projectId)
    if (channel === undefined) {
      yield* Effect.forkScoped(Effect.repeat(poll, Schedules.cookiePoll(interval)))
      return { get, set, ...heard } satisfies TokenStoreShape
    }
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(Queue.take(channel.wakeUps), poll)))
    return { get, set: (tokens) => Effect.andThen(set(tokens), Effect.sync(channel.announce)), ...heard } satisfies TokenStoreShape
  })

/** The browser cookie store as the {@link TokenStore} service. */
export const layer = (options: BrowserCookieStoreOptions): Layer.Layer<TokenStore, TokenStoreError> => Layer.effect(TokenStore, make(options))

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

interface CookieDocument {
  cookie: string
}

interface BrowserGlobals {
  readonly document: CookieDocument
  readonly location: { readonly protocol?: string } | undefined
}

const browserGlobals: Effect.Effect<BrowserGlobals, TokenStoreError> = Effect.suspend(() => {
  const scope = globalThis as { readonly document?: unknown; readonly location?: unknown }
  const document = scope.document
  if (typeof document !== "object" || document === null || !("cookie" in document)) {
    return Effect.fail(new TokenStoreError({ message: notInBrowserMessage }))
  }
  const location = typeof scope.location === "object" && scope.location !== null ? (scope.location as { readonly protocol?: string }) : undefined
  return Effect.succeed({ document: document as CookieDocument, location })
})

interface ChannelLike {
  onmessage: ((event: { readonly data: unknown }) => void) | null
  postMessage(message: unknown): void
  close(): void
}

interface EventTargetLike {
  addEventListener(type: string, listener: () => void): void
  removeEventListener(type: string, listener: () => void): void
}

const eventTarget = (value: unknown): EventTargetLike | undefined =>
  typeof value === "object" && value !== null &&
    typeof (value as { readonly addEventListener?: unknown }).addEventListener === "function" &&
    typeof (value as { readonly removeEventListener?: unknown }).removeEventListener === "function"
    ? (value as EventTargetLike)
    : undefined

/**
 * The project's channel and the page's cookie-change, focus and visibility events, as wake-ups of
 * one queue; `undefined` without `BroadcastChannel`. Everything is closed with the scope.
 */
const openChannel = (projectId: string) =>
  Effect.gen(function* () {
    const scope = globalThis as { readonly BroadcastChannel?: unknown; readonly document?: unknown; readonly cookieStore?: unknown }
    const Channel = scope.BroadcastChannel
    if (typeof Channel !== "function") return undefined
    const wakeUps = yield* Queue.sliding<void>(1)
    const wake = () => {
      Queue.offerUnsafe(wakeUps, undefined)
    }
    const channel = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const opened = new (Channel as new(name: string) => ChannelLike)(channelName(projectId))
        opened.onmessage = (event) => {
          if (event.data === changedMessage) wake()
        }
        return opened
      }),
      (opened) =>
        Effect.sync(() => {
          opened.onmessage = null
          opened.close()
        })
    )
    const listen = (target: EventTargetLike | undefined, type: string, listener: () => void) =>
      target === undefined ? Effect.void : Effect.acquireRelease(
        Effect.sync(() => target.addEventListener(type, listener)),
        () => Effect.sync(() => target.removeEventListener(type, listener))
      )
    const onVisible = () => {
      if ((scope.document as { readonly visibilityState?: unknown } | undefined)?.visibilityState !== "hidden") wake()
    }
    yield* listen(eventTarget(scope.cookieStore), "change", wake)
    yield* listen(eventTarget(globalThis), "focus", wake)
    yield* listen(eventTarget(scope.document), "visibilitychange", onVisible)
    return {
      wakeUps,
      announce: () => {
        try {
          channel.postMessage(changedMessage)
        } catch {
          // a closed channel (the page is being unloaded): the other tabs read the cookies on focus
        }
      }
    }
  })

const isSecure = (browser: BrowserGlobals): boolean => browser.location?.protocol === "https:"

/** Reads `document.cookie`; a throwing getter (sandboxed frames) reads as no cookies. */
const readCookieString = (browser: BrowserGlobals): string => {
  try {
    const value: unknown = browser.document.cookie
    return typeof value === "string" ? value : ""
  } catch {
    return ""
  }
}

/** Assigns one cookie; a throwing setter (cookies disabled) is ignored: the write is lost. */
const writeCookieString = (browser: BrowserGlobals, cookie: string): void => {
  try {
    browser.document.cookie = cookie
  } catch {
    // ignored: the next poll reports what the cookies really hold
  }
}

/** Drops unusable texts a hand-built `StoredTokens` may carry. */
const sanitize = (tokens: StoredTokens): StoredTokens => ({
  accessToken: Option.flatMap(tokens.accessToken, (value) => token(Redacted.value(value))),
  refreshToken: Option.flatMap(tokens.refreshToken, (value) => token(Redacted.value(value)))
})
