/**
 * The session *contract* (docs/ARCHITECTURE.md): the `Session` tag, the shape every session
 * implements, and what a refresh can fail with. It lives in `core` because the transport's
 * `Endpoint.call` needs it (to attach tokens, mark a rejected access token and refresh once);
 * the implementation — token reuse, the shared refresh, the refresh grant — is in
 * `session/Session.ts`, which re-exports everything here under the public `Session` namespace.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type * as Stream from "effect/Stream"
import { SessionError } from "./Errors.js"
import type { RefreshFailure, TransportError } from "./Errors.js"

/** The pair of tokens a store holds; either may be absent. */
export interface StoredTokens {
  readonly accessToken: Option.Option<Redacted.Redacted<string>>
  readonly refreshToken: Option.Option<Redacted.Redacted<string>>
}

/** Tokens for one request: a fresh access token when there is one, and the refresh token. */
export interface RequestTokens {
  readonly accessToken: Option.Option<Redacted.Redacted<string>>
  readonly refreshToken: Option.Option<Redacted.Redacted<string>>
}

/**
 * Ways a refresh can fail without ending the session (the refresh token is kept): every failure
 * of the refresh grant (`POST /auth/oauth/token`) except the `REFRESH_TOKEN_ERROR` family, which
 * signs the user out instead of failing. Transport failures as they are; the grant's known errors
 * (and a form that could not be encoded) inside a `SessionError`, as `reason`.
 */
export type RefreshError = TransportError | SessionError<RefreshFailure>

/** The failures of a call that are the transport's own: never grouped, even when a refresh met them. */
const transportTags: ReadonlySet<string> = new Set([
  "InvalidResponse",
  "HttpError",
  "UnsupportedKnownError",
  "UnexpectedKnownError",
  "ConnectivityError",
  "RateLimited"
])

/**
 * A failed refresh as the session shows it (`RefreshError`): transport failures unchanged, the
 * rest (`RefreshFailure`) inside a `SessionError`. The session applies it once the refresh grant's
 * answer has been read (a rejected refresh token has already signed out by then).
 */
export const groupRefreshFailure = (error: TransportError | RefreshFailure): RefreshError =>
  transportTags.has(error._tag) ? (error as TransportError) : SessionError.make(error as RefreshFailure, "refresh")

/** The session service. */
export interface SessionShape {
  /**
   * Tokens for a request: the access token if ≥ 20 s remain, else the result of a (shared)
   * refresh; `none` for both when signed out.
   */
  readonly requestTokens: Effect.Effect<RequestTokens, RefreshError>
  /** Forces a refresh (shared with any refresh in flight) and returns the new access token. */
  readonly refresh: Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError>
  /** Marks this access token as rejected by the service, so the next request refreshes. */
  readonly markAccessTokenExpired: (accessToken: Redacted.Redacted<string>) => Effect.Effect<void>
  /** Stores the tokens of a sign-in (validated by the caller's token-response schema). */
  readonly signIn: (tokens: {
    readonly accessToken: Redacted.Redacted<string>
    readonly refreshToken: Option.Option<Redacted.Redacted<string>>
  }) => Effect.Effect<void>
  /** Clears both tokens locally; a refresh in flight is dropped. */
  readonly clear: Effect.Effect<void>
  /** The stored tokens, without refreshing. */
  readonly current: Effect.Effect<StoredTokens>
  /** Every change of the stored tokens (sign-in, refresh, sign-out, another tab). */
  readonly changes: Stream.Stream<StoredTokens>
  /**
   * Calls `listener` synchronously after every change `changes` reports, without a stream or a
   * fiber (what the query cache watches the session with); returns the function that removes it.
   * Optional: a session without it is watched through `changes`.
   */
  readonly listen?: ((listener: (tokens: StoredTokens) => void) => () => void) | undefined
}

/** The session service. */
export class Session extends Context.Service<Session, SessionShape>()("stack-auth-effect/Session") {}

/** Minimum remaining validity for reusing an access token (20 s, in milliseconds). */
export const minimumRemaining = 20_000

/** Default time a refresh failure for a network reason is reused (2 s). */
export const defaultRefreshFailureCooldown: Duration.Duration = Duration.seconds(2)

/**
 * How long a refresh that failed for a network reason (`ConnectivityError`, `RateLimited`, an
 * `HttpError` of status 5xx) is reused, per refresh token, before another refresh is sent.
 * Default {@link defaultRefreshFailureCooldown}; override with
 * `Effect.provideService(RefreshFailureCooldown, Duration.seconds(5))` or a layer.
 */
export const RefreshFailureCooldown: Context.Reference<Duration.Duration> = Context.Reference<Duration.Duration>(
  "stack-auth-effect/RefreshFailureCooldown",
  { defaultValue: (): Duration.Duration => defaultRefreshFailureCooldown }
)
