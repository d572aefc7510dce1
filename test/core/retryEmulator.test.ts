/**
 * The 429 backoff end to end over real HTTP against the emulator's Node server with its chaos
 * switch on (`EmulatorOptions.chaosRateLimit`: 429s with a text body and no known-error header,
 * about half with `Retry-After: 1`, as a development instance of the service answers bursts).
 * The SDK uses `fetch` and the default retry decisions; its sleeps run on the TestClock.
 */
import { HttpClient } from "effect/http"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { afterAll, beforeAll } from "vitest"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as StackClient from "../../src/core/StackClient.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { recordSleeps, runAdvancingClock } from "../support/fixtures.js"
import { startServer } from "../e2e/support.js"
import { runAllAdvancingClock } from "./retrySupport.js"

type Started = { server: RunningServer; stop: () => Promise<void> }
let always: Started
let sometimes: Started

beforeAll(async () => {
  always = await startServer({ chaosRateLimit: { rate: 1, seed: 1 } })
  sometimes = await startServer({ chaosRateLimit: { rate: 0.05, seed: 7 } })
})
afterAll(async () => {
  await always?.stop()
  await sometimes?.stop()
})

/** fetch, counting the requests sent and the 429s answered (the status under x-stack-actual-status). */
const layerFor = (started: Started) => {
  const counts = { requests: 0, tooMany: 0 }
  const http = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      client.pipe(
        HttpClient.tapRequest(() => Effect.sync(() => void counts.requests++)),
        HttpClient.tap((response) =>
          Effect.sync(() => {
            const status = response.headers["x-stack-actual-status"] ?? String(response.status)
            if (status === "429") counts.tooMany++
          })
        )
      ))
  ).pipe(Layer.provide(StackClient.layerFetch))
  const layer = StackClient.layerWithoutDependencies.pipe(
    Layer.provideMerge(recordSleeps),
    Layer.provide(http),
    Layer.provide(RetryPolicy.layerWith({ attemptTimeout: "none" })),
    Layer.provideMerge(
      StackConfig.layer({
        projectId: started.server.emulator.demo.projectId,
        publishableClientKey: started.server.emulator.demo.publishableClientKey,
        baseUrl: started.server.baseUrl
      })
    )
  )
  return { counts, layer }
}

const readProject = Effect.flatMap(StackClient.StackClient, (client) => client.send({ method: "GET", path: "/projects/current", access: "client" }))

describe("429 backoff against the emulator's chaos switch, over HTTP", () => {
  it.effect("every answer a 429: RateLimited after 5 requests, each retry after the backoff (plus 1 s with Retry-After), never at once", () => {
    const { counts, layer } = layerFor(always)
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(Effect.flip(readProject))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("RateLimited")
      expect(counts.requests).toBe(5)
      expect(counts.tooMany).toBe(5)
      expect(delays).toHaveLength(4)
      delays.forEach((delay, i) => {
        const [low, high] = [500 * 2 ** i, 1500 * 2 ** i]
        const plain = delay >= low && delay <= high
        const withRetryAfter = delay >= 1000 + low && delay <= 1000 + high
        expect(plain || withRetryAfter, `delay ${delay} ms before retry ${i + 1}`).toBe(true)
      })
    }).pipe(Effect.provide(layer))
  })

  it.effect("110 concurrent reads through seeded chaos 429s all succeed: requests = 110 + the 429s answered", () => {
    const { counts, layer } = layerFor(sometimes)
    return Effect.gen(function* () {
      const exits = yield* runAllAdvancingClock(Array.from({ length: 110 }, () => readProject))
      expect(exits.filter(Exit.isFailure)).toEqual([])
      expect(counts.tooMany).toBeGreaterThan(0)
      expect(counts.requests).toBe(110 + counts.tooMany)
    }).pipe(Effect.provide(layer))
  }, 60_000)
})
