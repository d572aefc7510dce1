/**
 * One query of a component (internal): runs the effect on the app's runtime, remembers which
 * cache entries it read, and runs it again when one of them gets a new value, the session
 * changes, or `refetch` is called. An external store for `useSyncExternalStore`.
 *
 * The fiber starts with the first listener and is interrupted shortly after the last one leaves
 * (a microtask later, so StrictMode's unmount/mount pair keeps the same fiber).
 *
 * `waiting` is `true` while the query runs again in the background with a result on screen: from
 * the moment an entry it read is invalidated (the cache refreshes it) or `refetch` is called, until
 * the new result is shown. A refresh of an entry that fails (the cache keeps the entry stale and
 * its old value) ends the wait: the query keeps its result.
 *
 * A run's result is shown only once the query's own fiber has subscribed to every entry the run
 * read: an invalidation made from what is on screen (a mutation the user starts right away) always
 * finds those entries subscribed, so the cache refreshes them in the background, throttled, with
 * the result kept. (Following them happens in forked fibers, which start when the scheduler gets
 * to them, after the event loop has had a turn: subscribing there would leave a gap.)
 *
 * @module
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as QueryCache from "../../src/cache/QueryCache.js"
import type { StackErrorHandler, StackRuntime } from "./types.js"

/** What a query shows. */
export interface QueryState<A, E> {
  /** `"loading"` until the first result (and again after a session change). */
  readonly status: "loading" | "success" | "error"
  /** The last value (kept while a refetch runs). */
  readonly data: A | undefined
  /** The typed error of the last run, when it failed with one. */
  readonly error: E | undefined
  /** The whole cause of the last failure (typed error or defect). */
  readonly cause: Cause.Cause<E> | undefined
  /** `true` while the query runs again in the background with a result shown (never while `"loading"`). */
  readonly waiting: boolean
}

const loading: QueryState<never, never> = { status: "loading", data: undefined, error: undefined, cause: undefined, waiting: false }

/** Whether the cache is bringing an entry up to date: stale with a value (a refresh is due) or fetching. */
const refreshing = (entry: QueryCache.EntryState): boolean => entry.fetching || (!entry.fresh && entry.status === "success")

type Listener = () => void

/** The typed error of a cause, if it holds one. */
const errorOf = <E>(cause: Cause.Cause<E>): E | undefined => {
  const failure = Cause.findError(cause)
  return Result.isSuccess(failure) ? failure.success : undefined
}

/** See the module. */
export class QueryObserver<A, E> {
  private state: QueryState<A, E> = loading
  private readonly listeners = new Set<Listener>()
  private fiber: Fiber.Fiber<unknown, unknown> | undefined = undefined
  private stopToken = 0
  private onRefetch: (() => void) | undefined = undefined
  private refetchRequested = false
  private settled: { promise: Promise<void>; resolve: () => void } | undefined = undefined
  private dropTimer: ReturnType<typeof setTimeout> | undefined = undefined

  constructor(
    private readonly runtime: StackRuntime<unknown>,
    private readonly effect: Effect.Effect<A, E, unknown>,
    private readonly onError: StackErrorHandler,
    /** A value to show before the first run settles (hydration from a server render). */
    initial?: { readonly data: A } | undefined
  ) {
    if (initial !== undefined) this.state = { status: "success", data: initial.data, error: undefined, cause: undefined, waiting: false }
  }

  /** The current state (a stable object until it changes). */
  readonly getSnapshot = (): QueryState<A, E> => this.state

  /** Adds a listener; the first one starts the query. */
  readonly subscribe = (listener: Listener): () => void => {
    this.listeners.add(listener)
    this.stopToken += 1
    this.clearDrop()
    this.start()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) this.scheduleStop()
    }
  }

  /** Whether a mounted component listens. */
  get hasListeners(): boolean {
    return this.listeners.size > 0
  }

  /** Runs the effect again; entries it read are invalidated first, so the result is fresh. */
  readonly refetch = (): void => {
    if (this.onRefetch !== undefined) this.onRefetch()
    else {
      this.refetchRequested = true
      if (this.listeners.size > 0) this.start()
    }
  }

  /** Resolves when the query has a result (for Suspense). */
  promise(): Promise<void> {
    if (this.state.status !== "loading") return Promise.resolve()
    if (this.settled === undefined) {
      let resolve!: () => void
      const promise = new Promise<void>((done) => {
        resolve = done
      })
      this.settled = { promise, resolve }
    }
    return this.settled.promise
  }

  /** Starts the query (idempotent). */
  start(): void {
    if (this.fiber !== undefined) return
    const fiber = this.runtime.runFork(this.loop())
    this.fiber = fiber
    fiber.addObserver((exit) => {
      if (this.fiber === fiber) this.fiber = undefined
      // the loop only ends by interruption, or when the app's layers fail to build
      if (Exit.isFailure(exit) && !Exit.hasInterrupts(exit)) {
        const cause = exit.cause as Cause.Cause<E>
        this.set({ status: "error", data: this.state.data, error: errorOf(cause), cause, waiting: false })
        this.onError(Cause.squash(cause), cause)
      }
    })
  }

  /** Interrupts the query's fiber now. */
  stop(): void {
    const fiber = this.fiber
    this.fiber = undefined
    this.onRefetch = undefined
    if (fiber !== undefined) Effect.runFork(Fiber.interrupt(fiber))
  }

  /**
   * When nobody listens `millis` after the query settled, stops it and calls `onDrop` (a suspended
   * render that never committed leaves no listener behind).
   */
  armDrop(millis: number, onDrop: () => void): void {
    this.clearDrop()
    void this.promise().then(() => {
      this.clearDrop()
      const timer = setTimeout(() => {
        if (this.listeners.size === 0) {
          this.stop()
          onDrop()
        }
      }, millis)
      ;(timer as { unref?: () => void }).unref?.()
      this.dropTimer = timer
    })
  }

  private clearDrop() {
    if (this.dropTimer !== undefined) clearTimeout(this.dropTimer)
    this.dropTimer = undefined
  }

  private scheduleStop() {
    const token = ++this.stopToken
    queueMicrotask(() => {
      if (token === this.stopToken && this.listeners.size === 0) this.stop()
    })
  }

  private set(state: QueryState<A, E>) {
    this.state = state
    if (state.status !== "loading" && this.settled !== undefined) {
      this.settled.resolve()
      this.settled = undefined
    }
    for (const listener of [...this.listeners]) listener()
  }

  private settle(exit: Exit.Exit<A, E>) {
    if (Exit.isSuccess(exit)) {
      this.set({ status: "success", data: exit.value, error: undefined, cause: undefined, waiting: false })
      return
    }
    if (Cause.hasInterruptsOnly(exit.cause)) return
    const failure = Cause.findError(exit.cause)
    this.set({ status: "error", data: this.state.data, error: errorOf(exit.cause), cause: exit.cause, waiting: false })
    // a typed failure is the component's to show; a defect is a bug nobody handles
    if (Result.isFailure(failure)) this.onError(Cause.squash(exit.cause), exit.cause)
  }

  /** Shows (or stops showing) that a background run is under way; nothing while loading. */
  private setWaiting(waiting: boolean) {
    if (this.state.status === "loading" || this.state.waiting === waiting) return
    this.set({ ...this.state, waiting })
  }

  /**
   * Subscribes to the entry `key` in the calling fiber, for as long as the scope is open: its first
   * state is read at once (the subscription is in place when this returns), and the stream gives
   * that state, then every later one.
   */
  private hold(key: QueryCache.Key): Effect.Effect<Stream.Stream<QueryCache.EntryState>, never, Scope.Scope> {
    return Effect.gen(function* () {
      const pull = yield* Stream.toPull(QueryCache.subscribe(key))
      // the subscription's first state is the entry's current one (an ended stream: none, no cache)
      const first = yield* Effect.orElseSucceed(pull, (): ReadonlyArray<QueryCache.EntryState> => [])
      return Stream.concat(Stream.fromIterable(first), Stream.fromPull(Effect.succeed(pull)))
    })
  }

  /**
   * Follows the entries the last run read (`held`: each with its subscription, see {@link hold}):
   * `waiting` while one of them is being refreshed (after an invalidation). Never ends (without a
   * cache: nothing to follow).
   */
  private watchRefreshes(
    generation: number,
    held: ReadonlyArray<{ readonly dependency: QueryCache.Dependency; readonly states: Stream.Stream<QueryCache.EntryState> }>
  ): Effect.Effect<never> {
    const refreshingKeys = new Set<number>()
    const streams = held.map(({ dependency, states }, index) =>
      // a new version means a run is about to start: still waiting; another session: loading soon
      states.pipe(
        Stream.map(
          (entry) =>
            [
              index,
              entry.generation === generation && (refreshing(entry) || entry.version !== dependency.version)
            ] as const
        )
      )
    )
    return Stream.mergeAll(streams, { concurrency: "unbounded" }).pipe(
      Stream.runForEach(([index, busy]) =>
        Effect.sync(() => {
          if (busy) refreshingKeys.add(index)
          else refreshingKeys.delete(index)
          this.setWaiting(refreshingKeys.size > 0)
        })
      ),
      Effect.andThen(Effect.never)
    )
  }

  private awaitRefetch(): Effect.Effect<"refetch"> {
    return Effect.callback<"refetch">((resume) => {
      if (this.refetchRequested) {
        this.refetchRequested = false
        resume(Effect.succeed("refetch"))
        return
      }
      this.onRefetch = () => {
        this.onRefetch = undefined
        resume(Effect.succeed("refetch"))
      }
      return Effect.sync(() => {
        this.onRefetch = undefined
      })
    })
  }

  private loop(): Effect.Effect<never> {
    const self = this
    return Effect.gen(function* () {
      while (true) {
        const tracked = yield* QueryCache.track(self.effect)
        const reason = yield* Effect.scoped(Effect.gen(function* () {
          // the entries read are subscribed before the result is shown (see the module)
          const held = yield* Effect.forEach(
            tracked.dependencies.keys,
            (dependency) => Effect.map(self.hold(dependency.key), (states) => ({ dependency, states }))
          )
          self.settle(tracked.exit)
          return yield* Effect.raceFirst(
            Effect.raceFirst(QueryCache.awaitChange(tracked.dependencies), self.awaitRefetch()),
            self.watchRefreshes(tracked.dependencies.generation, held)
          )
        }))
        if (reason === "session") {
          // another user (or nobody): show nothing of the previous one while reading again
          self.set(loading)
        } else {
          // the result stays on screen, marked as being brought up to date, until the run settles
          self.setWaiting(true)
          if (reason === "refetch") {
            yield* Effect.forEach(tracked.dependencies.keys, (dependency) => QueryCache.invalidate(dependency.key), { discard: true })
          }
        }
      }
    }) as Effect.Effect<never, never, unknown> as Effect.Effect<never>
  }
}
