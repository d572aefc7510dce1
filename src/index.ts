/**
 * stack-auth-effect: an Effect SDK for the Stack Auth API.
 *
 * @module
 */
export * as Access from "./core/Access.js"
export * as Endpoint from "./core/Endpoint.js"
export * as Errors from "./core/Errors.js"
export * as KnownError from "./core/KnownError.js"
export * as KnownErrors from "./core/KnownErrors.js"
export * as RetryPolicy from "./core/RetryPolicy.js"
export * as StackClient from "./core/StackClient.js"
export * as StackConfig from "./core/StackConfig.js"
export * as Session from "./session/Session.js"
export * as TokenStore from "./session/TokenStore.js"
/** The browser cookie token store (the default of `Stack.layerClient` in a browser): sessions survive reloads. */
export * as BrowserCookieStore from "./session/BrowserCookieStore.js"
export * as Stack from "./Stack.js"
export * as QueryCache from "./cache/QueryCache.js"
export * as Password from "./auth/Password.js"
export * as PasswordReset from "./auth/PasswordReset.js"
export * as EmailVerification from "./auth/EmailVerification.js"
export * as MagicLink from "./auth/MagicLink.js"
export * as HandlerUrls from "./core/HandlerUrls.js"
/**
 * Redirects to the handler pages and to URLs: `after_auth_return_to`, the trusted-URL check,
 * redirect methods (window, framework router, custom function, none) and the 2000 ms wait.
 */
export * as Redirects from "./urls/Redirects.js"
/** The trusted-URL check of redirects (same-origin paths, the app's origin, trusted domains). */
export * as UrlTrust from "./urls/UrlTrust.js"
export * as Sessions from "./auth/Sessions.js"
export * as ServerSessions from "./auth/ServerSessions.js"
export * as AdminSessions from "./auth/AdminSessions.js"
export * as Mfa from "./auth/Mfa.js"
export * as Passkeys from "./auth/Passkeys.js"
export * as WebAuthnBrowser from "./auth/WebAuthnBrowser.js"
export * as Totp from "./auth/Totp.js"
export * as Anonymous from "./auth/Anonymous.js"
export * as GetUser from "./auth/GetUser.js"
export * as Cli from "./auth/Cli.js"
export * as Tokens from "./auth/Tokens.js"
export * as OAuth from "./auth/OAuth.js"
export * as OAuthBrowser from "./auth/OAuthBrowser.js"
export * as ConnectedAccounts from "./connected-accounts/ConnectedAccounts.js"
export * as ServerConnectedAccounts from "./connected-accounts/ServerConnectedAccounts.js"
export * as ContactChannels from "./contact-channels/ContactChannels.js"
export * as ServerContactChannels from "./contact-channels/ServerContactChannels.js"
export * as User from "./users/User.js"
export * as Users from "./users/Users.js"
export * as Metadata from "./users/Metadata.js"
export * as Hydration from "./users/Hydration.js"
export * as ServerUsers from "./users/ServerUsers.js"
export * as Projects from "./projects/Projects.js"
export * as AdminProjects from "./projects/AdminProjects.js"
export * as ProductionMode from "./projects/ProductionMode.js"
export * as ProjectConfig from "./projects/ProjectConfig.js"
export * as InternalApiKeys from "./projects/InternalApiKeys.js"
export * as UserApiKeys from "./api-keys/UserApiKeys.js"
export * as ServerUserApiKeys from "./api-keys/ServerUserApiKeys.js"
export * as ApiKey from "./api-keys/ApiKey.js"
export * as TeamApiKeys from "./api-keys/TeamApiKeys.js"
export * as ServerTeamApiKeys from "./api-keys/ServerTeamApiKeys.js"
export * as Teams from "./teams/Teams.js"
export * as ServerTeams from "./teams/ServerTeams.js"
export * as TeamMemberProfiles from "./teams/TeamMemberProfiles.js"
export * as TeamInvitations from "./teams/TeamInvitations.js"
export * as ServerTeamInvitations from "./teams/ServerTeamInvitations.js"
export * as Admin from "./projects/Admin.js"
export * as EmailTemplates from "./emails/EmailTemplates.js"
export * as Emails from "./emails/Emails.js"
export * as NotificationCategories from "./emails/NotificationCategories.js"
export * as ServerNotificationCategories from "./emails/ServerNotificationCategories.js"
export * as ServerEmails from "./emails/ServerEmails.js"
export * as EmailOutbox from "./emails/EmailOutbox.js"
export * as EmailThemes from "./emails/EmailThemes.js"
export * as EmailDrafts from "./emails/EmailDrafts.js"
export * as Permissions from "./permissions/Permissions.js"
export * as ServerPermissions from "./permissions/ServerPermissions.js"
export * as PermissionDefinitions from "./permissions/PermissionDefinitions.js"
export { AdminAccess, ServerAccess } from "./core/Access.js"
export {
  ConfigurationError,
  ConnectivityError,
  HttpError,
  InvalidArgument,
  InvalidResponse,
  RateLimited,
  SessionError,
  UnexpectedKnownError,
  UnsupportedKnownError,
  UserNotSignedIn
} from "./core/Errors.js"
export type { TransportError } from "./core/Errors.js"
export * as Schedules from "./core/Schedules.js"
export * as AccessTokenVerifier from "./session/AccessTokenVerifier.js"
