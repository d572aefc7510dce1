import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { callDecoded } from "../../core/Endpoint.js"
import * as KnownErrors from "../../core/KnownErrors.js"
import { StackClient } from "../../core/StackClient.js"
import type { StackClientShape } from "../../core/StackClient.js"
import { groupRefreshFailure, minimumRemaining as minimumRemainingMillis, RefreshFailureCooldown } from "../../core/Session.js"
import type { RefreshError, RequestTokens, SessionShape, StoredTokens } from "../../core/Session.js"
import { makeRefreshGrant, OAuthTokenResponse, refreshGrant, TokenType } from "../RefreshGrant.js"
import { TokenStore } from "../TokenStore.js"
import * as TokenStoreModule from "../TokenStore.js"
import { unverifiedClaims } from "../jwtClaims.js"
import { Listeners } from "../listeners.js"

/**
 * Expiry of an access token in epoch milliseconds: `Option.none()` when the token has no `exp`
 * (it never expires); `undefined` when it is not a readable JWT (unusable).
 */
export const accessTokenExpiry = (token: Redacted.Redacted<string>): Option.Option<number> | undefined => {
  const claims = unverifiedClaims(Redacted.value(token))
  if (claims === undefined) return undefined
  return typeof claims["exp"] === "number" ? Option.some(claims["exp"] * 1000) : Option.none()
}

/** Whether an access token can be sent: readable, not rejected, and ≥ 20 s left (or no `exp`). */
const isUsableAccessToken = (token: Option.Option<Redacted.Redacted<string>>, now: number, rejected: string | undefined) => {
  if (Option.isNone(token)) return false
  if (Redacted.value(token.value) === rejected) return false
  const expiry = accessTokenExpiry(token.value)
  if (expiry === undefined) return false
  return Option.isNone(expiry) || expiry.value - now >= minimumRemainingMillis
}

const text = (token: Option.Option<Redacted.Redacted<string>>): string | undefined => Option.isSome(token) ? Redacted.value(token.value) : undefined

/**
 * How many times a request looks again at the tokens when its refresh was superseded by tokens
 * of the same session (each look follows a real change; a bound, not a retry policy).
 */
const supersededRefreshLooks = 2

/**
 * A token answer of the refresh grant (a valid `token_type`) without an access token (none, or
 * `null`): "a refresh returns nothing" (SPEC.md §4), which ends the session. Anything else
 * malformed (an empty body, another shape, an empty or `undefined` token text, another token type,
 * a non-positive `expires_in`: SPEC.md §5) is an `InvalidResponse` and keeps the tokens: a broken
 * answer is not the service saying the session is over.
 */
const NothingReturned = Schema.Struct({ access_token: Schema.optional(Schema.Null), token_type: TokenType })

/** The refresh grant as the session reads it: a token answer, or nothing returned. */
const sessionRefreshGrant = { ...refreshGrant, success: Schema.Union([OAuthTokenResponse, NothingReturned]) }

/**
 * The refresh grant for `refreshToken` with the project's keys (shared by both kinds of session),
 * its known errors as their own classes (`callDecoded`, not grouped), so a rejected refresh token is seen.
 */
const sendRefreshGrant = (client: StackClientShape, refreshToken: Redacted.Redacted<string>) =>
  callDecoded(sessionRefreshGrant, {
    payload: makeRefreshGrant({
      projectId: client.config.projectId,
      branchId: client.config.branchId,
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

interface InFlight {
  readonly refreshToken: string
  readonly deferred: Deferred.Deferred<Option.Option<Redacted.Redacted<string>>, RefreshError>
}

interface CooledFailure {
  readonly refreshToken: string
  readonly error: RefreshError
  readonly atMillis: number
}

/**
 * The one implementation of the session rules (SPEC.md §4, PROTOCOL.md §2.7, §5.1), for both kinds
 * of session:
 *
 * - the access token is reused while ≥ 20 s remain (no `exp`: never expires), unless marked expired;
 * - one refresh per refresh token at a time, shared by every caller through a `Deferred`; it runs
 *   in a fiber of its own (forked in the session's scope, or detached for a request session), so
 *   no caller's interruption or timeout cancels it for the others;
 * - a `REFRESH_TOKEN_ERROR`-family answer clears both tokens (signed out);
 * - any other failure keeps the tokens; a network failure (see {@link isNetworkFailure}) is reused
 *   for {@link RefreshFailureCooldown} per refresh token;
 * - a sign-in, sign-out or external change during a refresh wins: the refresh result is dropped.
 *
 * Tokens and bookkeeping (generation, in-flight refresh, cooldown) are private fields changed only
 * in synchronous steps, so check-and-set is atomic between fibers. Every write is published at
 * once: to a `PubSub` that replays the latest tokens (`changes`: the current tokens, then every
 * write, as `SubscriptionRef.changes`), and to the plain listeners of `listen` (the query cache,
 * without a fiber).
 *
 * Heap per session (issue 14; issue 26: no bench figure worse than on effect 3): a class, not a
 * closure, so the session's effects are built when read (getters on the prototype) and a live
 * session holds its fields only; what most sessions never use is made at first use: the `PubSub`
 * at the first `changes` subscriber, the listener set at the first `listen`, a refresh's fiber and
 * `Deferred` while it runs. Nothing is added to the session's scope until then (an eager `PubSub`,
 * a `FiberSet` and their finalizers took 4.5 KB per live session instead of effect 3's 1.6 KB).
 */
class SessionImpl implements SessionShape {
  #tokens: StoredTokens
  #rejectedAccessToken: string | undefined = undefined
  // bumped by every sign-in, sign-out and external change: a refresh started under an older
  // generation must not write its result
  #generation = 0
  #inFlight: InFlight | undefined = undefined
  #lastFailure: CooledFailure | undefined = undefined
  readonly #client: StackClientShape
  readonly #persist: ((tokens: StoredTokens) => Effect.Effect<void>) | undefined
  // a store-backed session's scope: its refreshes are forked in it, and `changes` and `listen`
  // report writes; none (a request session): refreshes run detached, and no write is reported
  readonly #scope: Scope.Scope | undefined
  // every write, replaying the latest: made at the first `changes` subscriber, shut down with the scope
  #writes: PubSub.PubSub<StoredTokens> | undefined = undefined
  // who hears the writes synchronously (the query cache): made at the first `listen`, no fiber
  #listeners: Listeners<StoredTokens> | undefined = undefined

  constructor(
    client: StackClientShape,
    tokens: StoredTokens,
    persist: ((tokens: StoredTokens) => Effect.Effect<void>) | undefined,
    scope: Scope.Scope | undefined
  ) {
    this.#client = client
    this.#tokens = tokens
    this.#persist = persist
    this.#scope = scope
  }

  /** Replaces the tokens, tells the subscribers, and persists them (a store-backed session). */
  write(tokens: StoredTokens): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.#replace(tokens)
      return this.#persist === undefined ? Effect.void : this.#persist(tokens)
    })
  }

  /**
   * Takes tokens the store changed outside this session, at once: a refresh in flight must not
   * write; not persisted again.
   */
  receive(tokens: StoredTokens): void {
    if (TokenStoreModule.equals(this.#tokens, tokens)) return
    this.#generation++
    this.#rejectedAccessToken = undefined
    this.#lastFailure = undefined
    this.#replace(tokens)
  }

  /**
   * Sets the tokens and publishes them at once (synchronously), so the last value a subscriber
   * sees is always the latest.
   */
  #replace(tokens: StoredTokens): void {
    this.#tokens = tokens
    if (this.#writes !== undefined) PubSub.publishUnsafe(this.#writes, tokens)
    this.#listeners?.emit(tokens)
  }

  get current(): Effect.Effect<StoredTokens> {
    return Effect.sync(() => this.#tokens)
  }

  get changes(): Stream.Stream<StoredTokens> {
    const scope = this.#scope
    if (scope === undefined) return Stream.empty
    // the current tokens (the replayed latest write), then every write after the subscription
    return Stream.unwrap(Effect.map(this.#writesIn(scope), Stream.fromPubSub))
  }

  /**
   * The `PubSub` of the writes, made at the first subscriber: it starts with the current tokens
   * (its replayed latest), is published every write from then on, and is shut down with the
   * session's scope (at once if the scope is already closed: the subscriber's stream ends).
   */
  #writesIn(scope: Scope.Scope): Effect.Effect<PubSub.PubSub<StoredTokens>> {
    return Effect.suspend(() => {
      if (this.#writes !== undefined) return Effect.succeed(this.#writes)
      return Effect.flatMap(PubSub.unbounded<StoredTokens>({ replay: 1 }), (made) =>
        Effect.suspend(() => {
          // another first subscriber made one meanwhile: theirs is the session's
          if (this.#writes !== undefined) return Effect.succeed(this.#writes)
          this.#writes = made
          PubSub.publishUnsafe(made, this.#tokens)
          return Effect.as(Scope.addFinalizer(scope, PubSub.shutdown(made)), made)
        }))
    })
  }

  /** Calls `listener` after every write (a store-backed session only: a request session reports none). */
  listen(listener: (tokens: StoredTokens) => void): () => void {
    return this.#scope === undefined ? () => {} : (this.#listeners ??= new Listeners()).add(listener)
  }

  /** A sign-in or sign-out: a refresh in flight must not write its result. */
  get invalidate(): Effect.Effect<void> {
    return Effect.sync(() => {
      this.#generation++
      this.#rejectedAccessToken = undefined
      this.#lastFailure = undefined
    })
  }

  readonly markAccessTokenExpired = (accessToken: Redacted.Redacted<string>): Effect.Effect<void> =>
    Effect.sync(() => {
      this.#rejectedAccessToken = Redacted.value(accessToken)
    })

  readonly signIn = (tokens: { readonly accessToken: Redacted.Redacted<string>; readonly refreshToken: Option.Option<Redacted.Redacted<string>> }) =>
    Effect.andThen(this.invalidate, this.write({ accessToken: Option.some(tokens.accessToken), refreshToken: tokens.refreshToken }))

  get clear(): Effect.Effect<void> {
    return Effect.andThen(this.invalidate, this.write(TokenStoreModule.empty))
  }

  get requestTokens(): Effect.Effect<RequestTokens, RefreshError> {
    return this.#requestTokens(supersededRefreshLooks)
  }

  /**
   * The tokens for a request: the access token while usable, else a refresh's. A refresh whose
   * result was dropped because the tokens changed meanwhile for the same refresh token (another
   * tab of this session wrote the access token it got: the cookie store reports the refresh
   * cookie, then the access cookie) looks again at the tokens now held, at most `looks` times;
   * another refresh token (a sign-in or sign-out meanwhile) is another session: no tokens.
   */
  #requestTokens(looks: number): Effect.Effect<RequestTokens, RefreshError> {
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const current = this.#tokens
      if (isUsableAccessToken(current.accessToken, now, this.#rejectedAccessToken)) return Effect.succeed(current)
      if (Option.isNone(current.refreshToken)) return Effect.succeed(TokenStoreModule.empty)
      const generation = this.#generation
      return Effect.flatMap(this.refresh, (accessToken): Effect.Effect<RequestTokens, RefreshError> => {
        if (Option.isSome(accessToken)) return Effect.succeed({ accessToken, refreshToken: this.#tokens.refreshToken })
        const sameSession = this.#generation !== generation && text(this.#tokens.refreshToken) === text(current.refreshToken)
        return looks > 0 && sameSession ? this.#requestTokens(looks - 1) : Effect.succeed(TokenStoreModule.empty)
      })
    })
  }

  get refresh(): Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError> {
    return Effect.gen({ self: this }, function* () {
      const current = this.#tokens
      if (Option.isNone(current.refreshToken)) return Option.none()
      const refreshToken = current.refreshToken.value
      const now = yield* Clock.currentTimeMillis
      const cooldown = Duration.toMillis(yield* RefreshFailureCooldown)
      const cooled = this.#lastFailure
      if (cooled !== undefined && cooled.refreshToken === Redacted.value(refreshToken) && now - cooled.atMillis < cooldown) {
        return yield* Effect.fail(cooled.error)
      }
      const deferred = yield* this.#joinOrStart(refreshToken)
      return yield* Deferred.await(deferred)
    })
  }

  #runRefresh(refreshToken: Redacted.Redacted<string>, startedAt: number): Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError> {
    return sendRefreshGrant(this.#client, refreshToken).pipe(
      Effect.flatMap((response) =>
        Effect.suspend(() => {
          const current = this.#tokens
          if (this.#generation !== startedAt || text(current.refreshToken) !== Redacted.value(refreshToken)) {
            // a sign-out or another sign-in happened meanwhile: drop this result
            return Effect.succeed(Option.none<Redacted.Redacted<string>>())
          }
          if (!("accessToken" in response)) {
            // a refresh that returns nothing ends the session (SPEC.md §4): both tokens cleared
            this.#generation++
            return Effect.as(this.write(TokenStoreModule.empty), Option.none<Redacted.Redacted<string>>())
          }
          this.#rejectedAccessToken = undefined
          this.#lastFailure = undefined
          return Effect.as(
            this.write({
              accessToken: Option.some(response.accessToken),
              refreshToken: response.refreshToken === undefined ? current.refreshToken : Option.some(response.refreshToken)
            }),
            Option.some(response.accessToken)
          )
        })
      ),
      Effect.catchIf(endsTheSession, () =>
        Effect.suspend(() => {
          if (this.#generation !== startedAt) return Effect.succeed(Option.none<Redacted.Redacted<string>>())
          this.#generation++
          return Effect.as(this.write(TokenStoreModule.empty), Option.none<Redacted.Redacted<string>>())
        })),
      // every other failure keeps the tokens: the grant's known errors become a SessionError
      Effect.mapError(groupRefreshFailure)
    )
  }

  /** Records a network failure for the cooldown, frees the slot, and hands the outcome to every waiter. */
  #settle(running: InFlight, exit: Exit.Exit<Option.Option<Redacted.Redacted<string>>, RefreshError>) {
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (Exit.isFailure(exit)) {
        const failure = Exit.findErrorOption(exit)
        if (Option.isSome(failure) && isNetworkFailure(failure.value)) {
          this.#lastFailure = { refreshToken: running.refreshToken, error: failure.value, atMillis: now }
        }
      }
      if (this.#inFlight === running) this.#inFlight = undefined
      return Deferred.done(running.deferred, exit)
    })
  }

  /**
   * The refresh in flight for this token, or a new one forked in a fiber of its own (atomic: no
   * yield between check and set). The forked fiber is interruptible (effect 4 forks are), so
   * closing the session's scope stops a refresh in flight; its waiters then end too.
   */
  #joinOrStart(refreshToken: Redacted.Redacted<string>) {
    return Effect.uninterruptible(
      Effect.suspend(() => {
        const key = Redacted.value(refreshToken)
        const inFlight = this.#inFlight
        if (inFlight !== undefined && inFlight.refreshToken === key) return Effect.succeed(inFlight.deferred)
        const running: InFlight = {
          refreshToken: key,
          deferred: Deferred.makeUnsafe<Option.Option<Redacted.Redacted<string>>, RefreshError>()
        }
        this.#inFlight = running
        const refresh = this.#runRefresh(refreshToken, this.#generation).pipe(
          Effect.onExit((exit) => this.#settle(running, exit)),
          Effect.ignore
        )
        return Effect.as(this.#fork(refresh), running.deferred)
      })
    )
  }

  /**
   * Runs a shared refresh in a fiber of its own, never the caller's: forked in the session's scope
   * (closing it interrupts the refresh; the fiber starts once the caller yields, as effect 3's
   * forks did), or detached for a request session (it ends with its request).
   */
  #fork(refresh: Effect.Effect<void>): Effect.Effect<unknown> {
    return this.#scope === undefined ? Effect.forkDetach(refresh) : Effect.forkIn(refresh, this.#scope)
  }
}

/**
 * The session over a `TokenStore`: tokens written through to the store, refreshes forked in the
 * session's scope (closing it interrupts a refresh in flight). `changes` is the current tokens,
 * then every write, for each subscriber (a `PubSub` replaying the latest write, made at the first
 * subscriber: a queue per subscriber while it runs). The store's outside changes are heard through
 * its `listen` (a plain listener, removed with the scope: no fiber), else watched by a fiber in the
 * session's scope, unless the store has none (`changes` is `Stream.empty`: the memory store). Over
 * the memory store, nothing is added to the scope.
 */
export const makeSession = Effect.gen(function* () {
  const store = yield* TokenStore
  const client = yield* StackClient
  const scope = yield* Effect.scope
  const session = new SessionImpl(client, yield* store.get, store.set, scope)
  if (store.listen !== undefined) {
    // a plain listener: no fiber or stream is held to watch the store; the session takes the
    // change at once (`Scope.addFinalizer`: the finalizer holds no copy of the caller's context)
    const remove = store.listen((tokens) => session.receive(tokens))
    yield* Scope.addFinalizer(scope, Effect.sync(remove))
  } else if (store.changes !== Stream.empty) {
    yield* store.changes.pipe(
      Stream.runForEach((tokens) => Effect.sync(() => session.receive(tokens))),
      Effect.forkIn(scope)
    )
  }
  return session satisfies SessionShape as SessionShape
})

/**
 * A light session over tokens fixed for one request (server side): no token store, no watcher
 * fiber, no scope, no change stream. Same rules as {@link makeSession} (one implementation); the
 * shared refresh runs in a detached fiber (`Effect.forkDetach`) that ends with the refresh
 * request, so a caller's interruption never cancels it for the others.
 */
export const makeRequestSession = (initial: StoredTokens): Effect.Effect<SessionShape, never, StackClient> =>
  Effect.map(StackClient, (client): SessionShape => new SessionImpl(client, initial, undefined, undefined))
