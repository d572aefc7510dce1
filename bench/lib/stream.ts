/**
 * Listing (issue 7 §6): `n` users streamed at page size 100 with `ServerUsers.stream`, time and
 * peak heap (heap used sampled every chunk and every 5 ms, minus the heap before; the emulator
 * runs in the same process, so its answers are included). Raw `fetch` paging and the official
 * `listUsers` paging are measured the same way for comparison (`{ official: false }` leaves the
 * official one out: `official` is then `null`).
 */
import { Stream } from "effect"
import { randomUuid } from "../../src/emulator/Random.js"
import { makeUser } from "../../src/emulator/State.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import type { BenchServer } from "./harness.js"
import { serverHeaders } from "./harness.js"
import { loadOfficial, ourServer } from "./clients.js"

/** One way of walking every user. */
export interface ListingRun {
  readonly users: number
  readonly pages: number
  readonly ms: number
  readonly peakHeapBytes: number
}

/** The listing figures. */
export interface StreamResult {
  readonly users: number
  readonly pageSize: number
  readonly ours: ListingRun
  readonly raw: ListingRun
  readonly official: ListingRun | null
}

const gc = () => (globalThis as { gc?: () => void }).gc?.()

/** Adds `n` users to the demo project directly in the emulator's state (no requests). */
export const seedUsers = (bench: BenchServer, n: number): void => {
  const project = bench.emulator.state.projects.get(bench.projectId)!
  const now = Date.now()
  for (let i = 0; i < n; i++) {
    const user = makeUser(randomUuid(), now - n + i)
    user.primaryEmail = `listed-${i}@example.com`
    user.displayName = `Listed ${i}`
    project.users.set(user.id, user)
  }
}

const measure = async (bench: BenchServer, walk: (sample: () => void) => Promise<number>): Promise<ListingRun> => {
  gc()
  const baseline = process.memoryUsage().heapUsed
  let peak = baseline
  const sample = () => {
    const used = process.memoryUsage().heapUsed
    if (used > peak) peak = used
  }
  const timer = setInterval(sample, 5)
  bench.requests.reset()
  const start = performance.now()
  try {
    const users = await walk(sample)
    return { users, pages: bench.requests.count("GET /users"), ms: performance.now() - start, peakHeapBytes: peak - baseline }
  } finally {
    clearInterval(timer)
  }
}

/** Streams every user of the demo project (seed them first) three ways. */
export const runStream = async (
  bench: BenchServer,
  expected: number,
  pageSize = 100,
  options: { readonly official?: boolean } = {}
): Promise<StreamResult> => {
  const runtime = ourServer(bench)
  try {
    const ours = await measure(bench, (sample) =>
      runtime.runPromise(
        ServerUsers.stream({ limit: pageSize }).pipe(
          Stream.mapChunks((chunk) => {
            sample()
            return chunk
          }),
          Stream.runCount
        )
      )
    )
    const raw = await measure(bench, async (sample) => {
      let cursor: string | null = null
      let count = 0
      do {
        const query: string = `limit=${pageSize}${cursor === null ? "" : `&cursor=${cursor}`}`
        const response = await fetch(`${bench.baseUrl}/api/v1/users?${query}`, { headers: serverHeaders(bench) })
        const page = (await response.json()) as { items: Array<unknown>; pagination: { next_cursor: string | null } }
        count += page.items.length
        cursor = page.pagination.next_cursor
        sample()
      } while (cursor !== null)
      return count
    })
    const app = (options.official ?? true) ? (await loadOfficial()).officialServer(bench) : undefined
    const official = app === undefined ? null : await measure(bench, async (sample) => {
      let cursor: string | undefined
      let count = 0
      do {
        const page = await app.listUsers({ limit: pageSize, ...(cursor === undefined ? {} : { cursor }) })
        count += page.length
        cursor = page.nextCursor ?? undefined
        sample()
      } while (cursor !== undefined)
      return count
    })
    for (const run of official === null ? [ours, raw] : [ours, raw, official]) {
      if (run.users !== expected) throw new Error(`listing: expected ${expected} users, walked ${run.users}`)
    }
    return { users: expected, pageSize, ours, raw, official }
  } finally {
    await runtime.dispose()
  }
}
