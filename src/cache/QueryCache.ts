/**
 * The query cache (DESIGN.md §3): reads that many screens share go through it, keyed by call.
 *
 * Rules:
 * - concurrent identical reads (same key) send ONE request and share its result;
 * - an entry lives while it has subscribers and {@link defaultOptions.ttlMillis} (5 s) after the
 *   last one leaves; a plain read is a subscriber while it runs; time comes from `Clock`;
 * - failures are never cached: the next read asks again;
 * - `invalidate(prefix)` makes every matching entry stale, so the next read is fresh; an entry
 *   somebody subscribes to is refreshed in the background, at most once per 300 ms, one fetch at a
 *   time ({@link defaultOptions.throttleMillis});
 * - a read never runs two fetches of one entry at once: a read after an invalidation waits for
 *   the fetch that started before it, then fetches again;
 * - entries are partitioned by session: a read sees only entries fetched under the `Session` of its
 *   own context (the app's session, or a per-request session on a server runtime), never another's;
 * - a session change (sign-in, sign-out, another user, another tab) clears the user's entries
 *   (everything except the project-wide keys of {@link sharedPrefixes}); a fetch that started
 *   under the previous session never writes its result.
 *
 * {@link cached} and {@link invalidate} read the service with `Effect.serviceOption`: they add no
 * requirement and no error to the caller, and without the service they just run the effect.
 * `Stack.layerClient` (and the server/admin variants) provide one cache per layer: two apps in one
 * process never share entries.
 *
 * For UI bindings: {@link subscribe} streams an entry's state while holding it, {@link track} runs
 * an effect and reports which entries it read (with their versions), and {@link awaitChange}
 * waits until one of them has a new value or the session changed.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { QueryCache, Teams } from "stack-auth-effect"
 *
 * // an app's own read, cached under a key of its own until something under ["teams"] changes
 * const teamCount = QueryCache.cached(["teams", "me", "count"], Effect.map(Teams.listMine(), (teams) => teams.length))
 * const create = (name: string) =>
 *   Teams.create({ displayName: name }).pipe(Effect.tap(() => QueryCache.invalidate(["teams"])))
 * ```
 *
 * @module
 */
import type * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { Session } from "../session/Session.js"
import type { SessionShape } from "../session/Session.js"
import type { StoredTokens } from "../session/TokenStore.js"

/** A cache key, e.g. `["user", "me"]`, `["team", teamId]`. Invalidation works by prefix. */
export type Key = ReadonlyArray<string>

/** Settings of a cache. */
export interface Options {
  /** How long an entry lives after its last subscriber left (default 5000 ms). */
  readonly ttlMillis?: number | undefined
  /** Minimum gap between two background refreshes of one entry (default 300 ms). */
  readonly throttleMillis?: number | undefined
  /**
   * `false` turns caching off: every read runs its effect, nothing is stored; session changes are
   * still reported to subscribers (default `true`).
   */
  readonly enabled?: boolean | undefined
}

/** The defaults of {@link Options}. */
export const defaultOptions = { ttlMillis: 5_000, throttleMillis: 300, enabled: true } as const

/** Keys whose first segment is listed here are project-wide: a session change keeps them. */
export const sharedPrefixes: ReadonlyArray<string> = ["project"]

/** What a subscriber sees of an entry. */
export interface EntryState {
  /** The entry's key. */
  readonly key: Key
  /**
   * `"empty"`: nothing read yet (or cleared by a session change); `"success"`: a value is held;
   * `"failure"`: the last fetch failed (not cached: the next read asks again).
   */
  readonly status: "empty" | "success" | "failure"
  /** The last value read, kept while a refresh runs. */
  readonly value: Option.Option<unknown>
  /** The cause of the last failure, when `status` is `"failure"`. */
  readonly failure: Option.Option<Cause.Cause<unknown>>
  /** `true` while the value may be served to readers (not invalidated, not expired). */
  readonly fresh: boolean
  /** `true` while a fetch runs. */
  readonly fetching: boolean
  /** Grows with every new value, invalidation-free: a subscriber re-reads when it changes. */
  readonly version: number
  /** The session generation the entry belongs to. */
  readonly generation: number
}

/** A version signal for the whole cache. */
export interface CacheVersion {
  /** Grows with every new value stored and every session change. */
  readonly version: number
  /** Grows with every session change (sign-in, sign-out, another user). */
  readonly generation: number
}

/** One entry an effect read, at the version it saw. */
export interface Dependency {
  readonly key: Key
  readonly version: number
}

/** What {@link track} observed: the entries read and the session generation at the start. */
export interface Dependencies {
  readonly keys: ReadonlyArray<Dependency>
  readonly generation: number
}

/** Why {@link awaitChange} returned. */
export type ChangeReason = "value" | "session"

/** The cache service. */
export interface QueryCacheShape {
  /** Runs `effect` through the entry `key` (see the module's rules). */
  readonly cached: <A, E, R>(key: Key, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Makes every entry under `prefix` stale; subscribed ones are refreshed (throttled). */
  readonly invalidate: (prefix: Key) => Effect.Effect<void>
  /** Drops every entry (a subscribed one is emptied and refreshed). */
  readonly clear: Effect.Effect<void>
  /** The entry's state while the stream runs; running it subscribes (keeps the entry alive). */
  readonly subscribe: (key: Key) => Stream.Stream<EntryState>
  /** The cache's version signal (current value first). */
  readonly changes: Stream.Stream<CacheVersion>
  /** The current version signal. */
  readonly version: Effect.Effect<CacheVersion>
  /** Waits (subscribed to every entry read) until one has a new value or the session changed. */
  readonly awaitChange: (dependencies: Dependencies) => Effect.Effect<ChangeReason>
  /** Checks the session now and clears the user's entries if it changed. */
  readonly syncSession: Effect.Effect<void>
}

/** The query cache. */
export class QueryCache extends Context.Service<QueryCache, QueryCacheShape>()("stack-auth-effect/QueryCache") {}

interface InFlight {
  readonly deferred: Deferred.Deferred<unknown, unknown>
  readonly epoch: number
  outdated: boolean
  /** Readers awaiting this fetch; when the last one is interrupted, so is the fetch. */
  waiters: number
  fiber: Fiber.Fiber<unknown, unknown> | undefined
}

interface Entry {
  readonly id: string
  readonly key: Key
  /**
   * Who hears the entry's state (subscribers' streams): a `PubSub` replaying the latest state,
   * made at the first subscription (an entry nobody subscribes to holds none).
   */
  states: PubSub.PubSub<EntryState> | undefined
  subscribers: number
  releasedAt: number
  value: Option.Option<unknown>
  failure: Option.Option<Cause.Cause<unknown>>
  status: EntryState["status"]
  fresh: boolean
  version: number
  epoch: number
  inFlight: InFlight | undefined
  lastFetchStartedAt: number
  refreshScheduled: boolean
  fetcher: Effect.Effect<unknown, unknown> | undefined
}

const idOf = (key: Key): string => JSON.stringify(key)

const startsWith = (key: Key, prefix: Key): boolean => prefix.length <= key.length && prefix.every((segment, index) => key[index] === segment)

const isShared = (key: Key): boolean => key.length > 0 && sharedPrefixes.includes(key[0]!)

/** Which session the tokens belong to: a new sign-in stores a new refresh token. */
const identityOf = (tokens: StoredTokens): string =>
  Option.isSome(tokens.refreshToken)
    ? `r:${Redacted.value(tokens.refreshToken.value)}`
    : Option.isSome(tokens.accessToken)
    ? `a:${Redacted.value(tokens.accessToken.value)}`
    : ""

interface Tracker {
  readonly keys: Map<string, Dependency>
}

/** The tracker of the running {@link track}, if any (read by every cached read). */
class CurrentTracker extends Context.Reference<Tracker | undefined>("stack-auth-effect/QueryCache/CurrentTracker", {
  defaultValue: () => undefined
}) {}

const record = (key: Key, version: number) =>
  Effect.flatMap(CurrentTracker, (tracker) =>
    Effect.sync(() => {
      tracker?.keys.set(idOf(key), { key, version })
    }))

/**
 * One partition of a cache: the entries of exactly one session (or of calls made without one).
 * Its fetches and background refreshes run in the cache's `FiberSet` (interrupted when the cache's
 * scope closes). `watch` hears the session's changes (only for the session the cache was built
 * with; other sessions are checked at every call), and is removed with `scope`.
 */
const makePartition = (
  options: Options,
  scope: Scope.Scope,
  fibers: FiberSet.FiberSet<unknown, unknown>,
  session: Option.Option<SessionShape>,
  watch: boolean
): Effect.Effect<QueryCacheShape> =>
  Effect.gen(function* () {
    const ttl = options.ttlMillis ?? defaultOptions.ttlMillis
    const throttle = options.throttleMillis ?? defaultOptions.throttleMillis
    const enabled = options.enabled ?? defaultOptions.enabled
    const entries = new Map<string, Entry>()
    // the version signal: its subscribers get the current value, then every change
    const signal = yield* SubscriptionRef.make<CacheVersion>({ version: 0, generation: 0 })
    // a fork in the cache's fiber set, never in the caller's fiber; it starts once the caller
    // yields, so concurrent readers find the fetch in flight and join it
    const fork = <A, E>(effect: Effect.Effect<A, E>) => FiberSet.run(fibers, effect, { startImmediately: false })
    let identity = Option.isSome(session) ? identityOf(yield* session.value.current) : ""
    let generation = 0

    const snapshot = (entry: Entry): EntryState => ({
      key: entry.key,
      status: entry.status,
      value: entry.value,
      failure: entry.failure,
      fresh: entry.fresh,
      fetching: entry.inFlight !== undefined,
      version: entry.version,
      generation
    })

    // subscribers get the snapshot at once, so the last one they get is always the latest state
    const publish = (entry: Entry) =>
      Effect.sync(() => {
        if (entry.states !== undefined) PubSub.publishUnsafe(entry.states, snapshot(entry))
      })
    const bump = SubscriptionRef.update(signal, (current) => ({ version: current.version + 1, generation }))

    const isExpired = (entry: Entry, now: number) =>
      entry.subscribers === 0 && entry.inFlight === undefined && !entry.refreshScheduled && now - entry.releasedAt >= ttl

    const sweep = (now: number) => {
      for (const [id, entry] of entries) if (isExpired(entry, now)) entries.delete(id)
    }

    const entryFor = (key: Key) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        sweep(now)
        const id = idOf(key)
        const existing = entries.get(id)
        if (existing !== undefined) return existing
        const entry: Entry = {
          id,
          key,
          states: undefined,
          subscribers: 0,
          releasedAt: now,
          value: Option.none(),
          failure: Option.none(),
          status: "empty",
          fresh: false,
          version: 0,
          epoch: 0,
          inFlight: undefined,
          lastFetchStartedAt: Number.NEGATIVE_INFINITY,
          refreshScheduled: false,
          fetcher: undefined
        }
        entries.set(id, entry)
        return entry
      })

    const acquire = (key: Key) =>
      Effect.tap(entryFor(key), (entry) =>
        Effect.sync(() => {
          entry.subscribers += 1
        }))

    const release = (entry: Entry) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          entry.subscribers -= 1
          if (entry.subscribers === 0) entry.releasedAt = now
        }))

    const complete = (entry: Entry, flight: InFlight, exit: Exit.Exit<unknown, unknown>) =>
      Effect.suspend(() => {
        if (entry.inFlight === flight) entry.inFlight = undefined
        const current = flight.epoch === entry.epoch && !flight.outdated
        let changed = false
        if (current) {
          if (Exit.isSuccess(exit)) {
            entry.value = Option.some(exit.value)
            entry.failure = Option.none()
            entry.status = "success"
            entry.fresh = true
            entry.version += 1
            changed = true
          } else if (!Exit.hasInterrupts(exit)) {
            // failures are not cached: the entry stays stale and the next read asks again
            entry.failure = Option.some(exit.cause)
            entry.status = "failure"
            entry.fresh = false
          }
        }
        return publish(entry).pipe(
          Effect.andThen(changed ? bump : Effect.void),
          Effect.andThen(Deferred.done(flight.deferred, exit))
        )
      })

    const startFetch = (entry: Entry, fetch: Effect.Effect<unknown, unknown>) =>
      Effect.uninterruptible(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const flight: InFlight = {
            deferred: yield* Deferred.make<unknown, unknown>(),
            epoch: entry.epoch,
            outdated: false,
            waiters: 0,
            fiber: undefined
          }
          entry.inFlight = flight
          entry.lastFetchStartedAt = now
          entry.fetcher = fetch
          // the request itself is interruptible (effect 4 forks are): by its last waiter leaving,
          // or the cache's scope closing; it completes the flight however it ends (interrupted
          // too: else the entry would keep a flight nobody completes, and every later read of it
          // would join that flight and wait forever)
          flight.fiber = yield* fork(Effect.onExit(fetch, (exit) => complete(entry, flight, exit)))
          yield* publish(entry)
          return flight
        })
      )

    // await a shared fetch as one of its waiters; the last waiter to be interrupted interrupts it
    const awaitFlight = (flight: InFlight): Effect.Effect<unknown, unknown> =>
      Effect.suspend(() => {
        flight.waiters += 1
        return Deferred.await(flight.deferred).pipe(
          Effect.onExit(() =>
            Effect.suspend(() => {
              flight.waiters -= 1
              return Effect.void
            })
          ),
          Effect.onInterrupt(() => Effect.suspend(() => flight.waiters === 0 && flight.fiber !== undefined ? Fiber.interrupt(flight.fiber) : Effect.void))
        )
      })

    // serve a fresh value, join the fetch that started after the last invalidation, or start one
    const ensureFresh = (entry: Entry, fetch: Effect.Effect<unknown, unknown>): Effect.Effect<unknown, unknown> =>
      Effect.suspend(() => {
        if (entry.fresh && Option.isSome(entry.value)) return Effect.succeed(entry.value.value)
        const flight = entry.inFlight
        if (flight !== undefined && flight.epoch === entry.epoch) {
          if (!flight.outdated) return awaitFlight(flight)
          // one fetch at a time: wait for the outdated one, then read again
          return awaitFlight(flight).pipe(Effect.exit, Effect.andThen(ensureFresh(entry, fetch)))
        }
        return Effect.flatMap(startFetch(entry, fetch), awaitFlight)
      })

    const scheduleRefresh = (entry: Entry): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (entry.refreshScheduled || entry.fetcher === undefined) return Effect.void
        entry.refreshScheduled = true
        const epoch = entry.epoch
        return Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const wait = Math.max(0, entry.lastFetchStartedAt + throttle - now)
          if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
          entry.refreshScheduled = false
          if (entry.subscribers > 0 && entry.epoch === epoch && entry.fetcher !== undefined && !entry.fresh) {
            yield* Effect.exit(ensureFresh(entry, entry.fetcher))
          }
        }).pipe(
          Effect.onInterrupt(() =>
            Effect.sync(() => {
              entry.refreshScheduled = false
            })
          ),
          fork,
          Effect.asVoid
        )
      })

    const drop = (entry: Entry, reset: boolean) =>
      Effect.suspend(() => {
        entry.fresh = false
        if (entry.inFlight !== undefined) entry.inFlight.outdated = true
        if (reset) {
          // a new session: forget the value and detach the fetch of the previous one
          entry.epoch += 1
          entry.inFlight = undefined
          entry.value = Option.none()
          entry.failure = Option.none()
          entry.status = "empty"
          entry.version += 1
        }
        if (entry.subscribers > 0) return Effect.andThen(publish(entry), scheduleRefresh(entry))
        if (entry.inFlight === undefined) entries.delete(entry.id)
        return publish(entry)
      })

    const applyIdentity = (tokens: StoredTokens) =>
      Effect.suspend(() => {
        const next = identityOf(tokens)
        if (next === identity) return Effect.void
        identity = next
        generation += 1
        const affected = [...entries.values()].filter((entry) => !isShared(entry.key))
        return Effect.forEach(affected, (entry) => drop(entry, true), { discard: true }).pipe(Effect.andThen(bump))
      })

    const syncSession: Effect.Effect<void> = Option.isSome(session)
      ? Effect.flatMap(session.value.current, applyIdentity)
      : Effect.void

    if (watch && Option.isSome(session)) {
      // a change is a cue to look at the session now: replaying an older emitted state could
      // undo a newer one that a reader already applied
      const watched = session.value
      if (watched.listen !== undefined) {
        // a plain listener (issue 14: no watcher fiber or stream per layer), removed with the scope;
        // it looks at the session at once, so the cache is in step when the session's write returns
        // (the look is synchronous: were it ever to wait, its fiber would go on in the background)
        const run = Effect.runSyncExitWith(yield* Effect.context<never>())
        const remove = watched.listen(() => {
          run(syncSession)
        })
        yield* Scope.addFinalizer(scope, Effect.sync(remove))
      } else {
        yield* watched.changes.pipe(Stream.runForEach(() => syncSession), fork)
      }
    }

    const cached = <A, E, R>(key: Key, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
      if (!enabled) return Effect.andThen(syncSession, effect)
      return Effect.gen(function* () {
        yield* syncSession
        const context = yield* Effect.context<R>()
        const fetch = Effect.provide(effect, context) as Effect.Effect<unknown, unknown>
        const value = yield* Effect.acquireUseRelease(
          acquire(key),
          (entry) => ensureFresh(entry, fetch),
          (entry) => Effect.andThen(release(entry), record(key, entry.version))
        )
        return value as A
      }) as Effect.Effect<A, E, R>
    }

    const invalidate = (prefix: Key): Effect.Effect<void> =>
      Effect.andThen(
        syncSession,
        Effect.suspend(() =>
          Effect.forEach(
            [...entries.values()].filter((entry) => startsWith(entry.key, prefix)),
            (entry) => drop(entry, false),
            { discard: true }
          )
        )
      )

    const clear: Effect.Effect<void> = Effect.suspend(() =>
      Effect.forEach([...entries.values()], (entry) => drop(entry, true), { discard: true }).pipe(Effect.andThen(bump))
    )

    // the entry's states, replaying the latest: made at the first subscription, with its state now
    const statesOf = (entry: Entry): Effect.Effect<PubSub.PubSub<EntryState>> =>
      entry.states !== undefined ? Effect.succeed(entry.states) : Effect.map(PubSub.unbounded<EntryState>({ replay: 1 }), (made) => {
        // another subscriber may have made them meanwhile: keep the first
        if (entry.states !== undefined) return entry.states
        PubSub.publishUnsafe(made, snapshot(entry))
        entry.states = made
        return made
      })

    const subscribe = (key: Key): Stream.Stream<EntryState> =>
      Stream.unwrap(
        Effect.flatMap(Effect.acquireRelease(acquire(key), release), (entry) => Effect.map(statesOf(entry), Stream.fromPubSub))
      )

    const awaitChange = (dependencies: Dependencies): Effect.Effect<ChangeReason> => {
      const session_ = SubscriptionRef.changes(signal).pipe(
        Stream.filter((current) => current.generation !== dependencies.generation),
        Stream.as<ChangeReason>("session")
      )
      const values = dependencies.keys.map((dependency) =>
        subscribe(dependency.key).pipe(
          Stream.filter((state) => state.version !== dependency.version),
          Stream.as<ChangeReason>("value")
        )
      )
      return Stream.mergeAll([session_, ...values], { concurrency: "unbounded" }).pipe(
        Stream.runHead,
        Effect.map(Option.getOrElse((): ChangeReason => "session"))
      )
    }

    const service: QueryCacheShape = {
      cached,
      invalidate,
      clear,
      subscribe,
      changes: SubscriptionRef.changes(signal),
      version: SubscriptionRef.get(signal),
      awaitChange,
      syncSession
    }
    return service
  })

/**
 * Builds a cache in the current scope (fetches and refreshes belong to it).
 *
 * **A cache belongs to exactly one session** (DESIGN.md §3): entries are partitioned by the
 * `Session` found in the context of the call that reads them. The session the cache was built
 * with (the app's own) gets a partition watched through its change stream; any other session — a
 * per-request session provided by `RequestSession.layerSession`, `CookieTokenStore.layerSession`
 * or `ServerUsers.fromRequest` on a server runtime — gets its own partition, held weakly by that
 * session object and checked at every call. A read can therefore only ever see entries that were
 * fetched with its own session's tokens, and a session without tokens is never "signed in".
 * Invalidation reaches every live partition (it only ever makes entries stale).
 */
export const make = (options: Options = {}): Effect.Effect<QueryCacheShape, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const fibers = yield* FiberSet.make()
    const owner = yield* Effect.serviceOption(Session)
    const ownerPartition = yield* makePartition(options, scope, fibers, owner, true)
    const bySession = new WeakMap<SessionShape, QueryCacheShape>()
    const live = new Set<WeakRef<QueryCacheShape>>()
    let sessionless: QueryCacheShape | undefined

    const partitionFor = (session: Option.Option<SessionShape>): Effect.Effect<QueryCacheShape> => {
      if (Option.isNone(session)) {
        if (Option.isNone(owner)) return Effect.succeed(ownerPartition)
        if (sessionless !== undefined) return Effect.succeed(sessionless)
        return Effect.map(makePartition(options, scope, fibers, session, false), (made) => {
          sessionless ??= made
          return sessionless
        })
      }
      if (Option.isSome(owner) && owner.value === session.value) return Effect.succeed(ownerPartition)
      const existing = bySession.get(session.value)
      if (existing !== undefined) return Effect.succeed(existing)
      return Effect.map(makePartition(options, scope, fibers, session, false), (made) => {
        // another fiber of the same session may have made one meanwhile: keep the first
        const raced = bySession.get(session.value)
        if (raced !== undefined) return raced
        bySession.set(session.value, made)
        live.add(new WeakRef(made))
        return made
      })
    }

    /** The partition of the session in the caller's context. */
    const mine: Effect.Effect<QueryCacheShape> = Effect.flatMap(Effect.serviceOption(Session), partitionFor)

    const everyPartition = (): ReadonlyArray<QueryCacheShape> => {
      const all: Array<QueryCacheShape> = [ownerPartition]
      if (sessionless !== undefined) all.push(sessionless)
      for (const ref of live) {
        const partition = ref.deref()
        if (partition === undefined) live.delete(ref)
        else all.push(partition)
      }
      return all
    }

    const service: QueryCacheShape = {
      cached: (key, effect) => Effect.flatMap(mine, (partition) => partition.cached(key, effect)),
      invalidate: (prefix) => Effect.suspend(() => Effect.forEach(everyPartition(), (partition) => partition.invalidate(prefix), { discard: true })),
      clear: Effect.flatMap(mine, (partition) => partition.clear),
      subscribe: (key) => Stream.unwrap(Effect.map(mine, (partition) => partition.subscribe(key))),
      changes: Stream.unwrap(Effect.map(mine, (partition) => partition.changes)),
      version: Effect.flatMap(mine, (partition) => partition.version),
      awaitChange: (dependencies) => Effect.flatMap(mine, (partition) => partition.awaitChange(dependencies)),
      syncSession: Effect.flatMap(mine, (partition) => partition.syncSession)
    }
    return service
  })

/** A cache as a layer (watches the `Session` when the app provides one). */
export const layer = (options: Options = {}): Layer.Layer<QueryCache> => Layer.effect(QueryCache, make(options))

/**
 * Runs `effect` through the entry `key` of the app's cache: concurrent identical reads share one
 * request, a fresh value is served without a request, failures are not stored. Adds no
 * requirement: without a `QueryCache` it just runs `effect`.
 */
export const cached = <A, E, R>(key: Key, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.serviceOption(QueryCache), (cache) => Option.isSome(cache) ? cache.value.cached(key, effect) : effect)

/**
 * Makes every entry whose key starts with `prefix` stale, so the next read is fresh (subscribed
 * entries are refreshed in the background, throttled). No-op without a `QueryCache`.
 */
export const invalidate = (prefix: Key): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(QueryCache), (cache) => Option.isSome(cache) ? cache.value.invalidate(prefix) : Effect.void)

/** Streams an entry's state while subscribed (empty stream without a `QueryCache`). */
export const subscribe = (key: Key): Stream.Stream<EntryState> =>
  Stream.unwrap(
    Effect.map(Effect.serviceOption(QueryCache), (cache) => Option.isSome(cache) ? cache.value.subscribe(key) : Stream.empty)
  )

/**
 * The cache's version signal (current value first): grows with every new value stored and every
 * session change. Empty without a `QueryCache`.
 */
export const changes: Stream.Stream<CacheVersion> = Stream.unwrap(
  Effect.map(Effect.serviceOption(QueryCache), (cache) => (Option.isSome(cache) ? cache.value.changes : Stream.empty))
)

/** The result of {@link track}. */
export interface Tracked<A, E> {
  readonly exit: Exit.Exit<A, E>
  readonly dependencies: Dependencies
}

/**
 * Runs `effect` and reports which cache entries it read (and their versions) along with its exit,
 * so a UI can wait for {@link awaitChange} and run it again. Never fails.
 */
export const track = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Tracked<A, E>, never, R> =>
  Effect.gen(function* () {
    const cache = yield* Effect.serviceOption(QueryCache)
    if (Option.isSome(cache)) yield* cache.value.syncSession
    const before = Option.isSome(cache) ? (yield* cache.value.version).generation : 0
    const tracker: Tracker = { keys: new Map() }
    const exit = yield* Effect.exit(Effect.provideService(effect, CurrentTracker, tracker))
    return { exit, dependencies: { keys: [...tracker.keys.values()], generation: before } }
  })

/**
 * Waits until one of the entries in `dependencies` has a new value, or the session changed
 * (holding a subscription to each meanwhile). Without a `QueryCache` it never returns.
 */
export const awaitChange = (dependencies: Dependencies): Effect.Effect<ChangeReason> =>
  Effect.flatMap(Effect.serviceOption(QueryCache), (cache) => Option.isSome(cache) ? cache.value.awaitChange(dependencies) : Effect.never)

/**
 * Wraps a mutation so every entry under each of `prefixes` is invalidated when it ends (success
 * or failure: a failed request may still have changed something). Keeps the effect's type.
 *
 * @example
 * ```ts
 * import { QueryCache, Users } from "stack-auth-effect"
 *
 * // also drop an app's own entries derived from the user
 * const rename = (name: string) => Users.updateCurrent({ displayName: name }).pipe(QueryCache.invalidating(["profile"]))
 * ```
 */
export const invalidating = (...prefixes: ReadonlyArray<Key>) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.ensuring(self, Effect.forEach(prefixes, invalidate, { discard: true }))
