/**
 * The 429 backoff over real HTTP (a `node:http` server on 127.0.0.1, fetch, the default retry
 * decisions, sleeps on the TestClock, virtual time measured): a server answering a burst of 429s, as a development
 * instance of the service does, to 110 concurrent reads. Each path is refused twice (once with
 * `Retry-After: 1`, once without, alternately), so the request count is exact whatever the timing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Exit, Layer } from "effect"
import * as nodeHttp from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as StackClient from "../../src/core/StackClient.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import { projectId, publishableClientKey, recordSleeps } from "../support/fixtures.js"
import { runAllAdvancingClock } from "./retrySupport.js"

const seen = new Map<string, number>()
let requests = 0
let server: nodeHttp.Server
let baseUrl = ""

beforeAll(async () => {
  server = nodeHttp.createServer((request, response) => {
    requests++
    const path = request.url ?? "/"
    const count = (seen.get(path) ?? 0) + 1
    seen.set(path, count)
    if (count <= 2) {
      // Sent the way the service sends a 4xx under x-stack-override-error-status, with the
      // development instance's body and no known-error header.
      const retryAfter = count === 1 ? { "retry-after": "1" } : {}
      response.writeHead(200, { "content-type": "application/json", "x-stack-actual-status": "429", ...retryAfter })
      response.end(JSON.stringify({ message: "You have exceeded the rate limit." }))
      return
    }
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ path }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const layer = () =>
  StackClient.layerWithoutDependencies.pipe(
    Layer.provide(StackClient.layerFetch),
    Layer.provide(RetryPolicy.layerWith({ attemptTimeout: "none" })),
    Layer.provideMerge(StackConfig.layer({ projectId, baseUrl, publishableClientKey })),
    Layer.provideMerge(recordSleeps)
  )

describe("429 burst over a real socket", () => {
  it.effect("110 concurrent reads, each refused twice with 429, all succeed after backoff: 330 requests", () =>
    Effect.gen(function* () {
      const client = yield* StackClient.StackClient
      const reads = Array.from({ length: 110 }, (_, i) => client.send({ method: "GET", path: `/items/${i}`, access: "client" }))
      const start = yield* Clock.currentTimeMillis
      const exits = yield* runAllAdvancingClock(reads)
      // virtual time: each read waited 1 s + [0.5, 1.5] s, then [1, 3] s (never at once)
      const elapsed = (yield* Clock.currentTimeMillis) - start
      expect(exits.filter(Exit.isFailure).length).toBe(0)
      expect(exits.map((exit) => (Exit.isSuccess(exit) ? exit.value.status : 0)).every((status) => status === 200)).toBe(true)
      expect(requests).toBe(330)
      expect([...seen.values()].every((count) => count === 3)).toBe(true)
      expect(elapsed).toBeGreaterThanOrEqual(1000 + 500 + 1000)
      expect(elapsed).toBeLessThanOrEqual(1000 + 1500 + 3000)
    }).pipe(Effect.provide(layer())), 60_000)
})
