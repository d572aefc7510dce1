/**
 * One contender's calls of the per-call measurement, in a process of its own (bundled by
 * `bench/lib/overhead.ts` into one ESM file, packages external, so it starts without tsx and can
 * run under callgrind). argv: side (`raw` | `floor` | `ours` | `official`), config file, measured
 * calls, warm-up calls. Each call asks for "the user behind these tokens", server side, with the
 * next session's tokens, sending the headers this SDK sends; the answer is checked. `floor` is the
 * smallest Effect program doing the same job: effect's `FetchHttpClient`, one `GET`,
 * the body decoded with the same `ServerUser` schema. Prints one JSON line: CPU time (user + system) and wall
 * time of the measured calls.
 */
import { readFileSync } from "node:fs"
import type { Config } from "./calls.js"
import { makeCall } from "./calls.js"

const [side, configPath, measuredText, warmupText] = process.argv.slice(2)
const config = JSON.parse(readFileSync(configPath!, "utf8")) as Config
const measured = Number(measuredText)
const warmup = Number(warmupText)

/**
 * Under callgrind (`BENCH_CALLGRIND_SYNC=1`, started with `--instr-atstart=no`): prints `ready`
 * and waits for a line on stdin while the parent turns instrumentation on, then after the measured
 * calls prints `done` and waits again while the parent dumps the counts. A timer keeps the process
 * dispatching code so callgrind sees the parent's commands.
 */
const synced = process.env["BENCH_CALLGRIND_SYNC"] === "1"
const lines: Array<() => void> = []
if (synced) {
  let buffered = ""
  process.stdin.on("data", (chunk: Buffer) => {
    buffered += chunk.toString()
    while (buffered.includes("\n")) {
      buffered = buffered.slice(buffered.indexOf("\n") + 1)
      lines.shift()?.()
    }
  })
}
const handshake = (word: string) =>
  synced
    ? new Promise<void>((resolve) => {
      const timer = setInterval(() => {}, 20)
      lines.push(() => {
        clearInterval(timer)
        resolve()
      })
      process.stdout.write(`${word}\n`)
    })
    : Promise.resolve()

const call = await makeCall(side!, config)
for (let i = 0; i < warmup; i++) await call(i)
await handshake("ready")
const cpuBefore = process.cpuUsage()
const start = performance.now()
for (let i = warmup; i < warmup + measured; i++) await call(i)
const wallMs = performance.now() - start
const cpu = process.cpuUsage(cpuBefore)
await handshake("done")
process.stdout.write(`${JSON.stringify({ side, measured, warmup, cpuMicros: cpu.user + cpu.system, wallMs })}\n`)
process.exit(0)
