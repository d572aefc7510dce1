/**
 * `getUser` with the official SDK's `or` policies (SPEC.md §4, PROTOCOL.md §5.1): what to do
 * when nobody is signed in.
 *
 * | `or` | signed out |
 * |---|---|
 * | `"return-null"` (default) | `Option.none()` |
 * | `"throw"` | fails with `UserNotSignedIn` |
 * | `"redirect"` | replaces the page with the sign-in page (`after_auth_return_to` = the current URL) and never completes |
 * | `"anonymous"` | signs up an anonymous user (`POST /auth/anonymous/sign-up`), then returns it |
 * | `"anonymous-if-exists"` | `Option.none()` (an existing anonymous user is returned) |
 *
 * Anonymous users count as signed out unless `or` is `"anonymous"` or `"anonymous-if-exists"`;
 * other restricted users (e.g. e-mail not verified) count as signed out unless `includeRestricted`
 * (implied by the anonymous options). With `"redirect"`, a restricted non-anonymous user goes to
 * the onboarding page instead of the sign-in page.
 *
 * Navigation goes through the app's one navigation setting, the `RedirectMethod` service
 * (`Redirects.layerMethod(…)`, shared with every `Redirects` function): by default the window
 * method, which uses `location.replace` in a browser; where the method does not know the current
 * page (outside a browser) or fails, `getUser` fails with {@link NavigationUnavailable}. The
 * {@link Navigation} service (default {@link methodNavigation}, over the `RedirectMethod`) remains
 * as a lower-level override: `Effect.provideService(Navigation, …)`. Page paths come from the
 * optional `HandlerUrls` service (default `/handler/sign-in`, `/handler/onboarding`), or the
 * `signInPath` / `onboardingPath` options.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { GetUser } from "stack-auth-effect"
 *
 * const page = Effect.gen(function* () {
 *   const user = yield* GetUser.getUser({ or: "redirect" })
 *   return `Hello ${user.displayName ?? user.primaryEmail}`
 * })
 * ```
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UserNotSignedIn } from "../core/Errors.js"
import { defaultPaths, HandlerUrls } from "../core/HandlerUrls.js"
import { RedirectMethod } from "../core/RedirectMethod.js"
import type { CurrentUser } from "../users/User.js"
import * as Users from "../users/Users.js"
import * as Anonymous from "./Anonymous.js"

/** Navigation is not possible here (no browser and no `Navigation` service provided). */
export class NavigationUnavailable extends Data.TaggedError("NavigationUnavailable")<{
  readonly message: string
  /** Where the navigation should have gone. */
  readonly url: string
}> {}

/** How the SDK reads the current page and leaves it. */
export interface NavigationShape {
  /** The absolute URL of the current page. */
  readonly currentUrl: Effect.Effect<string, NavigationUnavailable>
  /** Replaces the current page (no new history entry). */
  readonly replace: (url: string) => Effect.Effect<void, NavigationUnavailable>
}

interface BrowserLocation {
  readonly href: string
  readonly replace: (url: string) => void
}

const browserLocation = (): BrowserLocation | undefined => {
  const location = (globalThis as { readonly location?: Partial<BrowserLocation> }).location
  return typeof location?.href === "string" && typeof location.replace === "function"
    ? (location as BrowserLocation)
    : undefined
}

const unavailable = (url: string) => new NavigationUnavailable({ message: "Cannot navigate outside a browser: provide a Navigation service.", url })

/** The browser's navigation (`location.href`, `location.replace`); fails with {@link NavigationUnavailable} elsewhere. */
export const browserNavigation: NavigationShape = {
  currentUrl: Effect.suspend(() => {
    const location = browserLocation()
    return location === undefined ? Effect.fail(unavailable("")) : Effect.succeed(location.href)
  }),
  replace: (url) =>
    Effect.suspend(() => {
      const location = browserLocation()
      if (location === undefined) return Effect.fail(unavailable(url))
      location.replace(url)
      return Effect.void
    })
}

/**
 * Navigation through the app's `RedirectMethod` (`Redirects.layerMethod`; default: the window
 * method): the current page is the method's (unknown → {@link NavigationUnavailable}), and
 * `replace` navigates with `replace: true`; the method's failures become
 * {@link NavigationUnavailable}.
 */
export const methodNavigation: NavigationShape = {
  currentUrl: Effect.flatMap(RedirectMethod, (method) =>
    Effect.flatMap(method.currentUrl, (current) =>
      Option.match(current, {
        onNone: () =>
          Effect.fail(
            new NavigationUnavailable({
              message:
                `Cannot navigate: the ${method.kind} redirect method does not know the current page (outside a browser, provide a RedirectMethod or a Navigation service).`,
              url: ""
            })
          ),
        onSome: (url) => Effect.succeed(url.href)
      }))),
  replace: (url) =>
    Effect.flatMap(RedirectMethod, (method) =>
      method.navigate(url, { replace: true }).pipe(
        Effect.mapError((error) => new NavigationUnavailable({ message: error.message, url }))
      ))
}

/**
 * The navigation service; defaults to {@link methodNavigation} (the app's `RedirectMethod`), so
 * it never appears in requirements.
 */
export const Navigation: Context.Reference<NavigationShape> = Context.Reference<NavigationShape>("stack-auth-effect/Navigation", {
  defaultValue: () => methodNavigation
})

/** The `or` policies. */
export type Or = "return-null" | "throw" | "redirect" | "anonymous" | "anonymous-if-exists"

/** Options of {@link getUser}. */
export interface GetUserOptions<O extends Or = Or> {
  /** What to do when nobody (allowed) is signed in; default `"return-null"`. */
  readonly or?: O
  /** Count restricted users (e.g. e-mail not verified) as signed in (default false). */
  readonly includeRestricted?: boolean
  /** The sign-in page for `"redirect"` (default: `HandlerUrls`' `signIn`, else `/handler/sign-in`). */
  readonly signInPath?: string
  /** The onboarding page for restricted users with `"redirect"` (default: `HandlerUrls`' `onboarding`, else `/handler/onboarding`). */
  readonly onboardingPath?: string
}

/** The success of {@link getUser} for a policy (`U`: the user's view, `CurrentUser` for the client). */
export type GetUserSuccess<O extends Or, U = CurrentUser> = [O] extends ["return-null" | "anonymous-if-exists"] ? Option.Option<U>
  : [O] extends ["throw" | "redirect" | "anonymous"] ? U
  : Option.Option<U> | U

type ReadErrors = Effect.Error<ReturnType<typeof Users.getCurrent>>
type SignUpErrors = Effect.Error<ReturnType<typeof Anonymous.signUp>>

/** The errors of {@link getUser} for a policy (`ReadError`: those of the read of the user, `Users.getCurrent`'s for the client). */
export type GetUserError<O extends Or, ReadError = ReadErrors> =
  | ReadError
  | (O extends "throw" ? UserNotSignedIn : never)
  | (O extends "redirect" ? NavigationUnavailable : never)
  | (O extends "anonymous" ? SignUpErrors | UserNotSignedIn : never)

/** The services {@link getUser} needs. */
export type GetUserRequirements = Effect.Services<ReturnType<typeof Users.getCurrent>>

/** The services the `"anonymous"` policy's sign-up needs (`POST /auth/anonymous/sign-up`). */
export type SignUpRequirements = Effect.Services<ReturnType<typeof Anonymous.signUp>>

/** What the `or` policies read of a user. */
export interface PolicyUser {
  readonly isAnonymous: boolean
  readonly isRestricted: boolean
}

const returnToParam = "after_auth_return_to"

/** The URL of a page with `after_auth_return_to` = the current page. */
export const pageWithReturnTo = (page: string, currentUrl: string): string => {
  const url = new URL(page, currentUrl)
  url.searchParams.set(returnToParam, currentUrl)
  return url.toString()
}

const redirect = (user: Option.Option<PolicyUser>, options: GetUserOptions) =>
  Effect.gen(function* () {
    const navigation = yield* Navigation
    const urls = yield* Effect.serviceOption(HandlerUrls)
    const paths = Option.match(urls, { onNone: () => defaultPaths, onSome: (service) => service.paths })
    // a restricted user that is not anonymous is signed in but has to finish onboarding
    const page = Option.isSome(user)
      ? (options.onboardingPath ?? paths.onboarding)
      : (options.signInPath ?? paths.signIn)
    const current = yield* navigation.currentUrl
    yield* navigation.replace(pageWithReturnTo(page, current))
    // the page is being replaced: nothing comes after this
    return yield* Effect.never
  })

/**
 * The `or` policies (see the module's table) over a read of the session's user: `getUser` reads
 * `Users.getCurrent` (client view), `ServerUsers.getUser` the server view of `GET /users/me`.
 * `"anonymous"` signs up (`POST /auth/anonymous/sign-up`, tokens stored in the session) and reads again.
 */
export const withPolicy = <U extends PolicyUser, E, R>(
  read: Effect.Effect<Option.Option<U>, E, R>,
  options: GetUserOptions
): Effect.Effect<
  Option.Option<U> | U,
  E | UserNotSignedIn | NavigationUnavailable | SignUpErrors,
  R | SignUpRequirements
> =>
  Effect.gen(function* () {
    const or = options.or ?? "return-null"
    const includeAnonymous = or === "anonymous" || or === "anonymous-if-exists"
    const includeRestricted = options.includeRestricted === true || includeAnonymous
    const current = yield* read
    const allowed = Option.filter(
      current,
      (user) => (includeAnonymous || !user.isAnonymous) && (includeRestricted || !user.isRestricted)
    )
    if (Option.isSome(allowed)) return or === "return-null" || or === "anonymous-if-exists" ? allowed : allowed.value
    switch (or) {
      case "return-null":
      case "anonymous-if-exists":
        return Option.none<U>()
      case "throw":
        return yield* Effect.fail(UserNotSignedIn.make())
      case "redirect":
        return yield* redirect(Option.filter(current, (user) => !user.isAnonymous), options)
      case "anonymous": {
        yield* Anonymous.signUp()
        const created = yield* read
        if (Option.isNone(created)) return yield* Effect.fail(UserNotSignedIn.make())
        return created.value
      }
    }
  })

const getUserImpl = Effect.fn("GetUser.getUser")(function* (options: GetUserOptions) {
  return yield* withPolicy(Users.getCurrent(), options)
})

/**
 * The signed-in user, with a policy for "signed out" (see the module's table). Reads
 * `GET /users/me`; `"anonymous"` may also call `POST /auth/anonymous/sign-up`.
 * Fails with the errors of `Users.getCurrent`, plus `UserNotSignedIn` (`"throw"`),
 * `NavigationUnavailable` (`"redirect"` outside a browser without a `Navigation` service).
 */
export const getUser = <const O extends Or = "return-null">(
  options?: GetUserOptions<O>
): Effect.Effect<GetUserSuccess<O>, GetUserError<O>, GetUserRequirements> =>
  getUserImpl(options ?? {}) as Effect.Effect<GetUserSuccess<O>, GetUserError<O>, GetUserRequirements>
