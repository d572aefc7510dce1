/**
 * stack-auth-effect/react: the React binding (provider, generic hooks over the app's runtime and
 * the SDK's query cache, hooks for the reads the SDK caches, and `makeStackHooks(runtime)`: all of
 * them typed by the services of the app's runtime).
 *
 * @module
 */
export { defaultErrorHandler, errorMessage, StackProvider, useStackContext, useStackErrorHandler, useStackRuntime } from "./StackProvider.js"
export type { HydrationContext, StackContextValue, StackErrorHandler, StackProviderProps, StackRuntime } from "./StackProvider.js"
export { useStackCallback, useStackMutation, useStackQuery, useStackSuspenseQuery } from "./hooks.js"
export type { StackMutationOptions, StackMutationResult, StackQueryOptions, StackQueryResult } from "./hooks.js"
export type { HookNeeding, NeedsRegisteredRuntimeWith, Register, RegisteredRuntime, RegisteredServices } from "./register.js"
export { makeStackHooks } from "./makeStackHooks.js"
export type { StackHooks, StackRuntimeHooks } from "./makeStackHooks.js"
export {
  useApiKeys,
  useContactChannels,
  useNotificationCategories,
  usePermission,
  useProject,
  useSessions,
  useSuspenseApiKeys,
  useSuspenseContactChannels,
  useSuspenseNotificationCategories,
  useSuspensePermission,
  useSuspenseProject,
  useSuspenseSessions,
  useSuspenseTeam,
  useSuspenseTeamApiKeys,
  useSuspenseTeamInvitations,
  useSuspenseTeamMembers,
  useSuspenseTeams,
  useSuspenseUser,
  useTeam,
  useTeamApiKeys,
  useTeamInvitations,
  useTeamMembers,
  useTeams,
  useUser
} from "./domain.js"
export type { DomainHooks, QueryHooks, UserFor, UseUserError, UseUserOptions, UseUserOr } from "./domain.js"
export {
  useConnectedAccount,
  useConnectedAccounts,
  useOAuthProviders,
  usePermissions,
  useProjectPermission,
  useProjectPermissions,
  useReceivedInvitations,
  useSuspenseConnectedAccount,
  useSuspenseConnectedAccounts,
  useSuspenseOAuthProviders,
  useSuspensePermissions,
  useSuspenseProjectPermission,
  useSuspenseProjectPermissions,
  useSuspenseReceivedInvitations
} from "./domain.js"
export {
  useConnectionAccessToken,
  useOAuthProvider,
  useOrLinkConnectedAccount,
  useSuspenseConnectionAccessToken,
  useSuspenseOAuthProvider,
  useSuspenseOrLinkConnectedAccount
} from "./domain.js"
export { useAccessToken, useAuthHeaders, useAuthJson, useAuthorizationHeader, useRefreshToken } from "./tokens.js"
export type { AuthJson, TokenHooks } from "./tokens.js"
export { usePartialUser, useSuspensePartialUser } from "./tokens.js"
export type { PartialUser, PartialUserOptions } from "./tokens.js"
export { useOwnedProjects, useSuspenseOwnedProjects, useSuspenseTeamProfile, useTeamProfile } from "./profiles.js"
export type { ProfileHooks } from "./profiles.js"
export {
  useAdminProject,
  useConfig,
  useConfigOverride,
  useInternalApiKeys,
  useMetrics,
  useProductionModeErrors,
  useProjectPermissionDefinitions,
  useSuspenseAdminProject,
  useSuspenseConfig,
  useSuspenseConfigOverride,
  useSuspenseInternalApiKeys,
  useSuspenseMetrics,
  useSuspenseProductionModeErrors,
  useSuspenseProjectPermissionDefinitions,
  useSuspenseSvixToken,
  useSuspenseTeamPermissionDefinitions,
  useSvixToken,
  useTeamPermissionDefinitions
} from "./admin.js"
export type { AdminHooks, UseMetricsOptions } from "./admin.js"
export type { AdminServices } from "./register.js"
export { useCliAuthConfirmation } from "./cli.js"
export type { CliAuthConfirmation, CliHooks } from "./cli.js"
export type { ServerHooks, ServerServices } from "./server.js"
export type { EmailAdminHooks, EmailAdminServices, EmailServerHooks, EmailServerServices } from "./emails.js"
export { useMfaSignIn } from "./mfa.js"
export type { MfaHooks, MfaSignIn, MfaSignInState } from "./mfa.js"
