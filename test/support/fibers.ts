/**
 * Counting the fibers an effect starts (what effect 3's `Supervisor.track` gave these tests):
 * effect 4 tells the `Metric.FiberRuntimeMetrics` service of every fiber that starts and ends,
 * and a fiber forked inside {@link FiberCount.track} inherits the service with its context, so
 * every fiber started there, however deep, is counted until it ends.
 */
import { Effect, Metric } from "effect"

/** Fibers started inside {@link FiberCount.track} and not yet ended. */
export interface FiberCount {
  /** How many are still running. */
  readonly live: () => number
  /** How many were started. */
  readonly started: () => number
  /** Runs `effect` counting the fibers it starts (and theirs). */
  readonly track: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/** A new fiber counter. */
export const makeFiberCount = (): FiberCount => {
  let live = 0
  let started = 0
  const service: Metric.FiberRuntimeMetricsService = {
    recordFiberStart: () => {
      live++
      started++
    },
    recordFiberEnd: () => {
      live--
    }
  }
  return {
    live: () => live,
    started: () => started,
    track: (effect) => Effect.provideService(effect, Metric.FiberRuntimeMetrics, service)
  }
}
