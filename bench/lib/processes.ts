/**
 * Child processes of the bench: long-running servers (the emulator, the trivial static server),
 * each in a process of its own on 127.0.0.1, and one-shot measuring children. Also the statistics
 * every figure is reported with (min / median / max of repeated runs) and the machine's load.
 */
import { spawn, spawnSync } from "node:child_process"
import * as os from "node:os"
import { join } from "node:path"
import { benchDir, rootDir } from "./bundle.js"

/** A server child: its first stdout line (JSON) and how to stop it. */
export interface ServerChild<Info> {
  readonly info: Info
  readonly pid: number
  readonly stop: () => Promise<void>
}

/** Starts `node [...nodeArgs] script ...args` and waits for its first JSON stdout line. */
export const startServerChild = <Info>(nodeArgs: ReadonlyArray<string>, script: string, args: ReadonlyArray<string> = []): Promise<ServerChild<Info>> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: rootDir, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    let started = false
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const newline = out.indexOf("\n")
      if (!started && newline >= 0) {
        started = true
        resolve({
          info: JSON.parse(out.slice(0, newline)) as Info,
          pid: child.pid!,
          stop: async () => {
            child.kill("SIGTERM")
            await exited
          }
        })
      }
    })
    child.once("exit", (code) => {
      if (!started) reject(new Error(`${script} exited (${code}) before listening: ${err.slice(0, 1000)}`))
    })
  })

/** The emulator's server in a child process (`bench/children/emulator-server.ts`). */
export interface EmulatorChildInfo {
  readonly baseUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  /** Users of the demo project (the seeded ones and the emulator's demo user). */
  readonly users: number
  readonly controlPort: number
}

/** Starts the emulator in a process of its own, with `seedUsers` users in the demo project. */
export const startEmulatorChild = (seedUsers = 0) =>
  startServerChild<EmulatorChildInfo>(["--import", "tsx"], join(benchDir, "children", "emulator-server.ts"), [String(seedUsers)])

/**
 * A control request to a server child (counts, hold, release), answered as JSON, tried up to
 * `attempts` times: a socket the server closed between two requests (a long child run in
 * between: "other side closed") must not lose the whole run (issue 28 item 5). The servers answer
 * control requests with `connection: close`, so no idle pooled socket is reused.
 */
export const controlJson = async <A>(url: string, init: RequestInit = {}, attempts = 5): Promise<A> => {
  for (let attempt = 1;; attempt++) {
    try {
      const response = await fetch(url, init)
      if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}`)
      return (await response.json()) as A
    } catch (error) {
      if (attempt >= attempts) throw error
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
    }
  }
}

/** Requests the emulator child received (by "METHOD /path"); `reset` clears the counts first. */
export const emulatorCounts = (info: EmulatorChildInfo, reset = false): Promise<Record<string, number>> =>
  controlJson<Record<string, number>>(`http://127.0.0.1:${info.controlPort}/${reset ? "reset" : "count"}`, { method: reset ? "POST" : "GET" })

/** Runs `command args` to completion; returns stdout's last line parsed as JSON. */
export const runJsonChild = <A>(command: string, args: ReadonlyArray<string>, timeoutMs = 300_000): A => {
  const child = spawnSync(command, args, { cwd: rootDir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs })
  if (child.status !== 0) throw new Error(`${command} ${args.join(" ").slice(0, 200)} failed (${child.status}): ${child.stderr.slice(-1500)}`)
  const line = child.stdout.trim().split("\n").pop() ?? ""
  return JSON.parse(line) as A
}

/** min / median / max of repeated runs. */
export interface Spread {
  readonly runs: number
  readonly min: number
  readonly median: number
  readonly max: number
}

/** The spread of some values (empty: all `NaN`). */
export const spread = (values: ReadonlyArray<number>): Spread => {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  const median = n === 0 ? NaN : n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2
  return { runs: n, min: sorted[0] ?? NaN, median, max: sorted[n - 1] ?? NaN }
}

/** The 1-minute load average now (with the core count, it tells how shared the machine was). */
export const load = (): number => os.loadavg()[0] ?? 0
