import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { decodeJwt } from "jose/jwt/decode"
import { callDecoded, groupRefreshFailure } from "../../core/internal/call.js"
import * as KnownErrors from "../../core/KnownErrors.js"
import { StackClient } from "../../core/StackClient.js"
import type { StackClientShape } from "../../core/StackClient.js"
import { minimumRemaining as minimumRemainingMillis, RefreshFailureCooldown } from "../../core/Session.js"
import type { RefreshError, RequestTokens, SessionShape, StoredTokens } from "../../core/Session.js"
import { makeRefreshGrant, refreshGrant } from "../RefreshGrant.js"
import { TokenStore } from "../TokenStore.js"
import * as TokenStoreModule from "../TokenStore.js"

/**
 * Expiry of an access token in epoch milliseconds: `Option.none()` when the token has no `exp`
 * (it never expires); `undefined` when it is not a readable JWT (unusable).
 */
export const accessTokenExpiry = (token: Redacted.Redacted<string>): Option.Option<number> | undefined => {
  try {
    const claims = decodeJwt(Redacted.value(token))
    return typeof claims.exp === "number" ? Option.some(claims.exp * 1000) : Option.none()
  } catch {
    return undefined
  }
}

/** Whether an access token can be sent: readable, not rejected, and ≥ 20 s left (or no `exp`). */
const isUsableAccessToken = (token: Option.Option<Redacted.Redacted<string>>, now: number, rejected: string | undefined) => {
  if (Option.isNone(token)) return false
  if (Redacted.value(token.value) === rejected) return false
  const expiry = accessTokenExpiry(token.value)
  if (expiry === undefined) return false
  return Option.isNone(expiry) || expiry.value - now >= minimumRemainingMillis
}

const text = (token: Option.Option<Redacted.Redacted<string>>): string | undefined =>
  Option.isSome(token) ? Redacted.value(token.value) : undefined

/**
 * The refresh grant for `refreshToken` with the project's keys (shared by both kinds of session),
 * its known errors as their own classes (`callDecoded`, not grouped), so a rejected refresh token is seen.
 */
const sendRefreshGrant = (client: StackClientShape, refreshToken: Redacted.Redacted<string>) =>
  callDecoded(refreshGrant, {
    payload: makeRefreshGrant({
      projectId: client.config.projectId,
      publishableClientKey: Option.getOrUndefined(client.config.publishableClientKey),
      refreshToken
    })
  }).pipe(Effect.provideService(StackClient, client))

/**
 * An answer of the `REFRESH_TOKEN_ERROR` family (PROTOCOL.md §2.7, §5.1): the refresh token is
 * rejected and the session is over (the refresh grant declares the whole family).
 */
const endsTheSession = KnownErrors.isRefreshTokenError

/**
 * A refresh failure for a network reason (no answer, 429, 5xx): later callers within the cooldown
 * reuse it instead of sending another refresh.
 */
const isNetworkFailure = (error: RefreshError): boolean =>
  error._tag === "ConnectivityError" || error._tag === "RateLimited" || (error._tag === "HttpError" && error.status >= 500)

/** Where a session keeps its tokens: a variable, written through to the store for a store-backed session. */
interface TokenCell {
  readonly get: Effect.Effect<StoredTokens>
  /** Replaces the tokens (and persists them, for a store-backed cell). */
  readonly set: (tokens: StoredTokens) => Effect.Effect<void>
}

interface InFlight {
  readonly refreshToken: string
  readonly deferred: Deferred.Deferred<Option.Option<Redacted.Redacted<string>>, RefreshError>
}

interface CooledFailure {
  readonly refreshToken: string
  readonly error: RefreshError
  readonly atMillis: number
}

/** The token rules shared by both kinds of session, plus a way to invalidate refreshes in flight. */
interface SessionCore extends Omit<SessionShape, "current" | "changes"> {
  /** Tokens changed outside this session (another tab): a refresh in flight must not write. */
  readonly invalidate: Effect.Effect<void>
}

/**
 * The one implementation of the session rules (SPEC.md §4, PROTOCOL.md §2.7, §5.1):
 *
 * - the access token is reused while ≥ 20 s remain (no `exp`: never expires), unless marked expired;
 * - one refresh per refresh token at a time, shared by every caller; it runs through `detach`, so
 *   no caller's interruption or timeout cancels it for the others;
 * - a `REFRESH_TOKEN_ERROR`-family answer clears both tokens (signed out);
 * - any other failure keeps the tokens; a network failure (see {@link isNetworkFailure}) is reused
 *   for {@link RefreshFailureCooldown} per refresh token;
 * - a sign-in, sign-out or external change during a refresh wins: the refresh result is dropped.
 *
 * Bookkeeping (generation, in-flight refresh, cooldown) lives in this closure and is changed only
 * in synchronous steps, so check-and-set is atomic between fibers.
 */
const makeCore = (
  client: StackClientShape,
  cell: TokenCell,
  detach: (refresh: Effect.Effect<void>) => Effect.Effect<unknown>
): SessionCore => {
  let rejectedAccessToken: string | undefined
  // bumped by every sign-in, sign-out and external change: a refresh started under an older
  // generation must not write its result
  let generation = 0
  let inFlight: InFlight | undefined
  let lastFailure: CooledFailure | undefined

  const runRefresh = (
    refreshToken: Redacted.Redacted<string>,
    startedAt: number
  ): Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError> =>
    sendRefreshGrant(client, refreshToken).pipe(
      Effect.flatMap((response) =>
        Effect.flatMap(cell.get, (current) => {
          if (generation !== startedAt || text(current.refreshToken) !== Redacted.value(refreshToken)) {
            // a sign-out or another sign-in happened meanwhile: drop this result
            return Effect.succeed(Option.none<Redacted.Redacted<string>>())
          }
          rejectedAccessToken = undefined
          lastFailure = undefined
          return Effect.as(
            cell.set({
              accessToken: Option.some(response.accessToken),
              refreshToken: response.refreshToken === undefined ? current.refreshToken : Option.some(response.refreshToken)
            }),
            Option.some(response.accessToken)
          )
        })
      ),
      Effect.catchIf(endsTheSession, () =>
        Effect.suspend(() => {
          if (generation !== startedAt) return Effect.succeed(Option.none<Redacted.Redacted<string>>())
          generation++
          return Effect.as(cell.set(TokenStoreModule.empty), Option.none<Redacted.Redacted<string>>())
        })
      ),
      // every other failure keeps the tokens: the grant's known errors become a SessionError
      Effect.mapError(groupRefreshFailure)
    )

  /** Records a network failure for the cooldown, frees the slot, and hands the outcome to every waiter. */
  const settle = (running: InFlight, exit: Exit.Exit<Option.Option<Redacted.Redacted<string>>, RefreshError>) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (Exit.isFailure(exit)) {
        const failure = Cause.failureOption(exit.cause)
        if (Option.isSome(failure) && isNetworkFailure(failure.value)) {
          lastFailure = { refreshToken: running.refreshToken, error: failure.value, atMillis: now }
        }
      }
      if (inFlight === running) inFlight = undefined
      return Deferred.done(running.deferred, exit)
    })

  /** The refresh in flight for this token, or a new one started detached (atomic: no yield between check and set). */
  const joinOrStart = (refreshToken: Redacted.Redacted<string>) =>
    Effect.uninterruptible(
      Effect.suspend(() => {
        const key = Redacted.value(refreshToken)
        if (inFlight !== undefined && inFlight.refreshToken === key) return Effect.succeed(inFlight.deferred)
        const running: InFlight = {
          refreshToken: key,
          deferred: Deferred.unsafeMake<Option.Option<Redacted.Redacted<string>>, RefreshError>(FiberId.none)
        }
        inFlight = running
        // interruptible again (a fiber forked here would inherit this region's uninterruptibility),
        // so closing the session's scope stops a refresh in flight; its waiters then end too
        const refresh = Effect.interruptible(runRefresh(refreshToken, generation)).pipe(
          Effect.onExit((exit) => settle(running, exit)),
          Effect.ignore
        )
        return Effect.as(detach(refresh), running.deferred)
      })
    )

  const refresh: Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError> = Effect.gen(function* () {
    const current = yield* cell.get
    if (Option.isNone(current.refreshToken)) return Option.none()
    const refreshToken = current.refreshToken.value
    const now = yield* Clock.currentTimeMillis
    const cooldown = Duration.toMillis(yield* RefreshFailureCooldown)
    const cooled = lastFailure
    if (cooled !== undefined && cooled.refreshToken === Redacted.value(refreshToken) && now - cooled.atMillis < cooldown) {
      return yield* Effect.fail(cooled.error)
    }
    const deferred = yield* joinOrStart(refreshToken)
    return yield* Deferred.await(deferred)
  })

  const requestTokens: Effect.Effect<RequestTokens, RefreshError> = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const current = yield* cell.get
    if (isUsableAccessToken(current.accessToken, now, rejectedAccessToken)) return current
    if (Option.isNone(current.refreshToken)) return TokenStoreModule.empty
    const accessToken = yield* refresh
    const after = yield* cell.get
    return Option.isSome(accessToken) ? { accessToken, refreshToken: after.refreshToken } : TokenStoreModule.empty
  })

  const invalidate = Effect.sync(() => {
    generation++
    rejectedAccessToken = undefined
    lastFailure = undefined
  })

  return {
    requestTokens,
    refresh,
    markAccessTokenExpired: (accessToken) =>
      Effect.sync(() => {
        rejectedAccessToken = Redacted.value(accessToken)
      }),
    signIn: (tokens) => Effect.zipRight(invalidate, cell.set({ accessToken: Option.some(tokens.accessToken), refreshToken: tokens.refreshToken })),
    clear: Effect.zipRight(invalidate, cell.set(TokenStoreModule.empty)),
    invalidate
  }
}

/**
 * The session over a `TokenStore`: tokens in a variable (changed only in synchronous steps)
 * written through to the store, refreshes forked in the session's scope. `changes` is the current
 * tokens, then every write, for each subscriber (a listener registered while the stream runs);
 * a session holds no stream, queue or fiber of its own while nobody subscribes. The store's
 * outside changes are watched by a fiber in the session's scope, unless the store has none
 * (`changes` is `Stream.empty`: the memory store, a request's tokens).
 */
export const makeSession = Effect.gen(function* () {
  const store = yield* TokenStore
  const client = yield* StackClient
  const scope = yield* Effect.scope
  let state: StoredTokens = yield* store.get
  const listeners = new Set<(tokens: StoredTokens) => void>()
  const write = (tokens: StoredTokens) =>
    Effect.sync(() => {
      state = tokens
      for (const listener of listeners) listener(tokens)
    })
  const current = Effect.sync(() => state)

  const core = makeCore(
    client,
    { get: current, set: (tokens) => Effect.zipRight(write(tokens), store.set(tokens)) },
    (refresh) => Effect.forkIn(refresh, scope)
  )

  if (store.changes !== Stream.empty) {
    yield* store.changes.pipe(
      Stream.runForEach((tokens) =>
        Effect.suspend(() => {
          if (TokenStoreModule.equals(state, tokens)) return Effect.void
          return Effect.zipRight(core.invalidate, write(tokens))
        })
      ),
      Effect.forkIn(scope)
    )
  }

  const changes = Stream.asyncPush<StoredTokens>((emit) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const listener = (tokens: StoredTokens) => {
          emit.single(tokens)
        }
        // the current tokens and the registration in one synchronous step: no write falls between
        emit.single(state)
        listeners.add(listener)
        return listener
      }),
      (listener) =>
        Effect.sync(() => {
          listeners.delete(listener)
        })
    )
  )

  const session: SessionShape = {
    requestTokens: core.requestTokens,
    refresh: core.refresh,
    markAccessTokenExpired: core.markAccessTokenExpired,
    signIn: core.signIn,
    clear: core.clear,
    current,
    changes
  }
  return session
})

/**
 * A light session over tokens fixed for one request (server side): no token store, no watcher
 * fiber, no scope, no change stream. Same rules as {@link makeSession} (one implementation); the
 * shared refresh runs in a daemon fiber that ends with the refresh request, so a caller's
 * interruption never cancels it for the others.
 */
export const makeRequestSession = (initial: StoredTokens): Effect.Effect<SessionShape, never, StackClient> =>
  Effect.map(StackClient, (client) => {
    let state = initial
    const cell: TokenCell = {
      get: Effect.sync(() => state),
      set: (tokens) =>
        Effect.sync(() => {
          state = tokens
        })
    }
    const core = makeCore(client, cell, Effect.forkDaemon)
    const session: SessionShape = {
      requestTokens: core.requestTokens,
      refresh: core.refresh,
      markAccessTokenExpired: core.markAccessTokenExpired,
      signIn: core.signIn,
      clear: core.clear,
      current: cell.get,
      changes: Stream.empty
    }
    return session
  })
