/**
 * The small, fixed set of failures that are not known errors of the service:
 * transport faults, malformed answers, unknown or undeclared codes and client-side states.
 *
 * Every endpoint's error channel is its declared known errors plus {@link TransportError}.
 * No `@effect/platform` error type ever reaches a public signature: they are translated here.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { AnyKnownError } from "./KnownErrors.js"

/**
 * A response the SDK cannot trust: malformed JSON, a body that does not match the endpoint's
 * schema, a known-error header that names another code than the body, an invalid token response,
 * JSON nested deeper than the SDK reads (512 levels), a body larger than the retry policy's
 * `maxResponseBytes` (8 MiB by default; reading stops there).
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
 * The request never got an answer (DNS, refused or reset connection, aborted body). Raised at once
 * for non-idempotent requests; for idempotent ones only after the retry policy gave up. Also raised
 * at once, never retried, when the request could not be built and nothing was sent (a header value
 * with CR/LF or text above U+00FF, an invalid base URL); the message says so and never shows the
 * value.
 */
export class ConnectivityError extends Data.TaggedError("ConnectivityError")<{
  readonly message: string
  readonly method: string
  readonly url: string
  /** The underlying failure (a platform error, a thrown value, or a description of a local failure), for diagnostics. */
  readonly cause: unknown
}> {}

/** The service kept answering 429 until the retry policy gave up. */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly message: string
  readonly method: string
  readonly url: string
  /** The last `Retry-After` value in seconds, when the service sent one. */
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
 * Turns one of the service's plain-text answers (no known-error code: `status` with exactly
 * `text` as its body) into a typed error; every other failure passes through unchanged.
 *
 * @example
 * ```ts
 * import { Endpoint, Errors, Password } from "stack-auth-effect"
 *
 * const setPassword = (password: string) =>
 *   Endpoint.call(Password.setPasswordEndpoint, { payload: { password } }).pipe(
 *     Errors.catchPlainText(400, "User already has a password set.", () => Password.UserAlreadyHasPassword.make())
 *   )
 * ```
 */
export const catchPlainText =
  <E2>(status: number, text: string, make: () => E2) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
    Effect.catchIf(
      effect,
      (error): boolean => error instanceof HttpError && error.status === status && error.body.trim() === text,
      () => Effect.fail(make())
    )
