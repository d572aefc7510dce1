/**
 * The app's handler pages (PROTOCOL.md §5.4) and the callback URLs built from them.
 *
 * E-mailed links (verification, password reset, magic link) point at pages of the app. When a
 * function is not given an explicit callback URL, it uses the default page of its flow —
 * `{handler}/email-verification`, `{handler}/password-reset`, `{handler}/magic-link-callback` —
 * made absolute against the app's URL: the `appUrl` of the {@link layer}, else (in a browser)
 * `globalThis.location`. With neither, resolving fails with {@link CallbackUrlRequired}
 * ("{name} option is required in a non-browser environment. Pass {name} …, or provide
 * HandlerUrls.layer({ appUrl: … }) …"), before any request. In Node, provide the layer (or pass
 * explicit URLs) for every flow that e-mails a link: sign-up's verification, e-mail verification,
 * password reset, magic link, team invitations, contact-channel verification.
 *
 * Every path can be overridden; derived paths follow an overridden `handler` base. The pages:
 *
 * | Name | Default |
 * |---|---|
 * | `handler` | `/handler` |
 * | `signIn`, `signUp`, `signOut` | `{handler}/sign-in`, `{handler}/sign-up`, `{handler}/sign-out` |
 * | `emailVerification`, `passwordReset`, `forgotPassword` | `{handler}/email-verification`, `{handler}/password-reset`, `{handler}/forgot-password` |
 * | `oauthCallback`, `magicLinkCallback` | `{handler}/oauth-callback`, `{handler}/magic-link-callback` |
 * | `accountSettings`, `teamInvitation`, `error` | `{handler}/account-settings`, `{handler}/team-invitation`, `{handler}/error` |
 * | `mfa`, `onboarding` | `{handler}/mfa`, `{handler}/onboarding` |
 * | `cliAuthConfirm` | `{handler}/cli-auth-confirm` (takes `?login_code=…`) |
 * | `home` | `/` |
 * | `afterSignIn` | `home` |
 * | `afterSignUp` | `afterSignIn` |
 * | `afterSignOut` | `home` |
 *
 * Redirects to these pages (with `after_auth_return_to` and the trusted-URL check) are in
 * `Redirects`.
 *
 * The service is optional: functions read it with `Effect.serviceOption`, so it never appears in
 * their requirements. Without it the default paths apply and only a browser can resolve them;
 * provide it (with `appUrl`) on a server, or pass explicit URLs.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { HandlerUrls } from "stack-auth-effect"
 *
 * const UrlsLive = HandlerUrls.layer({ appUrl: "https://app.example.com", passwordReset: "/reset" })
 * const url = HandlerUrls.callbackUrl("passwordReset", "callbackUrl").pipe(Effect.provide(UrlsLive))
 * // → "https://app.example.com/reset"
 * ```
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { InvalidArgument } from "./Errors.js"

/** The names of the handler pages and destinations (PROTOCOL.md §5.4). */
export type HandlerName =
  | "handler"
  | "signIn"
  | "signUp"
  | "signOut"
  | "emailVerification"
  | "passwordReset"
  | "forgotPassword"
  | "oauthCallback"
  | "magicLinkCallback"
  | "accountSettings"
  | "teamInvitation"
  | "error"
  | "mfa"
  | "onboarding"
  | "cliAuthConfirm"
  | "home"
  | "afterSignIn"
  | "afterSignUp"
  | "afterSignOut"

/** The path (or absolute URL) of every handler page. */
export type HandlerPaths = { readonly [K in HandlerName]: string }

/** Overrides of {@link layer}: the app's base URL and any page. */
export type HandlerUrlsOptions = {
  /** The app's base URL (absolute), e.g. `https://app.example.com`; default: the browser's current page. */
  readonly appUrl?: string | URL | undefined
} & { readonly [K in HandlerName]?: string | undefined }

/**
 * A default callback URL could not be resolved: no explicit URL, no `appUrl`, no browser location.
 * Raised before any request. Its message starts with the official client's sentence and names
 * the ways out: pass the option, provide `HandlerUrls.layer({ appUrl })`, or (where the flow can
 * go without an e-mail, e.g. sign-up's `noVerificationCallback: true`) opt out.
 */
export class CallbackUrlRequired extends Data.TaggedError("CallbackUrlRequired")<{
  /**
   * `"{option} option is required in a non-browser environment. Pass {option} (an absolute URL), or
   * provide HandlerUrls.layer({ appUrl: "https://your.app" }) so the {handler} page ({path}) is
   * resolved against your app[, or pass {optOut}]."`
   */
  readonly message: string
  /** The option of the function that takes an explicit URL (e.g. `callbackUrl`). */
  readonly option: string
  /** The handler page whose default could not be resolved. */
  readonly handler: HandlerName
}> {
  /**
   * The error for an option and the page it defaults to; `path` is the page's path (default
   * {@link defaultPaths}), `optOut` the option that goes without the callback, if the flow has one.
   */
  static readonly make = (option: string, handler: HandlerName, options: { readonly path?: string; readonly optOut?: string } = {}) =>
    new CallbackUrlRequired({
      message: `${option} option is required in a non-browser environment. Pass ${option} (an absolute URL), or provide ` +
        `HandlerUrls.layer({ appUrl: "https://your.app" }) so the ${handler} page (${options.path ?? defaultPaths[handler]}) is resolved against your app` +
        `${options.optOut === undefined ? "" : `, or pass ${options.optOut}`}.`,
      option,
      handler
    })
}

/** The paths of the handler pages, the app's base URL, and resolution of page URLs. */
export interface HandlerUrlsService {
  readonly paths: HandlerPaths
  /** The configured app URL, if any (the browser's location is read at resolution time). */
  readonly appUrl: Option.Option<string>
}

/** The handler pages of the app. Optional: functions fall back to {@link defaultPaths} and the browser's location. */
export class HandlerUrls extends Context.Service<HandlerUrls, HandlerUrlsService>()("stack-auth-effect/HandlerUrls") {}

/** Paths derived from a handler base (`/handler` by default). */
export const pathsFor = (options: HandlerUrlsOptions = {}): HandlerPaths => {
  const handler = (options.handler ?? "/handler").replace(/\/+$/, "")
  const home = options.home ?? "/"
  const afterSignIn = options.afterSignIn ?? home
  return {
    handler,
    signIn: options.signIn ?? `${handler}/sign-in`,
    signUp: options.signUp ?? `${handler}/sign-up`,
    signOut: options.signOut ?? `${handler}/sign-out`,
    emailVerification: options.emailVerification ?? `${handler}/email-verification`,
    passwordReset: options.passwordReset ?? `${handler}/password-reset`,
    forgotPassword: options.forgotPassword ?? `${handler}/forgot-password`,
    oauthCallback: options.oauthCallback ?? `${handler}/oauth-callback`,
    magicLinkCallback: options.magicLinkCallback ?? `${handler}/magic-link-callback`,
    accountSettings: options.accountSettings ?? `${handler}/account-settings`,
    teamInvitation: options.teamInvitation ?? `${handler}/team-invitation`,
    error: options.error ?? `${handler}/error`,
    mfa: options.mfa ?? `${handler}/mfa`,
    onboarding: options.onboarding ?? `${handler}/onboarding`,
    cliAuthConfirm: options.cliAuthConfirm ?? `${handler}/cli-auth-confirm`,
    home,
    afterSignIn,
    afterSignUp: options.afterSignUp ?? afterSignIn,
    afterSignOut: options.afterSignOut ?? home
  }
}

/** The default paths (PROTOCOL.md §5.4). */
export const defaultPaths: HandlerPaths = pathsFor()

const parseAbsolute = (text: string): URL | undefined => {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** Builds the service (fails with `InvalidArgument` when `appUrl` is not an absolute URL). */
export const make = (options: HandlerUrlsOptions = {}): Effect.Effect<HandlerUrlsService, InvalidArgument> => {
  const appUrl = options.appUrl === undefined ? undefined : String(options.appUrl)
  if (appUrl !== undefined && parseAbsolute(appUrl) === undefined) {
    return Effect.fail(new InvalidArgument({ message: `appUrl must be an absolute URL, got "${appUrl}"`, argument: "appUrl" }))
  }
  return Effect.succeed({ paths: pathsFor(options), appUrl: Option.fromNullishOr(appUrl) })
}

/** A layer of {@link HandlerUrls}. */
export const layer = (options: HandlerUrlsOptions = {}): Layer.Layer<HandlerUrls, InvalidArgument> => Layer.effect(HandlerUrls, make(options))

/** The browser's current page, if there is one. */
const browserLocation = (): URL | undefined => {
  const location = (globalThis as { readonly location?: { readonly href?: unknown } }).location
  return typeof location?.href === "string" ? parseAbsolute(location.href) : undefined
}

const returnToParam = "after_auth_return_to"

/**
 * The callback URL to send for a flow: `explicit` when given, else the flow's handler page; made
 * absolute against the app URL (else the browser's page), without `#hash`, keeping the current
 * page's `after_auth_return_to` query parameter. `option` names the function's option in the
 * {@link CallbackUrlRequired} error, `options.optOut` the option that goes without a callback (if
 * the flow has one), named in the error too.
 */
export const callbackUrl = (
  handler: HandlerName,
  option: string,
  explicit?: string | URL,
  options: { readonly optOut?: string } = {}
): Effect.Effect<string, CallbackUrlRequired | InvalidArgument> =>
  Effect.gen(function* () {
    const service = yield* Effect.serviceOption(HandlerUrls)
    const paths = Option.match(service, { onNone: () => defaultPaths, onSome: (s) => s.paths })
    const target = explicit === undefined ? paths[handler] : String(explicit)
    const location = browserLocation()
    const base = Option.match(service, { onNone: () => undefined, onSome: (s) => Option.getOrUndefined(s.appUrl) }) ?? location?.href
    let url = parseAbsolute(target)
    if (url === undefined) {
      if (base === undefined) {
        return yield* Effect.fail(
          CallbackUrlRequired.make(option, handler, { path: target, ...(options.optOut === undefined ? {} : { optOut: options.optOut }) })
        )
      }
      try {
        url = new URL(target, base)
      } catch {
        return yield* Effect.fail(new InvalidArgument({ message: `${option} is not a valid URL`, argument: option }))
      }
    }
    url.hash = ""
    const returnTo = location?.searchParams.get(returnToParam)
    if (returnTo !== null && returnTo !== undefined && !url.searchParams.has(returnToParam)) {
      url.searchParams.set(returnToParam, returnTo)
    }
    return url.toString()
  })
