/**
 * Overhead per call (issue 14): "the user behind a request's tokens", server side, each call with a
 * distinct session's tokens, against a trivial local HTTP server in another process
 * (`bench/children/static-server.mjs`, answering the `GET /users/me` body recorded once from the
 * emulator), so the figure is the client's own cost, not the emulator's:
 * - raw `fetch`: `GET /users/me` with the headers this SDK sends, `JSON.parse` (the floor of any client);
 * - Effect floor: the smallest Effect program doing the same job (`FetchHttpClient`, one `GET`, the
 *   body decoded with the same `ServerUser` schema): what any client on effect's HTTP client pays;
 * - this SDK: `ServerUsers.fromRequest` (the `x-stack-auth` header; a session per call);
 * - official: `StackServerApp.getUser({ tokenStore: { accessToken, refreshToken } })`.
 * Each contender runs in a fresh child process per run (`bench/children/call-child.ts`, bundled),
 * runs alternate in order; CPU time (user + system) of the measured calls, min / median / max.
 * Where `valgrind` is installed, instructions per call too (callgrind, `node --single-threaded`,
 * instrumentation on only around the measured calls): independent of the machine's load, where CPU
 * time is not, but it moves with the warm-up: V8 still compiles hot code after hundreds of calls,
 * and under `--single-threaded` that work is counted. After 1,500 warm-up calls V8's compilers were
 * 38-46% of every side's counted instructions, after 6,000 1-5%, so the warm-up is long and the
 * compilers' share is reported with the figure (`compilerInstructions`).
 */
import * as esbuild from "esbuild"
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import type { BenchServer, Tokens } from "./harness.js"
import { createSessions, createUser, serverHeaders } from "./harness.js"
import { benchDir, rootDir } from "./bundle.js"
import type { Spread } from "./processes.js"
import { controlJson, load, runJsonChild, spread, startServerChild } from "./processes.js"

/** The contenders. */
export type Side = "raw" | "floor" | "ours" | "official"

/** One contender's figures. */
export interface SideFigures {
  /** CPU microseconds per call, over the runs. */
  readonly cpuMicrosPerCall: Spread
  /** Requests the static server received per call (warm-up included). */
  readonly requestsPerCall: number
  /** Instructions per call (callgrind), the median of the runs; `null` without valgrind. */
  readonly instructionsPerCall: number | null
  /** Instructions per call of each callgrind run (min / median / max), `null` without valgrind. */
  readonly instructionsSpread?: Spread | null
  /** Of those, V8's compilers' per call (see `compilerInstructions`), `null` where not counted. */
  readonly compilerInstructionsPerCall?: number | null
  /** Of those, V8's garbage collector's per call (see `instructionShares`), `null` where not counted. */
  readonly gcInstructionsPerCall?: number | null
}

/** The per-call figures. */
export interface OverheadResult {
  readonly calls: number
  readonly warmup: number
  readonly runs: number
  readonly sides: Readonly<Partial<Record<Side, SideFigures>>>
  /** ours ÷ raw, floor ÷ raw and official ÷ raw of the median CPU time; ours ÷ floor, ours ÷ official. */
  readonly cpuRatio: {
    readonly ours: number
    readonly floor: number
    readonly official: number | null
    readonly oursVsFloor: number
    readonly oursVsOfficial: number | null
  }
  /** The same with instructions (`null` without valgrind). */
  readonly instructionRatio: {
    readonly ours: number | null
    readonly floor: number | null
    readonly official: number | null
    readonly oursVsFloor: number | null
    readonly oursVsOfficial: number | null
  }
  /** Ratios of each run (ours ÷ raw), for the spread. */
  readonly cpuRatioSpread: Spread
  readonly callgrindCalls: { readonly calls: number; readonly warmup: number; readonly runs?: number } | null
  /** Why a side's callgrind run gave no figure (its `instructionsPerCall` is then `null`). */
  readonly callgrindErrors: Readonly<Partial<Record<Side, string>>>
  readonly loadAverage: { readonly start: number; readonly end: number }
}

/** Options of {@link runOverhead}. */
export interface OverheadOptions {
  readonly calls: number
  readonly warmup: number
  readonly runs: number
  readonly official: boolean
  /** Calls of the callgrind runs (`runs` per side, in alternating order; 1 by default); `null` skips callgrind. */
  readonly callgrind: { readonly calls: number; readonly warmup: number; readonly runs?: number } | null
}

/**
 * Built children and their inputs. Under the root's `node_modules` so that the children resolve
 * `effect`, `jose`, … to the root's copies (as the SDK's own code does), not to the versions the
 * official SDK brought into `bench/node_modules`; the official SDK is imported by absolute URL.
 */
export const buildDir = join(rootDir, "node_modules", ".cache", "stack-auth-effect-bench")

/** A folder of this process's own under {@link buildDir} (bench and tests may run at the same time); the caller removes it. */
export const makeWorkDir = (name: string): string => {
  const dir = join(buildDir, `${name}-${process.pid}-${Date.now()}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

/** The official SDK's module URL (resolved from `bench/`), or `null` when not installed. */
export const officialModuleUrl = (): string | null => {
  try {
    return import.meta.resolve("@stackframe/js")
  } catch {
    // where import.meta.resolve is not there (vitest): its ESM entry next to the package file
    const entry = join(benchDir, "node_modules", "@stackframe", "js", "dist", "esm", "index.js")
    return existsSync(entry) ? pathToFileURL(entry).href : null
  }
}

/** Bundles `bench/children/call-child.ts` into one ESM file (packages external); returns its path. */
export const buildCallChild = (dir: string): Promise<string> => buildChild("call-child", dir)

/** Bundles `bench/children/<name>.ts` into `dir/<name>.mjs`, one ESM file (packages external); returns its path. */
export const buildChild = async (name: string, dir: string): Promise<string> => {
  const outfile = join(dir, `${name}.mjs`)
  await esbuild.build({
    entryPoints: [join(benchDir, "children", `${name}.ts`)],
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20",
    outfile,
    logLevel: "silent",
    absWorkingDir: rootDir
  })
  return outfile
}

/** Whether `valgrind` can be run. */
export const valgrindAvailable = (): boolean => spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status === 0

/** Records one `GET /users/me` answer and `count` distinct sessions' tokens from an emulator. */
export const recordFixture = async (bench: BenchServer, count: number) => {
  const userId = await createUser(bench, "overhead")
  const tokens: Array<Tokens> = await createSessions(bench, userId, count)
  const response = await fetch(`${bench.baseUrl}/api/v1/users/me`, { headers: serverHeaders(bench, tokens[0]!.accessToken) })
  const body = (await response.json()) as unknown
  return { userId, tokens, body }
}

const staticCount = async (port: number): Promise<number> => (await controlJson<{ count: number }>(`http://127.0.0.1:${port}/__bench/count`)).count

const control = (args: ReadonlyArray<string>) => {
  // under callgrind the child runs ~50x slower and answers control requests only between its
  // timer ticks: on a loaded machine (load 12-19 on 2 cores) 120 s was not always enough
  const result = spawnSync("callgrind_control", args, { encoding: "utf8", timeout: 600_000 })
  if (result.status !== 0) throw new Error(`callgrind_control ${args.join(" ")} failed: ${result.stderr}${result.stdout}`)
}

/**
 * V8's compilers (TurboFan, Maglev, Sparkplug: functions of `v8::internal::compiler`, `maglev`,
 * `baseline`, `turboshaft`): in a normal process they compile hot code on background threads
 * while the app warms up; under `--single-threaded` their work lands in the counted calls.
 */
const compilerFunction = /v8::internal::(?:compiler|maglev|baseline|turboshaft)::/

/**
 * V8's garbage collector (issue 28 item 7: a full collection inside 200 measured calls read 4.29 M
 * instead of 1.8 M per call): the scavenger and the mark-compact collectors, marking, sweeping,
 * evacuation, remembered sets, allocation-site pretenuring decided at collection time, `Heap::`
 * (collection entry points and the allocation slow path that triggers them) and cppgc.
 */
const gcFunction =
  /v8::internal::(?:Heap::|HeapAllocator::|Scavenger|RootScavengeVisitor|ScavengeVisitor|SemiSpaceNewSpace::|PretenuringHandler::|MarkCompactCollector|MinorMarkSweep|MinorMS|[A-Za-z]*MarkingVisitor|ConcurrentMarking|MarkingBarrier|MarkingWorklist|IncrementalMarking|Sweeper|[A-Za-z]*Evacuat|RememberedSet|SlotSet|TypedSlot|GCTracer|RecordMigratedSlot|LiveObjectVisitor|PointersUpdating|ArrayBufferSweeper|MemoryReducer|ScavengeJob|WeakObjectRetainer|ExternalStringTable|GlobalHandles::)|^cppgc::internal::|heap::base::/

/** The instructions of a callgrind dump spent in V8's compilers and in its garbage collector. */
export interface InstructionShares {
  readonly compiler: number
  readonly gc: number
}

/**
 * The instructions of a callgrind dump spent in V8's compilers ({@link compilerFunction}) and in
 * its garbage collector ({@link gcFunction}), read with `callgrind_annotate` (every function,
 * exclusive costs); `null` where it is missing.
 */
export const instructionShares = (file: string): InstructionShares | null => {
  const result = spawnSync("callgrind_annotate", ["--threshold=100", file], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
  if (result.status !== 0) return null
  let compiler = 0
  let gc = 0
  for (const line of result.stdout.split("\n")) {
    const match = /^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$/.exec(line)
    if (match === null) continue
    const count = Number(match[1]!.replace(/,/g, ""))
    if (compilerFunction.test(match[2]!)) compiler += count
    else if (gcFunction.test(match[2]!)) gc += count
  }
  return { compiler, gc }
}

/** The instructions of a callgrind dump spent in V8's compilers ({@link instructionShares}); `null` where it is missing. */
export const compilerInstructions = (file: string): number | null => instructionShares(file)?.compiler ?? null

/** What {@link instructions} counts: all instructions of the measured calls, and those of V8's compilers and garbage collector among them. */
export interface Counted {
  readonly total: number
  readonly compiler: number | null
  readonly gc: number | null
}

/**
 * Instructions of `calls` measured calls of one side: the child runs under callgrind with
 * instrumentation off through start-up and warm-up; it is turned on (`callgrind_control -i on`)
 * just before the measured calls and the counts are dumped (`-d`) right after them.
 */
export const instructions = (work: string, script: string, side: Side, config: string, calls: number, warmup: number): Promise<Counted> => {
  const dir = join(work, `callgrind-${side}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  return new Promise<Counted>((resolve, reject) => {
    const child = spawn(
      "valgrind",
      [
        "--tool=callgrind",
        "--instr-atstart=no",
        `--callgrind-out-file=${join(dir, "out.%p")}`,
        process.execPath,
        "--single-threaded",
        script,
        side,
        config,
        String(calls),
        String(warmup)
      ],
      { cwd: rootDir, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, BENCH_CALLGRIND_SYNC: "1" } }
    )
    let out = ""
    let err = ""
    let dumped: Counted | null = null
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      while (out.includes("\n")) {
        const line = out.slice(0, out.indexOf("\n"))
        out = out.slice(out.indexOf("\n") + 1)
        try {
          if (line === "ready") {
            control(["-i", "on", String(child.pid)])
            child.stdin.write("go\n")
          } else if (line === "done") {
            control(["-d", String(child.pid)])
            let total = 0
            let compiler: number | null = 0
            let gc: number | null = 0
            for (const file of readdirSync(dir)) {
              if (!/\.\d+$/.test(file.replace(/^out\.\d+/, ""))) continue
              const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, file), "utf8"))
              if (totals === null) continue
              total += Number(totals[1])
              const shares = instructionShares(join(dir, file))
              compiler = compiler === null || shares === null ? null : compiler + shares.compiler
              gc = gc === null || shares === null ? null : gc + shares.gc
            }
            dumped = { total, compiler, gc }
            child.stdin.write("exit\n")
          }
        } catch (error) {
          child.kill("SIGKILL")
          reject(error)
        }
      }
    })
    child.once("exit", (code) => {
      rmSync(dir, { recursive: true, force: true })
      if (dumped === null) reject(new Error(`callgrind ${side} ended (${code}) without counts: ${err.slice(-1000)}`))
      else resolve(dumped)
    })
  })
}

/**
 * Runs the comparison. `bench` is an emulator used only to record the answer and the sessions'
 * tokens; the calls go to the static server.
 */
export const runOverhead = async (bench: BenchServer, options: OverheadOptions): Promise<OverheadResult> => {
  const loadStart = load()
  const sides: ReadonlyArray<Side> = options.official ? ["raw", "floor", "ours", "official"] : ["raw", "floor", "ours"]
  // every call of a child gets a session of its own
  const largest = Math.max(options.calls + options.warmup, (options.callgrind?.calls ?? 0) + (options.callgrind?.warmup ?? 0))
  const fixture = await recordFixture(bench, largest)
  const work = makeWorkDir("overhead")
  const answerFile = join(work, "overhead-answer.json")
  writeFileSync(answerFile, JSON.stringify({ body: fixture.body }))
  const script = await buildCallChild(work)
  const server = await startServerChild<{ port: number }>([], join(benchDir, "children", "static-server.mjs"), [answerFile])
  const config = join(work, "overhead-config.json")
  writeFileSync(
    config,
    JSON.stringify({
      baseUrl: `http://127.0.0.1:${server.info.port}`,
      projectId: bench.projectId,
      publishableClientKey: bench.publishableClientKey,
      secretServerKey: bench.secretServerKey,
      userId: fixture.userId,
      tokens: fixture.tokens,
      officialModule: officialModuleUrl()
    })
  )
  const cpu: Record<Side, Array<number>> = { raw: [], floor: [], ours: [], official: [] }
  const requests: Record<Side, number> = { raw: 0, floor: 0, ours: 0, official: 0 }
  const runsOf: Record<Side, number> = { raw: 0, floor: 0, ours: 0, official: 0 }
  const ratios: Array<number> = []
  const instr: Record<Side, Array<number>> = { raw: [], floor: [], ours: [], official: [] }
  const compiled: Record<Side, Array<number | null>> = { raw: [], floor: [], ours: [], official: [] }
  const collected: Record<Side, Array<number | null>> = { raw: [], floor: [], ours: [], official: [] }
  const callgrindErrors: Partial<Record<Side, string>> = {}
  try {
    for (let run = 0; run < options.runs; run++) {
      // alternate the order: run 0 raw, ours, official; run 1 official, ours, raw; …
      const order = run % 2 === 0 ? sides : [...sides].reverse()
      const perRun: Partial<Record<Side, number>> = {}
      for (const side of order) {
        const before = await staticCount(server.info.port)
        const result = runJsonChild<{ cpuMicros: number }>(process.execPath, [script, side, config, String(options.calls), String(options.warmup)])
        requests[side] += (await staticCount(server.info.port)) - before
        runsOf[side] += options.calls + options.warmup
        perRun[side] = result.cpuMicros / options.calls
        cpu[side].push(result.cpuMicros / options.calls)
      }
      ratios.push(perRun.ours! / perRun.raw!)
    }
    const callgrind = options.callgrind
    for (let run = 0; callgrind !== null && run < (callgrind.runs ?? 1); run++) {
      for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
        // one side failing (e.g. a timeout under load) leaves its figure empty, with the reason, not the whole run
        if (callgrindErrors[side] !== undefined) continue
        try {
          const dump = await instructions(work, script, side, config, callgrind.calls, callgrind.warmup)
          instr[side].push(dump.total / callgrind.calls)
          compiled[side].push(dump.compiler === null ? null : dump.compiler / callgrind.calls)
          collected[side].push(dump.gc === null ? null : dump.gc / callgrind.calls)
        } catch (error) {
          callgrindErrors[side] = String(error).slice(0, 500)
          instr[side] = []
        }
      }
    }
  } finally {
    await server.stop()
    rmSync(work, { recursive: true, force: true })
  }
  /** A side's instructions per call over its callgrind runs (min / median / max), `null` without a run. */
  const counted = (side: Side) => (instr[side].length === 0 ? null : spread(instr[side]))
  const medianInstructions = (side: Side) => counted(side)?.median ?? null
  /** A side's V8-compiler instructions per call (median of its runs), `null` where a run could not count them. */
  const medianOf = (shares: ReadonlyArray<number | null>): number | null => {
    if (shares.length === 0 || shares.some((share) => share === null)) return null
    return spread(shares as Array<number>).median
  }
  const compilersOf = (side: Side): number | null => medianOf(compiled[side])
  const figures = (side: Side): SideFigures => ({
    cpuMicrosPerCall: spread(cpu[side]),
    requestsPerCall: runsOf[side] === 0 ? 0 : requests[side] / runsOf[side],
    instructionsPerCall: medianInstructions(side),
    instructionsSpread: counted(side),
    compilerInstructionsPerCall: compilersOf(side),
    gcInstructionsPerCall: medianOf(collected[side])
  })
  const median = (side: Side) => spread(cpu[side]).median
  const ratioOf = (a: number | null, b: number | null) => (a === null || b === null ? null : a / b)
  return {
    calls: options.calls,
    warmup: options.warmup,
    runs: options.runs,
    sides: Object.fromEntries(sides.map((side) => [side, figures(side)])),
    cpuRatio: {
      ours: median("ours") / median("raw"),
      floor: median("floor") / median("raw"),
      oursVsFloor: median("ours") / median("floor"),
      official: options.official ? median("official") / median("raw") : null,
      oursVsOfficial: options.official ? median("ours") / median("official") : null
    },
    instructionRatio: {
      ours: ratioOf(medianInstructions("ours"), medianInstructions("raw")),
      floor: ratioOf(medianInstructions("floor"), medianInstructions("raw")),
      oursVsFloor: ratioOf(medianInstructions("ours"), medianInstructions("floor")),
      official: ratioOf(medianInstructions("official"), medianInstructions("raw")),
      oursVsOfficial: ratioOf(medianInstructions("ours"), medianInstructions("official"))
    },
    cpuRatioSpread: spread(ratios),
    callgrindCalls: options.callgrind,
    callgrindErrors,
    loadAverage: { start: loadStart, end: load() }
  }
}
