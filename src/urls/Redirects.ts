/**
 * Redirects to the handler pages and to URLs (SPEC.md §2, PROTOCOL.md §5.4), as Effects.
 *
 * - **Where**: a page of {@link HandlerUrls} (`redirectToSignIn()`, `redirectTo("accountSettings")`…)
 *   or any URL (`redirectToUrl(url)`). Every target passes the trusted-URL check of `UrlTrust`
 *   (same-origin path, the app's origin, a trusted domain); anything else fails with
 *   `UntrustedRedirectUrl` "Redirect URL … is not trusted; should be relative." and no navigation.
 * - **Coming back**: redirects to sign-in, sign-up, onboarding and sign-out add
 *   `after_auth_return_to` = the current page (a path when the page is on the same origin), or keep
 *   the one the current page already carries. `redirectToAfterSignIn()` / `redirectToAfterSignUp()`
 *   go to the current page's `after_auth_return_to` when present (checked like any target), else to
 *   the `afterSignIn` / `afterSignUp` page. `noRedirectBack: true` turns both off.
 * - **How**: the {@link RedirectMethod} service: {@link methodWindow} (`location.assign`, or
 *   `location.replace` with `replace: true`; the default), {@link methodFramework} (a router's
 *   `push` / `replace`), {@link methodCustom} (any function) or {@link methodNone} (no navigation).
 *   The window method outside a browser fails with {@link RedirectUnavailable}; a navigate function
 *   that throws or rejects fails with {@link RedirectFailed}.
 * - **getUser**: `GetUser.getUser({ or: "redirect" })` navigates through the same
 *   {@link RedirectMethod} (one setting for the app); {@link layerNavigation} adds the trusted-URL
 *   check to it.
 * - **Waiting**: after triggering the navigation the effect waits {@link redirectWait} (2000 ms,
 *   on the Effect `Clock`) so the page can unload before anything else runs, then completes.
 *
 * Nothing here touches `window` when the module loads: the browser is looked up when a redirect
 * runs. The services are optional (`Context.Reference` defaults, `HandlerUrls` read with
 * `Effect.serviceOption`), so the functions require nothing.
 *
 * On a server rendering a page, compute the target with {@link urlFor} and hand it to the
 * framework's own redirect (which usually works by throwing): `redirect(await Effect.runPromise(
 * Redirects.urlFor("signIn")))`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Redirects } from "stack-auth-effect"
 *
 * // in a React component with a router: navigate through it, trust a partner domain
 * declare const router: Redirects.FrameworkRouter // e.g. Next's useRouter()
 * const program = Redirects.redirectToSignIn().pipe(
 *   Effect.provide(Redirects.layerMethod(Redirects.methodFramework(router))),
 *   Effect.provide(Redirects.layerTrust({ trustedDomains: ["https://*.partner.example"] }))
 * )
 * ```
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Navigation, type NavigationShape, NavigationUnavailable } from "../auth/GetUser.js"
import * as Projects from "../projects/Projects.js"
import { defaultPaths, type HandlerName, type HandlerPaths, HandlerUrls } from "../core/HandlerUrls.js"
import { parseUrl } from "../core/Wire.js"
import { RedirectFailed, RedirectMethod, type RedirectMethodShape, RedirectUnavailable } from "../core/RedirectMethod.js"
import { check, type TrustOptions, UntrustedRedirectUrl } from "./UrlTrust.js"

export { UntrustedRedirectUrl } from "./UrlTrust.js"

/**
 * The redirect method (how the SDK leaves the page: window, framework router, custom function,
 * none), its errors and the 2000 ms wait, defined in `core/RedirectMethod.ts` so that
 * `GetUser.getUser({ or: "redirect" })` navigates through the same service.
 */
export {
  type FrameworkRouter,
  layerMethod,
  methodCustom,
  methodFramework,
  methodNone,
  type MethodOptions,
  methodWindow,
  type NavigateFunctionOptions,
  RedirectFailed,
  RedirectMethod,
  type RedirectMethodShape,
  RedirectUnavailable,
  redirectWait
} from "../core/RedirectMethod.js"

// ---------------------------------------------------------------------------------------------
// Errors and constants
// ---------------------------------------------------------------------------------------------

/** The query parameter carrying the page to come back to after signing in or up. */
export const returnToParam = "after_auth_return_to"

/** Everything a redirect can fail with. */
export type RedirectError = UntrustedRedirectUrl | RedirectUnavailable | RedirectFailed

// ---------------------------------------------------------------------------------------------
// GetUser's navigation with the trusted-URL check
// ---------------------------------------------------------------------------------------------

/**
 * The `Navigation` of `GetUser.getUser({ or: "redirect" })` over a redirect method, with the
 * trusted-URL check (without it, `getUser` already navigates through the `RedirectMethod`
 * service). The current page must be known (else `NavigationUnavailable`). Every target passes
 * the trusted-URL check first (the current page's or `HandlerUrls`' app origin, the trusted
 * domains of {@link RedirectTrust}): an untrusted one navigates nowhere and fails with
 * `NavigationUnavailable` carrying the `UntrustedRedirectUrl` message; navigation failures of the
 * method become `NavigationUnavailable` too.
 */
export const navigationFor = (method: RedirectMethodShape): NavigationShape => ({
  currentUrl: Effect.flatMap(method.currentUrl, (current) =>
    Option.match(current, {
      onNone: () => Effect.fail(new NavigationUnavailable({ message: `The ${method.kind} redirect method does not know the current page.`, url: "" })),
      onSome: (url) => Effect.succeed(url.href)
    })),
  replace: (url) =>
    Effect.flatMap(environmentOf(method), (env) => checked(url, env)).pipe(
      Effect.flatMap((target) => method.navigate(target, { replace: true })),
      Effect.mapError((error) => new NavigationUnavailable({ message: error.message, url }))
    )
})

/** A layer giving `GetUser`'s `Navigation` from a redirect method, with the trusted-URL check (see {@link navigationFor}). */
export const layerNavigation = (method: RedirectMethodShape): Layer.Layer<never> => Layer.succeed(Navigation, navigationFor(method))

// ---------------------------------------------------------------------------------------------
// Trusted domains
// ---------------------------------------------------------------------------------------------

/** The domains redirects may leave the app's origin for. */
export interface RedirectTrustShape {
  /** Trusted-domain patterns (`https://app.example.com`, `https://*.example.com`…), see `UrlTrust`. */
  readonly trustedDomains: ReadonlyArray<string>
  /** Trust localhost URLs on any port. */
  readonly allowLocalhost: boolean
}

/**
 * Trusted domains of redirects; defaults to none (same-origin targets only). A `Context.Reference`:
 * it never appears in a requirement, and its layers provide nothing a type must name.
 */
export const RedirectTrust: Context.Reference<RedirectTrustShape> = Context.Reference<RedirectTrustShape>("stack-auth-effect/RedirectTrust", {
  defaultValue: () => ({ trustedDomains: [], allowLocalhost: false })
})

/** A layer of trusted domains. */
export const layerTrust = (options: {
  readonly trustedDomains?: ReadonlyArray<string> | undefined
  readonly allowLocalhost?: boolean | undefined
}): Layer.Layer<never> => Layer.succeed(RedirectTrust, { trustedDomains: options.trustedDomains ?? [], allowLocalhost: options.allowLocalhost ?? false })

/**
 * Trusted domains read from the project's configuration (`GET /projects/current`,
 * `config.domains`), as the official SDK does.
 */
export const layerTrustFromProject = (options: { readonly allowLocalhost?: boolean | undefined } = {}) =>
  Layer.effect(
    RedirectTrust,
    Effect.map(Projects.getCurrent(), (project): RedirectTrustShape => ({
      trustedDomains: project.config.domains.map((domain) => domain.domain),
      allowLocalhost: options.allowLocalhost ?? false
    }))
  )

// ---------------------------------------------------------------------------------------------
// Redirects
// ---------------------------------------------------------------------------------------------

/** Options of the redirects to handler pages. */
export interface RedirectOptions {
  /** Replace the current history entry instead of adding one (window and framework methods). */
  readonly replace?: boolean | undefined
  /** Neither add nor honour `after_auth_return_to`. */
  readonly noRedirectBack?: boolean | undefined
}

/** The pages whose redirects carry `after_auth_return_to` (as the official SDK). */
const returnAwarePages: ReadonlySet<HandlerName> = new Set<HandlerName>(["signIn", "signUp", "onboarding", "signOut"])

/** The pages after which `after_auth_return_to` is honoured. */
const returnHonouringPages: ReadonlySet<HandlerName> = new Set<HandlerName>(["afterSignIn", "afterSignUp"])

interface Environment {
  readonly method: RedirectMethodShape
  readonly paths: HandlerPaths
  readonly current: Option.Option<URL>
  readonly trust: TrustOptions
}

const environmentOf = (method: RedirectMethodShape): Effect.Effect<Environment> =>
  Effect.gen(function* () {
    const trust = yield* RedirectTrust
    const urls = yield* Effect.serviceOption(HandlerUrls)
    const current = yield* method.currentUrl
    const appUrl = Option.flatMap(urls, (service) => Option.flatMap(service.appUrl, parseUrl))
    const appOrigin = Option.orElse(appUrl, () => current).pipe(Option.map((url) => url.origin), Option.getOrUndefined)
    return {
      method,
      paths: Option.match(urls, { onNone: () => defaultPaths, onSome: (service) => service.paths }),
      current,
      trust: { appOrigin, trustedDomains: trust.trustedDomains, allowLocalhost: trust.allowLocalhost }
    }
  })

const environment: Effect.Effect<Environment> = Effect.flatMap(RedirectMethod, environmentOf)

/** `pathname + search + hash` of a URL. */
const relativePart = (url: URL): string => `${url.pathname}${url.search}${url.hash}`

/**
 * Where a redirect to a handler page goes, before the trust check: the page, with
 * `after_auth_return_to` added (sign-in, sign-up, onboarding, sign-out) or honoured (after
 * sign-in / sign-up) relative to the current page. Same-origin results are paths.
 */
export const planHandlerTarget = (
  name: HandlerName,
  paths: HandlerPaths,
  current: Option.Option<URL>,
  options: RedirectOptions = {}
): string => {
  const raw = paths[name]
  if (options.noRedirectBack === true || Option.isNone(current)) return raw
  const here = current.value
  if (returnHonouringPages.has(name)) {
    const back = here.searchParams.get(returnToParam)
    return back === null || back === "" ? raw : back
  }
  if (!returnAwarePages.has(name)) return raw
  const next = Option.getOrUndefined(parseUrl(raw, here))
  if (next === undefined) return raw
  if (!next.searchParams.has(returnToParam)) {
    const inherited = here.searchParams.get(returnToParam)
    next.searchParams.set(returnToParam, inherited ?? (next.origin === here.origin ? relativePart(here) : here.href))
  }
  return next.origin === here.origin ? relativePart(next) : next.href
}

const checked = (target: string, environment: Environment): Effect.Effect<string, UntrustedRedirectUrl> => Effect.fromResult(check(target, environment.trust))

const go = (target: string, environment: Environment, replace: boolean): Effect.Effect<void, RedirectError> =>
  Effect.gen(function* () {
    const url = yield* checked(target, environment)
    yield* environment.method.navigate(url, { replace })
    if (Duration.isGreaterThan(environment.method.wait, Duration.zero)) yield* Effect.sleep(environment.method.wait)
  })

/**
 * Checks a redirect target against the current page's (or `HandlerUrls`' app) origin and the
 * trusted domains, and returns it normalised. Fails with `UntrustedRedirectUrl`.
 */
export const ensureTrusted = (url: string | URL): Effect.Effect<string, UntrustedRedirectUrl> => Effect.flatMap(environment, (env) => checked(String(url), env))

/**
 * The checked URL a redirect to a handler page would go to (with `after_auth_return_to` handled),
 * without navigating — for a server that redirects with its framework. Fails with `UntrustedRedirectUrl`.
 */
export const urlFor = (name: HandlerName, options: RedirectOptions = {}): Effect.Effect<string, UntrustedRedirectUrl> =>
  Effect.flatMap(environment, (env) => checked(planHandlerTarget(name, env.paths, env.current, options), env))

/**
 * Redirects to any URL after the trust check, then waits {@link redirectWait}.
 * Fails with `UntrustedRedirectUrl` (nothing navigates), `RedirectUnavailable`, `RedirectFailed`.
 */
export const redirectToUrl = (
  url: string | URL,
  options: { readonly replace?: boolean | undefined } = {}
): Effect.Effect<void, RedirectError> =>
  Effect.flatMap(environment, (env) => go(String(url), env, options.replace === true)).pipe(
    Effect.withSpan("Redirects.redirectToUrl")
  )

/**
 * Redirects to a handler page (see the module documentation for `after_auth_return_to`), then
 * waits {@link redirectWait}. Fails with `UntrustedRedirectUrl`, `RedirectUnavailable`, `RedirectFailed`.
 */
export const redirectTo = (name: HandlerName, options: RedirectOptions = {}): Effect.Effect<void, RedirectError> =>
  Effect.flatMap(environment, (env) => go(planHandlerTarget(name, env.paths, env.current, options), env, options.replace === true)).pipe(
    Effect.withSpan("Redirects.redirectTo", { attributes: { page: name } })
  )

/** Redirects to the sign-in page with `after_auth_return_to` = the current page. */
export const redirectToSignIn = (options?: RedirectOptions) => redirectTo("signIn", options)
/** Redirects to the sign-up page with `after_auth_return_to` = the current page. */
export const redirectToSignUp = (options?: RedirectOptions) => redirectTo("signUp", options)
/** Redirects to the sign-out page with `after_auth_return_to` = the current page. */
export const redirectToSignOut = (options?: RedirectOptions) => redirectTo("signOut", options)
/** Redirects to the onboarding page with `after_auth_return_to` = the current page. */
export const redirectToOnboarding = (options?: RedirectOptions) => redirectTo("onboarding", options)
/** Redirects to the current page's `after_auth_return_to` when present, else to the `afterSignIn` page. */
export const redirectToAfterSignIn = (options?: RedirectOptions) => redirectTo("afterSignIn", options)
/** Redirects to the current page's `after_auth_return_to` when present, else to the `afterSignUp` page. */
export const redirectToAfterSignUp = (options?: RedirectOptions) => redirectTo("afterSignUp", options)
/** Redirects to the `afterSignOut` page. */
export const redirectToAfterSignOut = (options?: RedirectOptions) => redirectTo("afterSignOut", options)
/** Redirects to the home page. */
export const redirectToHome = (options?: RedirectOptions) => redirectTo("home", options)
/** Redirects to the e-mail verification page. */
export const redirectToEmailVerification = (options?: RedirectOptions) => redirectTo("emailVerification", options)
/** Redirects to the password reset page. */
export const redirectToPasswordReset = (options?: RedirectOptions) => redirectTo("passwordReset", options)
/** Redirects to the forgot-password page. */
export const redirectToForgotPassword = (options?: RedirectOptions) => redirectTo("forgotPassword", options)
/** Redirects to the OAuth callback page. */
export const redirectToOAuthCallback = (options?: RedirectOptions) => redirectTo("oauthCallback", options)
/** Redirects to the magic-link callback page. */
export const redirectToMagicLinkCallback = (options?: RedirectOptions) => redirectTo("magicLinkCallback", options)
/** Redirects to the account settings page. */
export const redirectToAccountSettings = (options?: RedirectOptions) => redirectTo("accountSettings", options)
/** Redirects to the error page. */
export const redirectToError = (options?: RedirectOptions) => redirectTo("error", options)
/** Redirects to the team invitation page. */
export const redirectToTeamInvitation = (options?: RedirectOptions) => redirectTo("teamInvitation", options)
/** Redirects to the MFA code entry page. */
export const redirectToMfa = (options?: RedirectOptions) => redirectTo("mfa", options)

/**
 * The CLI confirmation page for a login code: `{cliAuthConfirm}?login_code=<url-encoded>`, made
 * absolute against `HandlerUrls`' `appUrl` when configured. Fails with `UntrustedRedirectUrl` when
 * an overridden page is not trusted.
 */
export const cliAuthConfirmUrl = (loginCode: string): Effect.Effect<string, UntrustedRedirectUrl> =>
  Effect.gen(function* () {
    const env = yield* environment
    const page = env.paths.cliAuthConfirm
    const base = env.trust.appOrigin ?? "https://relative.stack-auth-effect.invalid"
    const parsed = parseUrl(page, base)
    if (Option.isNone(parsed)) return yield* Effect.fail(UntrustedRedirectUrl.make(page, "not a valid URL"))
    const url = parsed.value
    url.searchParams.set("login_code", loginCode)
    const target = Option.isSome(parseUrl(page)) || env.trust.appOrigin !== undefined ? url.href : relativePart(url)
    return yield* checked(target, env)
  })

/** Redirects to the CLI confirmation page, with `login_code` when given. */
export const redirectToCliAuthConfirm = (
  options: RedirectOptions & { readonly loginCode?: string | undefined } = {}
): Effect.Effect<void, RedirectError> =>
  options.loginCode === undefined
    ? redirectTo("cliAuthConfirm", options)
    : Effect.flatMap(cliAuthConfirmUrl(options.loginCode), (url) => redirectToUrl(url, options))
