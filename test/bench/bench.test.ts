/**
 * The bench's own code in miniature, so it cannot rot: a bundle measurement, economy scenarios,
 * the overhead, verification and listing comparisons with small counts. Counts are asserted,
 * never times. The official SDK is a dependency of the bench's own package (`npm --prefix bench
 * install`, done by `npm run bench` and by CI): without it, the official client's parts are
 * skipped (reported as skipped) and this SDK's and raw fetch's parts still run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { measureBundle } from "../../bench/lib/bundle.js"
import { runScenario } from "../../bench/lib/economy.js"
import { officialInstalled } from "../../bench/lib/clients.js"
import type { BenchServer } from "../../bench/lib/harness.js"
import { startBenchServer } from "../../bench/lib/harness.js"
import { runOverhead } from "../../bench/lib/overhead.js"
import { runStream, seedUsers } from "../../bench/lib/stream.js"
import { runVerify } from "../../bench/lib/verify.js"

let bench: BenchServer

/** Whether `bench/node_modules` holds the official SDK. */
const official = await officialInstalled()

beforeAll(async () => {
  bench = await startBenchServer()
})
afterAll(async () => {
  await bench?.stop()
})

describe("bench in miniature", () => {
  it("measures the bundle of entry (a) with esbuild: minified and gzip -9 bytes, largest inputs", async () => {
    const size = await measureBundle("ours-a.ts")
    expect(size.entry).toBe("ours-a.ts")
    expect(size.minifiedBytes).toBeGreaterThan(10_000)
    expect(size.gzipBytes).toBeGreaterThan(1_000)
    expect(size.gzipBytes).toBeLessThan(size.minifiedBytes)
    expect(size.largestInputs.map((input) => input.input)).toContain("effect")
    expect(size.largestInputs.reduce((sum, input) => sum + input.bytes, 0)).toBeLessThanOrEqual(size.minifiedBytes)
  })

  it("economy: 3 concurrent reads cost this SDK one GET /users/me", async () => {
    const ours = await runScenario(bench, "ours", "concurrentReads", 3)
    expect(ours.userReads).toBe(1)
    expect(ours.requests).toBe(1)
  })

  it.skipIf(!official)("economy: the official client's 3 concurrent reads are counted the same way (bench dependencies installed)", async () => {
    const result = await runScenario(bench, "official", "concurrentReads", 3)
    expect(result.userReads).toBeGreaterThanOrEqual(1)
    expect(result.requests).toBe(result.userReads)
  })

  it("economy: a rejected token costs one refresh for 3 concurrent updates, each sent twice", async () => {
    const ours = await runScenario(bench, "ours", "rejectedToken", 3)
    expect(ours.refreshes).toBe(1)
    expect(ours.byPath["PATCH /users/me"]).toBe(6)
    expect(ours.addedWallMs).toBeTypeOf("number")
    const expired = await runScenario(bench, "ours", "expiredToken", 3)
    expect(expired.refreshes).toBe(1)
    expect(expired.byPath["PATCH /users/me"]).toBe(3)
  })

  it("overhead: one request per call for raw fetch and this SDK, the official client left out when asked", async () => {
    const result = await runOverhead(bench, 3, 1, { official: false })
    expect(result.calls).toBe(3)
    expect(result.requestsPerCall).toEqual({ raw: 1, ours: 1, official: null })
    expect(result.officialMsPerCall).toBeNull()
  })

  it.skipIf(!official)("overhead: one request per call for raw fetch, this SDK and the official client (bench dependencies installed)", async () => {
    const result = await runOverhead(bench, 3, 1)
    expect(result.calls).toBe(3)
    expect(result.requestsPerCall).toEqual({ raw: 1, ours: 1, official: 1 })
  })

  it("verify: one JWKS request for every verification, none after it", async () => {
    const result = await runVerify(bench, 20, 5, 5)
    expect(result.requests).toBe(20)
    expect(result.verifierNetworkRequests).toBe(1)
    expect(result.networkRequestsAfterJwksCached).toBe(0)
  })

  it("listing: 250 users at page size 100 are 3 pages for this SDK and raw fetch", async () => {
    const own = await startBenchServer()
    try {
      seedUsers(own, 250)
      const result = await runStream(own, 250, 100, { official: false })
      expect(result.ours).toMatchObject({ users: 250, pages: 3 })
      expect(result.raw).toMatchObject({ users: 250, pages: 3 })
      expect(result.official).toBeNull()
    } finally {
      await own.stop()
    }
  })

  it.skipIf(!official)("listing: 250 users at page size 100 are 3 pages for each contender (bench dependencies installed)", async () => {
    const own = await startBenchServer()
    try {
      seedUsers(own, 250)
      const result = await runStream(own, 250, 100)
      expect(result.ours).toMatchObject({ users: 250, pages: 3 })
      expect(result.raw).toMatchObject({ users: 250, pages: 3 })
      expect(result.official).toMatchObject({ users: 250, pages: 3 })
    } finally {
      await own.stop()
    }
  })
})
