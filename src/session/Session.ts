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
 * - a refresh that returns nothing (SPEC.md §4: a token answer, with a valid `token_type`, whose
 *   `access_token` is missing or `null`) clears both tokens too: signed out;
 * - every other refresh failure keeps both tokens: a network failure, a 5xx, and a malformed answer
 *   (an empty body, another shape, an empty or `undefined` token text, another token type:
 *   `InvalidResponse`, SPEC.md §5; a broken answer is not a verdict on the session);
 * - refresh cooldown: a refresh that failed for a network reason (`ConnectivityError`,
 *   `RateLimited`, an `HttpError` of status 5xx) is reused by every call for the same refresh
 *   token during {@link RefreshFailureCooldown} (default 2 s, by the `Clock`), so an outage costs
 *   one refresh per window instead of one per call; a sign-in, a sign-out or another refresh token
 *   starts afresh;
 * - a sign-out during an in-flight refresh wins: the refresh result is dropped;
 * - changes are observable as a stream.
 *
 * Both kinds of session ({@link make}, {@link makeForRequest}) share one implementation of these
 * rules; the shared refresh never runs in a caller's fiber, so a caller that times out or is
 * interrupted does not cancel it for the others.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { minimumRemaining, Session } from "../core/Session.js"
import type { StackClient } from "../core/StackClient.js"
import { makeRequestSession, makeSession } from "./internal/session.js"
import type { SessionShape, StoredTokens } from "../core/Session.js"
import type { TokenStore } from "./TokenStore.js"

/**
 * The session contract (the tag, its shape, what a refresh fails with), defined in `core` so the
 * transport can depend on it (docs/ARCHITECTURE.md); this module implements it.
 */
export type { RefreshError, RequestTokens, SessionShape } from "../core/Session.js"

/** The session service. */
export { Session } from "../core/Session.js"

/**
 * Expiry of an access token in epoch milliseconds, read from its `exp` claim without checking the
 * signature: `Option.none()` when the token has no `exp` (it never expires), `undefined` when it is
 * not a readable JWT (unusable).
 */
export { accessTokenExpiry } from "./internal/session.js"

/**
 * The claims of a JWT read without checking its signature (the SDK's one claims reader): an
 * object, or `undefined` when the token is not a compact JWS with a JSON object as payload. For
 * showing what a token says (the React binding's `usePartialUser`), never for trusting it.
 */
export { unverifiedClaims } from "./jwtClaims.js"

/** Minimum remaining validity for reusing an access token. */
export const minimumRemainingMillis: number = minimumRemaining

/** How long a network failure of a refresh is reused per refresh token (a `Context.Reference`, default 2 s). */
export { defaultRefreshFailureCooldown, RefreshFailureCooldown } from "../core/Session.js"

/**
 * Builds the session over a `TokenStore` and the transport. Scoped: a refresh in flight belongs
 * to the session (a caller's interruption does not cancel the shared refresh), and the watcher
 * of external token changes stops with the scope.
 */
export const make: Effect.Effect<SessionShape, never, TokenStore | StackClient | Scope.Scope> = makeSession

/**
 * The session as a layer. Never shared between two builds (`Layer.fresh`): a session belongs to
 * the token store it is built over, so the same layer provided again (a per-request session inside
 * an app's runtime, which effect 4 would otherwise memoize from the app's build) is a new session.
 */
export const layer: Layer.Layer<Session, never, TokenStore | StackClient> = Layer.fresh(Layer.effect(Session, makeSession))

/**
 * A light session over tokens fixed for one request (server side, e.g. `ServerUsers.fromRequest`):
 * no token store, no watcher fiber, no scope; `changes` emits nothing. Tokens follow the same
 * rules as {@link make} (one implementation: reuse, shared refresh, cooldown, a rejected refresh
 * token clears them); the shared refresh runs in a detached fiber that ends with its request, so
 * a caller's interruption does not cancel it for the others; its result stays in this session.
 */
export const makeForRequest: (tokens: StoredTokens) => Effect.Effect<SessionShape, never, StackClient> = makeRequestSession
