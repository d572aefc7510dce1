/**
 * `npm run bench`: this SDK, the official `@stackframe/js` / `@stackframe/react` and raw `fetch`
 * side by side against one emulator server on 127.0.0.1 (issue 7). Prints a table with ratios and
 * writes `bench/results/latest.json` with the machine's facts.
 *
 * The official SDK is a dependency of the bench's own package (`bench/package.json`): the npm
 * script installs it (`npm --prefix bench install`), then runs
 * `node --expose-gc --import tsx bench/run.ts`. Set
 * `BENCH_SCALE=0.1` for a quick run with a tenth of the counts (the JSON records the scale).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import type { BundleFailure, BundleSize } from "./lib/bundle.js"
import { benchDir, bundleCases, tryMeasureBundle } from "./lib/bundle.js"
import type { EconomyResult } from "./lib/economy.js"
import { loadOfficial } from "./lib/clients.js"
import { runEconomy } from "./lib/economy.js"
import { startBenchServer } from "./lib/harness.js"
import { runMemory } from "./lib/memory.js"
import type { MemoryResult } from "./lib/memory.js"
import { runOverhead } from "./lib/overhead.js"
import { runStream, seedUsers } from "./lib/stream.js"
import { runVerify } from "./lib/verify.js"

const scale = Math.min(1, Math.max(0.01, Number(process.env["BENCH_SCALE"] ?? "1") || 1))
const scaled = (n: number) => Math.max(1, Math.round(n * scale))

const log = (text: string) => process.stderr.write(`[bench] ${text}\n`)
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`
const ratio = (value: number) => value.toFixed(2)
const pad = (text: string, width: number) => (text.length >= width ? text : text + " ".repeat(width - text.length))
const padLeft = (text: string, width: number) => (text.length >= width ? text : " ".repeat(width - text.length) + text)

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (i === 0 ? pad(cell, widths[i]!) : padLeft(cell, widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

const isSize = (value: BundleSize | BundleFailure): value is BundleSize => "gzipBytes" in value

const machine = {
  date: new Date().toISOString(),
  nproc: typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "unknown",
  totalMemoryBytes: os.totalmem(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverageAtStart: os.loadavg(),
  scale
}

// the official SDK must be installed (bench/package.json); fail now with how to install it, not midway
await loadOfficial()

const started = performance.now()

// 1. bundle sizes -------------------------------------------------------------------------------
log("bundle sizes")
const bundles: Array<{
  readonly id: string
  readonly label: string
  readonly target: number | null
  readonly note: string | null
  readonly ours: BundleSize | BundleFailure
  readonly official: BundleSize | BundleFailure
}> = []
for (const bundleCase of bundleCases) {
  const ours = bundleCase.ours()
  bundles.push({
    id: bundleCase.id,
    label: bundleCase.label,
    target: bundleCase.target,
    note: ours.note,
    ours: await tryMeasureBundle(ours.entry),
    official: await tryMeasureBundle(bundleCase.official)
  })
}

// 2–5 against one server --------------------------------------------------------------------------
const bench = await startBenchServer()
let economy: ReadonlyArray<EconomyResult>
let overhead: Awaited<ReturnType<typeof runOverhead>>
let verify: Awaited<ReturnType<typeof runVerify>>
try {
  log("request economy")
  economy = await runEconomy(bench, 20)
  log(`overhead per call (${scaled(1000)} calls each)`)
  overhead = await runOverhead(bench, scaled(1000), scaled(50))
  log(`verifyAccessToken vs /users/me (${scaled(10_000)} requests each)`)
  verify = await runVerify(bench, scaled(10_000), Math.min(100, scaled(10_000)), scaled(2_000))
} finally {
  await bench.stop()
}

// 6. listing, on a server of its own --------------------------------------------------------------
log(`listing ${scaled(10_000)} users`)
const listingServer = await startBenchServer()
let listing: Awaited<ReturnType<typeof runStream>>
try {
  seedUsers(listingServer, scaled(10_000))
  listing = await runStream(listingServer, scaled(10_000), 100)
} finally {
  await listingServer.stop()
}

// 4. memory, in a child process ---------------------------------------------------------------------
log(`memory (${scaled(10_000)} sessions, child process)`)
const memory: MemoryResult = runMemory(scaled(10_000), scaled(1_000))

const elapsedSeconds = (performance.now() - started) / 1000

// ---------------------------------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------------------------------

const out: Array<string> = []
out.push(
  `stack-auth-effect bench — ${machine.date} — node ${machine.node} — nproc ${machine.nproc} — load ${machine.loadAverageAtStart
    .map((n) => n.toFixed(1))
    .join("/")} — scale ${scale}`
)
out.push("")
out.push("1. Bundle size (esbuild: bundle, minify, ESM, browser, tree-shaking; gzip -9). Ratio = ours ÷ official.")
const bundleRows = bundles.map((b) => {
  if (!isSize(b.ours) || !isSize(b.official)) {
    return [b.label, isSize(b.ours) ? kb(b.ours.gzipBytes) : "failed", "", isSize(b.official) ? kb(b.official.gzipBytes) : "failed", "", "", "", ""]
  }
  const gz = b.ours.gzipBytes / b.official.gzipBytes
  const min = b.ours.minifiedBytes / b.official.minifiedBytes
  return [
    b.label,
    kb(b.ours.minifiedBytes),
    kb(b.ours.gzipBytes),
    kb(b.official.minifiedBytes),
    kb(b.official.gzipBytes),
    ratio(min),
    ratio(gz),
    b.target === null ? "—" : `≤ ${b.target} ${gz <= b.target ? "met" : "MISSED"}`
  ]
})
out.push(table(["entry", "ours min", "ours gz", "official min", "official gz", "ratio min", "ratio gz", "target (gz)"], bundleRows))
const a = bundles.find((b) => b.id === "a")
const b = bundles.find((b) => b.id === "b")
if (a !== undefined && b !== undefined && isSize(a.ours) && isSize(b.ours) && isSize(a.official) && isSize(b.official)) {
  out.push(
    `(b) − (a): ours +${kb(b.ours.gzipBytes - a.ours.gzipBytes)} gz (+${kb(b.ours.minifiedBytes - a.ours.minifiedBytes)} min); official +${kb(
      b.official.gzipBytes - a.official.gzipBytes
    )} gz`
  )
}
for (const bundle of bundles) {
  if (bundle.note !== null) out.push(`note (${bundle.id}): ${bundle.note}`)
  for (const side of [bundle.ours, bundle.official]) if (!isSize(side)) out.push(`failed (${bundle.id}) ${side.entry}: ${side.error}`)
}
if (a !== undefined && isSize(a.ours)) {
  out.push(`largest inputs of ours (a): ${a.ours.largestInputs.map((input) => `${input.input} ${kb(input.bytes)}`).join(", ")}`)
}

out.push("")
out.push("2. Request economy (requests received by the server; calls 3 and 4 are PATCH /users/me). Target: 1, 1, 1, 1.")
const economyRow = (scenario: EconomyResult["scenario"], label: string, field: "userReads" | "refreshes") => {
  const ours = economy.find((r) => r.scenario === scenario && r.contender === "ours")!
  const official = economy.find((r) => r.scenario === scenario && r.contender === "official")!
  return [label, String(ours[field]), String(official[field]), `${ours.requests} / ${official.requests}`, ours[field] === 1 ? "met" : "MISSED"]
}
out.push(
  table(
    ["scenario (20 calls)", "ours", "official", "all requests ours / official", "target 1"],
    [
      economyRow("concurrentReads", "concurrent current-user reads: GET /users/me", "userReads"),
      economyRow("sequentialReads", "sequential reads within 5 s: GET /users/me", "userReads"),
      economyRow("expiredToken", "expired access token: refreshes", "refreshes"),
      economyRow("rejectedToken", "token rejected by the server: refreshes", "refreshes")
    ]
  )
)
const rejectedOurs = economy.find((r) => r.scenario === "rejectedToken" && r.contender === "ours")!
const rejectedOfficial = economy.find((r) => r.scenario === "rejectedToken" && r.contender === "official")!
out.push(
  `wall time added by the rejected token: ours ${ms(rejectedOurs.addedWallMs ?? 0)}, official ${ms(
    rejectedOfficial.addedWallMs ?? 0
  )} (the SDK's retry path has no sleep; its smallest backoff would be 500 ms)`
)

out.push("")
out.push(`3. Overhead per call, uncached path (distinct sessions, GET /users/me for a request's tokens), ${overhead.calls} calls each`)
out.push(
  table(
    ["contender", "ms per call", "÷ raw fetch", "requests per call", "target"],
    [
      ["raw fetch", ms(overhead.rawMsPerCall), "1.00", String(overhead.requestsPerCall.raw), ""],
      [
        "ours (ServerUsers.fromRequest)",
        ms(overhead.oursMsPerCall),
        ratio(overhead.oursRatio),
        String(overhead.requestsPerCall.ours),
        `≤ 1.3 ${overhead.oursRatio <= 1.3 ? "met" : "MISSED"}`
      ],
      [
        "official (getUser({ tokenStore }))",
        overhead.officialMsPerCall === null ? "—" : ms(overhead.officialMsPerCall),
        overhead.officialRatio === null ? "—" : ratio(overhead.officialRatio),
        String(overhead.requestsPerCall.official ?? "—"),
        ""
      ]
    ]
  )
)

out.push("")
out.push("4. Memory (child process, --expose-gc; token texts shared, so not counted)")
out.push(
  table(
    ["what", "count", "per live instance", "per instance after scope close", "target"],
    [
      [
        "Session (own token store and scope)",
        String(memory.sessions.count),
        `${memory.sessions.bytesPerLiveSession.toFixed(0)} B`,
        `${memory.sessions.bytesPerClosedSession.toFixed(0)} B`,
        `≤ 1 KB live ${memory.sessions.bytesPerLiveSession <= 1024 ? "met" : "MISSED"}, ~0 closed`
      ],
      [
        "full Stack.layerClient context",
        String(memory.clients.count),
        kb(memory.clients.bytesPerLiveClient),
        `${memory.clients.bytesPerClosedClient.toFixed(0)} B`,
        "—"
      ]
    ]
  )
)

out.push("")
out.push(`5. Server-side token check, ${verify.requests} requests over ${verify.distinctTokens} sessions' tokens`)
out.push(
  table(
    ["check", "ms per request", "speedup vs round trip", "network requests", "target"],
    [
      ["GET /users/me round trip (raw fetch)", ms(verify.roundTripMsPerCall), "1", String(verify.requests), ""],
      [
        "verifyAccessToken (cached JWKS)",
        ms(verify.verifyMsPerCall),
        `${verify.speedup.toFixed(0)}×`,
        `${verify.verifierNetworkRequests} (JWKS), ${verify.networkRequestsAfterJwksCached} after`,
        `≥ 50× ${verify.speedup >= 50 ? "met" : "MISSED"}, 0 after JWKS ${verify.networkRequestsAfterJwksCached === 0 ? "met" : "MISSED"}`
      ],
      [
        `verifyAccessToken, signature every call (${verify.coldVerifyCalls})`,
        ms(verify.coldVerifyMsPerCall),
        `${verify.coldSpeedup.toFixed(1)}×`,
        "0",
        ""
      ]
    ]
  )
)

out.push("")
out.push(`6. Listing ${listing.users} users at page size ${listing.pageSize} (peak heap includes the in-process emulator)`)
out.push(
  table(
    ["contender", "time", "pages", "peak heap"],
    [
      ["ours (ServerUsers.stream)", ms(listing.ours.ms), String(listing.ours.pages), mb(listing.ours.peakHeapBytes)],
      ["raw fetch paging", ms(listing.raw.ms), String(listing.raw.pages), mb(listing.raw.peakHeapBytes)],
      listing.official === null
        ? ["official listUsers paging", "—", "—", "—"]
        : ["official listUsers paging", ms(listing.official.ms), String(listing.official.pages), mb(listing.official.peakHeapBytes)]
    ]
  )
)
out.push("")
out.push(`finished in ${elapsedSeconds.toFixed(0)} s`)

const printed = out.join("\n")
process.stdout.write(`${printed}\n`)

const results = {
  machine: { ...machine, loadAverageAtEnd: os.loadavg(), elapsedSeconds },
  bundles: bundles.map((bundle) => ({
    ...bundle,
    ratioGzip: isSize(bundle.ours) && isSize(bundle.official) ? bundle.ours.gzipBytes / bundle.official.gzipBytes : null,
    ratioMinified: isSize(bundle.ours) && isSize(bundle.official) ? bundle.ours.minifiedBytes / bundle.official.minifiedBytes : null
  })),
  economy,
  overhead,
  memory,
  verify,
  listing,
  table: printed
}
mkdirSync(join(benchDir, "results"), { recursive: true })
writeFileSync(join(benchDir, "results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`)
log(`wrote ${join(benchDir, "results", "latest.json")}`)
