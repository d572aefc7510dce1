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
export * as Stack from "./Stack.js"
export * as Password from "./auth/Password.js"
export * as PasswordReset from "./auth/PasswordReset.js"
export * as EmailVerification from "./auth/EmailVerification.js"
export * as MagicLink from "./auth/MagicLink.js"
export * as HandlerUrls from "./urls/HandlerUrls.js"
export * as Sessions from "./auth/Sessions.js"
export * as Tokens from "./auth/Tokens.js"
export * as User from "./users/User.js"
export * as Users from "./users/Users.js"
export { AdminAccess, ServerAccess } from "./core/Access.js"
export { ConnectivityError, HttpError, InvalidArgument, InvalidResponse, RateLimited, UnsupportedKnownError, UserNotSignedIn } from "./core/Errors.js"
export type { TransportError } from "./core/Errors.js"
export * as Schedules from "./core/Schedules.js"
