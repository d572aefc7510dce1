import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as SynchronizedRef from "effect/SynchronizedRef"
import { decodeJwt } from "jose"
import { call } from "../../core/internal/call.js"
import * as KnownErrors from "../../core/KnownErrors.js"
import { StackClient } from "../../core/StackClient.js"
import type { StackClientShape } from "../../core/StackClient.js"
import { makeRefreshGrant, refreshGrant } from "../../auth/Tokens.js"
import type { RefreshError, RequestTokens, SessionShape } from "../Session.js"
import { minimumRemaining as minimumRemainingMillis } from "./tag.js"
import { TokenStore } from "../TokenStore.js"
import * as TokenStoreModule from "../TokenStore.js"
import type { StoredTokens } from "../TokenStore.js"

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

interface InFlight {
  readonly refreshToken: string
  readonly deferred: Deferred.Deferred<Option.Option<Redacted.Redacted<string>>, RefreshError>
}

const text = (token: Option.Option<Redacted.Redacted<string>>): string | undefined =>
  Option.isSome(token) ? Redacted.value(token.value) : undefined

export const makeSession = /* @__PURE__ */ Effect.gen(function* () {
  const store = yield* TokenStore
  const client = yield* StackClient
  const scope = yield* Effect.scope
  const state = yield* SubscriptionRef.make<StoredTokens>(yield* store.get)
  const rejectedAccessToken = yield* Ref.make<string | undefined>(undefined)
  // bumped by every sign-in, sign-out and external change: a refresh started under an older
  // generation must not write its result
  const generation = yield* Ref.make(0)
  const inFlight = yield* SynchronizedRef.make<Option.Option<InFlight>>(Option.none())

  const write = (tokens: StoredTokens) => Effect.zipRight(SubscriptionRef.set(state, tokens), store.set(tokens))

  yield* store.changes.pipe(
    Stream.runForEach((tokens) =>
      Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        if (TokenStoreModule.equals(current, tokens)) return
        yield* Ref.update(generation, (n) => n + 1)
        yield* SubscriptionRef.set(state, tokens)
      })
    ),
    Effect.forkIn(scope)
  )

  const isUsable = isUsableAccessToken

  const runRefresh = (refreshToken: Redacted.Redacted<string>, startedAt: number) =>
    sendRefreshGrant(client, refreshToken).pipe(
      Effect.flatMap((response) =>
        Effect.gen(function* () {
          const current = yield* SubscriptionRef.get(state)
          if ((yield* Ref.get(generation)) !== startedAt || text(current.refreshToken) !== Redacted.value(refreshToken)) {
            // a sign-out or another sign-in happened meanwhile: drop this result
            return Option.none<Redacted.Redacted<string>>()
          }
          yield* Ref.set(rejectedAccessToken, undefined)
          yield* write({
            accessToken: Option.some(response.accessToken),
            refreshToken: response.refreshToken === undefined ? current.refreshToken : Option.some(response.refreshToken)
          })
          return Option.some(response.accessToken)
        })
      ),
      Effect.catchIf(
        (error): error is KnownErrors.RefreshTokenNotFoundOrExpired =>
          typeof error === "object" && error !== null && "code" in error && KnownErrors.refreshTokenErrorCodes.has(String(error.code)),
        () =>
          Effect.gen(function* () {
            if ((yield* Ref.get(generation)) === startedAt) {
              yield* Ref.update(generation, (n) => n + 1)
              yield* write(TokenStoreModule.empty)
            }
            return Option.none<Redacted.Redacted<string>>()
          })
      )
    ) as Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError>

  const refresh: Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError> = Effect.gen(function* () {
    const current = yield* SubscriptionRef.get(state)
    if (Option.isNone(current.refreshToken)) return Option.none()
    const refreshToken = current.refreshToken.value
    const startedAt = yield* Ref.get(generation)
    const deferred = yield* SynchronizedRef.modifyEffect(inFlight, (running) => {
      if (Option.isSome(running) && running.value.refreshToken === Redacted.value(refreshToken)) {
        return Effect.succeed([running.value.deferred, running] as const)
      }
      return Effect.gen(function* () {
        const created = yield* Deferred.make<Option.Option<Redacted.Redacted<string>>, RefreshError>()
        yield* runRefresh(refreshToken, startedAt).pipe(
          Effect.exit,
          Effect.flatMap((exit) =>
            Effect.zipRight(
              SynchronizedRef.set(inFlight, Option.none()),
              Deferred.done(created, Exit.isSuccess(exit) ? exit : (exit as Exit.Exit<never, RefreshError>))
            )
          ),
          Effect.forkIn(scope)
        )
        return [created, Option.some({ refreshToken: Redacted.value(refreshToken), deferred: created })] as const
      })
    })
    return yield* Deferred.await(deferred)
  })

  const requestTokens: Effect.Effect<RequestTokens, RefreshError> = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const current = yield* SubscriptionRef.get(state)
    if (isUsable(current.accessToken, now, yield* Ref.get(rejectedAccessToken))) return current
    if (Option.isNone(current.refreshToken)) return TokenStoreModule.empty
    const accessToken = yield* refresh
    const after = yield* SubscriptionRef.get(state)
    return Option.isSome(accessToken) ? { accessToken, refreshToken: after.refreshToken } : TokenStoreModule.empty
  })

  const session: SessionShape = {
    requestTokens,
    refresh,
    markAccessTokenExpired: (accessToken) => Ref.set(rejectedAccessToken, Redacted.value(accessToken)),
    signIn: (tokens) =>
      Effect.gen(function* () {
        yield* Ref.update(generation, (n) => n + 1)
        yield* Ref.set(rejectedAccessToken, undefined)
        yield* write({ accessToken: Option.some(tokens.accessToken), refreshToken: tokens.refreshToken })
      }),
    clear: Effect.zipRight(Ref.update(generation, (n) => n + 1), write(TokenStoreModule.empty)),
    current: SubscriptionRef.get(state),
    changes: state.changes
  }
  return session
})

/** The refresh grant for `refreshToken` with the project's keys (shared by both kinds of session). */
const sendRefreshGrant = (client: StackClientShape, refreshToken: Redacted.Redacted<string>) =>
  call(refreshGrant, {
    payload: makeRefreshGrant({
      projectId: client.config.projectId,
      publishableClientKey: Option.getOrUndefined(client.config.publishableClientKey),
      refreshToken
    })
  }).pipe(Effect.provideService(StackClient, client))

/**
 * A light session over tokens fixed for one request (server side): no token store, no watcher
 * fiber, no scope, no change stream. Same token rules as {@link makeSession} (reuse with ≥ 20 s
 * left, shared refresh, a rejected refresh token clears the tokens, stale refresh results dropped
 * after a sign-in or sign-out); a refresh runs in the fiber that needs it and stays in this session.
 */
export const makeRequestSession = (initial: StoredTokens): Effect.Effect<SessionShape, never, StackClient> =>
  Effect.map(StackClient, (client) => {
    let state = initial
    let rejected: string | undefined
    let generation = 0
    let inFlight: InFlight | undefined

    const runRefresh = (refreshToken: Redacted.Redacted<string>, startedAt: number) =>
      sendRefreshGrant(client, refreshToken).pipe(
        Effect.map((response) => {
          if (generation !== startedAt || text(state.refreshToken) !== Redacted.value(refreshToken)) {
            return Option.none<Redacted.Redacted<string>>()
          }
          rejected = undefined
          state = {
            accessToken: Option.some(response.accessToken),
            refreshToken: response.refreshToken === undefined ? state.refreshToken : Option.some(response.refreshToken)
          }
          return Option.some(response.accessToken)
        }),
        Effect.catchIf(
          (error): error is KnownErrors.RefreshTokenNotFoundOrExpired =>
            typeof error === "object" && error !== null && "code" in error && KnownErrors.refreshTokenErrorCodes.has(String(error.code)),
          () =>
            Effect.sync(() => {
              if (generation === startedAt) {
                generation++
                state = TokenStoreModule.empty
              }
              return Option.none<Redacted.Redacted<string>>()
            })
        )
      ) as Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError>

    const refresh: Effect.Effect<Option.Option<Redacted.Redacted<string>>, RefreshError> = Effect.suspend(() => {
      if (Option.isNone(state.refreshToken)) return Effect.succeed(Option.none())
      const refreshToken = state.refreshToken.value
      if (inFlight !== undefined && inFlight.refreshToken === Redacted.value(refreshToken)) {
        return Deferred.await(inFlight.deferred)
      }
      const deferred = Deferred.unsafeMake<Option.Option<Redacted.Redacted<string>>, RefreshError>(FiberId.none)
      const running: InFlight = { refreshToken: Redacted.value(refreshToken), deferred }
      inFlight = running
      return runRefresh(refreshToken, generation).pipe(
        Effect.onExit((exit) => {
          if (inFlight === running) inFlight = undefined
          return Deferred.done(deferred, exit)
        })
      )
    })

    const requestTokens: Effect.Effect<RequestTokens, RefreshError> = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const current = state
      if (isUsableAccessToken(current.accessToken, now, rejected)) return Effect.succeed(current)
      if (Option.isNone(current.refreshToken)) return Effect.succeed(TokenStoreModule.empty)
      return Effect.map(refresh, (accessToken) =>
        Option.isSome(accessToken) ? { accessToken, refreshToken: state.refreshToken } : TokenStoreModule.empty
      )
    })

    const session: SessionShape = {
      requestTokens,
      refresh,
      markAccessTokenExpired: (accessToken) =>
        Effect.sync(() => {
          rejected = Redacted.value(accessToken)
        }),
      signIn: (tokens) =>
        Effect.sync(() => {
          generation++
          rejected = undefined
          state = { accessToken: Option.some(tokens.accessToken), refreshToken: tokens.refreshToken }
        }),
      clear: Effect.sync(() => {
        generation++
        state = TokenStoreModule.empty
      }),
      current: Effect.sync(() => state),
      changes: Stream.empty
    }
    return session
  })
