"use client"
/**
 * Hooks for the reads the SDK caches, each in a plain form (`useStackQuery` state) and a
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
import * as Semaphore from "effect/Semaphore"
import * as TeamApiKeys from "../src/api-keys/TeamApiKeys.js"
import * as UserApiKeys from "../src/api-keys/UserApiKeys.js"
import * as GetUser from "../src/auth/GetUser.js"
import * as Sessions from "../src/auth/Sessions.js"
import * as OAuthBrowser from "../src/auth/OAuthBrowser.js"
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
const anonymousSignUps = Semaphore.makeUnsafe(1)

const userEffect = <O extends UseUserOr>(options: UseUserOptions<O>) => {
  const read = userRead(options)
  return options.or === "anonymous" ? anonymousSignUps.withPermit(read) : read
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
    : (Effect.andThen(hydration.apply, userEffect(options)) as Effect.Effect<UserFor<O>, UseUserError<O>, GetUser.GetUserRequirements>)

// Each hook is made by a top-level function of the query hooks, so a bundle keeps only the hooks
// an app uses (issue 14: bundle (c)); makeDomainHooks puts them all together for makeStackHooks.

/**
 * The signed-in user (`GET /users/me` through the cache), re-rendered on sign-in, sign-out and
 * every change through the SDK. See {@link UseUserOptions} for `or`.
 */
const useUserWith = ({ useStackQuery: query, useStackQueryInitial: initialQuery }: QueryHooks<ClientServices>) =>
<const O extends UseUserOr = "return-null">(
  options: UseUserOptions<O> = {}
): StackQueryResult<UserFor<O>, UseUserError<O>> => {
  const hydration = useStackContext("useUser").hydration
  const effect = hydratedUserEffect(hydration, options)
  const deps = [options.or ?? "return-null", options.includeRestricted ?? false]
  return initialQuery === undefined ? query(effect, deps) : initialQuery(effect, deps, initialUser(hydration, options))
}

/** {@link useUser} for Suspense: the user (or `null` with `"return-null"`). */
const useSuspenseUserWith =
  ({ useStackSuspenseQuery: suspenseQuery, useStackSuspenseQueryInitial: initialSuspenseQuery }: QueryHooks<ClientServices>) =>
  <const O extends UseUserOr = "return-null">(options: UseUserOptions<O> = {}): UserFor<O> => {
    const hydration = useStackContext("useSuspenseUser").hydration
    const effect = hydratedUserEffect(hydration, options)
    const deps = [options.or ?? "return-null", options.includeRestricted ?? false]
    return initialSuspenseQuery === undefined
      ? suspenseQuery(effect, deps)
      : initialSuspenseQuery(effect, deps, initialUser(hydration, options))
  }

/** The signed-in user's contact channels (`ContactChannels.list`, cached). */
const useContactChannelsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(ContactChannels.list(), [])

/** {@link useContactChannels} for Suspense. */
const useSuspenseContactChannelsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () => suspenseQuery(ContactChannels.list(), [])

/** The signed-in user's e-mail notification categories (`NotificationCategories.list`, cached; follows `setEnabled`). */
const useNotificationCategoriesWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(NotificationCategories.list(), [])

/** {@link useNotificationCategories} for Suspense. */
const useSuspenseNotificationCategoriesWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () =>
  suspenseQuery(NotificationCategories.list(), [])

/** The signed-in user's API keys (`UserApiKeys.list`, cached). */
const useApiKeysWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(UserApiKeys.list(), [])

/** {@link useApiKeys} for Suspense. */
const useSuspenseApiKeysWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () => suspenseQuery(UserApiKeys.list(), [])

/** The signed-in user's active sessions (`Sessions.list`, cached). */
const useSessionsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(Sessions.list(), [])

/** {@link useSessions} for Suspense. */
const useSuspenseSessionsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () => suspenseQuery(Sessions.list(), [])

/** The current project, client view (`Projects.getCurrent`, cached; kept across sign-ins). */
const useProjectWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(Projects.getCurrent(), [])

/** {@link useProject} for Suspense. */
const useSuspenseProjectWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () => suspenseQuery(Projects.getCurrent(), [])

/** The teams the signed-in user belongs to (`Teams.listMine`, cached). */
const useTeamsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(Teams.listMine(), [])

/** {@link useTeams} for Suspense. */
const useSuspenseTeamsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () => suspenseQuery(Teams.listMine(), [])

/** One team of the signed-in user (`Teams.get`, cached). */
const useTeamWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (teamId: string) => query(Teams.get(teamId), [teamId])

/** {@link useTeam} for Suspense. */
const useSuspenseTeamWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (teamId: string) =>
  suspenseQuery(Teams.get(teamId), [teamId])

/** The member profiles of a team (`TeamMemberProfiles.list`, cached). */
const useTeamMembersWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (teamId: string) => query(TeamMemberProfiles.list(teamId), [teamId])

/** {@link useTeamMembers} for Suspense. */
const useSuspenseTeamMembersWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (teamId: string) =>
  suspenseQuery(TeamMemberProfiles.list(teamId), [teamId])

/** The pending invitations of a team (`TeamInvitations.list`, cached). */
const useTeamInvitationsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (teamId: string) => query(TeamInvitations.list(teamId), [teamId])

/** {@link useTeamInvitations} for Suspense. */
const useSuspenseTeamInvitationsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (teamId: string) =>
  suspenseQuery(TeamInvitations.list(teamId), [teamId])

/**
 * Whether the signed-in user has a permission in a team, contained permissions included
 * (`Permissions.hasTeamPermission`, over the cached recursive list).
 */
const usePermissionWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (teamId: string, permissionId: string) =>
  query(Permissions.hasTeamPermission(teamId, permissionId), [teamId, permissionId])

/** {@link usePermission} for Suspense. */
const useSuspensePermissionWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (teamId: string, permissionId: string) =>
  suspenseQuery(Permissions.hasTeamPermission(teamId, permissionId), [teamId, permissionId])

/** A team's API keys (`TeamApiKeys.list`, cached). */
const useTeamApiKeysWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (teamId: string) => query(TeamApiKeys.list(teamId), [teamId])

/** {@link useTeamApiKeys} for Suspense. */
const useSuspenseTeamApiKeysWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (teamId: string) =>
  suspenseQuery(TeamApiKeys.list(teamId), [teamId])

/** The signed-in user's permissions in a team, contained ones included (`Permissions.listTeamPermissions`, cached). */
const usePermissionsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (teamId: string, options: Permissions.ListOptions = {}) =>
  query(Permissions.listTeamPermissions(teamId, options), [teamId, options.recursive ?? true])

/** {@link usePermissions} for Suspense. */
const useSuspensePermissionsWith =
  ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (teamId: string, options: Permissions.ListOptions = {}) =>
    suspenseQuery(Permissions.listTeamPermissions(teamId, options), [teamId, options.recursive ?? true])

/**
 * Whether the signed-in user has a project-scope permission, contained permissions included
 * (`Permissions.hasProjectPermission`, over the cached recursive list).
 */
const useProjectPermissionWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (permissionId: string) =>
  query(Permissions.hasProjectPermission(permissionId), [permissionId])

/** {@link useProjectPermission} for Suspense. */
const useSuspenseProjectPermissionWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (permissionId: string) =>
  suspenseQuery(Permissions.hasProjectPermission(permissionId), [permissionId])

/** The signed-in user's project-scope permissions (`Permissions.listProjectPermissions`, cached). */
const useProjectPermissionsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (options: Permissions.ListOptions = {}) =>
  query(Permissions.listProjectPermissions(options), [options.recursive ?? true])

/** {@link useProjectPermissions} for Suspense. */
const useSuspenseProjectPermissionsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (options: Permissions.ListOptions = {}) =>
  suspenseQuery(Permissions.listProjectPermissions(options), [options.recursive ?? true])

/**
 * The pending invitations addressed to the signed-in user's verified e-mail addresses, any team
 * (`TeamInvitations.listMine`, cached).
 */
const useReceivedInvitationsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(TeamInvitations.listMine(), [])

/** {@link useReceivedInvitations} for Suspense. */
const useSuspenseReceivedInvitationsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () =>
  suspenseQuery(TeamInvitations.listMine(), [])

/** The signed-in user's connected provider accounts (`ConnectedAccounts.list`). */
const useConnectedAccountsWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(ConnectedAccounts.list(), [])

/** {@link useConnectedAccounts} for Suspense. */
const useSuspenseConnectedAccountsWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () =>
  suspenseQuery(ConnectedAccounts.list(), [])

/**
 * The signed-in user's connected account of one provider (a provider id, e.g. `"github"`: its
 * first), or the one named by `{ provider, providerAccountId }` (the official
 * `useConnectedAccount({ provider, providerAccountId })`); `null` when there is none.
 */
const useConnectedAccountWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (target: string | ConnectedAccounts.AccountRef) =>
  query(connectedAccount(target), accountDeps(target))

/** {@link useConnectedAccount} for Suspense. */
const useSuspenseConnectedAccountWith =
  ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (target: string | ConnectedAccounts.AccountRef) =>
    suspenseQuery(connectedAccount(target), accountDeps(target))

/** The signed-in user's OAuth provider connections (`ConnectedAccounts.listOAuthProviders`). */
const useOAuthProvidersWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => () => query(ConnectedAccounts.listOAuthProviders(), [])

/** {@link useOAuthProviders} for Suspense. */
const useSuspenseOAuthProvidersWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => () =>
  suspenseQuery(ConnectedAccounts.listOAuthProviders(), [])

/**
 * One of the signed-in user's OAuth provider connections by its id, or `null` when the user has
 * none with this id (the official `user.useOAuthProvider(id)`; `ConnectedAccounts.getOAuthProvider`
 * over the cached list, refreshed by `updateOAuthProvider` / `deleteOAuthProvider`).
 */
const useOAuthProviderWith = ({ useStackQuery: query }: QueryHooks<ClientServices>) => (id: string) => query(oauthProvider(id), [id])

/** {@link useOAuthProvider} for Suspense. */
const useSuspenseOAuthProviderWith = ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (id: string) =>
  suspenseQuery(oauthProvider(id), [id])

/**
 * A connected account of `provider` whose access token carries `scopes`, or the link flow when
 * there is none (the official `user.useOrLinkConnectedAccount(provider, { scopes })`;
 * `ConnectedAccounts.getOrLink`): the page goes to the provider and the hook stays loading. The
 * page is the runtime's `OAuthBrowser` when it provides one, else the browser's own
 * (`OAuthBrowserUnavailable` outside a browser).
 */
const useOrLinkConnectedAccountWith =
  ({ useStackQuery: query }: QueryHooks<ClientServices>) => (provider: string, options: ConnectedAccounts.GetOrLinkConnectionOptions = {}) =>
    query(orLink(provider, options), [provider, scopesKey(options.scopes), JSON.stringify(options.link ?? {})])

/** {@link useOrLinkConnectedAccount} for Suspense: suspends while the page goes to the provider. */
const useSuspenseOrLinkConnectedAccountWith =
  ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) => (provider: string, options: ConnectedAccounts.GetOrLinkConnectionOptions = {}) =>
    suspenseQuery(orLink(provider, options), [provider, scopesKey(options.scopes), JSON.stringify(options.link ?? {})])

/**
 * A provider access token of one connected account (the official `connection.useAccessToken({ scopes })`;
 * `ConnectedAccounts.getConnectionAccessToken`): `{ accessToken }`, or the error
 * `OauthAccessTokenNotAvailable` when the account's token lacks a scope or cannot be had.
 */
const useConnectionAccessTokenWith =
  ({ useStackQuery: query }: QueryHooks<ClientServices>) =>
  (connection: ConnectedAccounts.AccountRef, options: ConnectedAccounts.ConnectionAccessTokenOptions = {}) =>
    query(ConnectedAccounts.getConnectionAccessToken(connection, options), [connection.provider, connection.providerAccountId, scopesKey(options.scopes)])

/** {@link useConnectionAccessToken} for Suspense. */
const useSuspenseConnectionAccessTokenWith =
  ({ useStackSuspenseQuery: suspenseQuery }: QueryHooks<ClientServices>) =>
  (connection: ConnectedAccounts.AccountRef, options: ConnectedAccounts.ConnectionAccessTokenOptions = {}) =>
    suspenseQuery(ConnectedAccounts.getConnectionAccessToken(connection, options), [
      connection.provider,
      connection.providerAccountId,
      scopesKey(options.scopes)
    ])

/**
 * The hooks for the reads the SDK caches, made of `hooks` (each needs only the services of a
 * Stack layer, `Stack.ClientServices`). The module's exports are these over the generic hooks;
 * `makeStackHooks(runtime)` makes them over the runtime's typed ones.
 */
export const makeDomainHooks = (hooks: QueryHooks<ClientServices>) => ({
  useUser: useUserWith(hooks),
  useSuspenseUser: useSuspenseUserWith(hooks),
  useContactChannels: useContactChannelsWith(hooks),
  useSuspenseContactChannels: useSuspenseContactChannelsWith(hooks),
  useNotificationCategories: useNotificationCategoriesWith(hooks),
  useSuspenseNotificationCategories: useSuspenseNotificationCategoriesWith(hooks),
  useApiKeys: useApiKeysWith(hooks),
  useSuspenseApiKeys: useSuspenseApiKeysWith(hooks),
  useSessions: useSessionsWith(hooks),
  useSuspenseSessions: useSuspenseSessionsWith(hooks),
  useProject: useProjectWith(hooks),
  useSuspenseProject: useSuspenseProjectWith(hooks),
  useTeams: useTeamsWith(hooks),
  useSuspenseTeams: useSuspenseTeamsWith(hooks),
  useTeam: useTeamWith(hooks),
  useSuspenseTeam: useSuspenseTeamWith(hooks),
  useTeamMembers: useTeamMembersWith(hooks),
  useSuspenseTeamMembers: useSuspenseTeamMembersWith(hooks),
  useTeamInvitations: useTeamInvitationsWith(hooks),
  useSuspenseTeamInvitations: useSuspenseTeamInvitationsWith(hooks),
  usePermission: usePermissionWith(hooks),
  useSuspensePermission: useSuspensePermissionWith(hooks),
  useTeamApiKeys: useTeamApiKeysWith(hooks),
  useSuspenseTeamApiKeys: useSuspenseTeamApiKeysWith(hooks),
  usePermissions: usePermissionsWith(hooks),
  useSuspensePermissions: useSuspensePermissionsWith(hooks),
  useProjectPermission: useProjectPermissionWith(hooks),
  useSuspenseProjectPermission: useSuspenseProjectPermissionWith(hooks),
  useProjectPermissions: useProjectPermissionsWith(hooks),
  useSuspenseProjectPermissions: useSuspenseProjectPermissionsWith(hooks),
  useReceivedInvitations: useReceivedInvitationsWith(hooks),
  useSuspenseReceivedInvitations: useSuspenseReceivedInvitationsWith(hooks),
  useConnectedAccounts: useConnectedAccountsWith(hooks),
  useSuspenseConnectedAccounts: useSuspenseConnectedAccountsWith(hooks),
  useConnectedAccount: useConnectedAccountWith(hooks),
  useSuspenseConnectedAccount: useSuspenseConnectedAccountWith(hooks),
  useOAuthProviders: useOAuthProvidersWith(hooks),
  useSuspenseOAuthProviders: useSuspenseOAuthProvidersWith(hooks),
  useOAuthProvider: useOAuthProviderWith(hooks),
  useSuspenseOAuthProvider: useSuspenseOAuthProviderWith(hooks),
  useOrLinkConnectedAccount: useOrLinkConnectedAccountWith(hooks),
  useSuspenseOrLinkConnectedAccount: useSuspenseOrLinkConnectedAccountWith(hooks),
  useConnectionAccessToken: useConnectionAccessTokenWith(hooks),
  useSuspenseConnectionAccessToken: useSuspenseConnectionAccessTokenWith(hooks)
})

const oauthProvider = (id: string) => Effect.map(ConnectedAccounts.getOAuthProvider(id), Option.getOrNull)

/** A stable dependency for a list of scopes. */
const scopesKey = (scopes: ReadonlyArray<string> | undefined): string => (scopes ?? []).join(" ")

/** `ConnectedAccounts.getOrLink` on the runtime's `OAuthBrowser`, else on the browser's own page. */
const orLink = (provider: string, options: ConnectedAccounts.GetOrLinkConnectionOptions) => {
  const effect = ConnectedAccounts.getOrLink(provider, options)
  return Effect.flatMap(Effect.serviceOption(OAuthBrowser.OAuthBrowser), (page) =>
    Option.isSome(page)
      ? Effect.provideService(effect, OAuthBrowser.OAuthBrowser, page.value)
      : Effect.flatMap(OAuthBrowser.makeBrowser, (browser) => Effect.provideService(effect, OAuthBrowser.OAuthBrowser, browser)))
}

/** The first connected account of a provider, or the one named by `{ provider, providerAccountId }`; `null` when none. */
const connectedAccount = (target: string | ConnectedAccounts.AccountRef) =>
  Effect.map(
    ConnectedAccounts.list(),
    (accounts) =>
      accounts.find((account) =>
        typeof target === "string"
          ? account.provider === target
          : account.provider === target.provider && account.providerAccountId === target.providerAccountId
      ) ?? null
  )

const accountDeps = (target: string | ConnectedAccounts.AccountRef) => typeof target === "string" ? [target] : [target.provider, target.providerAccountId]

/** The hooks {@link makeDomainHooks} makes. */
export type DomainHooks = ReturnType<typeof makeDomainHooks>

// the plain domain hooks run on the provider's runtime; each needs only client access, whatever
// runtime the app declared (`Register`), so they are made over the untyped implementation
const generic: QueryHooks<ClientServices> = {
  useStackQuery: (effect, deps, options = {}) => useQueryWith("useStackQuery", undefined, effect, deps, options),
  useStackSuspenseQuery: (effect, deps) => useSuspenseQueryWith("useStackSuspenseQuery", undefined, effect, deps),
  useStackQueryInitial: (effect, deps, initial) => useQueryWith("useUser", undefined, effect, deps, {}, initial),
  useStackSuspenseQueryInitial: (effect, deps, initial) => useSuspenseQueryWith("useSuspenseUser", undefined, effect, deps, initial)
}

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
export const useUser = useUserWith(generic)

/** {@link useUser} for Suspense: the user (or `null` with `"return-null"`). */
export const useSuspenseUser = useSuspenseUserWith(generic)

/** The signed-in user's contact channels (`ContactChannels.list`, cached). */
export const useContactChannels = useContactChannelsWith(generic)

/** {@link useContactChannels} for Suspense. */
export const useSuspenseContactChannels = useSuspenseContactChannelsWith(generic)

/**
 * The signed-in user's e-mail notification categories (`NotificationCategories.list`, cached; the
 * official SDK's `user.useNotificationCategories()`), re-rendered after `NotificationCategories.setEnabled`.
 */
export const useNotificationCategories = useNotificationCategoriesWith(generic)

/** {@link useNotificationCategories} for Suspense. */
export const useSuspenseNotificationCategories = useSuspenseNotificationCategoriesWith(generic)

/** The signed-in user's API keys (`UserApiKeys.list`, cached). */
export const useApiKeys = useApiKeysWith(generic)

/** {@link useApiKeys} for Suspense. */
export const useSuspenseApiKeys = useSuspenseApiKeysWith(generic)

/** The signed-in user's active sessions (`Sessions.list`, cached). */
export const useSessions = useSessionsWith(generic)

/** {@link useSessions} for Suspense. */
export const useSuspenseSessions = useSuspenseSessionsWith(generic)

/** The current project, client view (`Projects.getCurrent`, cached; kept across sign-ins). */
export const useProject = useProjectWith(generic)

/** {@link useProject} for Suspense. */
export const useSuspenseProject = useSuspenseProjectWith(generic)

/** The teams the signed-in user belongs to (`Teams.listMine`, cached). */
export const useTeams = useTeamsWith(generic)

/** {@link useTeams} for Suspense. */
export const useSuspenseTeams = useSuspenseTeamsWith(generic)

/** One team of the signed-in user (`Teams.get`, cached). */
export const useTeam = useTeamWith(generic)

/** {@link useTeam} for Suspense. */
export const useSuspenseTeam = useSuspenseTeamWith(generic)

/** The member profiles of a team (`TeamMemberProfiles.list`, cached). */
export const useTeamMembers = useTeamMembersWith(generic)

/** {@link useTeamMembers} for Suspense. */
export const useSuspenseTeamMembers = useSuspenseTeamMembersWith(generic)

/** The pending invitations of a team (`TeamInvitations.list`, cached). */
export const useTeamInvitations = useTeamInvitationsWith(generic)

/** {@link useTeamInvitations} for Suspense. */
export const useSuspenseTeamInvitations = useSuspenseTeamInvitationsWith(generic)

/** Whether the signed-in user has a permission in a team, contained permissions included
 * (`Permissions.hasTeamPermission`, over the cached recursive list). */
export const usePermission = usePermissionWith(generic)

/** {@link usePermission} for Suspense. */
export const useSuspensePermission = useSuspensePermissionWith(generic)

/** A team's API keys (`TeamApiKeys.list`, cached). */
export const useTeamApiKeys = useTeamApiKeysWith(generic)

/** {@link useTeamApiKeys} for Suspense. */
export const useSuspenseTeamApiKeys = useSuspenseTeamApiKeysWith(generic)

/** The signed-in user's permissions in a team, contained ones included (`Permissions.listTeamPermissions`, cached). */
export const usePermissions = usePermissionsWith(generic)

/** {@link usePermissions} for Suspense. */
export const useSuspensePermissions = useSuspensePermissionsWith(generic)

/** Whether the signed-in user has a project-scope permission, contained permissions included. */
export const useProjectPermission = useProjectPermissionWith(generic)

/** {@link useProjectPermission} for Suspense. */
export const useSuspenseProjectPermission = useSuspenseProjectPermissionWith(generic)

/** The signed-in user's project-scope permissions (`Permissions.listProjectPermissions`, cached). */
export const useProjectPermissions = useProjectPermissionsWith(generic)

/** {@link useProjectPermissions} for Suspense. */
export const useSuspenseProjectPermissions = useSuspenseProjectPermissionsWith(generic)

/** The pending invitations addressed to the signed-in user (`TeamInvitations.listMine`, cached). */
export const useReceivedInvitations = useReceivedInvitationsWith(generic)

/** {@link useReceivedInvitations} for Suspense. */
export const useSuspenseReceivedInvitations = useSuspenseReceivedInvitationsWith(generic)

/** The signed-in user's connected provider accounts (`ConnectedAccounts.list`). */
export const useConnectedAccounts = useConnectedAccountsWith(generic)

/** {@link useConnectedAccounts} for Suspense. */
export const useSuspenseConnectedAccounts = useSuspenseConnectedAccountsWith(generic)

/**
 * The signed-in user's connected account of one provider (its first), or the one named by
 * `{ provider, providerAccountId }`; `null` when there is none.
 */
export const useConnectedAccount = useConnectedAccountWith(generic)

/** {@link useConnectedAccount} for Suspense. */
export const useSuspenseConnectedAccount = useSuspenseConnectedAccountWith(generic)

/** The signed-in user's OAuth provider connections (`ConnectedAccounts.listOAuthProviders`). */
export const useOAuthProviders = useOAuthProvidersWith(generic)

/** {@link useOAuthProviders} for Suspense. */
export const useSuspenseOAuthProviders = useSuspenseOAuthProvidersWith(generic)

/**
 * One of the signed-in user's OAuth provider connections by its id, or `null` (the official
 * `user.useOAuthProvider(id)`), refreshed by `ConnectedAccounts.updateOAuthProvider` / `deleteOAuthProvider`.
 */
export const useOAuthProvider = useOAuthProviderWith(generic)

/** {@link useOAuthProvider} for Suspense. */
export const useSuspenseOAuthProvider = useSuspenseOAuthProviderWith(generic)

/**
 * A connected account of a provider whose token carries the scopes, or the link flow (the
 * official `user.useOrLinkConnectedAccount(provider, { scopes })`): the page goes to the provider
 * and the hook stays loading.
 *
 * @example
 * ```tsx
 * import { Redacted } from "effect"
 * import type { ConnectedAccounts } from "stack-auth-effect"
 * import { useConnectionAccessToken, useOrLinkConnectedAccount } from "stack-auth-effect/react"
 *
 * const Repos = ({ connection }: { readonly connection: ConnectedAccounts.OAuthConnection }) => {
 *   const token = useConnectionAccessToken(connection, { scopes: ["repo"] })
 *   return token.status === "success" ? <span>{Redacted.value(token.data.accessToken).length}</span> : null
 * }
 *
 * const GitHub = () => {
 *   const github = useOrLinkConnectedAccount("github", { scopes: ["repo"] })
 *   return github.status === "success" ? <Repos connection={github.data} /> : <p>Connecting GitHub…</p>
 * }
 * ```
 */
export const useOrLinkConnectedAccount = useOrLinkConnectedAccountWith(generic)

/** {@link useOrLinkConnectedAccount} for Suspense: suspends while the page goes to the provider. */
export const useSuspenseOrLinkConnectedAccount = useSuspenseOrLinkConnectedAccountWith(generic)

/**
 * A provider access token of one connected account (the official `connection.useAccessToken({ scopes })`):
 * `{ accessToken }`, or `OauthAccessTokenNotAvailable` when the token lacks a scope or cannot be had.
 */
export const useConnectionAccessToken = useConnectionAccessTokenWith(generic)

/** {@link useConnectionAccessToken} for Suspense. */
export const useSuspenseConnectionAccessToken = useSuspenseConnectionAccessTokenWith(generic)
