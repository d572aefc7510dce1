/**
 * The user's session (SPEC.md §4, PROTOCOL.md §2.7, §5.1): which tokens a request carries,
 * when the access token is refreshed, and when the user is signed out.
 *
 * Rules:
 * - valid while either token exists; a session with only an access token uses it until it expires;
 * - the access token is reused while ≥ 20 s of validity remain (expiry from the JWT `exp`;
 *   no `exp` = never expires); otherwise one refresh starts, and concurrent callers share it;
 * - an invalid/expired-access-token answer marks the token expired (the call is retried once);
 * - a rejected refresh token (any `REFRESH_TOKEN_ERROR`) clears both tokens: signed out;
 * - a network failure during refresh keeps the refresh token;
 * - a sign-out during an in-flight refresh wins: the refresh result is dropped;
 * - changes are observable as a stream.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import * as Layer from "effect/Layer"
import type { StackClient } from "../core/StackClient.js"
import { makeRequestSession, makeSession } from "./internal/session.js"
import { minimumRemaining, Session } from "./internal/tag.js"
import type { TransportError } from "../core/Errors.js"
import type {
  InvalidOauthClientIdOrSecret,
  InvalidPublishableClientKey,
  PublishableClientKeyRequiredForProject
} from "../core/KnownErrors.js"
import type { StoredTokens, TokenStore } from "./TokenStore.js"

/** Tokens for one request: a fresh access token when there is one, and the refresh token. */
export interface RequestTokens {
  readonly accessToken: Option.Option<Redacted.Redacted<string>>
  readonly refreshToken: Option.Option<Redacted.Redacted<string>>
}

/** Ways a refresh can fail without ending the session (the refresh token is kept). */
export type RefreshError =
  | TransportError
  | InvalidOauthClientIdOrSecret
  | InvalidPublishableClientKey
  | PublishableClientKeyRequiredForProject

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
}

/** The session service. */
export { Session } from "./internal/tag.js"

/** Minimum remaining validity for reusing an access token. */
export const minimumRemainingMillis: number = minimumRemaining

/**
 * Builds the session over a `TokenStore` and the transport. Scoped: a refresh in flight belongs
 * to the session (a caller's interruption does not cancel the shared refresh), and the watcher
 * of external token changes stops with the scope.
 */
export const make: Effect.Effect<SessionShape, never, TokenStore | StackClient | Scope.Scope> = makeSession

/** The session as a layer. */
export const layer: Layer.Layer<Session, never, TokenStore | StackClient> = /* @__PURE__ */ Layer.scoped(Session, makeSession)

/**
 * A light session over tokens fixed for one request (server side, e.g. `ServerUsers.fromRequest`):
 * no token store, no watcher fiber, no scope; `changes` emits nothing. Tokens follow the same
 * rules as {@link make} (reuse, shared refresh, a rejected refresh token clears them); a refresh
 * runs in the fiber that needs it and its result stays in this session.
 */
export const makeForRequest: (tokens: StoredTokens) => Effect.Effect<SessionShape, never, StackClient> = makeRequestSession
