/**
 * Memory (issue 7 §4), measured in a child process with `--expose-gc` (see `bench/memory-child.ts`).
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { benchDir, rootDir } from "./bundle.js"

/** Heap per session (and per full client context) while live and after their scopes closed. */
export interface MemoryResult {
  readonly sessions: {
    readonly count: number
    readonly bytesPerLiveSession: number
    readonly bytesPerClosedSession: number
  }
  readonly clients: {
    readonly count: number
    readonly bytesPerLiveClient: number
    readonly bytesPerClosedClient: number
  }
}

/** Runs the child with `sessions` sessions and `clients` full client contexts. */
export const runMemory = (sessions = 10_000, clients = 1_000): MemoryResult => {
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", join(benchDir, "memory-child.ts"), String(sessions), String(clients)],
    { cwd: rootDir, encoding: "utf8", maxBuffer: 16 * 1024 * 1024, timeout: 300_000 }
  )
  if (child.status !== 0) throw new Error(`memory child failed (${child.status}): ${child.stderr.slice(0, 1000)}`)
  const line = child.stdout.trim().split("\n").pop() ?? ""
  return JSON.parse(line) as MemoryResult
}
