"use client"
/**
 * Hooks for the reads the SDK caches, each in a plain form ({@link useStackQuery} state) and a
 * Suspense form (the value; loading suspends, failures go to the error boundary). They share the
 * SDK's query cache: many components, one request; a mutation through the SDK refreshes them; a
 * sign-in or sign-out re-reads them for the new user.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as TeamApiKeys from "../src/api-keys/TeamApiKeys.js"
import * as UserApiKeys from "../src/api-keys/UserApiKeys.js"
import * as GetUser from "../src/auth/GetUser.js"
import * as Sessions from "../src/auth/Sessions.js"
import * as ContactChannels from "../src/contact-channels/ContactChannels.js"
import * as Permissions from "../src/permissions/Permissions.js"
import * as Projects from "../src/projects/Projects.js"
import * as TeamInvitations from "../src/teams/TeamInvitations.js"
import * as TeamMemberProfiles from "../src/teams/TeamMemberProfiles.js"
import * as Teams from "../src/teams/Teams.js"
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
 * import { useUser } from "stack-auth-effect/react"
 *
 * const Greeting = () => {
 *   const user = useUser()
 *   if (user.status !== "success") return null
 *   return user.data === null ? <a href="/handler/sign-in">Sign in</a> : <span>{user.data.displayName}</span>
 * }
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

/** The teams the signed-in user belongs to (`Teams.listMine`, cached). */
export const useTeams = () => useStackQuery(Teams.listMine(), [])

/** {@link useTeams} for Suspense. */
export const useSuspenseTeams = () => useStackSuspenseQuery(Teams.listMine(), [])

/** One team of the signed-in user (`Teams.get`, cached). */
export const useTeam = (teamId: string) => useStackQuery(Teams.get(teamId), [teamId])

/** {@link useTeam} for Suspense. */
export const useSuspenseTeam = (teamId: string) => useStackSuspenseQuery(Teams.get(teamId), [teamId])

/** The member profiles of a team (`TeamMemberProfiles.list`, cached). */
export const useTeamMembers = (teamId: string) => useStackQuery(TeamMemberProfiles.list(teamId), [teamId])

/** {@link useTeamMembers} for Suspense. */
export const useSuspenseTeamMembers = (teamId: string) => useStackSuspenseQuery(TeamMemberProfiles.list(teamId), [teamId])

/** The pending invitations of a team (`TeamInvitations.list`, cached). */
export const useTeamInvitations = (teamId: string) => useStackQuery(TeamInvitations.list(teamId), [teamId])

/** {@link useTeamInvitations} for Suspense. */
export const useSuspenseTeamInvitations = (teamId: string) => useStackSuspenseQuery(TeamInvitations.list(teamId), [teamId])

/**
 * Whether the signed-in user has a permission in a team, contained permissions included
 * (`Permissions.hasTeamPermission`, over the cached recursive list).
 */
export const usePermission = (teamId: string, permissionId: string) =>
  useStackQuery(Permissions.hasTeamPermission(teamId, permissionId), [teamId, permissionId])

/** {@link usePermission} for Suspense. */
export const useSuspensePermission = (teamId: string, permissionId: string) =>
  useStackSuspenseQuery(Permissions.hasTeamPermission(teamId, permissionId), [teamId, permissionId])

/** A team's API keys (`TeamApiKeys.list`, cached). */
export const useTeamApiKeys = (teamId: string) => useStackQuery(TeamApiKeys.list(teamId), [teamId])

/** {@link useTeamApiKeys} for Suspense. */
export const useSuspenseTeamApiKeys = (teamId: string) => useStackSuspenseQuery(TeamApiKeys.list(teamId), [teamId])
