/**
 * Cold start (issue 14): `import` of the package's main entry in a fresh Node process, this SDK vs
 * the official `@stackframe/js`, with `node` importing nothing as the floor, and the Effect floor:
 * an `import` of just the `effect` modules (HTTP client included) this SDK's main entry imports
 * (what any SDK built on them opens at least). This SDK is built as `npm run build` ships it (the
 * same function, `bundlePackage` of `scripts/build.ts`: each entry bundled, chunks shared, packages
 * external; without types) into the bench's build folder; the official SDK is imported from
 * `bench/node_modules` as published. Wall time of
 * the whole process (spawn to exit), `runs` runs per side in alternating order, min / median / max;
 * files opened (successful `open`/`openat`, distinct paths, `/proc`, `/sys`, `/dev` left out) from
 * three runs per side under `strace -ff` (one trace file per thread) where strace is installed.
 */
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { rootDir } from "./bundle.js"
import { builtMainEntry } from "./package.js"
import { makeWorkDir, officialModuleUrl } from "./overhead.js"
import type { Spread } from "./processes.js"
import { load, spread } from "./processes.js"

/** The sides of the cold start: empty node, the Effect modules alone, this SDK, the official SDK. */
export type ColdSide = "floor" | "effect" | "ours" | "official"

/** One side's figures. */
export interface ColdFigures {
  readonly wallMs: Spread
  /** Files opened by the process, the median of the traced runs (`null` without strace). */
  readonly filesOpened: number | null
  /** The traced runs' counts (min / median / max): equal when the count is stable. */
  readonly filesOpenedSpread?: Spread | null
}

/** The cold-start figures. */
export interface ColdStartResult {
  readonly runs: number
  readonly sides: Readonly<Partial<Record<ColdSide, ColdFigures>>>
  /** (ours − floor) ÷ (official − floor), medians; `null` without the official SDK. */
  readonly importTimeRatio: number | null
  /** (Effect modules alone − floor) ÷ (official − floor), medians: the lowest ratio an Effect SDK can reach. */
  readonly effectFloorRatio: number | null
  /** The `effect` modules the Effect floor imports. */
  readonly effectModules: ReadonlyArray<string>
  readonly loadAverage: { readonly start: number; readonly end: number }
}

/** The package built as `npm run build` does (its JavaScript, `./package.ts`, shared with the bundles); returns the URL of the main entry. */
export const buildOursForImport = async (): Promise<string> => pathToFileURL(await builtMainEntry()).href

/**
 * The `effect` modules (bare specifiers, `effect/http/*` included) reached from this SDK's main
 * entry, read from esbuild's metafile of a bundle that keeps every package external.
 */
export const effectModulesOfEntry = async (): Promise<ReadonlyArray<string>> => {
  const result = await esbuild.build({
    entryPoints: [join(rootDir, "src", "index.ts")],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    outdir: join(rootDir, "node_modules", ".cache", "stack-auth-effect-bench", "effect-modules"),
    logLevel: "silent"
  })
  const modules = new Set<string>()
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external && /^effect(\/|$)/.test(imported.path)) modules.add(imported.path)
    }
  }
  return [...modules].sort()
}

const launcher = (work: string, side: ColdSide, urls: ReadonlyArray<string>): string => {
  const file = join(work, `cold-${side}.mjs`)
  writeFileSync(file, urls.map((url) => `import ${JSON.stringify(url)}\n`).join(""))
  return file
}

const strace = (): boolean => spawnSync("strace", ["-V"], { encoding: "utf8" }).status === 0

/**
 * The distinct files a process opens (successful `open`/`openat`/`openat2`, `/proc`, `/sys`,
 * `/dev` left out), traced with `strace -ff`: one output file per thread, so no call is split
 * into "unfinished … resumed" lines that a pattern would miss (issue 28 item 6: `strace -f`
 * interleaved the threads and read 307–526 for one import).
 */
export const filesOpened = (work: string, file: string): number => {
  const dir = join(work, `strace-${Date.now()}`)
  mkdirSync(dir, { recursive: true })
  try {
    const run = spawnSync("strace", ["-ff", "-qq", "-e", "trace=open,openat,openat2", "-o", join(dir, "trace"), process.execPath, file], {
      cwd: rootDir,
      encoding: "utf8"
    })
    if (run.status !== 0) throw new Error(`strace ${file} failed: ${run.stderr.slice(-500)}`)
    const paths = new Set<string>()
    for (const traced of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, traced), "utf8").split("\n")) {
        if (line.includes("<unfinished") || line.includes("resumed>")) throw new Error(`strace -ff wrote a split call: ${line}`)
        const match = /^open(?:at2?)?\((?:[^,]+, )?"([^"]+)".*\)\s+=\s+(\d+)/.exec(line)
        if (match !== null && !/^\/(proc|sys|dev)\//.test(match[1]!)) paths.add(match[1]!)
      }
    }
    return paths.size
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs the cold-start comparison. */
export const runColdStart = async (runs = 7, options: { readonly official?: boolean } = {}): Promise<ColdStartResult> => {
  const loadStart = load()
  const work = makeWorkDir("cold")
  try {
    const official = (options.official ?? true) ? officialModuleUrl() : null
    // the work folder is under the project's node_modules, so the floor's bare specifiers resolve there
    const effectModules = await effectModulesOfEntry()
    const files: Array<readonly [ColdSide, string]> = [
      ["floor", launcher(work, "floor", [])],
      ["effect", launcher(work, "effect", effectModules)],
      ["ours", launcher(work, "ours", [await buildOursForImport()])],
      ...(official === null ? [] : [["official", launcher(work, "official", [official])] as const])
    ]
    const times = new Map<ColdSide, Array<number>>(files.map(([side]) => [side, []]))
    // warm-up: one unmeasured start each (file-system cache)
    for (const [side, file] of files) {
      const run = spawnSync(process.execPath, [file], { cwd: rootDir, encoding: "utf8" })
      if (run.status !== 0) throw new Error(`cold start ${side} failed: ${run.stderr.slice(-800)}`)
    }
    for (let run = 0; run < runs; run++) {
      for (const [side, file] of run % 2 === 0 ? files : [...files].reverse()) {
        const start = performance.now()
        spawnSync(process.execPath, [file], { cwd: rootDir })
        times.get(side)!.push(performance.now() - start)
      }
    }
    const traced = strace()
    const traceCounts = (file: string) => (traced ? spread([0, 1, 2].map(() => filesOpened(work, file))) : null)
    const sides = Object.fromEntries(
      files.map(([side, file]) => {
        const counts = traceCounts(file)
        return [side, { wallMs: spread(times.get(side)!), filesOpened: counts?.median ?? null, filesOpenedSpread: counts }]
      })
    ) as Partial<Record<ColdSide, ColdFigures>>
    const floor = sides.floor!.wallMs.median
    const overFloor = (side: ColdFigures | undefined) =>
      side === undefined || sides.official === undefined ? null : (side.wallMs.median - floor) / (sides.official.wallMs.median - floor)
    return {
      runs,
      sides,
      importTimeRatio: overFloor(sides.ours),
      effectFloorRatio: overFloor(sides.effect),
      effectModules,
      loadAverage: { start: loadStart, end: load() }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
