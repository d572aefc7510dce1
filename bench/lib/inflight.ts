/**
 * Memory per call in flight (issue 14 part 2): `concurrent` "user behind these tokens" calls
 * started at once against the static server in another process, which holds every answer until
 * released; the client child (`bench/children/inflight-child.ts`, `--expose-gc`) reads its heap
 * while they all wait, promises and fibers reachable. Heap delta ÷ calls, for raw `fetch`, the
 * Effect floor (`FetchHttpClient` + the same schema), this SDK (`ServerUsers.fromRequest`) and
 * the official `getUser`; `runs` children per side in alternating order, min / median / max.
 *
 * Read when? (issue 28 item 4) The official client holds ≈ 5–6 KB per call for a few seconds
 * after sending and releases it while the answer is still awaited: read at once, its figure
 * depends on how long the 1,000 sends took (37.1–39.6 KB; 36.3 KB read 3 s later, near the 35.5 KB
 * of two scripts written outside the bench), and it settles at 33.0–34.4 KB after 5 s. With
 * `settleMs`, each child reads the heap at once and twice more `settleMs` apart; the headline is
 * the last reading (`bytesPerCall`, what a call that stays in flight holds), the first is kept
 * (`bytesPerCallAtOnce`), and `settled` says whether the two later readings agree within 2%.
 */
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { benchDir } from "./bundle.js"
import type { BenchServer } from "./harness.js"
import { buildChild, makeWorkDir, officialModuleUrl, recordFixture } from "./overhead.js"
import type { Spread } from "./processes.js"
import { controlJson, load, runJsonChild, spread, startServerChild } from "./processes.js"

/** The contenders. */
export type InflightSide = "raw" | "floor" | "ours" | "official"

/** The figures. */
export interface InflightResult {
  readonly concurrent: number
  readonly warmup: number
  readonly runs: number
  /** Milliseconds between the readings (0: one reading, at once). */
  readonly settleMs?: number
  /**
   * Heap bytes per call in flight, by side: after settling (the last reading), at once (the first),
   * and whether the two settled readings of every run agreed within 2%.
   */
  readonly sides: Readonly<
    Partial<Record<InflightSide, { readonly bytesPerCall: Spread; readonly bytesPerCallAtOnce?: Spread; readonly settled?: boolean }>>
  >
  /** ours ÷ raw, floor ÷ raw, official ÷ raw, ours ÷ floor of the medians. */
  readonly ratio: { readonly ours: number; readonly floor: number; readonly official: number | null; readonly oursVsFloor: number }
  readonly loadAverage: { readonly start: number; readonly end: number }
}

/** Runs the measurement; `bench` is an emulator used only to record the answer and sessions' tokens. */
export const runInflight = async (
  bench: BenchServer,
  options: {
    readonly concurrent: number
    readonly warmup: number
    readonly runs: number
    readonly official: boolean
    readonly sessions?: number
    /** Milliseconds between the heap readings after the calls are all held (0 or absent: one reading, at once). */
    readonly settleMs?: number
  }
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
    const settleMs = options.settleMs ?? 0
    const bytes: Record<InflightSide, Array<number>> = { raw: [], floor: [], ours: [], official: [] }
    const atOnce: Record<InflightSide, Array<number>> = { raw: [], floor: [], ours: [], official: [] }
    const stable: Record<InflightSide, boolean> = { raw: true, floor: true, ours: true, official: true }
    try {
      for (let run = 0; run < options.runs; run++) {
        for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
          await controlJson(`${controlUrl}/__bench/release`, { method: "POST" })
          const result = runJsonChild<{ heapBefore: number; heapInFlight: number; heapSettled: ReadonlyArray<number>; pending: number }>(process.execPath, [
            "--expose-gc",
            script,
            side,
            config,
            String(options.concurrent),
            String(options.warmup),
            controlUrl,
            String(settleMs)
          ])
          const perCall = (heap: number) => (heap - result.heapBefore) / result.pending
          const [first, last] = result.heapSettled
          atOnce[side].push(perCall(result.heapInFlight))
          bytes[side].push(perCall(last ?? result.heapInFlight))
          if (first !== undefined && last !== undefined && Math.abs(perCall(last) - perCall(first)) > 0.02 * perCall(last)) stable[side] = false
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
      settleMs,
      sides: Object.fromEntries(
        sides.map((side) => [side, { bytesPerCall: spread(bytes[side]), bytesPerCallAtOnce: spread(atOnce[side]), settled: settleMs > 0 && stable[side] }])
      ),
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
