/**
 * Memory per call in flight (issue 14 part 2): `concurrent` "user behind these tokens" calls
 * started at once against the static server in another process, which holds every answer until
 * released; the client child (`bench/children/inflight-child.ts`, `--expose-gc`) reads its heap
 * while they all wait, promises and fibers reachable. Heap delta ÷ calls, for raw `fetch`, the
 * Effect floor (`FetchHttpClient` + the same schema), this SDK (`ServerUsers.fromRequest`) and
 * the official `getUser`; `runs` children per side in alternating order, min / median / max.
 */
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchDir } from "./bundle.js"
import type { BenchServer } from "./harness.js"
import { buildChild, makeWorkDir, officialModuleUrl, recordFixture } from "./overhead.js"
import type { Spread } from "./processes.js"
import { load, runJsonChild, spread, startServerChild } from "./processes.js"

/** The contenders. */
export type InflightSide = "raw" | "floor" | "ours" | "official"

/** The figures. */
export interface InflightResult {
  readonly concurrent: number
  readonly warmup: number
  readonly runs: number
  /** Heap bytes per call in flight, by side. */
  readonly sides: Readonly<Partial<Record<InflightSide, { readonly bytesPerCall: Spread }>>>
  /** ours ÷ raw, floor ÷ raw, official ÷ raw, ours ÷ floor of the medians. */
  readonly ratio: { readonly ours: number; readonly floor: number; readonly official: number | null; readonly oursVsFloor: number }
  readonly loadAverage: { readonly start: number; readonly end: number }
}

/** Runs the measurement; `bench` is an emulator used only to record the answer and sessions' tokens. */
export const runInflight = async (
  bench: BenchServer,
  options: { readonly concurrent: number; readonly warmup: number; readonly runs: number; readonly official: boolean; readonly sessions?: number }
): Promise<InflightResult> => {
  const loadStart = load()
  const fixture = await recordFixture(bench, options.sessions ?? 100)
  const work = makeWorkDir("inflight")
  try {
    const answerFile = join(work, "inflight-answer.json")
    writeFileSync(answerFile, JSON.stringify({ body: fixture.body }))
    const script = await buildChild("inflight-child", work)
    const server = await startServerChild<{ port: number }>([], join(benchDir, "children", "static-server.mjs"), [answerFile])
    const controlUrl = `http://127.0.0.1:${server.info.port}`
    const config = join(work, "inflight-config.json")
    writeFileSync(
      config,
      JSON.stringify({
        baseUrl: controlUrl,
        projectId: bench.projectId,
        publishableClientKey: bench.publishableClientKey,
        secretServerKey: bench.secretServerKey,
        userId: fixture.userId,
        tokens: fixture.tokens,
        officialModule: officialModuleUrl()
      })
    )
    const sides: ReadonlyArray<InflightSide> = options.official ? ["raw", "floor", "ours", "official"] : ["raw", "floor", "ours"]
    const bytes: Record<InflightSide, Array<number>> = { raw: [], floor: [], ours: [], official: [] }
    try {
      for (let run = 0; run < options.runs; run++) {
        for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
          await fetch(`${controlUrl}/__bench/release`, { method: "POST" })
          const result = runJsonChild<{ heapBefore: number; heapInFlight: number; pending: number }>(process.execPath, [
            "--expose-gc",
            script,
            side,
            config,
            String(options.concurrent),
            String(options.warmup),
            controlUrl
          ])
          bytes[side].push((result.heapInFlight - result.heapBefore) / result.pending)
        }
      }
    } finally {
      await server.stop()
    }
    const median = (side: InflightSide) => spread(bytes[side]).median
    return {
      concurrent: options.concurrent,
      warmup: options.warmup,
      runs: options.runs,
      sides: Object.fromEntries(sides.map((side) => [side, { bytesPerCall: spread(bytes[side]) }])),
      ratio: {
        ours: median("ours") / median("raw"),
        floor: median("floor") / median("raw"),
        official: options.official ? median("official") / median("raw") : null,
        oursVsFloor: median("ours") / median("floor")
      },
      loadAverage: { start: loadStart, end: load() }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
