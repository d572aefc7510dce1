/**
 * Bundle sizes with esbuild: bundle, minify, ESM, platform browser, tree-shaking; bytes minified
 * and gzip -9 (zlib level 9). React is external for the React entries.
 */
import * as esbuild from "esbuild"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

export const benchDir = dirname(dirname(fileURLToPath(import.meta.url)))
export const entriesDir = join(benchDir, "entries")
export const rootDir = dirname(benchDir)

/** Sizes of one bundle. */
export interface BundleSize {
  readonly entry: string
  readonly minifiedBytes: number
  readonly gzipBytes: number
  /** Minified bytes by package (or source folder), largest first: where the size comes from. */
  readonly largestInputs: ReadonlyArray<{ readonly input: string; readonly bytes: number }>
}

/** A bundle that could not be built (the reason, shortened). */
export interface BundleFailure {
  readonly entry: string
  readonly error: string
}

const external = ["react", "react-dom", "react/*", "react-dom/*"]

/** Bundles one entry of `bench/entries/` and measures it. */
export const measureBundle = async (entry: string): Promise<BundleSize> => {
  const result = await esbuild.build({
    entryPoints: [join(entriesDir, entry)],
    bundle: true,
    minify: true,
    treeShaking: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    outdir: join(benchDir, "results", "bundles"),
    external,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
    metafile: true,
    absWorkingDir: rootDir
  })
  const code = result.outputFiles.find((file) => file.path.endsWith(".js"))?.contents ?? new Uint8Array()
  const byInput = new Map<string, number>()
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
      const key = pkg !== null ? pkg[1]! : path.split("/").slice(0, 2).join("/")
      byInput.set(key, (byInput.get(key) ?? 0) + input.bytesInOutput)
    }
  }
  const largestInputs = [...byInput]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([input, bytes]) => ({ input, bytes }))
  return { entry, minifiedBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength, largestInputs }
}

/** Like {@link measureBundle}, but a build failure is returned instead of thrown. */
export const tryMeasureBundle = async (entry: string): Promise<BundleSize | BundleFailure> => {
  try {
    return await measureBundle(entry)
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error)
    return { entry, error: text.split("\n").slice(0, 4).join(" ").slice(0, 400) }
  }
}

/** The four comparisons of the issue, with their targets (ours ÷ official). */
export const bundleCases: ReadonlyArray<{
  readonly id: "a" | "b" | "c" | "d"
  readonly label: string
  readonly ours: () => { readonly entry: string; readonly note: string | null }
  readonly official: string
  readonly target: number | null
}> = [
  { id: "a", label: "(a) client + current user", ours: () => ({ entry: "ours-a.ts", note: null }), official: "official-a.ts", target: 0.4 },
  {
    id: "b",
    label: "(b) (a) + password, teams, update",
    ours: () => ({ entry: "ours-b.ts", note: null }),
    official: "official-b.ts",
    target: 0.5
  },
  {
    id: "c",
    label: "(c) React provider + useUser",
    ours: () => ({ entry: "ours-c.tsx", note: null }),
    official: "official-c.tsx",
    target: 0.35
  },
  { id: "d", label: "(d) server: list users", ours: () => ({ entry: "ours-d.ts", note: null }), official: "official-d.ts", target: null }
]
