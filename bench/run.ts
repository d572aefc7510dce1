/**
 * `npm run bench`: this SDK, the official `@stackframe/js` / `@stackframe/react` and raw `fetch`
 * or an empty Node process as the floor (issue 7, made honest by issue 14). Prints one table (ours,
 * official, raw/floor, ratio, spread of repeated runs, the machine's 1-minute load average when the
 * figure was measured) with details below it, and writes `bench/results/latest.json` with the
 * same figures and the machine's facts.
 *
 * Where each figure comes from:
 * - bundles: the built package (what `npm run build` writes to `dist/`, imported through its
 *   `exports`), esbuild, code-split (first-load chunks: the headline) and one file (lazy chunks
 *   inlined), React bundled; the React entry also built by Vite as a production app;
 * - request economy: the emulator in this process (requests are counted, not timed);
 * - per call: a trivial static HTTP server in its own process; each contender in fresh child
 *   processes (CPU time), and under callgrind where valgrind is installed (instructions);
 * - memory: a `--expose-gc` child, sessions kept reachable;
 * - token check and listing: the emulator in its own process;
 * - cold start: `import` in fresh Node processes; files opened under `strace -ff`;
 * - signed-in first render: Chromium (`playwright-core`), Vite builds of equivalent pages, the
 *   emulator and a file server in their own processes.
 *
 * The first table printed holds the rows of issue 28's targets (ours, official, floor / raw,
 * ratio, target, spread); the detailed table follows.
 *
 * The official SDK is a dependency of the bench's own package (`bench/package.json`): the npm
 * script installs it (`npm --prefix bench install`), then runs
 * `node --expose-gc --import tsx bench/run.ts`. `BENCH_SCALE=0.1` runs a tenth of the counts (the
 * JSON records the scale); `BENCH_CALLGRIND=0` skips the instruction counts; `BENCH_ONLY=overhead,listing`
 * measures only the named parts (bundle, economy, overhead, inflight, memory, verify, listing, stream, coldstart, render) and
 * takes the others' figures from the last `latest.json` (the JSON lists the parts measured); render needs Chromium at `/usr/bin/chromium`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import type { BundleFailure, BundleSize } from "./lib/bundle.js"
import { benchDir, bundleCases, entriesDir, rootDir, tryMeasureBundle } from "./lib/bundle.js"
import { loadOfficial } from "./lib/clients.js"
import { runColdStart } from "./lib/coldstart.js"
import { beginMarker, endMarker, withLatestTables } from "./lib/docs.js"
import type { EconomyResult } from "./lib/economy.js"
import { runEconomy } from "./lib/economy.js"
import { startBenchServer } from "./lib/harness.js"
import { runMemory } from "./lib/memory.js"
import { makeWorkDir, runOverhead, valgrindAvailable } from "./lib/overhead.js"
import type { Spread } from "./lib/processes.js"
import { emulatorCounts, load, startEmulatorChild } from "./lib/processes.js"
import type { StreamCpuResult } from "./lib/stream.js"
import { runStream, runStreamCpu } from "./lib/stream.js"
import type { InflightResult } from "./lib/inflight.js"
import { runInflight } from "./lib/inflight.js"
import { runVerify } from "./lib/verify.js"
import type { RenderResult } from "./lib/render.js"
import { chromiumAvailable, runRender } from "./lib/render.js"
import type { ViteBuild } from "./lib/vite.js"
import { viteBuildPage } from "./lib/vite.js"

const scale = Math.min(1, Math.max(0.01, Number(process.env["BENCH_SCALE"] ?? "1") || 1))
const scaled = (n: number, least = 1) => Math.max(least, Math.round(n * scale))
const withCallgrind = process.env["BENCH_CALLGRIND"] !== "0" && valgrindAvailable()
const only = new Set((process.env["BENCH_ONLY"] ?? "").split(",").map((part) => part.trim()).filter((part) => part.length > 0))
/** Whether a part is measured in this run (all of them without `BENCH_ONLY`). */
const measured = (part: string) => only.size === 0 || only.has(part)
const latestFile = join(benchDir, "results", "latest.json")
/** The last run's results: the figures of the parts `BENCH_ONLY` leaves out. */

const previous: any = only.size === 0 ? {} : JSON.parse(readFileSync(latestFile, "utf8"))

const log = (text: string) => process.stderr.write(`[bench] ${text}\n`)
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`
const x = (value: number | null) => (value === null || !Number.isFinite(value) ? "—" : `${value.toFixed(2)}×`)
const range = (s: Spread, format: (n: number) => string) => `${format(s.min)}–${format(s.max)} (${s.runs} runs)`
const pad = (text: string, width: number) => (text.length >= width ? text : text + " ".repeat(width - text.length))
const padLeft = (text: string, width: number) => (text.length >= width ? text : " ".repeat(width - text.length) + text)

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((cell, i) => (i === 0 ? pad(cell, widths[i]!) : padLeft(cell, widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

const isSize = (value: BundleSize | BundleFailure): value is BundleSize => "gzipBytes" in value
const isVite = (value: ViteBuild | BundleFailure | undefined): value is ViteBuild => value !== undefined && "firstLoadGzipBytes" in value
/** A bundle's Vite figures when both sides built. */
const viteOf = (b: { readonly vite?: { readonly ours: ViteBuild | BundleFailure; readonly official: ViteBuild | BundleFailure } | null }) =>
  b.vite != null && isVite(b.vite.ours) && isVite(b.vite.official)
    ? { ours: b.vite.ours, official: b.vite.official, ratio: b.vite.ours.firstLoadGzipBytes / b.vite.official.firstLoadGzipBytes }
    : null

const machine = {
  date: new Date().toISOString(),
  nproc: typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "unknown",
  totalMemoryBytes: os.totalmem(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverageAtStart: os.loadavg(),
  scale,
  callgrind: withCallgrind,
  parts: only.size === 0 ? "all" : [...only]
}

// the official SDK must be installed (bench/package.json); fail now with how to install it, not midway
await loadOfficial()

const started = performance.now()

// 1. bundle sizes -------------------------------------------------------------------------------
log("bundle sizes (code-split and single file)")
const bundleLoad = load()
const bundles: Array<{
  readonly id: string
  readonly label: string
  readonly target: number | null
  readonly note: string | null
  readonly ours: BundleSize | BundleFailure
  readonly official: BundleSize | BundleFailure
  /** The smallest Effect program doing the same job (`bench/entries/floor-*`), where one is measured. */
  readonly floor?: BundleSize | BundleFailure | null
  /** The React entry built by Vite as a production app (first-load gzip), both sides. */
  readonly vite?: { readonly ours: ViteBuild | BundleFailure; readonly official: ViteBuild | BundleFailure } | null
}> = []
/** A Vite build of a bench entry, or why it failed. */
const tryVite = async (entry: string): Promise<ViteBuild | BundleFailure> => {
  const work = makeWorkDir("vite")
  try {
    return await viteBuildPage(join(entriesDir, entry), join(work, "out"))
  } catch (error) {
    return { entry, error: String(error).split("\n").slice(0, 4).join(" ").slice(0, 400) }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
if (!measured("bundle")) bundles.push(...previous.bundles)
else {for (const bundleCase of bundleCases) {
    const ours = bundleCase.ours()
    bundles.push({
      id: bundleCase.id,
      label: bundleCase.label,
      target: bundleCase.target,
      note: ours.note,
      ours: await tryMeasureBundle(ours.entry),
      official: await tryMeasureBundle(bundleCase.official),
      floor: bundleCase.floor === null ? null : await tryMeasureBundle(bundleCase.floor),
      vite: bundleCase.id === "c" ? { ours: await tryVite(ours.entry), official: await tryVite(bundleCase.official) } : null
    })
  }}

// 2. request economy and the fixture of 3. (emulator in this process; counted, not timed) ---------
// access tokens that outlive the run: the per-call part uses its sessions' tokens for ~15 minutes
// (CPU runs, then callgrind runs), and a token expiring midway would make ours and the official
// client refresh against the static server (the expired-token scenario makes its own expired token)
const bench = await startBenchServer({ accessTokenLifetimeSeconds: 4 * 3600 })
let economy: ReadonlyArray<EconomyResult>
let inflight: InflightResult | null = previous.inflight ?? null
let overhead: Awaited<ReturnType<typeof runOverhead>>
const economyLoad = load()
try {
  log("request economy")
  economy = measured("economy") ? await runEconomy(bench, 20) : previous.economy.results
  // warm-ups long enough for V8 to be done compiling the hot code (after 1,500 calls its compilers
  // were still 38-46% of the counted instructions; after 6,000, 1-5%): the steady per-call cost
  const perCall = { calls: scaled(500, 20), warmup: scaled(3000, 5), runs: scaled(5, 3) }
  log(
    `per call against a static server in another process (${perCall.calls} calls after ${perCall.warmup} warm-up × ${perCall.runs} runs per side${
      withCallgrind ? ", then callgrind" : ""
    })`
  )
  overhead = !measured("overhead") ? previous.overhead : await runOverhead(bench, {
    ...perCall,
    official: true,
    // ≥ 1,000 measured calls (issue 28 item 7: 200 could hold a whole full collection)
    callgrind: withCallgrind ? { calls: scaled(1000, 5), warmup: scaled(6000, 20), runs: scaled(3, 1) } : null
  })
  if (measured("inflight")) {
    log(
      `memory per call in flight (${scaled(1000, 50)} concurrent calls × ${
        scaled(3, 2)
      } runs per side, read at once and after 5 s and 10 s, --expose-gc children)`
    )
    inflight = await runInflight(bench, { concurrent: scaled(1000, 50), warmup: scaled(200, 20), runs: scaled(3, 2), official: true, settleMs: 5_000 })
  }
} finally {
  await bench.stop()
}

// 4. memory, in a child process --------------------------------------------------------------------
log(`memory (${scaled(3_000, 100)} sessions × 3 runs, child process)`)
const memory: ReturnType<typeof runMemory> = measured("memory") ? runMemory(scaled(3_000, 100), scaled(300, 20), 3) : previous.memory

// 5. token check, emulator in its own process -------------------------------------------------------
log(`token check (${scaled(500, 20)} distinct tokens × ${scaled(5, 3)} runs, emulator in its own process)`)
let verify: Awaited<ReturnType<typeof runVerify>> = previous.verify
if (measured("verify")) {
  const verifyServer = await startEmulatorChild(0)
  try {
    verify = await runVerify(
      verifyServer.info,
      async () => Object.values(await emulatorCounts(verifyServer.info)).reduce((sum, n) => sum + n, 0),
      scaled(500, 20),
      scaled(5, 3)
    )
  } finally {
    await verifyServer.stop()
  }
}

// 6. listing, emulator in its own process --------------------------------------------------------------
const listed = scaled(10_000, 250)
log(`listing ${listed} users (${scaled(3, 2)} runs, emulator in its own process)`)
let listing: Awaited<ReturnType<typeof runStream>> = previous.listing
if (measured("listing")) {
  const listingServer = await startEmulatorChild(listed - 1) // the emulator seeds the demo user too
  try {
    listing = await runStream(listingServer.info, async () => (await emulatorCounts(listingServer.info))["GET /users"] ?? 0, listingServer.info.users, 100, {
      runs: scaled(3, 2)
    })
  } finally {
    await listingServer.stop()
  }
}

// 6b. streaming CPU: recorded pages on a static server in its own process ---------------------------------
let streamCpu: StreamCpuResult | null = previous.streamCpu ?? null
if (measured("stream")) {
  log(`streaming ${listed} users, client CPU (${scaled(3, 2)} runs per side, static server in its own process)`)
  const pagesServer = await startEmulatorChild(listed - 1)
  try {
    streamCpu = await runStreamCpu(pagesServer.info, pagesServer.info.users, 100, { runs: scaled(3, 2), walks: 2, warmupWalks: 1, official: true })
  } finally {
    await pagesServer.stop()
  }
}

// 7. cold start ------------------------------------------------------------------------------------
log(`cold start (${scaled(7, 3)} runs per side)`)
const cold: Awaited<ReturnType<typeof runColdStart>> = measured("coldstart") ? await runColdStart(scaled(7, 3)) : previous.coldStart

// 8. time to a signed-in first render, Chromium --------------------------------------------------------
let render: RenderResult | null = previous.render ?? null
if (measured("render")) {
  if (chromiumAvailable()) {
    log(`signed-in first render in Chromium (${scaled(11, 9)} runs per side, alternating; emulator and file server in their own processes)`)
    render = await runRender({ runs: scaled(11, 9) })
  } else {
    log("signed-in first render: skipped, /usr/bin/chromium is missing")
    render = null
  }
}

const elapsedSeconds = (performance.now() - started) / 1000

// ---------------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------------

const out: Array<string> = []
const ld = (n: number) => n.toFixed(1)
out.push(
  `stack-auth-effect bench — ${machine.date} — ${machine.cpuModel} — nproc ${machine.nproc} — node ${machine.node} — load at start ${
    machine.loadAverageAtStart
      .map(ld)
      .join("/")
  } — scale ${scale} — ${elapsedSeconds.toFixed(0)} s`
)
out.push(
  "ratio: ours ÷ official unless the row says otherwise; spread: min–max of the repeated runs (— for deterministic figures); load: 1-min load average when measured."
)
out.push("")
type Row = readonly [string, string, string, string, string, string, string]
const rows: Array<Row> = []
for (const b of bundles) {
  if (!isSize(b.ours) || !isSize(b.official)) {
    rows.push([
      `bundle ${b.label}`,
      isSize(b.ours) ? kb(b.ours.firstLoadGzipBytes) : "failed",
      isSize(b.official) ? kb(b.official.firstLoadGzipBytes) : "failed",
      "",
      "",
      "",
      ld(bundleLoad)
    ])
    continue
  }
  const floor = b.floor !== undefined && b.floor !== null && isSize(b.floor) ? b.floor : null
  rows.push([
    `bundle ${b.label}, first load, gz${floor === null ? "" : "; floor = smallest Effect program doing it (floor ÷ official)"}`,
    kb(b.ours.firstLoadGzipBytes),
    kb(b.official.firstLoadGzipBytes),
    floor === null ? "—" : `${kb(floor.firstLoadGzipBytes)} (${x(floor.firstLoadGzipBytes / b.official.firstLoadGzipBytes)})`,
    x(b.ours.firstLoadGzipBytes / b.official.firstLoadGzipBytes),
    "—",
    ld(bundleLoad)
  ])
  rows.push([
    `  same, one file (lazy chunks inlined), gz`,
    kb(b.ours.gzipBytes),
    kb(b.official.gzipBytes),
    "—",
    x(b.ours.gzipBytes / b.official.gzipBytes),
    "—",
    ld(bundleLoad)
  ])
  const vite = viteOf(b)
  if (vite !== null) {
    rows.push([
      `  same, Vite production build, first load, gz`,
      kb(vite.ours.firstLoadGzipBytes),
      kb(vite.official.firstLoadGzipBytes),
      "—",
      x(vite.ratio),
      "—",
      ld(bundleLoad)
    ])
  }
}
const eco = (scenario: EconomyResult["scenario"], contender: "ours" | "official") => economy.find((r) => r.scenario === scenario && r.contender === contender)!
rows.push([
  "20 concurrent current-user reads: GET /users/me",
  String(eco("concurrentReads", "ours").userReads),
  String(eco("concurrentReads", "official").userReads),
  "20",
  "—",
  "—",
  ld(economyLoad)
])
rows.push([
  "20 sequential reads within 5 s: GET /users/me (freshness policy, not efficiency)",
  String(eco("sequentialReads", "ours").userReads),
  String(eco("sequentialReads", "official").userReads),
  "20",
  "—",
  "—",
  ld(economyLoad)
])
rows.push([
  "20 calls, expired access token: refreshes",
  String(eco("expiredToken", "ours").refreshes),
  String(eco("expiredToken", "official").refreshes),
  "—",
  "—",
  "—",
  ld(economyLoad)
])
rows.push([
  "20 calls, token rejected by the server: refreshes",
  String(eco("rejectedToken", "ours").refreshes),
  String(eco("rejectedToken", "official").refreshes),
  "—",
  "—",
  "—",
  ld(economyLoad)
])
const side = overhead.sides
const us = (n: number) => `${n.toFixed(0)} µs`
rows.push([
  "per call (user behind tokens), CPU time, median; ratio ÷ raw: ours / official",
  us(side.ours!.cpuMicrosPerCall.median),
  side.official === undefined ? "—" : us(side.official.cpuMicrosPerCall.median),
  us(side.raw!.cpuMicrosPerCall.median),
  `${x(overhead.cpuRatio.ours)} / ${x(overhead.cpuRatio.official)}`,
  `ours÷raw ${range(overhead.cpuRatioSpread, (n) => n.toFixed(2))}`,
  ld(overhead.loadAverage.start)
])
const minstr = (n: number | null | undefined) => (n === null || n === undefined ? "—" : `${(n / 1e6).toFixed(2)} M`)
/** The share of V8's compilers in a side's counted instructions (how settled the warm-up left it). */
const compiling = (figures: { readonly instructionsPerCall: number | null; readonly compilerInstructionsPerCall?: number | null } | undefined) =>
  figures?.instructionsPerCall == null || figures.compilerInstructionsPerCall == null
    ? "—"
    : `${((100 * figures.compilerInstructionsPerCall) / figures.instructionsPerCall).toFixed(0)}%`
/** The share of V8's garbage collector in a side's counted instructions. */
const collecting = (figures: { readonly instructionsPerCall: number | null; readonly gcInstructionsPerCall?: number | null } | undefined) =>
  figures?.instructionsPerCall == null || figures.gcInstructionsPerCall == null
    ? "—"
    : `${((100 * figures.gcInstructionsPerCall) / figures.instructionsPerCall).toFixed(0)}%`
rows.push([
  `per call, instructions (callgrind, ${overhead.callgrindCalls?.calls ?? "—"} calls after ${
    overhead.callgrindCalls?.warmup ?? "—"
  } warm-up calls); ratio ÷ raw: ours / official`,
  minstr(side.ours!.instructionsPerCall),
  minstr(side.official?.instructionsPerCall),
  minstr(side.raw!.instructionsPerCall),
  overhead.instructionRatio.ours === null ? "— (no valgrind)" : `${x(overhead.instructionRatio.ours)} / ${x(overhead.instructionRatio.official)}`,
  `${side.ours?.instructionsSpread == null ? "—" : `ours ${range(side.ours.instructionsSpread, (n) => minstr(n))}`}; V8 compiling: ours ${
    compiling(side.ours)
  }, official ${compiling(side.official)}, raw ${compiling(side.raw)}, floor ${compiling(side.floor)}; GC: ours ${collecting(side.ours)}, official ${
    collecting(side.official)
  }, raw ${collecting(side.raw)}, floor ${collecting(side.floor)}`,
  ld(overhead.loadAverage.start)
])
rows.push([
  "  per call, Effect floor (FetchHttpClient GET + the same schema); CPU / instructions, ratio ÷ raw",
  "—",
  "—",
  `${side.floor === undefined ? "—" : us(side.floor.cpuMicrosPerCall.median)} / ${minstr(side.floor?.instructionsPerCall)}`,
  `${x(overhead.cpuRatio.floor ?? null)} / ${x(overhead.instructionRatio.floor ?? null)}`,
  `ours÷floor ${x(overhead.instructionRatio.oursVsFloor ?? overhead.cpuRatio.oursVsFloor ?? null)}`,
  ld(overhead.loadAverage.start)
])
rows.push([
  "per call, requests sent",
  String(side.ours!.requestsPerCall),
  String(side.official?.requestsPerCall ?? "—"),
  String(side.raw!.requestsPerCall),
  "—",
  "—",
  ld(overhead.loadAverage.start)
])
const bytes = (n: number) => `${(n / 1024).toFixed(1)} KB`
if (inflight !== null) {
  const is = inflight.sides
  const settled = (inflight.settleMs ?? 0) > 0
  rows.push([
    `heap per call in flight (${inflight.concurrent} concurrent, answers held${
      settled ? `, read ${(2 * inflight.settleMs!) / 1000} s after sending` : ""
    }), median; ratio ÷ raw: ours / official`,
    bytes(is.ours!.bytesPerCall.median),
    is.official === undefined ? "—" : bytes(is.official.bytesPerCall.median),
    bytes(is.raw!.bytesPerCall.median),
    `${x(inflight.ratio.ours)} / ${x(inflight.ratio.official)}`,
    `ours ${range(is.ours!.bytesPerCall, bytes)}${is.official === undefined ? "" : `; official ${range(is.official.bytesPerCall, bytes)}`}${
      settled ? `; settled (±2%): ${(["ours", "official", "raw", "floor"] as const).filter((k) => is[k]?.settled === true).join(", ") || "none"}` : ""
    }`,
    ld(inflight.loadAverage.start)
  ])
  if (settled && is.ours?.bytesPerCallAtOnce !== undefined) {
    rows.push([
      "  same, read at once (as soon as the server holds them all)",
      bytes(is.ours.bytesPerCallAtOnce.median),
      is.official?.bytesPerCallAtOnce === undefined ? "—" : bytes(is.official.bytesPerCallAtOnce.median),
      bytes(is.raw!.bytesPerCallAtOnce!.median),
      "—",
      is.official?.bytesPerCallAtOnce === undefined ? "—" : `official ${range(is.official.bytesPerCallAtOnce, bytes)}`,
      ld(inflight.loadAverage.start)
    ])
  }
  rows.push([
    "  same, Effect floor (FetchHttpClient GET + the same schema); ratio ÷ raw",
    "—",
    "—",
    bytes(is.floor!.bytesPerCall.median),
    x(inflight.ratio.floor),
    range(is.floor!.bytesPerCall, bytes),
    ld(inflight.loadAverage.start)
  ])
}
rows.push([
  `heap per live Session (${memory.sessions.count}, kept reachable), median`,
  bytes(memory.sessions.bytesPerLiveSession),
  "—",
  "—",
  "—",
  range(memory.sessions.bytesPerLiveSessionSpread, bytes),
  ld(memory.loadAverage.start)
])
rows.push([
  "  per Session, scope closed, still referenced",
  bytes(memory.sessions.bytesPerClosedSessionStillReferenced),
  "—",
  "—",
  "—",
  "—",
  ld(memory.loadAverage.start)
])
rows.push([
  "  per Session left after release (leak check)",
  `${memory.sessions.bytesPerSessionAfterRelease.toFixed(0)} B`,
  "—",
  "—",
  "—",
  "—",
  ld(memory.loadAverage.start)
])
const officialClient = memory.officialClients ?? null
rows.push([
  `heap per live client (${memory.clients.count}): Stack.layerClient context / official StackClientApp; floor = FetchHttpClient.layer alone / as a ManagedRuntime`,
  bytes(memory.clients.bytesPerLiveClient),
  officialClient === null ? "—" : bytes(officialClient.bytesPerLiveClient),
  memory.floor === undefined ? "—" : `${bytes(memory.floor.bytesPerLayer)} / ${bytes(memory.floor.bytesPerRuntime)}`,
  officialClient === null ? "—" : x(memory.clients.bytesPerLiveClient / officialClient.bytesPerLiveClient),
  "—",
  ld(memory.loadAverage.start)
])
rows.push([
  `token check, distinct tokens (${verify.distinctTokens}), signature each; raw = GET /users/me round trip; ratio = speedup`,
  ms(verify.verifyMsPerCall.median),
  "—",
  ms(verify.roundTripMsPerCall.median),
  x(verify.speedup),
  range(verify.speedupSpread, (n) => n.toFixed(1)),
  ld(verify.loadAverage.start)
])
rows.push([
  "  same tokens again (remembered: a cache hit); ratio = speedup",
  ms(verify.cacheHitMsPerCall.median),
  "—",
  ms(verify.roundTripMsPerCall.median),
  x(verify.roundTripMsPerCall.median / verify.cacheHitMsPerCall.median),
  range(verify.cacheHitMsPerCall, (n) => n.toFixed(3)),
  ld(verify.loadAverage.start)
])
rows.push([
  "  requests sent while verifying (JWKS fetched before)",
  String(verify.networkRequestsWhileVerifying),
  "—",
  String(verify.roundTripRequests),
  "—",
  "—",
  ld(verify.loadAverage.start)
])
rows.push([
  `listing ${listing.users} users, page size ${listing.pageSize}, time, median`,
  ms(listing.ours.ms.median),
  listing.official === null ? "—" : ms(listing.official.ms.median),
  ms(listing.raw.ms.median),
  x(listing.official === null ? null : listing.ours.ms.median / listing.official.ms.median),
  `ours÷official ${listing.oursVsOfficial === null ? "—" : range(listing.oursVsOfficial, (n) => n.toFixed(2))}`,
  ld(listing.loadAverage.start)
])
rows.push([
  "  listing, peak heap of the client process, median",
  mb(listing.ours.peakHeapBytes.median),
  listing.official === null ? "—" : mb(listing.official.peakHeapBytes.median),
  mb(listing.raw.peakHeapBytes.median),
  x(listing.official === null ? null : listing.ours.peakHeapBytes.median / listing.official.peakHeapBytes.median),
  range(listing.ours.peakHeapBytes, mb),
  ld(listing.loadAverage.start)
])
rows.push([
  "  listing, GET /users requests per walk",
  String(listing.ours.pages),
  listing.official === null ? "—" : String(listing.official.pages),
  String(listing.raw.pages),
  "—",
  "—",
  ld(listing.loadAverage.start)
])
if (streamCpu !== null) {
  const ss = streamCpu.sides
  rows.push([
    `stream ${streamCpu.users} users, client CPU per walk, median; raw = fetch + JSON.parse + mapping; ratio ÷ raw: ours / official`,
    ms(ss.ours!.cpuMs.median),
    ss.official === undefined ? "—" : ms(ss.official.cpuMs.median),
    ms(ss.raw!.cpuMs.median),
    `${x(streamCpu.ratio.ours)} / ${x(streamCpu.ratio.official)}`,
    `ours÷raw ${range(streamCpu.oursVsRawSpread, (n) => n.toFixed(2))}`,
    ld(streamCpu.loadAverage.start)
  ])
  rows.push([
    "  same, Effect floor (FetchHttpClient + the same UserPage schema); ratio ÷ raw",
    "—",
    "—",
    ms(ss.floor!.cpuMs.median),
    x(streamCpu.ratio.floor),
    range(ss.floor!.cpuMs, (n) => n.toFixed(0)),
    ld(streamCpu.loadAverage.start)
  ])
}
const cs = cold.sides
rows.push([
  "cold start: import in a fresh node, wall, median; floor = empty node; ratio over the floor",
  ms(cs.ours!.wallMs.median),
  cs.official === undefined ? "—" : ms(cs.official.wallMs.median),
  ms(cs.floor!.wallMs.median),
  x(cold.importTimeRatio),
  `ours ${range(cs.ours!.wallMs, (n) => n.toFixed(0))}`,
  ld(cold.loadAverage.start)
])
rows.push([
  "  cold start: files opened (strace -ff, median of 3 traced runs)",
  String(cs.ours!.filesOpened ?? "—"),
  String(cs.official?.filesOpened ?? "—"),
  String(cs.floor!.filesOpened ?? "—"),
  cs.ours!.filesOpened === null || cs.official?.filesOpened == null ? "—" : x(cs.ours!.filesOpened / cs.official.filesOpened),
  cs.ours!.filesOpenedSpread == null
    ? "—"
    : `ours ${range(cs.ours!.filesOpenedSpread, String)}${
      cs.official?.filesOpenedSpread == null ? "" : `; official ${range(cs.official.filesOpenedSpread, String)}`
    }`,
  ld(cold.loadAverage.start)
])
if (render !== null) {
  const rs = render.sides
  rows.push([
    "time to a signed-in first render (Chromium, Vite builds; navigation start to the e-mail in the DOM), median",
    ms(rs.ours.ms.median),
    ms(rs.official.ms.median),
    "—",
    x(render.ratio),
    `ours÷official ${range(render.ratioSpread, (n) => n.toFixed(2))}; ours ${range(rs.ours.ms, (n) => n.toFixed(0))}; official ${
      range(rs.official.ms, (n) => n.toFixed(0))
    }`,
    ld(render.loadAverage.start)
  ])
  rows.push([
    "  requests the page sent to the service until idle (CORS preflights apart)",
    `${rs.ours.requests} (+${rs.ours.preflights})`,
    `${rs.official.requests} (+${rs.official.preflights})`,
    "—",
    "—",
    "—",
    ld(render.loadAverage.start)
  ])
}
if (cs.effect !== undefined) {
  rows.push([
    `  Effect floor: import of the ${cold.effectModules?.length ?? "?"} effect modules our entry imports; wall, files; ratio over the empty node`,
    ms(cs.effect.wallMs.median),
    cs.official === undefined ? "—" : ms(cs.official.wallMs.median),
    `${String(cs.effect.filesOpened ?? "—")} files`,
    x(cold.effectFloorRatio ?? null),
    `effect ${range(cs.effect.wallMs, (n) => n.toFixed(0))}`,
    ld(cold.loadAverage.start)
  ])
}
/** One row of issue 28's targets: the figure, its sides, the ratio the target is about, and whether it is met. */
interface TargetRow {
  readonly figure: string
  readonly ours: string
  readonly official: string
  readonly floorOrRaw: string
  readonly ratio: number | null
  readonly ratioText: string
  readonly target: string
  /** `null` where the figure was not measured. */
  readonly met: boolean | null
  readonly spread: string
}
const targets: Array<TargetRow> = []
const atMost = (value: number | null, limit: number) => (value === null || !Number.isFinite(value) ? null : value <= limit)
for (const b of bundles) {
  if (b.target === null) continue
  const floor = b.floor != null && isSize(b.floor) ? b.floor : null
  const ok = isSize(b.ours) && isSize(b.official)
  const ratio = ok ? (b.ours as BundleSize).firstLoadGzipBytes / (b.official as BundleSize).firstLoadGzipBytes : null
  targets.push({
    figure: `bundle ${b.label}, first load from dist/, gz ÷ official (esbuild)`,
    ours: isSize(b.ours) ? kb(b.ours.firstLoadGzipBytes) : "failed",
    official: isSize(b.official) ? kb(b.official.firstLoadGzipBytes) : "failed",
    floorOrRaw: floor === null
      ? "—"
      : `${kb(floor.firstLoadGzipBytes)} (${ok ? x(floor.firstLoadGzipBytes / (b.official as BundleSize).firstLoadGzipBytes) : "—"})`,
    ratio,
    ratioText: x(ratio),
    target: `≤ ${b.target.toFixed(2)}`,
    met: atMost(ratio, b.target),
    spread: "—"
  })
  const vite = viteOf(b)
  if (vite !== null) {
    targets.push({
      figure: `bundle ${b.label}, Vite production build, first load, gz ÷ official`,
      ours: kb(vite.ours.firstLoadGzipBytes),
      official: kb(vite.official.firstLoadGzipBytes),
      floorOrRaw: "—",
      ratio: vite.ratio,
      ratioText: x(vite.ratio),
      target: `≤ ${b.target.toFixed(2)}`,
      met: atMost(vite.ratio, b.target),
      spread: "—"
    })
  }
}
targets.push({
  figure: `instructions per uncached server call ÷ raw fetch (callgrind, ${overhead.callgrindCalls?.calls ?? "—"} calls); floor = Effect floor`,
  ours: minstr(side.ours!.instructionsPerCall),
  official: minstr(side.official?.instructionsPerCall),
  floorOrRaw: `raw ${minstr(side.raw!.instructionsPerCall)}; floor ${minstr(side.floor?.instructionsPerCall)} (${x(overhead.instructionRatio.floor ?? null)})`,
  ratio: overhead.instructionRatio.ours,
  ratioText: x(overhead.instructionRatio.ours),
  target: "≤ 1.50",
  met: atMost(overhead.instructionRatio.ours, 1.5),
  spread: `${side.ours?.instructionsSpread == null ? "—" : `ours ${range(side.ours.instructionsSpread, (n) => minstr(n))}`}; V8 compilers ${
    compiling(side.ours)
  }, GC ${collecting(side.ours)} of ours`
})
if (inflight !== null) {
  const is = inflight.sides
  const oursBytes = is.ours!.bytesPerCall.median
  targets.push({
    figure: `heap per call in flight (${inflight.concurrent} held)${(inflight.settleMs ?? 0) > 0 ? ", settled" : ""}; floor = Effect floor; ratio ÷ official`,
    ours: bytes(oursBytes),
    official: is.official === undefined ? "—" : bytes(is.official.bytesPerCall.median),
    floorOrRaw: `floor ${bytes(is.floor!.bytesPerCall.median)}; raw ${bytes(is.raw!.bytesPerCall.median)}`,
    ratio: is.official === undefined ? null : oursBytes / is.official.bytesPerCall.median,
    ratioText: is.official === undefined ? "—" : x(oursBytes / is.official.bytesPerCall.median),
    target: "≤ 30 KB",
    met: oursBytes <= 30 * 1024,
    spread: `ours ${range(is.ours!.bytesPerCall, bytes)}`
  })
}
const filesRatio = cs.ours!.filesOpened === null || cs.official?.filesOpened == null ? null : cs.ours!.filesOpened / cs.official.filesOpened
targets.push({
  figure: "files opened by a cold import ÷ official (strace -ff); floor = the effect modules our entry imports",
  ours: String(cs.ours!.filesOpened ?? "—"),
  official: String(cs.official?.filesOpened ?? "—"),
  floorOrRaw: `${String(cs.effect?.filesOpened ?? "—")}${
    cs.effect?.filesOpened == null || cs.official?.filesOpened == null ? "" : ` (${x(cs.effect.filesOpened / cs.official.filesOpened)})`
  }`,
  ratio: filesRatio,
  ratioText: x(filesRatio),
  target: "≤ 1.20",
  met: atMost(filesRatio, 1.2),
  spread: cs.ours!.filesOpenedSpread == null ? "—" : `ours ${range(cs.ours!.filesOpenedSpread, String)}`
})
targets.push({
  figure: "cold import wall time over an empty node ÷ official",
  ours: ms(cs.ours!.wallMs.median),
  official: cs.official === undefined ? "—" : ms(cs.official.wallMs.median),
  floorOrRaw: `empty node ${ms(cs.floor!.wallMs.median)}`,
  ratio: cold.importTimeRatio,
  ratioText: x(cold.importTimeRatio),
  target: "≤ 1.30",
  met: atMost(cold.importTimeRatio, 1.3),
  spread: `ours ${range(cs.ours!.wallMs, (n) => n.toFixed(0))}`
})
const clientRatio = officialClient === null ? null : memory.clients.bytesPerLiveClient / officialClient.bytesPerLiveClient
targets.push({
  figure: "heap per live client ÷ official StackClientApp; floor = FetchHttpClient.layer",
  ours: bytes(memory.clients.bytesPerLiveClient),
  official: officialClient === null ? "—" : bytes(officialClient.bytesPerLiveClient),
  floorOrRaw: memory.floor === undefined ? "—" : bytes(memory.floor.bytesPerLayer),
  ratio: clientRatio,
  ratioText: x(clientRatio),
  target: "≤ 0.30",
  met: atMost(clientRatio, 0.3),
  spread: "—"
})
targets.push({
  figure: "time to a signed-in first render ÷ official (Chromium, Vite builds)",
  ours: render === null ? "—" : ms(render.sides.ours.ms.median),
  official: render === null ? "—" : ms(render.sides.official.ms.median),
  floorOrRaw: "—",
  ratio: render?.ratio ?? null,
  ratioText: x(render?.ratio ?? null),
  target: "≤ 0.70",
  met: atMost(render?.ratio ?? null, 0.7),
  spread: render === null ? "— (not measured)" : `ours÷official ${range(render.ratioSpread, (n) => n.toFixed(2))}`
})
targets.push({
  figure: `stream ${streamCpu?.users ?? "—"} users, client CPU ÷ raw fetch + JSON.parse + mapping; floor = Effect floor`,
  ours: streamCpu === null ? "—" : ms(streamCpu.sides.ours!.cpuMs.median),
  official: streamCpu?.sides.official === undefined ? "—" : ms(streamCpu.sides.official.cpuMs.median),
  floorOrRaw: streamCpu === null ? "—" : `raw ${ms(streamCpu.sides.raw!.cpuMs.median)}; floor ${ms(streamCpu.sides.floor!.cpuMs.median)}`,
  ratio: streamCpu?.ratio.ours ?? null,
  ratioText: x(streamCpu?.ratio.ours ?? null),
  target: "≤ 2.00",
  met: atMost(streamCpu?.ratio.ours ?? null, 2),
  spread: streamCpu === null ? "—" : `ours÷raw ${range(streamCpu.oursVsRawSpread, (n) => n.toFixed(2))}`
})
const metText = (met: boolean | null) => (met === null ? "—" : met ? "yes" : "no")
const targetCells = targets.map((t) => [t.figure, t.ours, t.official, t.floorOrRaw, t.ratioText, t.target, metText(t.met), t.spread] as const)
const targetHeader = ["target (issue 28)", "ours", "official", "floor/raw", "ratio", "target", "met", "spread"]
out.push(table(targetHeader, targetCells))
out.push("")
out.push(table(["figure", "ours", "official", "raw/floor", "ratio", "spread", "load"], rows))
out.push("")
if (render !== null) {
  out.push(
    `render: ${render.runs} runs per side after one unmeasured each, Chromium ${render.chromium}; requests of the last run: ours ${
      Object.entries(render.sides.ours.requestsByPath).map(([path, n]) => `${path} ×${n}`).join(", ")
    }; official ${Object.entries(render.sides.official.requestsByPath).map(([path, n]) => `${path} ×${n}`).join(", ")}`
  )
}
for (const b of bundles) {
  if (b.note !== null) out.push(`note (${b.id}): ${b.note}`)
  for (const s of [b.ours, b.official]) if (!isSize(s)) out.push(`failed (${b.id}) ${s.entry}: ${s.error}`)
  if (isSize(b.official) && b.official.lazyGzipBytes > 0) {
    out.push(
      `(${b.id}) official lazy chunks (loaded on demand): ${
        b.official.chunks
          .filter((c) => !c.firstLoad)
          .map((c) => `${c.chunk} ${kb(c.gzipBytes)} gz`)
          .join(", ")
      }`
    )
  }
  if (isSize(b.ours) && b.ours.lazyGzipBytes > 0) {
    out.push(`(${b.id}) ours lazy chunks: ${b.ours.chunks.filter((c) => !c.firstLoad).map((c) => `${c.chunk} ${kb(c.gzipBytes)} gz`).join(", ")}`)
  }
}
const a = bundles.find((b) => b.id === "a")
if (a !== undefined && isSize(a.ours)) {
  out.push(`largest inputs of ours (a): ${a.ours.largestInputs.map((input) => `${input.input} ${kb(input.bytes)}`).join(", ")}`)
}
out.push(
  "sequential reads: this SDK answers repeated reads from its query cache for 5 s, the official client asks again; the figure compares freshness policies, not efficiency."
)
const rejectedOurs = eco("rejectedToken", "ours")
const rejectedOfficial = eco("rejectedToken", "official")
out.push(`wall time added by the rejected token: ours ${ms(rejectedOurs.addedWallMs ?? 0)}, official ${ms(rejectedOfficial.addedWallMs ?? 0)}`)
out.push(
  `per call: ${overhead.calls} measured calls after ${overhead.warmup} warm-up calls per child process, ${overhead.runs} runs per side in alternating order, each call a distinct session; static server in its own process${
    overhead.callgrindCalls === null
      ? ""
      : `; callgrind: ${overhead.callgrindCalls.calls} calls after ${overhead.callgrindCalls.warmup} warm-up, ${
        overhead.callgrindCalls.runs ?? 1
      } runs per side in alternating order, node --single-threaded`
  }`
)
for (const [failed, reason] of Object.entries(overhead.callgrindErrors ?? {})) out.push(`callgrind ${failed}: no figure (${reason})`)
out.push(`finished in ${elapsedSeconds.toFixed(0)} s; load at end ${os.loadavg().map(ld).join("/")}`)

const printed = out.join("\n")
process.stdout.write(`${printed}\n`)

const results = {
  machine: { ...machine, loadAverageAtEnd: os.loadavg(), elapsedSeconds },
  bundles: bundles.map((bundle) => ({
    ...bundle,
    loadAverage: bundleLoad,
    ratioFirstLoadGzip: isSize(bundle.ours) && isSize(bundle.official) ? bundle.ours.firstLoadGzipBytes / bundle.official.firstLoadGzipBytes : null,
    ratioFloorFirstLoadGzip: bundle.floor !== undefined && bundle.floor !== null && isSize(bundle.floor) && isSize(bundle.official)
      ? bundle.floor.firstLoadGzipBytes / bundle.official.firstLoadGzipBytes
      : null,
    ratioSingleFileGzip: isSize(bundle.ours) && isSize(bundle.official) ? bundle.ours.gzipBytes / bundle.official.gzipBytes : null,
    ratioSingleFileMinified: isSize(bundle.ours) && isSize(bundle.official) ? bundle.ours.minifiedBytes / bundle.official.minifiedBytes : null
  })),
  economy: { loadAverage: economyLoad, results: economy },
  overhead,
  memory,
  verify,
  listing,
  streamCpu,
  inflight,
  coldStart: cold,
  render,
  targets,
  table: printed
}
mkdirSync(join(benchDir, "results"), { recursive: true })
writeFileSync(latestFile, `${JSON.stringify(results, null, 2)}\n`)
// the same rows as a Markdown table, for the README's benchmark section (copied from here, not retyped)
const cell = (text: string) => text.trim().replaceAll("|", "\\|")
const latestMarkdown = [
  `Measured ${machine.date} on ${machine.cpuModel}, ${machine.nproc} cores, Node ${machine.node.replace(/^v/, "")}; 1-minute load ${
    machine.loadAverageAtStart[0]!.toFixed(1)
  } at the start, ${os.loadavg()[0]!.toFixed(1)} at the end; ${elapsedSeconds.toFixed(0)} s; parts measured: ${
    typeof machine.parts === "string" ? machine.parts : machine.parts.join(", ")
  }.`,
  "",
  "| target (issue 28) | ours | official | floor / raw | ratio | target | met | spread |",
  "|---|---|---|---|---|---|---|---|",
  ...targetCells.map((row) => `| ${row.map(cell).join(" | ")} |`),
  "",
  "| figure | ours | official | raw / floor | ratio | spread | load |",
  "|---|---|---|---|---|---|---|",
  ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ""
].join("\n")
writeFileSync(join(benchDir, "results", "latest.md"), latestMarkdown)
log(`wrote ${join(benchDir, "results", "latest.json")} and latest.md`)
// a full run copies its tables into docs/BENCHMARKS.md (between the markers), so the page is the
// run's copy by construction (test/docs/benchmarkTable.test.ts checks it row for row); a partial
// run (BENCH_ONLY) mixes new and old figures and leaves the page alone
if (only.size === 0) {
  const page = join(rootDir, "docs", "BENCHMARKS.md")
  const copied = withLatestTables(readFileSync(page, "utf8"), latestMarkdown)
  if (copied === null) log(`${page} has no ${beginMarker} … ${endMarker} markers: tables not copied`)
  else {
    writeFileSync(page, copied)
    log(`copied the tables into ${page}`)
  }
}
