"use client"
/**
 * Hooks for the reads the SDK caches, each in a plain form ({@link useStackQuery} state) and a
 * Suspense form (the value; loading suspends, failures go to the error boundary). They share the
 * SDK's query cache: many components, one request; a mutation through the SDK refreshes them; a
 * sign-in or sign-out re-reads them for the new user.
 *
 * The same hooks come typed by the app's runtime from `makeStackHooks(runtime)` (made here by
 * {@link makeDomainHooks} over that runtime's query hooks).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as TeamApiKeys from "../src/api-keys/TeamApiKeys.js"
import * as UserApiKeys from "../src/api-keys/UserApiKeys.js"
import * as GetUser from "../src/auth/GetUser.js"
import * as Sessions from "../src/auth/Sessions.js"
import * as ConnectedAccounts from "../src/connected-accounts/ConnectedAccounts.js"
import * as ContactChannels from "../src/contact-channels/ContactChannels.js"
import * as NotificationCategories from "../src/emails/NotificationCategories.js"
import * as Permissions from "../src/permissions/Permissions.js"
import * as Projects from "../src/projects/Projects.js"
import * as TeamInvitations from "../src/teams/TeamInvitations.js"
import * as TeamMemberProfiles from "../src/teams/TeamMemberProfiles.js"
import * as Teams from "../src/teams/Teams.js"
import type { ClientServices } from "../src/cache/ClientServices.js"
import type { CurrentUser } from "../src/users/User.js"
import type { DependencyList } from "react"
import { useStackQuery, useStackSuspenseQuery } from "./hooks.js"
import { useQueryWith, useSuspenseQueryWith } from "./internal/hooks.js"
import { useStackContext } from "./StackProvider.js"
import type { HydrationContext } from "./StackProvider.js"
import type { StackQueryOptions, StackQueryResult } from "./hooks.js"

/**
 * What {@link useUser} does when nobody (allowed) is signed in. `"anonymous"` signs an anonymous
 * user up when nobody is signed in (`POST /auth/anonymous/sign-up`, once: the hook then reads that
 * user); `"anonymous-if-exists"` counts a signed-in anonymous user, else `null`. The other policies
 * never show an anonymous user: `null`, a redirect or `UserNotSignedIn` as for nobody.
 */
export type UseUserOr = "return-null" | "redirect" | "throw" | "anonymous" | "anonymous-if-exists"

/** Options of {@link useUser} and {@link useSuspenseUser}. */
export interface UseUserOptions<O extends UseUserOr = UseUserOr> {
  /**
   * `"return-null"` (default): `null`; `"redirect"`: replaces the page with the sign-in page
   * (`after_auth_return_to` = this page) and stays loading; `"throw"`: fails with `UserNotSignedIn`;
   * `"anonymous"` / `"anonymous-if-exists"`: see {@link UseUserOr}.
   */
  readonly or?: O
  /** Count restricted users (e.g. e-mail not verified) as signed in (default false). */
  readonly includeRestricted?: boolean
}

/** The user a policy gives: `null` only with `"return-null"` and `"anonymous-if-exists"`. */
export type UserFor<O extends UseUserOr> = [O] extends ["return-null" | "anonymous-if-exists"] ? CurrentUser | null : CurrentUser

/** The errors of {@link useUser} for a policy. */
export type UseUserError<O extends UseUserOr> = GetUser.GetUserError<O>

/**
 * One anonymous sign-up at a time: components mounting together with `or: "anonymous"` wait for
 * the first one's sign-up, then read the user it made instead of making one each.
 */
const anonymousSignUps = Effect.unsafeMakeSemaphore(1)

const userEffect = <O extends UseUserOr>(options: UseUserOptions<O>) => {
  const read = userRead(options)
  return options.or === "anonymous" ? anonymousSignUps.withPermits(1)(read) : read
}

const userRead = <O extends UseUserOr>(options: UseUserOptions<O>) =>
  GetUser.getUser<O>(
    options.includeRestricted === undefined
      ? { or: (options.or ?? "return-null") as O }
      : { or: (options.or ?? "return-null") as O, includeRestricted: options.includeRestricted }
  ).pipe(
    Effect.map((user) => (Option.isOption(user) ? Option.getOrNull(user) : user) as UserFor<O>)
  ) as Effect.Effect<UserFor<O>, UseUserError<O>, GetUser.GetUserRequirements>

/** The two query hooks the domain hooks are made of, for effects needing at most `R`. */
export interface QueryHooks<R> {
  readonly useStackQuery: <A, E>(
    effect: Effect.Effect<A, E, R>,
    deps: DependencyList,
    options?: StackQueryOptions
  ) => StackQueryResult<A, E>
  readonly useStackSuspenseQuery: <A, E>(effect: Effect.Effect<A, E, R>, deps: DependencyList) => A
  /** `useStackQuery` showing `initial` until the first run settles (the server's hand-over). */
  readonly useStackQueryInitial?: <A, E>(
    effect: Effect.Effect<A, E, R>,
    deps: DependencyList,
    initial: { readonly data: A } | undefined
  ) => StackQueryResult<A, E>
  /** `useStackSuspenseQuery` returning `initial` until the first run settles. */
  readonly useStackSuspenseQueryInitial?: <A, E>(
    effect: Effect.Effect<A, E, R>,
    deps: DependencyList,
    initial: { readonly data: A } | undefined
  ) => A
}

/** The user a hand-over gives for a policy, when it decides it (else `undefined`: load). */
const initialUser = <O extends UseUserOr>(hydration: HydrationContext | undefined, options: UseUserOptions<O>): { readonly data: UserFor<O> } | undefined => {
  if (hydration === undefined) return undefined
  const user = hydration.state.user
  const or = options.or ?? "return-null"
  const anonymousPolicy = or === "anonymous" || or === "anonymous-if-exists"
  const allowed = user !== null && (anonymousPolicy || !user.isAnonymous) && (anonymousPolicy || options.includeRestricted === true || !user.isRestricted)
  if (allowed) return { data: user as UserFor<O> }
  if (or === "return-null" || or === "anonymous-if-exists") return { data: null as UserFor<O> }
  return undefined
}

/** The user read, after the hand-over (if any) is applied. */
const hydratedUserEffect = <O extends UseUserOr>(hydration: HydrationContext | undefined, options: UseUserOptions<O>) =>
  hydration === undefined
    ? userEffect(options)
    : (Effect.zipRight(hydration.apply, userEffect(options)) as Effect.Effect<UserFor<O>, UseUserError<O>, GetUser.GetUserRequirements>)

/**
 * The hooks for the reads the SDK caches, made of `hooks` (each needs only the services of a
 * Stack layer, `Stack.ClientServices`). The module's exports are these over the generic hooks;
 * `makeStackHooks(runtime)` makes them over the runtime's typed ones.
 */
export const makeDomainHooks = (hooks: QueryHooks<ClientServices>) => {
  const {
    useStackQuery: query,
    useStackSuspenseQuery: suspenseQuery,
    useStackQueryInitial: initialQuery,
    useStackSuspenseQueryInitial: initialSuspenseQuery
  } = hooks
  return {
    /**
     * The signed-in user (`GET /users/me` through the cache), re-rendered on sign-in, sign-out and
     * every change through the SDK. See {@link UseUserOptions} for `or`.
     */
    useUser: <const O extends UseUserOr = "return-null">(
      options: UseUserOptions<O> = {}
    ): StackQueryResult<UserFor<O>, UseUserError<O>> => {
      const hydration = useStackContext("useUser").hydration
      const effect = hydratedUserEffect(hydration, options)
      const deps = [options.or ?? "return-null", options.includeRestricted ?? false]
      return initialQuery === undefined ? query(effect, deps) : initialQuery(effect, deps, initialUser(hydration, options))
    },
    /** {@link useUser} for Suspense: the user (or `null` with `"return-null"`). */
    useSuspenseUser: <const O extends UseUserOr = "return-null">(options: UseUserOptions<O> = {}): UserFor<O> => {
      const hydration = useStackContext("useSuspenseUser").hydration
      const effect = hydratedUserEffect(hydration, options)
      const deps = [options.or ?? "return-null", options.includeRestricted ?? false]
      return initialSuspenseQuery === undefined
        ? suspenseQuery(effect, deps)
        : initialSuspenseQuery(effect, deps, initialUser(hydration, options))
    },
    /** The signed-in user's contact channels (`ContactChannels.list`, cached). */
    useContactChannels: () => query(ContactChannels.list(), []),
    /** {@link useContactChannels} for Suspense. */
    useSuspenseContactChannels: () => suspenseQuery(ContactChannels.list(), []),
    /** The signed-in user's e-mail notification categories (`NotificationCategories.list`, cached; follows `setEnabled`). */
    useNotificationCategories: () => query(NotificationCategories.list(), []),
    /** {@link useNotificationCategories} for Suspense. */
    useSuspenseNotificationCategories: () => suspenseQuery(NotificationCategories.list(), []),
    /** The signed-in user's API keys (`UserApiKeys.list`, cached). */
    useApiKeys: () => query(UserApiKeys.list(), []),
    /** {@link useApiKeys} for Suspense. */
    useSuspenseApiKeys: () => suspenseQuery(UserApiKeys.list(), []),
    /** The signed-in user's active sessions (`Sessions.list`, cached). */
    useSessions: () => query(Sessions.list(), []),
    /** {@link useSessions} for Suspense. */
    useSuspenseSessions: () => suspenseQuery(Sessions.list(), []),
    /** The current project, client view (`Projects.getCurrent`, cached; kept across sign-ins). */
    useProject: () => query(Projects.getCurrent(), []),
    /** {@link useProject} for Suspense. */
    useSuspenseProject: () => suspenseQuery(Projects.getCurrent(), []),
    /** The teams the signed-in user belongs to (`Teams.listMine`, cached). */
    useTeams: () => query(Teams.listMine(), []),
    /** {@link useTeams} for Suspense. */
    useSuspenseTeams: () => suspenseQuery(Teams.listMine(), []),
    /** One team of the signed-in user (`Teams.get`, cached). */
    useTeam: (teamId: string) => query(Teams.get(teamId), [teamId]),
    /** {@link useTeam} for Suspense. */
    useSuspenseTeam: (teamId: string) => suspenseQuery(Teams.get(teamId), [teamId]),
    /** The member profiles of a team (`TeamMemberProfiles.list`, cached). */
    useTeamMembers: (teamId: string) => query(TeamMemberProfiles.list(teamId), [teamId]),
    /** {@link useTeamMembers} for Suspense. */
    useSuspenseTeamMembers: (teamId: string) => suspenseQuery(TeamMemberProfiles.list(teamId), [teamId]),
    /** The pending invitations of a team (`TeamInvitations.list`, cached). */
    useTeamInvitations: (teamId: string) => query(TeamInvitations.list(teamId), [teamId]),
    /** {@link useTeamInvitations} for Suspense. */
    useSuspenseTeamInvitations: (teamId: string) => suspenseQuery(TeamInvitations.list(teamId), [teamId]),
    /**
     * Whether the signed-in user has a permission in a team, contained permissions included
     * (`Permissions.hasTeamPermission`, over the cached recursive list).
     */
    usePermission: (teamId: string, permissionId: string) =>
      query(Permissions.hasTeamPermission(teamId, permissionId), [teamId, permissionId]),
    /** {@link usePermission} for Suspense. */
    useSuspensePermission: (teamId: string, permissionId: string) =>
      suspenseQuery(Permissions.hasTeamPermission(teamId, permissionId), [teamId, permissionId]),
    /** A team's API keys (`TeamApiKeys.list`, cached). */
    useTeamApiKeys: (teamId: string) => query(TeamApiKeys.list(teamId), [teamId]),
    /** {@link useTeamApiKeys} for Suspense. */
    useSuspenseTeamApiKeys: (teamId: string) => suspenseQuery(TeamApiKeys.list(teamId), [teamId]),
    /** The signed-in user's permissions in a team, contained ones included (`Permissions.listTeamPermissions`, cached). */
    usePermissions: (teamId: string, options: Permissions.ListOptions = {}) =>
      query(Permissions.listTeamPermissions(teamId, options), [teamId, options.recursive ?? true]),
    /** {@link usePermissions} for Suspense. */
    useSuspensePermissions: (teamId: string, options: Permissions.ListOptions = {}) =>
      suspenseQuery(Permissions.listTeamPermissions(teamId, options), [teamId, options.recursive ?? true]),
    /**
     * Whether the signed-in user has a project-scope permission, contained permissions included
     * (`Permissions.hasProjectPermission`, over the cached recursive list).
     */
    useProjectPermission: (permissionId: string) => query(Permissions.hasProjectPermission(permissionId), [permissionId]),
    /** {@link useProjectPermission} for Suspense. */
    useSuspenseProjectPermission: (permissionId: string) =>
      suspenseQuery(Permissions.hasProjectPermission(permissionId), [permissionId]),
    /** The signed-in user's project-scope permissions (`Permissions.listProjectPermissions`, cached). */
    useProjectPermissions: (options: Permissions.ListOptions = {}) =>
      query(Permissions.listProjectPermissions(options), [options.recursive ?? true]),
    /** {@link useProjectPermissions} for Suspense. */
    useSuspenseProjectPermissions: (options: Permissions.ListOptions = {}) =>
      suspenseQuery(Permissions.listProjectPermissions(options), [options.recursive ?? true]),
    /**
     * The pending invitations addressed to the signed-in user's verified e-mail addresses, any team
     * (`TeamInvitations.listMine`, cached).
     */
    useReceivedInvitations: () => query(TeamInvitations.listMine(), []),
    /** {@link useReceivedInvitations} for Suspense. */
    useSuspenseReceivedInvitations: () => suspenseQuery(TeamInvitations.listMine(), []),
    /** The signed-in user's connected provider accounts (`ConnectedAccounts.list`). */
    useConnectedAccounts: () => query(ConnectedAccounts.list(), []),
    /** {@link useConnectedAccounts} for Suspense. */
    useSuspenseConnectedAccounts: () => suspenseQuery(ConnectedAccounts.list(), []),
    /**
     * The signed-in user's connected account of one provider (`providerId`, e.g. `"github"`), or
     * `null` when none is connected (the official `useConnectedAccount(providerId)` without `or`).
     */
    useConnectedAccount: (providerId: string) => query(connectedAccount(providerId), [providerId]),
    /** {@link useConnectedAccount} for Suspense. */
    useSuspenseConnectedAccount: (providerId: string) => suspenseQuery(connectedAccount(providerId), [providerId]),
    /** The signed-in user's OAuth provider connections (`ConnectedAccounts.listOAuthProviders`). */
    useOAuthProviders: () => query(ConnectedAccounts.listOAuthProviders(), []),
    /** {@link useOAuthProviders} for Suspense. */
    useSuspenseOAuthProviders: () => suspenseQuery(ConnectedAccounts.listOAuthProviders(), [])
  }
}

const connectedAccount = (providerId: string) =>
  Effect.map(
    ConnectedAccounts.list(),
    (accounts) => accounts.find((account) => account.provider === providerId) ?? null
  )

/** The hooks {@link makeDomainHooks} makes. */
export type DomainHooks = ReturnType<typeof makeDomainHooks>

const generic: DomainHooks = makeDomainHooks({
  useStackQuery,
  useStackSuspenseQuery,
  useStackQueryInitial: (effect, deps, initial) => useQueryWith("useUser", undefined, effect, deps, {}, initial),
  useStackSuspenseQueryInitial: (effect, deps, initial) => useSuspenseQueryWith("useSuspenseUser", undefined, effect, deps, initial)
})

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
export const useUser = generic.useUser

/** {@link useUser} for Suspense: the user (or `null` with `"return-null"`). */
export const useSuspenseUser = generic.useSuspenseUser

/** The signed-in user's contact channels (`ContactChannels.list`, cached). */
export const useContactChannels = generic.useContactChannels

/** {@link useContactChannels} for Suspense. */
export const useSuspenseContactChannels = generic.useSuspenseContactChannels

/**
 * The signed-in user's e-mail notification categories (`NotificationCategories.list`, cached; the
 * official SDK's `user.useNotificationCategories()`), re-rendered after `NotificationCategories.setEnabled`.
 */
export const useNotificationCategories = generic.useNotificationCategories

/** {@link useNotificationCategories} for Suspense. */
export const useSuspenseNotificationCategories = generic.useSuspenseNotificationCategories

/** The signed-in user's API keys (`UserApiKeys.list`, cached). */
export const useApiKeys = generic.useApiKeys

/** {@link useApiKeys} for Suspense. */
export const useSuspenseApiKeys = generic.useSuspenseApiKeys

/** The signed-in user's active sessions (`Sessions.list`, cached). */
export const useSessions = generic.useSessions

/** {@link useSessions} for Suspense. */
export const useSuspenseSessions = generic.useSuspenseSessions

/** The current project, client view (`Projects.getCurrent`, cached; kept across sign-ins). */
export const useProject = generic.useProject

/** {@link useProject} for Suspense. */
export const useSuspenseProject = generic.useSuspenseProject

/** The teams the signed-in user belongs to (`Teams.listMine`, cached). */
export const useTeams = generic.useTeams

/** {@link useTeams} for Suspense. */
export const useSuspenseTeams = generic.useSuspenseTeams

/** One team of the signed-in user (`Teams.get`, cached). */
export const useTeam = generic.useTeam

/** {@link useTeam} for Suspense. */
export const useSuspenseTeam = generic.useSuspenseTeam

/** The member profiles of a team (`TeamMemberProfiles.list`, cached). */
export const useTeamMembers = generic.useTeamMembers

/** {@link useTeamMembers} for Suspense. */
export const useSuspenseTeamMembers = generic.useSuspenseTeamMembers

/** The pending invitations of a team (`TeamInvitations.list`, cached). */
export const useTeamInvitations = generic.useTeamInvitations

/** {@link useTeamInvitations} for Suspense. */
export const useSuspenseTeamInvitations = generic.useSuspenseTeamInvitations

/** Whether the signed-in user has a permission in a team, contained permissions included
 * (`Permissions.hasTeamPermission`, over the cached recursive list). */
export const usePermission = generic.usePermission

/** {@link usePermission} for Suspense. */
export const useSuspensePermission = generic.useSuspensePermission

/** A team's API keys (`TeamApiKeys.list`, cached). */
export const useTeamApiKeys = generic.useTeamApiKeys

/** {@link useTeamApiKeys} for Suspense. */
export const useSuspenseTeamApiKeys = generic.useSuspenseTeamApiKeys

/** The signed-in user's permissions in a team, contained ones included (`Permissions.listTeamPermissions`, cached). */
export const usePermissions = generic.usePermissions

/** {@link usePermissions} for Suspense. */
export const useSuspensePermissions = generic.useSuspensePermissions

/** Whether the signed-in user has a project-scope permission, contained permissions included. */
export const useProjectPermission = generic.useProjectPermission

/** {@link useProjectPermission} for Suspense. */
export const useSuspenseProjectPermission = generic.useSuspenseProjectPermission

/** The signed-in user's project-scope permissions (`Permissions.listProjectPermissions`, cached). */
export const useProjectPermissions = generic.useProjectPermissions

/** {@link useProjectPermissions} for Suspense. */
export const useSuspenseProjectPermissions = generic.useSuspenseProjectPermissions

/** The pending invitations addressed to the signed-in user (`TeamInvitations.listMine`, cached). */
export const useReceivedInvitations = generic.useReceivedInvitations

/** {@link useReceivedInvitations} for Suspense. */
export const useSuspenseReceivedInvitations = generic.useSuspenseReceivedInvitations

/** The signed-in user's connected provider accounts (`ConnectedAccounts.list`). */
export const useConnectedAccounts = generic.useConnectedAccounts

/** {@link useConnectedAccounts} for Suspense. */
export const useSuspenseConnectedAccounts = generic.useSuspenseConnectedAccounts

/** The signed-in user's connected account of one provider, or `null` when none is connected. */
export const useConnectedAccount = generic.useConnectedAccount

/** {@link useConnectedAccount} for Suspense. */
export const useSuspenseConnectedAccount = generic.useSuspenseConnectedAccount

/** The signed-in user's OAuth provider connections (`ConnectedAccounts.listOAuthProviders`). */
export const useOAuthProviders = generic.useOAuthProviders

/** {@link useOAuthProviders} for Suspense. */
export const useSuspenseOAuthProviders = generic.useSuspenseOAuthProviders
