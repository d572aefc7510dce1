"use client"
/**
 * Hooks for the reads the SDK caches, each in a plain form ({@link useStackQuery} state) and a
 * Suspense form (the value; loading suspends, failures go to the error boundary). They share the
 * SDK's query cache: many components, one request; a mutation through the SDK refreshes them; a
 * sign-in or sign-out re-reads them for the new user.
 *
 * @module
 */
import { Effect, Option } from "effect"
import * as UserApiKeys from "../src/api-keys/UserApiKeys.js"
import * as GetUser from "../src/auth/GetUser.js"
import * as Sessions from "../src/auth/Sessions.js"
import * as ContactChannels from "../src/contact-channels/ContactChannels.js"
import * as Projects from "../src/projects/Projects.js"
import type { CurrentUser } from "../src/users/User.js"
import { useStackQuery, useStackSuspenseQuery } from "./hooks.js"
import type { StackQueryResult } from "./hooks.js"

/** What {@link useUser} does when nobody is signed in. */
export type UseUserOr = "return-null" | "redirect" | "throw"

/** Options of {@link useUser} and {@link useSuspenseUser}. */
export interface UseUserOptions<O extends UseUserOr = UseUserOr> {
  /**
   * `"return-null"` (default): `null`; `"redirect"`: replaces the page with the sign-in page
   * (`after_auth_return_to` = this page) and stays loading; `"throw"`: fails with `UserNotSignedIn`.
   */
  readonly or?: O
  /** Count restricted users (e.g. e-mail not verified) as signed in (default false). */
  readonly includeRestricted?: boolean
}

/** The user a policy gives: `null` only with `"return-null"`. */
export type UserFor<O extends UseUserOr> = [O] extends ["return-null"] ? CurrentUser | null : CurrentUser

/** The errors of {@link useUser} for a policy. */
export type UseUserError<O extends UseUserOr> = GetUser.GetUserError<O>

const userEffect = <O extends UseUserOr>(options: UseUserOptions<O>) =>
  GetUser.getUser<O>(
    options.includeRestricted === undefined
      ? { or: (options.or ?? "return-null") as O }
      : { or: (options.or ?? "return-null") as O, includeRestricted: options.includeRestricted }
  ).pipe(
    Effect.map((user) => (Option.isOption(user) ? Option.getOrNull(user) : user) as UserFor<O>)
  ) as Effect.Effect<UserFor<O>, UseUserError<O>, GetUser.GetUserRequirements>

/**
 * The signed-in user (`GET /users/me` through the cache), re-rendered on sign-in, sign-out and
 * every change through the SDK. See {@link UseUserOptions} for `or`.
 *
 * @example
 * ```tsx
 * const user = useUser()
 * if (user.status !== "success") return null
 * return user.data === null ? <SignInLink /> : <span>{user.data.displayName}</span>
 * ```
 */
export const useUser = <const O extends UseUserOr = "return-null">(
  options: UseUserOptions<O> = {}
): StackQueryResult<UserFor<O>, UseUserError<O>> =>
  useStackQuery(userEffect(options), [options.or ?? "return-null", options.includeRestricted ?? false])

/** {@link useUser} for Suspense: the user (or `null` with `"return-null"`). */
export const useSuspenseUser = <const O extends UseUserOr = "return-null">(options: UseUserOptions<O> = {}): UserFor<O> =>
  useStackSuspenseQuery(userEffect(options), [options.or ?? "return-null", options.includeRestricted ?? false])

/** The signed-in user's contact channels (`ContactChannels.list`, cached). */
export const useContactChannels = () => useStackQuery(ContactChannels.list(), [])

/** {@link useContactChannels} for Suspense. */
export const useSuspenseContactChannels = () => useStackSuspenseQuery(ContactChannels.list(), [])

/** The signed-in user's API keys (`UserApiKeys.list`, cached). */
export const useApiKeys = () => useStackQuery(UserApiKeys.list(), [])

/** {@link useApiKeys} for Suspense. */
export const useSuspenseApiKeys = () => useStackSuspenseQuery(UserApiKeys.list(), [])

/** The signed-in user's active sessions (`Sessions.list`, cached). */
export const useSessions = () => useStackQuery(Sessions.list(), [])

/** {@link useSessions} for Suspense. */
export const useSuspenseSessions = () => useStackSuspenseQuery(Sessions.list(), [])

/** The current project, client view (`Projects.getCurrent`, cached; kept across sign-ins). */
export const useProject = () => useStackQuery(Projects.getCurrent(), [])

/** {@link useProject} for Suspense. */
export const useSuspenseProject = () => useStackSuspenseQuery(Projects.getCurrent(), [])
