/**
 * One place that turns every typed error a screen can get into a sentence for the person using
 * the app. The screens never show an error's `message` (the service's or the SDK's wording is
 * written for developers: "Request validation failed on POST /api/v1/…"); they show
 * {@link describeError}'s `text`, and its `tag` (`EmailPasswordMismatch`…) in a small details line
 * for developers.
 *
 * Errors are matched by their `_tag` only, so the table covers the SDK's known errors, its own
 * errors (`ConnectivityError`, `HttpError`…), the grouped `ConfigurationError` / `SessionError`
 * (matched again on `reason._tag` inside them) and the app's own (`TotpSetupCodeMismatch`). An
 * `UnexpectedKnownError` is described by the known error it carries. Anything else gets a
 * generic sentence: never a developer's text.
 */

/** What a screen shows for a failure. */
export interface ErrorDescription {
  /** The sentence for the person using the app. */
  readonly text: string
  /** The error's tag (or tags, `Outer › inner`), for the details line; `undefined` for a non-error. */
  readonly tag: string | undefined
}

/** Sentences that replace the table's on one screen (e.g. `PasswordConfirmationMismatch` on "Change password"). */
export type MessageOverrides = Readonly<Record<string, string>>

const tryAgain = "Please try again in a moment."

/** Every tag a screen of this app can get, and what it tells the person. */
const sentences: Readonly<Record<string, string>> = {
  // signing in and up
  EmailPasswordMismatch: "Wrong e-mail or password.",
  UserEmailAlreadyExists: "An account with this e-mail already exists. Sign in instead, or use another address.",
  ContactChannelAlreadyUsedForAuthBySomeoneElse: "This e-mail address already belongs to another account.",
  ContactChannelAlreadyExists: "You have already added this e-mail address.",
  PasswordTooShort: "Your password is too short: use at least 8 characters.",
  PasswordTooLong: "Your password is too long: use at most 70 characters.",
  PasswordConfirmationMismatch: "The passwords do not match.",
  UserDoesNotHavePassword: "This account has no password: sign in with the method you used to sign up.",
  UserAlreadyHasPassword: "You already have a password: change it with your current one.",
  SignUpNotEnabled: "New accounts cannot be created here at the moment.",
  SignUpRejected: "This account could not be created.",
  PasswordAuthenticationNotEnabled: "Signing in with a password is turned off for this app.",
  PasskeyAuthenticationNotEnabled: "Signing in with a passkey is turned off for this app.",
  MagicLinkNotEnabled: "Sign-in links by e-mail are turned off for this app.",
  EmailNotVerified: "Please verify your e-mail address first: open the link we sent you.",
  RestrictedUserNotAllowed: "Please verify your e-mail address first: open the link we sent you.",
  UserNotFound: "We could not find that account.",
  UserIdDoesNotExist: "We could not find that account.",
  UserNotSignedIn: "You are signed out. Please sign in again.",
  UserAuthenticationRequired: "You are signed out. Please sign in again.",
  CannotGetOwnUserWithoutUser: "You are signed out. Please sign in again.",
  RefreshTokenNotFoundOrExpired: "Your session has ended. Please sign in again.",
  AccessTokenExpired: "Your session has ended. Please sign in again.",
  UnparsableAccessToken: "Your session has ended. Please sign in again.",
  ProviderRejected: "Your session has ended. Please sign in again.",
  CannotDeleteCurrentSession: "This is the device you are using: sign out instead.",
  // codes from e-mails
  VerificationCodeNotFound: "This link is not valid. Ask for a new one.",
  VerificationCodeExpired: "This link has expired. Ask for a new one.",
  VerificationCodeAlreadyUsed: "This link was already used. Ask for a new one if you still need it.",
  VerificationCodeMaxAttemptsReached: "This code was tried too many times. Ask for a new one.",
  MagicLinkCodeMissing: "This link has no sign-in code. Open the link of the e-mail we sent you.",
  EmailAlreadyVerified: "This e-mail address is already verified.",
  EmailNotAssociatedWithUser: "This e-mail address does not belong to your account.",
  EmailIsNotPrimaryEmail: "This is not your primary e-mail address.",
  UserHasNoPrimaryEmail: "Add an e-mail address first.",
  // two-factor, passkeys, OAuth
  InvalidTotpCode: "That code is not right. Check the time on your device and enter the current code.",
  TotpSetupCodeMismatch: "That code does not match. Check the time on your device and try again.",
  MultiFactorAuthenticationRequired: "Enter the code from your authenticator app to finish signing in.",
  PasskeyAuthenticationFailed: "Your passkey was not accepted. Try again, or sign in another way.",
  PasskeyRegistrationFailed: "Your passkey could not be saved. Please try again.",
  PasskeyWebauthnError: "Your passkey could not be used. Please try again.",
  WebAuthnCeremonyError: "The passkey prompt was closed or timed out. Please try again.",
  WebAuthnNotSupported: "This browser cannot use passkeys.",
  OauthProviderAccessDenied: "You did not allow the sign-in at your provider.",
  OAuthCallbackError: "The sign-in with your provider did not finish. Please start again.",
  InvalidAuthorizationCode: "The sign-in with your provider expired. Please start again.",
  OuterOauthTimeout: "The sign-in with your provider took too long. Please start again.",
  OauthProviderNotFoundOrNotEnabled: "This sign-in provider is not available.",
  OauthProviderTemporarilyUnavailable: "Your sign-in provider is not answering. " + tryAgain,
  OauthProviderAccountIdAlreadyUsedForSignIn: "This provider account is already linked to another account.",
  OAuthBrowserUnavailable: "This page cannot open your sign-in provider.",
  UntrustedRedirectUrl: "That page is not part of this app.",
  RedirectUrlNotWhitelisted: "That page is not part of this app.",
  // teams, permissions, API keys
  TeamPermissionRequired: "You do not have permission to do this in this team.",
  ProjectPermissionRequired: "You do not have permission to do this.",
  TeamNotFound: "This team no longer exists.",
  TeamMembershipNotFound: "You are no longer a member of this team.",
  TeamMembershipAlreadyExists: "You are already a member of this team.",
  TeamInvitationRestrictedUserNotAllowed: "Please verify your e-mail address before joining a team.",
  TeamPermissionNotFound: "This member does not have that permission.",
  PermissionNotFound: "This permission does not exist.",
  ClientTeamCreationDisabled: "Creating teams is turned off for this app.",
  ApiKeyNotFound: "This API key no longer exists.",
  ApiKeyRevoked: "This API key was revoked.",
  ApiKeyExpired: "This API key has expired.",
  UserApiKeysNotEnabled: "Personal API keys are turned off for this app.",
  TeamApiKeysNotEnabled: "Team API keys are turned off for this app.",
  ClientUserDeletionNotEnabled: "Deleting your account is turned off for this app. Contact support.",
  InvalidProfileImageUrl: "That picture could not be used.",
  // CLI login
  CliInvalidLoginCode: "This login link is not valid or has expired. Start the login again from your terminal.",
  CliAuthError: "The command-line login failed. Start it again from your terminal.",
  CliAuthExpiredError: "The command-line login expired. Start it again from your terminal.",
  CliAuthUsedError: "This command-line login was already used. Start it again from your terminal.",
  // the app's own backend (./appApi.ts), by its refusal code
  PermissionDenied: "You are not allowed to manage this team's permissions.",
  NotSignedIn: "You are signed out. Please sign in again.",
  Unreachable: "We can't reach the server. Check your connection and try again.",
  // input the service refused (the screens check the obvious first)
  SchemaError: "Please check what you entered: something is not in the right form.",
  BodyParsingError: "Please check what you entered: something is not in the right form.",
  InvalidArgument: "Please check what you entered: something is not in the right form.",
  // the connection
  ConnectivityError: "We can't reach the server. Check your connection and try again.",
  RateLimited: "Too many attempts. " + tryAgain,
  HttpError: "The server could not do this right now. " + tryAgain,
  InvalidResponse: "The server sent an answer we did not understand. " + tryAgain,
  UnsupportedKnownError: "Something went wrong on our side. " + tryAgain,
  // the app's setup (developers see the tag)
  ConfigurationError: "This app is not set up correctly. Please contact support.",
  StackConfigError: "This app is not set up correctly. Please contact support.",
  MissingAccessKey: "This app is not set up correctly. Please contact support.",
  SessionError: "Your session could not be read. Please sign in again.",
  TokenStoreError: "Your session could not be saved in this browser. Check that cookies are allowed.",
  RedirectFailed: "This page could not be opened. " + tryAgain
}

const generic = "Something went wrong. " + tryAgain

const tagOf = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && "_tag" in value && typeof value._tag === "string" ? value._tag : undefined

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined

/**
 * The sentence and the tag for `error`. `overrides` replace the table's sentence for some tags on
 * one screen. A grouped error (`ConfigurationError`, `SessionError`) is described by its
 * `reason` when the table knows the reason's tag; an `UnexpectedKnownError` by the error inside.
 */
export const describeError = (error: unknown, overrides: MessageOverrides = {}): ErrorDescription => {
  const tag = tagOf(error)
  if (tag === undefined) return { text: generic, tag: undefined }
  const pick = (name: string): string | undefined => overrides[name] ?? sentences[name]
  if (tag === "UnexpectedKnownError") {
    const inner = tagOf(field(error, "error"))
    return { text: (inner === undefined ? undefined : pick(inner)) ?? generic, tag: inner === undefined ? tag : `${tag} › ${inner}` }
  }
  if (tag === "OAuthCallbackError" && field(field(error, "cause"), "error") === "access_denied") {
    return { text: pick("OauthProviderAccessDenied") ?? generic, tag: `${tag} › access_denied` }
  }
  if (tag === "AppApiError") {
    const code = field(error, "code")
    const text = typeof code === "string" ? pick(code) : undefined
    return { text: text ?? generic, tag: typeof code === "string" ? `${tag} › ${code}` : tag }
  }
  if (tag === "ConfigurationError" || tag === "SessionError") {
    const reason = tagOf(field(error, "reason"))
    const text = (reason === undefined ? undefined : overrides[reason]) ?? pick(tag) ?? generic
    return { text, tag: reason === undefined ? tag : `${tag} › ${reason}` }
  }
  return { text: pick(tag) ?? generic, tag }
}

/** Whether a failure means the server could not be reached (no answer, or it kept refusing). */
export const isNetworkFailure = (error: unknown): boolean => {
  const tag = tagOf(error)
  return tag === "ConnectivityError" || tag === "RateLimited" || (tag === "HttpError" && Number(field(error, "status")) >= 500)
}

// -----------------------------------------------------------------------------------------------
// Input checks before sending (the service checks again; these catch the obvious at once)
// -----------------------------------------------------------------------------------------------

/** The shortest password the demo project accepts (the service's own minimum). */
export const minPasswordLength = 8

/** The longest password the service accepts. */
export const maxPasswordLength = 70

/** What is wrong with an e-mail address as typed, or `undefined` when it looks like one. */
export const checkEmail = (value: string): string | undefined => {
  const email = value.trim()
  if (email === "") return "Enter your e-mail address."
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.endsWith(".") || email.includes("..")) {
    return "Enter an e-mail address like name@example.com."
  }
  return undefined
}

/** What is wrong with a new password, or `undefined` when it can be sent. */
export const checkNewPassword = (value: string): string | undefined => {
  if (value.length < minPasswordLength) return `Use at least ${minPasswordLength} characters.`
  if (value.length > maxPasswordLength) return `Use at most ${maxPasswordLength} characters.`
  return undefined
}
