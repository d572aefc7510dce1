/**
 * The small, fixed set of failures that are not known errors of the service:
 * transport faults, malformed answers, unknown or undeclared codes and client-side states,
 * and the two grouped errors ({@link ConfigurationError}, {@link SessionError}) whose typed
 * `reason` is the service's known error.
 *
 * Every endpoint's error channel is its declared known errors (the business ones as their own
 * tags, the configuration and session ones grouped) plus {@link TransportError}.
 * No error type of the HTTP client (`effect/http`) ever reaches a public signature: they are translated here.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as KnownErrors from "./KnownErrors.js"
import type { AnyKnownError } from "./KnownErrors.js"

/**
 * A response the SDK cannot trust: malformed JSON, a body that does not match the endpoint's
 * schema, a known-error header that names another code than the body, an invalid token response,
 * JSON nested deeper than the SDK reads (512 levels), a body larger than the retry policy's
 * `maxResponseBytes` (8 MiB by default; reading stops there), a body that failed while it was
 * read (cut short, or not matching its `Content-Encoding`). The service answered: never retried.
 */
export class InvalidResponse extends Data.TaggedError("InvalidResponse")<{
  /** What was wrong, without any token or key text. */
  readonly message: string
  /** HTTP status of the response (the actual status when the override header was used). */
  readonly status: number
  /** Method and URL of the request (secret query values, e.g. OAuth's `client_secret`, shown as `<redacted>`). */
  readonly method: string
  readonly url: string
}> {}

/**
 * A non-2xx answer that is not a known error (no known-error header): plain-text 4xx/5xx,
 * HTML error pages, 508 without the loop marker, a 429 that persisted past the retry policy, or a
 * redirect (3xx, or a browser's opaque redirect with status 0): the service never redirects the
 * SDK's calls, so a redirect is never followed and nothing further is sent.
 */
export class HttpError extends Data.TaggedError("HttpError")<{
  readonly message: string
  readonly status: number
  /** The response body as text (the service's plain-text message). */
  readonly body: string
  readonly method: string
  readonly url: string
}> {}

/**
 * A known error whose code the catalogue does not know (a newer service). Code, status, message
 * and raw details are kept. A catalogued code the call does not declare is an
 * {@link UnexpectedKnownError} instead.
 */
export class UnsupportedKnownError extends Data.TaggedError("UnsupportedKnownError")<{
  readonly message: string
  readonly code: string
  readonly status: number
  readonly details: unknown
}> {}

/**
 * A known error of the catalogue that the call does not declare (the service answered a code this
 * endpoint is not documented to give). `error` is the instance of the code's class, its `details`
 * decoded, so nothing is lost and the declared unions stay exact; match it with
 * `Effect.catchTag("UnexpectedKnownError", …)` and look at `error._tag`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Users } from "stack-auth-effect"
 *
 * const program = Users.getCurrent().pipe(
 *   Effect.catchTag("UnexpectedKnownError", (unexpected) =>
 *     unexpected.error._tag === "BranchDoesNotExist" ? Effect.succeed(null) : Effect.fail(unexpected)
 *   )
 * )
 * ```
 */
export class UnexpectedKnownError extends Data.TaggedError("UnexpectedKnownError")<{
  /** The human readable message (the body's `error`). */
  readonly message: string
  /** The wire code, e.g. `"BRANCH_DOES_NOT_EXIST"`. */
  readonly code: AnyKnownError["code"]
  /** HTTP status of the response. */
  readonly status: number
  /** The error as its catalogue class, `details` decoded. */
  readonly error: AnyKnownError
}> {}

/**
 * The request never got an answer (DNS, refused or reset connection, no complete answer within
 * the retry policy's `attemptTimeout`); an answer whose body then fails is an
 * {@link InvalidResponse}, not this. Raised at once
 * for non-idempotent requests; for idempotent ones only after the retry policy gave up. Also raised
 * at once, never retried, when the request could not be built and nothing was sent (a header value
 * with CR/LF or text above U+00FF, an invalid base URL); the message says so and never shows the
 * value.
 */
export class ConnectivityError extends Data.TaggedError("ConnectivityError")<{
  readonly message: string
  readonly method: string
  readonly url: string
  /** The underlying failure (an HTTP client error's cause, a thrown value, or a description of a local failure), for diagnostics. */
  readonly cause: unknown
}> {}

/**
 * The service kept answering 429 until the retry policy gave up, or asked (`Retry-After`) for a
 * longer wait than the policy's `maxRetryAfter` (60 s by default): then the call fails at once,
 * after one request, without waiting.
 */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly message: string
  readonly method: string
  readonly url: string
  /** The last `Retry-After` value in seconds (an HTTP-date as the seconds until it), when the service sent one. */
  readonly retryAfterSeconds: number | undefined
}> {}

/** The failures any request can end in, whatever the endpoint. */
export type TransportError = InvalidResponse | HttpError | UnsupportedKnownError | UnexpectedKnownError | ConnectivityError | RateLimited

/** A call that needs a signed-in user was made while the session holds no usable token. */
export class UserNotSignedIn extends Data.TaggedError("UserNotSignedIn")<{
  readonly message: string
}> {
  /** The error with its standard message. */
  static readonly make = () => new UserNotSignedIn({ message: "No user is signed in." })
}

/** An argument the SDK rejects before anything is sent (e.g. both a user and a team owner). */
export class InvalidArgument extends Data.TaggedError("InvalidArgument")<{
  readonly message: string
  /** The argument's name. */
  readonly argument: string
}> {}

/**
 * Known errors that say the app's configuration is wrong, not the user's input or state: an
 * unknown project, missing or wrong keys (publishable, secret server, super secret admin; the
 * OAuth client id/secret, which are the project id and publishable key), a wrong access type, an
 * unusable admin credential (the `PROJECT_AUTHENTICATION_ERROR` family, which includes
 * `INVALID_ADMIN_ACCESS_TOKEN` and `EXPECTED_INTERNAL_PROJECT`).
 */
export type ConfigurationReason =
  | KnownErrors.ProjectAuthenticationError
  | KnownErrors.CurrentProjectNotFound
  | KnownErrors.InvalidOauthClientIdOrSecret

/**
 * The app's configuration was refused by the service: `reason` is the service's known error (an
 * unknown project, a missing or wrong key, a wrong access type…), code, details and message kept.
 * The type parameter narrows `reason` to what the call can meet (a client call's reason is never
 * `InvalidSecretServerKey`); match on `reason._tag`.
 *
 * Missing settings are found earlier, when the layer is built (`StackConfigError`,
 * `MissingAccessKey`), and never reach a call.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Password } from "stack-auth-effect"
 *
 * const program = Password.signInWithPassword({ email: "a@example.com", password: "secret" }).pipe(
 *   Effect.catchTag("ConfigurationError", (error) =>
 *     error.reason._tag === "InvalidPublishableClientKey"
 *       ? Effect.die(new Error(`Check STACK_PUBLISHABLE_CLIENT_KEY for ${error.reason.details.project_id}`))
 *       : Effect.fail(error)
 *   )
 * )
 * ```
 */
export class ConfigurationError<Reason extends ConfigurationReason = ConfigurationReason> extends Data.TaggedError(
  "ConfigurationError"
)<{
  /** "Stack Auth configuration error: " and the service's message. */
  readonly message: string
  /** The service's known error. */
  readonly reason: ConfigurationReason
}> {
  /** The service's known error, narrowed to what the call can meet. */
  declare readonly reason: Reason

  /** The error for a known error of the service, with a message that names it. */
  static make<Reason extends ConfigurationReason>(reason: Reason): ConfigurationError<Reason> {
    return new ConfigurationError({ message: `Stack Auth configuration error: ${reason.message}`, reason }) as ConfigurationError<Reason>
  }
}

/**
 * The service rejected the tokens of the user's session (`INVALID_ACCESS_TOKEN` after the SDK's own
 * refresh and retry), or a refresh token (`REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED`, `PROVIDER_REJECTED`)
 * where a call sends one itself. Inside a session the SDK ends the session on a rejected refresh
 * token (signed out: `UserNotSignedIn` or no user) instead of failing.
 */
export type SessionRejection = KnownErrors.InvalidAccessToken | KnownErrors.RefreshTokenNotFoundOrExpired | KnownErrors.ProviderRejected

/**
 * Why a refresh of the session's access token failed without ending the session (the refresh token
 * is kept): the refresh grant's known errors outside the `REFRESH_TOKEN_ERROR` family, and a form
 * that could not be encoded. Transport failures of a refresh stay {@link TransportError}s.
 */
export type RefreshFailure =
  | KnownErrors.InvalidOauthClientIdOrSecret
  | KnownErrors.InvalidPublishableClientKey
  | KnownErrors.PublishableClientKeyRequiredForProject
  | KnownErrors.InvalidScope
  | KnownErrors.SchemaError
  /** the refresh grant's form could not be encoded (not expected with a stored token) */
  | InvalidArgument

/** Every reason of a {@link SessionError}. */
export type SessionReason = SessionRejection | RefreshFailure

/**
 * The user's session could not be used for a call: the service rejected its access token again
 * after the SDK refreshed it and retried once (`reason` one of `INVALID_ACCESS_TOKEN`), rejected a
 * refresh token a call sent itself, or the session's refresh failed without ending the session
 * (`reason` a {@link RefreshFailure}; the tokens are kept). Network failures are not grouped here:
 * they stay `ConnectivityError`, `RateLimited`, `HttpError`… Nobody signed in stays
 * `UserNotSignedIn`. An owner's admin access token is the credential of admin access (`AdminAccess`),
 * not the call's session: its rejections are reasons of a {@link ConfigurationError}.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Users } from "stack-auth-effect"
 *
 * const program = Users.updateCurrent({ displayName: "Ada" }).pipe(
 *   Effect.catchTag("SessionError", (error) =>
 *     error.reason._tag === "AccessTokenExpired" ? Effect.succeed(null) : Effect.fail(error)
 *   )
 * )
 * ```
 */
export class SessionError<Reason extends SessionReason = SessionReason> extends Data.TaggedError("SessionError")<{
  /** What failed (the access token, a refresh token, the refresh) and the reason's message. */
  readonly message: string
  /** The service's known error, or the refresh grant's `InvalidArgument`. */
  readonly reason: SessionReason
}> {
  /** Why the session could not be used, narrowed to what the call can meet. */
  declare readonly reason: Reason

  /** The error for a rejected token (`rejected`) or a failed refresh (`refresh`). */
  static make<Reason extends SessionReason>(reason: Reason, during: "rejected" | "refresh"): SessionError<Reason> {
    const what = during === "refresh" ? "the session could not be refreshed" : "the session's token was rejected"
    return new SessionError({ message: `Stack Auth session error: ${what}: ${reason.message}`, reason }) as SessionError<Reason>
  }
}

/**
 * Turns one of the service's plain-text answers (no known-error code: `status` with exactly
 * `text` as its body) into a typed error; every other failure passes through unchanged.
 *
 * @example
 * ```ts
 * import type { Effect } from "effect"
 * import { Errors, Password } from "stack-auth-effect"
 *
 * // any call whose failures include the service's plain-text answers (`HttpError`)
 * declare const setPassword: Effect.Effect<void, Errors.HttpError>
 *
 * export const typed = setPassword.pipe(
 *   Errors.catchPlainText(400, "User already has a password set.", () => Password.UserAlreadyHasPassword.make())
 * )
 * ```
 */
export const catchPlainText = <E2>(status: number, text: string, make: () => E2) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
  Effect.catchIf(
    effect,
    (error): boolean => error instanceof HttpError && error.status === status && error.body.trim() === text,
    () => Effect.fail(make())
  )
