/**
 * Memory per call in flight (issue 14 part 2), in a process of its own started with
 * `--expose-gc` (bundled by `bench/lib/inflight.ts`). argv: side (`raw` | `floor` | `ours` |
 * `official`), config file, concurrent calls, warm-up calls, the static server's control URL. The
 * static server holds every answer until released: after the warm-up (answered at once) the
 * server is told to hold, `concurrent` calls are started, and once it has received them all the
 * heap is read (after `gc()`) while the calls wait, their promises and fibers still reachable,
 * at once and, with a settle time (argv[6], milliseconds, 0 for none), twice more, that long apart:
 * a client may hold state for a while after sending and release it while the answer is still
 * awaited (the official client does: issue 28 item 4), so a reading at once depends on how long
 * the sends took. Then the answers are released and every call is checked. Prints one JSON line:
 * heap used before, at once and after settling (both later readings), and the calls.
 */
import { readFileSync } from "node:fs"
import type { Config } from "./calls.js"
import { makeCall } from "./calls.js"

const [side, configPath, concurrentText, warmupText, controlUrl, settleText] = process.argv.slice(2)
const settleMs = Number(settleText ?? "0")
const config = JSON.parse(readFileSync(configPath!, "utf8")) as Config
const concurrent = Number(concurrentText)
const warmup = Number(warmupText)
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("inflight-child needs --expose-gc")

const control = async (path: string, method = "GET") => ((await (await fetch(`${controlUrl}${path}`, { method })).json()) as { count: number }).count

/** Heap used after two full collections, each in a task of its own (a `WeakRef` target is kept until its job ends). */
const heapNow = async () => {
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0))
    gc()
  }
  return process.memoryUsage().heapUsed
}

const call = await makeCall(side!, config)
for (let i = 0; i < warmup; i++) await call(i)
await control("/__bench/hold", "POST")
const received = await control("/__bench/count")
const before = await heapNow()
const calls: Array<Promise<void>> = []
for (let i = 0; i < concurrent; i++) calls.push(call(warmup + i))
// wait until the server holds them all (the requests are sent, the answers not yet read)
while ((await control("/__bench/count")) - received < concurrent) await new Promise((resolve) => setTimeout(resolve, 20))
const during = await heapNow()
const settled: Array<number> = []
for (let i = 0; settleMs > 0 && i < 2; i++) {
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  settled.push(await heapNow())
}
await control("/__bench/release", "POST")
await Promise.all(calls)
process.stdout.write(`${JSON.stringify({ side, concurrent, warmup, heapBefore: before, heapInFlight: during, heapSettled: settled, pending: calls.length })}\n`)
process.exit(0)
