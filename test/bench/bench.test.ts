/**
 * The bench's own code in miniature, so it cannot rot, and the budgets of `bench/budget.json`:
 * bundle bytes, requests and fibers per call. Counts are asserted, never times. The official SDK
 * is a dependency of the bench's own package (`npm --prefix bench install`, done by `npm run
 * bench` and by CI): without it, the official client's parts are skipped (reported as skipped)
 * and this SDK's and raw fetch's parts still run.
 */
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { benchDir, measureBundle } from "../../bench/lib/bundle.js"
import { officialInstalled } from "../../bench/lib/clients.js"
import { countPerCall, countPerStreamedPage } from "../../bench/lib/counts.js"
import { runScenario } from "../../bench/lib/economy.js"
import type { BenchServer } from "../../bench/lib/harness.js"
import { seedUsers, startBenchServer } from "../../bench/lib/harness.js"
import { runMemory } from "../../bench/lib/memory.js"
import { filesOpened } from "../../bench/lib/coldstart.js"
import { withLatestTables } from "../../bench/lib/docs.js"
import { compilerInstructions, instructionShares, makeWorkDir, runOverhead } from "../../bench/lib/overhead.js"
import { builtPackage, resolveBuiltPackage } from "../../bench/lib/package.js"
import { chromiumAvailable, runRender } from "../../bench/lib/render.js"
import { emulatorCounts, spread, startEmulatorChild } from "../../bench/lib/processes.js"
import { runStream, runStreamCpu } from "../../bench/lib/stream.js"
import { runInflight } from "../../bench/lib/inflight.js"
import { runVerify } from "../../bench/lib/verify.js"

let bench: BenchServer

/** Whether valgrind's `callgrind_annotate` can be run (the bench's instruction counts need it). */
const annotateAvailable = spawnSync("callgrind_annotate", ["--version"], { encoding: "utf8" }).error === undefined

/** Whether strace can be run (the bench's files-opened counts need it). */
const straceAvailable = spawnSync("strace", ["-V"], { encoding: "utf8" }).status === 0

/** Whether `bench/node_modules` holds the official SDK. */
const official = await officialInstalled()

interface Budget {
  readonly tolerance: number
  readonly bundles: Readonly<Record<"a" | "b" | "c", { readonly entry: string; readonly firstLoadGzipBytes: number }>>
  readonly perCall: { readonly fibers: number; readonly requests: number }
  readonly perStreamedPage: { readonly fibersPerPage: number; readonly fibersPerWalk: number; readonly requests: number }
  readonly heap: { readonly layerClientBytes: number }
  readonly render: { readonly requests: number }
}
const budget = JSON.parse(readFileSync(join(benchDir, "budget.json"), "utf8")) as Budget

beforeAll(async () => {
  bench = await startBenchServer()
})
afterAll(async () => {
  await bench?.stop()
  await seeded?.then((server) => server.stop(), () => undefined)
})

/** The emulator in a process of its own with 249 seeded users and the demo user: started once for the two tests that only read it. */
let seeded: ReturnType<typeof startEmulatorChild> | undefined
const seededEmulator = () => (seeded ??= startEmulatorChild(249))

/** Entry (a), measured once by its budget test and read again by the chunk test. */
let sizeOfA: Awaited<ReturnType<typeof measureBundle>> | undefined

/**
 * One run of the memory child (50 sessions, 50 client contexts kept reachable) for both memory
 * tests: the child's start and its full collections are most of its cost, whatever the counts.
 */
let memory: ReturnType<typeof runMemory> | undefined
const memoryRun = () => (memory ??= runMemory(50, 50, 1))

describe("bench budgets (bench/budget.json)", () => {
  for (const id of ["a", "b", "c"] as const) {
    it(`the first-load bundle of entry (${id}) stays within ${budget.tolerance * 100}% of its budget`, async () => {
      const size = await measureBundle(budget.bundles[id].entry, { singleFile: id === "a" })
      if (id === "a") sizeOfA = size
      expect(size.firstLoadGzipBytes).toBeGreaterThan(1_000)
      expect(size.firstLoadGzipBytes).toBeLessThanOrEqual(budget.bundles[id].firstLoadGzipBytes * (1 + budget.tolerance))
    }, 60_000)
  }

  it("a live Stack.layerClient context retains no more heap than its budget (50 contexts kept reachable)", () => {
    const result = memoryRun()
    expect(result.clients.reachableWhileMeasured).toBe(50)
    expect(result.clients.bytesPerLiveClient).toBeGreaterThan(0)
    expect(result.clients.bytesPerLiveClient).toBeLessThanOrEqual(budget.heap.layerClientBytes * (1 + budget.tolerance))
  }, 60_000)

  it.skipIf(!chromiumAvailable() || !official)(
    "the signed-in page of this SDK sends no more requests than its budget, and the official page reaches its signed-in render too (Chromium)",
    async () => {
      const result = await runRender({ runs: 1, warmup: false })
      expect(result.sides.ours.ms.runs).toBe(1)
      expect(result.sides.official.ms.runs).toBe(1)
      expect(result.sides.ours.requests).toBeLessThanOrEqual(budget.render.requests)
      expect(result.sides.ours.requestsByPath["GET /users/me"]).toBe(1)
      expect(result.sides.official.requestsByPath["GET /users/me"]).toBeGreaterThanOrEqual(1)
      expect(result.sides.ours.firstLoadGzipBytes).toBeGreaterThan(1_000)
    },
    180_000
  )

  it("a server-side ServerUsers.fromRequest call sends one request and starts no more fibers than its budget", async () => {
    const counts = await countPerCall(bench, 3)
    expect(counts.requestsPerCall).toBe(budget.perCall.requests)
    expect(counts.fibersPerCall).toBeLessThanOrEqual(budget.perCall.fibers)
  })
})

describe("bench budgets, streaming (bench/budget.json)", () => {
  it("a ServerUsers.stream walk sends one GET /users per page and starts no more fibers than its budget per page and per walk", async () => {
    const counts = await countPerStreamedPage(bench, 250)
    expect(counts.pages).toBeGreaterThanOrEqual(3)
    expect(counts.requestsPerPage).toBe(budget.perStreamedPage.requests)
    expect(counts.fibers).toBeLessThanOrEqual(budget.perStreamedPage.fibersPerPage * counts.pages + budget.perStreamedPage.fibersPerWalk)
  })
})

describe("bench in miniature", () => {
  it("entries reach the built package only through its exports (issue 28: entry (b) imported src/teams/Teams.js)", async () => {
    const installed = await builtPackage()
    const bundle = (contents: string) =>
      esbuild.build({
        stdin: { contents, resolveDir: benchDir, loader: "ts" },
        bundle: true,
        write: false,
        format: "esm",
        platform: "browser",
        logLevel: "silent",
        plugins: [resolveBuiltPackage(installed)]
      })
    const exported = await bundle(`export { Teams } from "stack-auth-effect"`)
    expect(exported.outputFiles[0]!.contents.byteLength).toBeGreaterThan(1_000)
    await expect(bundle(`export * from "stack-auth-effect/src/teams/Teams.js"`)).rejects.toThrow(/not exported|Could not resolve/)
  }, 60_000)

  it("the code-split build splits first-load chunks from lazy ones, and the one-file build has them all", async () => {
    const size = sizeOfA ?? (await measureBundle("ours-a.ts"))
    expect(size.chunks.filter((chunk) => chunk.firstLoad).reduce((sum, chunk) => sum + chunk.gzipBytes, 0)).toBe(size.firstLoadGzipBytes)
    expect(size.chunks.filter((chunk) => !chunk.firstLoad).reduce((sum, chunk) => sum + chunk.gzipBytes, 0)).toBe(size.lazyGzipBytes)
    expect(size.minifiedBytes).toBeGreaterThan(10_000)
    expect(size.largestInputs.map((input) => input.input)).toContain("effect")
  }, 60_000)

  it.skipIf(!official)(
    "the official SDK's lazy chunks (session replay, dev tool) are not counted in its first load (bench dependencies installed)",
    async () => {
      const size = await measureBundle("official-a.ts", { singleFile: false })
      const lazy = size.chunks.filter((chunk) => !chunk.firstLoad).map((chunk) => chunk.chunk)
      expect(lazy.some((name) => name.startsWith("dev-tool-core"))).toBe(true)
      expect(lazy.some((name) => name.startsWith("all-"))).toBe(true)
      expect(size.lazyGzipBytes).toBeGreaterThan(10_000)
    },
    60_000
  )

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
    const expired = await runScenario(bench, "ours", "expiredToken", 3)
    expect(expired.refreshes).toBe(1)
    expect(expired.byPath["PATCH /users/me"]).toBe(3)
  })

  it("per call: each child process sends one request per call to the static server in another process", async () => {
    const result = await runOverhead(bench, { calls: 3, warmup: 1, runs: 1, official: false, callgrind: null })
    expect(result.sides.raw?.requestsPerCall).toBe(1)
    expect(result.sides.ours?.requestsPerCall).toBe(1)
    expect(result.sides.official).toBeUndefined()
    expect(result.cpuRatioSpread.runs).toBe(1)
  }, 60_000)

  it("memory in flight: every side's 20 concurrent calls are all held by the server while the heap is read, then all answered", async () => {
    const result = await runInflight(bench, { concurrent: 20, warmup: 2, runs: 1, official: false, sessions: 5, settleMs: 20 })
    expect(result.concurrent).toBe(20)
    for (const side of ["raw", "floor", "ours"] as const) {
      expect(result.sides[side]?.bytesPerCall.runs).toBe(1)
      expect(result.sides[side]?.bytesPerCallAtOnce?.runs).toBe(1)
    }
    expect(result.sides.official).toBeUndefined()
  }, 120_000)

  it("token check: every token is distinct and verified without a request once the JWKS is cached", async () => {
    const result = await runVerify(bench, async () => bench.requests.total(), 4, 2)
    expect(result.distinctTokens).toBe(4)
    expect(result.runs).toBe(2)
    expect(result.networkRequestsWhileVerifying).toBe(0)
    expect(result.roundTripRequests).toBe(8)
  })

  it("memory: the sessions are reachable while the heap is read", () => {
    const result = memoryRun()
    expect(result.sessions.count).toBe(50)
    expect(result.sessions.reachableWhileMeasured).toBe(50)
    expect(result.clients.reachableWhileMeasured).toBe(50)
    expect(result.floor.count).toBe(50)
    if (official) expect(result.officialClients?.reachableWhileMeasured).toBe(50)
    else expect(result.officialClients).toBeNull()
  }, 60_000)

  it("listing: 249 seeded users and the demo user at page size 100 are 3 pages per walk against the emulator in its own process", async () => {
    const server = await seededEmulator()
    expect(server.info.users).toBe(250)
    const result = await runStream(server.info, async () => (await emulatorCounts(server.info))["GET /users"] ?? 0, 250, 100, {
      official,
      runs: 1
    })
    expect(result.ours).toMatchObject({ users: 250, pages: 3 })
    expect(result.raw).toMatchObject({ users: 250, pages: 3 })
    if (official) expect(result.official).toMatchObject({ users: 250, pages: 3 })
    else expect(result.official).toBeNull()
  }, 60_000)

  it("streaming CPU: every side walks the 250 recorded users in 3 GET /users pages per walk, served by the static server in another process", async () => {
    const server = await seededEmulator()
    const result = await runStreamCpu(server.info, 250, 100, { runs: 1, walks: 1, warmupWalks: 1, official })
    expect(result.sides.raw).toMatchObject({ pagesPerWalk: 3 })
    expect(result.sides.floor).toMatchObject({ pagesPerWalk: 3 })
    expect(result.sides.ours).toMatchObject({ pagesPerWalk: 3 })
    if (official) expect(result.sides.official).toMatchObject({ pagesPerWalk: 3 })
    expect(result.oursVsRawSpread.runs).toBe(1)
  }, 120_000)

  it("listing: seeding an in-process emulator adds the users without requests", () => {
    const before = bench.requests.total()
    seedUsers(bench.emulator, 5)
    expect(bench.requests.total()).toBe(before)
  })

  it.skipIf(!straceAvailable)("files opened: strace -ff counts one import's files the same in repeated runs", () => {
    const work = makeWorkDir("files-opened")
    try {
      const script = join(work, "open.mjs")
      writeFileSync(script, `import { readFileSync } from "node:fs"\nreadFileSync(${JSON.stringify(join(benchDir, "budget.json"))})\n`)
      const counts = [filesOpened(work, script), filesOpened(work, script)]
      expect(counts[0]).toBeGreaterThan(1)
      expect(counts[1]).toBe(counts[0])
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })

  it("a full run's tables replace the page's copy between its markers, row for row (docs/BENCHMARKS.md)", () => {
    const page = readFileSync(join(benchDir, "..", "docs", "BENCHMARKS.md"), "utf8")
    const latest = [
      "Measured 2030-01-01T00:00:00.000Z on a test machine.",
      "",
      "| target (issue 28) | ours | official | floor / raw | ratio | target | met | spread |",
      "|---|---|---|---|---|---|---|---|",
      "| a | 1 | 2 | 3 | 0.50× | ≤ 0.55 | yes | — |",
      "",
      "| figure | ours | official | raw / floor | ratio | spread | load |",
      "|---|---|---|---|---|---|---|",
      "| b | 1 | 2 | 3 | 0.50× | — | 0.1 |",
      ""
    ].join("\n")
    const copied = withLatestTables(page, latest)
    expect(copied).not.toBeNull()
    const rows = (text: string) => text.split("\n").filter((line) => line.startsWith("| "))
    expect(rows(copied!).slice(0, rows(latest).length)).toEqual(rows(latest))
    expect(copied).toContain(latest.split("\n")[0])
    // the rest of the page stays, and copying again changes nothing more
    expect(copied).toContain("## Effect 3 → Effect 4")
    expect(withLatestTables(copied!, latest)).toBe(copied)
    expect(withLatestTables("no markers", latest)).toBeNull()
  })

  it("spread: min, median and max of repeated runs", () => {
    expect(spread([3, 1, 2])).toEqual({ runs: 3, min: 1, median: 2, max: 3 })
    expect(spread([4, 1, 2, 3])).toEqual({ runs: 4, min: 1, median: 2.5, max: 4 })
  })

  it.skipIf(!annotateAvailable)("instructions: V8's compilers' share of a callgrind dump counts their functions only (TurboFan, Maglev, Sparkplug)", () => {
    const dir = mkdtempSync(join(tmpdir(), "callgrind-"))
    try {
      const file = join(dir, "out.1")
      writeFileSync(
        file,
        [
          "# callgrind format",
          "version: 1",
          "creator: test",
          "cmd: node",
          "positions: line",
          "events: Ir",
          "fl=(1) ???",
          "fn=(1) v8::internal::compiler::GraphReducer::ReduceTop()",
          "0 1000",
          "fn=(2) Builtins_LoadIC",
          "0 250",
          "fn=(3) v8::internal::maglev::MaglevGraphBuilder::Build()",
          "0 1500000",
          "fn=(4) v8::internal::baseline::BaselineCompiler::Build()",
          "0 40",
          "fn=(5) v8::internal::Scavenger::Process()",
          "0 7",
          "totals: 1501297",
          ""
        ].join("\n")
      )
      expect(compilerInstructions(file)).toBe(1_501_040)
      expect(instructionShares(file)).toEqual({ compiler: 1_501_040, gc: 7 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
