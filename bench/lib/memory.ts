/**
 * Memory (issue 7 §4, corrected by issue 14), measured in a child process with `--expose-gc` (see
 * `bench/memory-child.ts`): the sessions are kept reachable while the heap is read.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { benchDir, rootDir } from "./bundle.js"
import type { Spread } from "./processes.js"
import { load, spread } from "./processes.js"

/** Heap per session (and per full client context) while live, closed but referenced, released. */
export interface MemoryResult {
  readonly sessions: {
    readonly count: number
    /** Sessions reachable when the heap was read (= count: the measurement is of live sessions). */
    readonly reachableWhileMeasured: number
    readonly bytesPerLiveSession: number
    /** Per live session, over the runs. */
    readonly bytesPerLiveSessionSpread: Spread
    readonly bytesPerClosedSessionStillReferenced: number
    readonly bytesPerSessionAfterRelease: number
  }
  readonly clients: {
    readonly count: number
    readonly reachableWhileMeasured: number
    readonly bytesPerLiveClient: number
    readonly bytesPerClosedClientStillReferenced: number
    readonly bytesPerClientAfterRelease: number
  }
  /**
   * The floor of a client context: `FetchHttpClient.layer` alone, built as the client contexts are
   * (`bytesPerLayer`) and as a `ManagedRuntime` (`bytesPerRuntime`), per live context.
   */
  readonly floor: { readonly count: number; readonly bytesPerLayer: number; readonly bytesPerRuntime: number }
  /**
   * The official `StackClientApp` per live app (memory token store, signed in with the same
   * tokens, no prefetch): the "official" side of heap per live client; `null` without the bench's dependencies.
   */
  readonly officialClients?: MemoryResult["clients"] | null
  readonly loadAverage: { readonly start: number; readonly end: number }
}

/** Runs the child with `sessions` sessions and `clients` full client contexts, `runs` session runs. */
export const runMemory = (sessions = 10_000, clients = 1_000, runs = 3): MemoryResult => {
  const loadStart = load()
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", join(benchDir, "memory-child.ts"), String(sessions), String(clients), String(runs)],
    { cwd: rootDir, encoding: "utf8", maxBuffer: 16 * 1024 * 1024, timeout: 300_000 }
  )
  if (child.status !== 0) throw new Error(`memory child failed (${child.status}): ${child.stderr.slice(0, 1000)}`)
  const line = child.stdout.trim().split("\n").pop() ?? ""
  const parsed = JSON.parse(line) as {
    sessions: Omit<MemoryResult["sessions"], "bytesPerLiveSessionSpread"> & { runs: Array<number> }
    clients: MemoryResult["clients"]
    floor: MemoryResult["floor"]
    officialClients: MemoryResult["clients"] | null
  }
  const { runs: perRun, ...sessionFigures } = parsed.sessions
  const live = spread(perRun)
  return {
    sessions: { ...sessionFigures, bytesPerLiveSession: live.median, bytesPerLiveSessionSpread: live },
    clients: parsed.clients,
    floor: parsed.floor,
    officialClients: parsed.officialClients,
    loadAverage: { start: loadStart, end: load() }
  }
}
