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
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Stack from "../../src/Stack.js"
import type { Target } from "./harness.js"
import { serverHeaders } from "./harness.js"
import { loadOfficial } from "./clients.js"
import type { Spread } from "./processes.js"
import { load, spread } from "./processes.js"

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
              Stream.mapChunks((chunk) => {
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
