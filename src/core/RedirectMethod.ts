/**
 * How the SDK leaves the page (docs/ARCHITECTURE.md): the {@link RedirectMethod} service and its
 * methods — {@link methodWindow} (`location.assign`, or `location.replace` with `replace: true`;
 * the default), {@link methodFramework} (a router's `push` / `replace`), {@link methodCustom} (any
 * function) or {@link methodNone} (no navigation). It is the one navigation setting of an app:
 * `Redirects` (the redirects to handler pages and URLs, with the trusted-URL check) and
 * `GetUser.getUser({ or: "redirect" })` both navigate through it. It lives in `core`, below the
 * domains, so that both can read it; `Redirects` re-exports everything here.
 *
 * Nothing here touches `window` when the module loads: the browser is looked up when a redirect
 * runs. The service is a `Context.Reference` (default {@link methodWindow}), so it never appears in
 * requirements.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { parseUrl } from "./internal/url.js"

/** How long a redirect waits after triggering the navigation, so the page can unload (2000 ms). */
export const redirectWait: Duration.Duration = Duration.millis(2000)

/** The redirect method cannot work here (the window method outside a browser). */
export class RedirectUnavailable extends Data.TaggedError("RedirectUnavailable")<{
  readonly message: string
  /** Where the redirect should have gone. */
  readonly url: string
}> {}

/** The navigate function of a framework or custom method threw or rejected. */
export class RedirectFailed extends Data.TaggedError("RedirectFailed")<{
  readonly message: string
  /** Where the redirect should have gone. */
  readonly url: string
  /** What the navigate function threw. */
  readonly cause: unknown
}> {}

/** How the SDK leaves the page. */
export interface RedirectMethodShape {
  /** `"none"`, `"window"`, `"framework"` or `"custom"`. */
  readonly kind: "none" | "window" | "framework" | "custom"
  /** The absolute URL of the current page, when known (used for `after_auth_return_to` and the origin check). */
  readonly currentUrl: Effect.Effect<Option.Option<URL>>
  /** Triggers the navigation to an already checked URL. */
  readonly navigate: (url: string, options: { readonly replace: boolean }) => Effect.Effect<void, RedirectUnavailable | RedirectFailed>
  /** How long the redirect waits afterwards (zero for {@link methodNone}). */
  readonly wait: Duration.Duration
}

/** Options shared by the method constructors. */
export interface MethodOptions {
  /** The wait after navigating; default {@link redirectWait}. */
  readonly wait?: Duration.Input | undefined
}

/** Options of {@link methodFramework} and {@link methodCustom}. */
export interface NavigateFunctionOptions extends MethodOptions {
  /** Reads the current page's URL; default: the browser's `location.href` when there is one. */
  readonly currentUrl?: (() => string | URL | null | undefined) | undefined
}

/** A framework router as most expose it (Next's `useRouter()`, a router's history object). */
export interface FrameworkRouter {
  readonly push: (url: string) => unknown
  readonly replace: (url: string) => unknown
}

interface BrowserLocation {
  readonly href: string
  readonly assign: (url: string) => void
  readonly replace: (url: string) => void
}

/** The browser's `location`, looked up at call time (never at import time). */
const browserLocation = (): BrowserLocation | undefined => {
  const location = (globalThis as { readonly location?: Partial<BrowserLocation> }).location
  return typeof location?.href === "string" && typeof location.assign === "function" && typeof location.replace === "function"
    ? (location as BrowserLocation)
    : undefined
}

const browserHref = (): string | undefined => {
  const location = (globalThis as { readonly location?: { readonly href?: unknown } }).location
  return typeof location?.href === "string" ? location.href : undefined
}

const readCurrent = (read: () => string | URL | null | undefined): Effect.Effect<Option.Option<URL>> =>
  Effect.sync(() => {
    try {
      return parseUrl(read())
    } catch {
      return Option.none()
    }
  })

const callNavigate = (url: string, run: () => unknown): Effect.Effect<void, RedirectFailed> =>
  Effect.tryPromise({
    try: async () => {
      await run()
    },
    catch: (cause) => new RedirectFailed({ message: `The navigate function failed while redirecting to ${url}`, url, cause })
  })

/** No navigation at all (the app handles it): redirects only check their target. The current page is unknown. */
export const methodNone: RedirectMethodShape = {
  kind: "none",
  currentUrl: Effect.succeed(Option.none()),
  navigate: () => Effect.void,
  wait: Duration.zero
}

/**
 * The browser's `location`: `assign` (a new history entry) or `replace`. Outside a browser every
 * redirect fails with {@link RedirectUnavailable}. The default method.
 */
export const methodWindow = (options: MethodOptions = {}): RedirectMethodShape => ({
  kind: "window",
  currentUrl: readCurrent(browserHref),
  navigate: (url, { replace }) =>
    Effect.suspend((): Effect.Effect<void, RedirectUnavailable | RedirectFailed> => {
      const location = browserLocation()
      if (location === undefined) {
        return Effect.fail(
          new RedirectUnavailable({
            message: "The window redirect method needs a browser (window.location); provide another RedirectMethod here.",
            url
          })
        )
      }
      return Effect.try({
        try: () => (replace ? location.replace(url) : location.assign(url)),
        catch: (cause) => new RedirectFailed({ message: `window.location refused to navigate to ${url}`, url, cause })
      })
    }),
  wait: Duration.fromInputUnsafe(options.wait ?? redirectWait)
})

/** A framework router: `router.replace(url)` with `replace: true`, else `router.push(url)`; a returned promise is awaited. */
export const methodFramework = (router: FrameworkRouter, options: NavigateFunctionOptions = {}): RedirectMethodShape => ({
  kind: "framework",
  currentUrl: readCurrent(options.currentUrl ?? browserHref),
  navigate: (url, { replace }) => callNavigate(url, () => (replace ? router.replace(url) : router.push(url))),
  wait: Duration.fromInputUnsafe(options.wait ?? redirectWait)
})

/** Any navigate function (`(url, { replace }) => …`); a returned promise is awaited. */
export const methodCustom = (
  navigate: (url: string, options: { readonly replace: boolean }) => unknown,
  options: NavigateFunctionOptions = {}
): RedirectMethodShape => ({
  kind: "custom",
  currentUrl: readCurrent(options.currentUrl ?? browserHref),
  navigate: (url, navigateOptions) => callNavigate(url, () => navigate(url, navigateOptions)),
  wait: Duration.fromInputUnsafe(options.wait ?? redirectWait)
})

/** The redirect method; defaults to {@link methodWindow}, so it never appears in requirements. */
export const RedirectMethod: Context.Reference<RedirectMethodShape> = Context.Reference<RedirectMethodShape>("stack-auth-effect/RedirectMethod", {
  defaultValue: (): RedirectMethodShape => methodWindow()
})

/** A layer choosing the redirect method (a reference: it adds nothing to a program's requirements). */
export const layerMethod = (method: RedirectMethodShape): Layer.Layer<never> => Layer.succeed(RedirectMethod, method)
