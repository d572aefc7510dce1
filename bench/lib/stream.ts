/**
 * Listing (issue 7 §6, corrected by issue 14): every user of the demo project walked at page size
 * 100 with `ServerUsers.stream`, raw `fetch` paging and the official `listUsers` paging, against the
 * emulator in a process of its own (seeded with the users; `bench/children/emulator-server.ts`).
 * One unmeasured warm-up walk each, then `runs` measured walks each in alternating order (run 0:
 * ours, raw, official; run 1: official, raw, ours; …). Time and peak heap of this process (heap
 * used sampled every chunk and every 5 ms, minus the heap before), min / median / max.
 * `{ official: false }` leaves the official one out (`official` is then `null`).
 */
import { ManagedRuntime, Stream } from "effect"
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Stack from "../../src/Stack.js"
import type { Target } from "./harness.js"
import { serverHeaders } from "./harness.js"
import { loadOfficial } from "./clients.js"
import type { Spread } from "./processes.js"
import { controlJson, load, runJsonChild, spread, startServerChild } from "./processes.js"
import { benchDir } from "./bundle.js"
import { buildChild, makeWorkDir, officialModuleUrl } from "./overhead.js"

/** One way of walking every user, over the runs. */
export interface ListingRun {
  readonly users: number
  /** `GET /users` requests the server received per walk. */
  readonly pages: number
  readonly ms: Spread
  readonly peakHeapBytes: Spread
}

/** The listing figures. */
export interface StreamResult {
  readonly users: number
  readonly pageSize: number
  readonly runs: number
  readonly ours: ListingRun
  readonly raw: ListingRun
  readonly official: ListingRun | null
  /** ours ÷ raw and ours ÷ official time of each run. */
  readonly oursVsRaw: Spread
  readonly oursVsOfficial: Spread | null
  readonly loadAverage: { readonly start: number; readonly end: number }
}

const gc = () => (globalThis as { gc?: () => void }).gc?.()

type Walk = (sample: () => void) => Promise<number>

interface Measured {
  readonly users: number
  readonly pages: number
  readonly ms: number
  readonly peak: number
}

const measure = async (pagesOf: () => Promise<number>, walk: Walk): Promise<Measured> => {
  gc()
  const baseline = process.memoryUsage().heapUsed
  let peak = baseline
  const sample = () => {
    const used = process.memoryUsage().heapUsed
    if (used > peak) peak = used
  }
  const timer = setInterval(sample, 5)
  const pagesBefore = await pagesOf()
  const start = performance.now()
  try {
    const users = await walk(sample)
    const ms = performance.now() - start
    return { users, pages: (await pagesOf()) - pagesBefore, ms, peak: peak - baseline }
  } finally {
    clearInterval(timer)
  }
}

/**
 * Walks every user of the demo project (seeded in the server) with each contender. `pagesOf` reads
 * the server's count of `GET /users` requests.
 */
export const runStream = async (
  target: Target,
  pagesOf: () => Promise<number>,
  expected: number,
  pageSize = 100,
  options: { readonly official?: boolean; readonly runs?: number } = {}
): Promise<StreamResult> => {
  const loadStart = load()
  const runs = options.runs ?? 3
  const runtime = ManagedRuntime.make(
    Stack.layerServer({
      projectId: target.projectId,
      publishableClientKey: target.publishableClientKey,
      secretServerKey: target.secretServerKey,
      baseUrl: target.baseUrl
    })
  )
  try {
    const walks: Array<readonly ["ours" | "raw" | "official", Walk]> = [
      [
        "ours",
        (sample) =>
          runtime.runPromise(
            ServerUsers.stream({ limit: pageSize }).pipe(
              Stream.mapArray((chunk) => {
                sample()
                return chunk
              }),
              Stream.runCount
            )
          )
      ],
      [
        "raw",
        async (sample) => {
          let cursor: string | null = null
          let count = 0
          do {
            const query: string = `limit=${pageSize}${cursor === null ? "" : `&cursor=${cursor}`}`
            const response = await fetch(`${target.baseUrl}/api/v1/users?${query}`, { headers: serverHeaders(target) })
            const page = (await response.json()) as { items: Array<unknown>; pagination: { next_cursor: string | null } }
            count += page.items.length
            cursor = page.pagination.next_cursor
            sample()
          } while (cursor !== null)
          return count
        }
      ]
    ]
    if (options.official ?? true) {
      const app = (await loadOfficial()).officialServer(target)
      walks.push([
        "official",
        async (sample) => {
          let cursor: string | undefined
          let count = 0
          do {
            const page = await app.listUsers({ limit: pageSize, ...(cursor === undefined ? {} : { cursor }) })
            count += page.length
            cursor = page.nextCursor ?? undefined
            sample()
          } while (cursor !== undefined)
          return count
        }
      ])
    }
    const results = new Map<string, Array<Measured>>(walks.map(([name]) => [name, []]))
    // warm-up: one unmeasured walk each
    for (const [, walk] of walks) await measure(pagesOf, walk)
    for (let run = 0; run < runs; run++) {
      for (const [name, walk] of run % 2 === 0 ? walks : [...walks].reverse()) {
        const measured = await measure(pagesOf, walk)
        if (measured.users !== expected) throw new Error(`listing: expected ${expected} users, ${name} walked ${measured.users}`)
        results.get(name)!.push(measured)
      }
    }
    const figures = (name: string): ListingRun | null => {
      const all = results.get(name)
      if (all === undefined || all.length === 0) return null
      return { users: expected, pages: all[0]!.pages, ms: spread(all.map((m) => m.ms)), peakHeapBytes: spread(all.map((m) => m.peak)) }
    }
    const ratios = (other: string) => {
      const mine = results.get("ours")!
      const theirs = results.get(other)
      return theirs === undefined || theirs.length === 0 ? null : spread(mine.map((m, i) => m.ms / theirs[i]!.ms))
    }
    return {
      users: expected,
      pageSize,
      runs,
      ours: figures("ours")!,
      raw: figures("raw")!,
      official: figures("official"),
      oursVsRaw: ratios("raw")!,
      oursVsOfficial: ratios("official"),
      loadAverage: { start: loadStart, end: load() }
    }
  } finally {
    await runtime.dispose()
  }
}

/** The contenders of the streaming CPU measurement. */
export type StreamSide = "raw" | "floor" | "ours" | "official"

/** Client CPU to walk every user, against recorded pages on a static server in another process. */
export interface StreamCpuResult {
  readonly users: number
  readonly pageSize: number
  readonly runs: number
  /** Measured walks per child process (after `warmupWalks` unmeasured ones). */
  readonly walks: number
  readonly warmupWalks: number
  readonly sides: Readonly<
    Partial<
      Record<
        StreamSide,
        {
          /** CPU milliseconds (user + system) of the client process per walk. */
          readonly cpuMs: Spread
          /** `GET /users` requests the static server received per walk (warm-up included). */
          readonly pagesPerWalk: number
        }
      >
    >
  >
  /** ours ÷ raw, floor ÷ raw, official ÷ raw, ours ÷ floor of the median CPU time. */
  readonly ratio: { readonly ours: number; readonly floor: number; readonly official: number | null; readonly oursVsFloor: number }
  /** ours ÷ raw of each run. */
  readonly oursVsRawSpread: Spread
  readonly loadAverage: { readonly start: number; readonly end: number }
}

/** Every `GET /users` page of a walk at `pageSize`, keyed by the cursor that asks for it (`""`: the first). */
export const recordPages = async (target: Target, pageSize: number): Promise<{ readonly pages: Record<string, unknown>; readonly users: number }> => {
  const pages: Record<string, unknown> = {}
  let cursor: string | null = null
  let users = 0
  do {
    const query: string = `limit=${pageSize}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    const response = await fetch(`${target.baseUrl}/api/v1/users?${query}`, { headers: serverHeaders(target) })
    const page = (await response.json()) as { items: Array<unknown>; pagination: { next_cursor: string | null } }
    pages[cursor ?? ""] = page
    users += page.items.length
    cursor = page.pagination.next_cursor
  } while (cursor !== null)
  return { pages, users }
}

/**
 * Client CPU to stream every user: the pages of `target` (an emulator seeded with the users) are
 * recorded once and served by the static server in another process; each side walks them in a
 * child process of its own (`bench/children/stream-child.ts`, bundled), `warmupWalks` unmeasured
 * walks then `walks` measured ones; `runs` children per side in alternating order.
 */
export const runStreamCpu = async (
  target: Target,
  expected: number,
  pageSize: number,
  options: { readonly runs: number; readonly walks: number; readonly warmupWalks: number; readonly official: boolean }
): Promise<StreamCpuResult> => {
  const loadStart = load()
  const { pages, users } = await recordPages(target, pageSize)
  if (users !== expected) throw new Error(`stream: expected ${expected} users, recorded ${users}`)
  const work = makeWorkDir("stream")
  try {
    const answerFile = join(work, "stream-pages.json")
    writeFileSync(answerFile, JSON.stringify({ pages }))
    const outfile = await buildChild("stream-child", work)
    const server = await startServerChild<{ port: number }>([], join(benchDir, "children", "static-server.mjs"), [answerFile])
    const count = async () => (await controlJson<{ count: number }>(`http://127.0.0.1:${server.info.port}/__bench/count`)).count
    const configFile = join(work, "stream-config.json")
    writeFileSync(
      configFile,
      JSON.stringify({
        baseUrl: `http://127.0.0.1:${server.info.port}`,
        projectId: target.projectId,
        publishableClientKey: target.publishableClientKey,
        secretServerKey: target.secretServerKey,
        pageSize,
        officialModule: officialModuleUrl()
      })
    )
    const sides: ReadonlyArray<StreamSide> = options.official ? ["raw", "floor", "ours", "official"] : ["raw", "floor", "ours"]
    const cpu: Record<StreamSide, Array<number>> = { raw: [], floor: [], ours: [], official: [] }
    const pagesSeen: Record<StreamSide, number> = { raw: 0, floor: 0, ours: 0, official: 0 }
    const ratios: Array<number> = []
    try {
      for (let run = 0; run < options.runs; run++) {
        const perRun: Partial<Record<StreamSide, number>> = {}
        for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
          const before = await count()
          const result = runJsonChild<{ users: number; cpuMicros: number }>(process.execPath, [
            outfile,
            side,
            configFile,
            String(options.walks),
            String(options.warmupWalks)
          ])
          if (result.users !== expected) throw new Error(`stream: expected ${expected} users, ${side} walked ${result.users}`)
          pagesSeen[side] += (await count()) - before
          perRun[side] = result.cpuMicros / 1000 / options.walks
          cpu[side].push(perRun[side]!)
        }
        ratios.push(perRun.ours! / perRun.raw!)
      }
    } finally {
      await server.stop()
    }
    const walksPerSide = options.runs * (options.walks + options.warmupWalks)
    const median = (side: StreamSide) => spread(cpu[side]).median
    return {
      users: expected,
      pageSize,
      runs: options.runs,
      walks: options.walks,
      warmupWalks: options.warmupWalks,
      sides: Object.fromEntries(sides.map((side) => [side, { cpuMs: spread(cpu[side]), pagesPerWalk: pagesSeen[side] / walksPerSide }])),
      ratio: {
        ours: median("ours") / median("raw"),
        floor: median("floor") / median("raw"),
        official: options.official ? median("official") / median("raw") : null,
        oursVsFloor: median("ours") / median("floor")
      },
      oursVsRawSpread: spread(ratios),
      loadAverage: { start: loadStart, end: load() }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
