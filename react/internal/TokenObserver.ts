/**
 * The session's tokens as an external store (internal), for the token hooks: reads
 * `Session.requestTokens` (a fresh access token, refreshed when fewer than 20 s remain), shows it,
 * and reads again when the stored tokens change (sign-in, refresh, sign-out, another tab) or when
 * the access token shown is about to need a refresh (20 s before its `exp`). One fiber per
 * observer, started by the first listener and interrupted a microtask after the last one leaves.
 *
 * @module
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { accessTokenExpiry, minimumRemainingMillis as minimumRemaining, Session } from "../../src/session/Session.js"
import type { RefreshError, RequestTokens } from "../../src/session/Session.js"
import type { StackErrorHandler, StackRuntime } from "./types.js"

/** What the token hooks show. */
export interface TokenState {
  readonly status: "loading" | "success" | "error"
  readonly tokens: RequestTokens | undefined
  readonly error: RefreshError | undefined
}

const loading: TokenState = { status: "loading", tokens: undefined, error: undefined }

/**
 * How long the tokens shown stay good: until 20 s before the access token's `exp` (then a read
 * refreshes it); `undefined` when nothing expires (no access token, or one without `exp`).
 */
export const renewalDelay = (accessToken: Option.Option<Redacted.Redacted<string>>, now: number): Duration.Duration | undefined => {
  if (Option.isNone(accessToken)) return undefined
  const expiry = accessTokenExpiry(accessToken.value)
  if (expiry === undefined || Option.isNone(expiry)) return undefined
  return Duration.millis(Math.max(0, expiry.value - minimumRemaining - now))
}

/** See the module. */
export class TokenObserver {
  private state: TokenState = loading
  private readonly listeners = new Set<() => void>()
  private fiber: Fiber.Fiber<unknown, unknown> | undefined = undefined
  private stopToken = 0
  private wake: (() => void) | undefined = undefined

  constructor(
    private readonly runtime: StackRuntime<unknown>,
    private readonly onError: StackErrorHandler
  ) {}

  /** The current state (a stable object until it changes). */
  readonly getSnapshot = (): TokenState => this.state

  /** Adds a listener; the first one starts the fiber. */
  readonly subscribe = (listener: () => void): () => void => {
    this.listeners.add(listener)
    this.stopToken += 1
    if (this.fiber === undefined) this.start()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) {
        const token = ++this.stopToken
        queueMicrotask(() => {
          if (token === this.stopToken && this.listeners.size === 0) this.stop()
        })
      }
    }
  }

  /** Reads the tokens again now (e.g. after the app changed them outside the SDK). */
  readonly refetch = (): void => {
    this.wake?.()
  }

  private set(state: TokenState) {
    this.state = state
    for (const listener of [...this.listeners]) listener()
  }

  private start() {
    const self = this
    const loop = Effect.gen(function* () {
      const session = yield* Session
      const wakeUps = yield* Queue.sliding<void>(1)
      self.wake = () => Queue.offerUnsafe(wakeUps, undefined)
      yield* session.changes.pipe(Stream.runForEach(() => Queue.offer(wakeUps, undefined)), Effect.forkScoped)
      yield* Effect.yieldNow
      while (true) {
        const exit = yield* Effect.exit(session.requestTokens)
        if (Exit.isSuccess(exit)) self.set({ status: "success", tokens: exit.value, error: undefined })
        else {
          const failure = Cause.findError(exit.cause)
          if (Result.isFailure(failure)) {
            if (Cause.hasInterruptsOnly(exit.cause)) return
            self.onError(Cause.squash(exit.cause), exit.cause)
          }
          self.set({ status: "error", tokens: self.state.tokens, error: Result.isSuccess(failure) ? failure.success : undefined })
        }
        const delay = Exit.isSuccess(exit) ? renewalDelay(exit.value.accessToken, Date.now()) : undefined
        yield* delay === undefined ? Queue.take(wakeUps) : Effect.race(Queue.take(wakeUps), Effect.sleep(delay))
      }
    }).pipe(Effect.scoped)
    this.fiber = this.runtime.runFork(loop as Effect.Effect<void, never, unknown>)
  }

  private stop() {
    const fiber = this.fiber
    this.fiber = undefined
    this.wake = undefined
    if (fiber !== undefined) Effect.runFork(Fiber.interrupt(fiber))
  }
}
