/**
 * Bundle sizes with esbuild: bundle, minify, ESM, platform browser, tree-shaking; bytes minified
 * and gzip -9 (zlib level 9). This SDK is the built package (`./package.ts`: what `npm run build`
 * writes to `dist/`), imported as `stack-auth-effect` through its `exports`, as an app imports it
 * (issue 28 items 1–2). React is bundled (an app ships it), one copy for every entry (`bench/`'s,
 * the version the official `@stackframe/react` was installed with). Each entry is built code-split
 * (the first-load chunks are the headline figure: lazy `import()` chunks such as the official SDK's
 * session replay and dev tool are loaded on demand by a real app) and as one file (lazy chunks
 * inlined; reported as such). The React entries are also built by Vite as production apps
 * (`./vite.ts`).
 */
import * as esbuild from "esbuild"
import { basename, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { builtPackage, resolveBuiltPackage } from "./package.js"

export const benchDir = dirname(dirname(fileURLToPath(import.meta.url)))
export const entriesDir = join(benchDir, "entries")
export const rootDir = dirname(benchDir)

/** Sizes of one bundle. */
export interface BundleSize {
  readonly entry: string
  /** Single file (`splitting: false`): lazy chunks inlined. The old headline figure, kept labelled. */
  readonly minifiedBytes: number
  readonly gzipBytes: number
  /**
   * Code-split build (`splitting: true`): the entry chunk and every chunk it imports statically,
   * i.e. what a page loads before any `import()` runs. Gzip bytes are summed chunk by chunk (each
   * file is served compressed on its own).
   */
  readonly firstLoadMinifiedBytes: number
  readonly firstLoadGzipBytes: number
  /** Chunks reached only through `import()` (loaded on demand), minified and gzip. */
  readonly lazyMinifiedBytes: number
  readonly lazyGzipBytes: number
  /** The code-split build's chunks: name, bytes, whether loaded first. */
  readonly chunks: ReadonlyArray<{ readonly chunk: string; readonly minifiedBytes: number; readonly gzipBytes: number; readonly firstLoad: boolean }>
  /** Minified bytes by package (or source folder), largest first: where the size comes from. */
  readonly largestInputs: ReadonlyArray<{ readonly input: string; readonly bytes: number }>
}

/** A bundle that could not be built (the reason, shortened). */
export interface BundleFailure {
  readonly entry: string
  readonly error: string
}

/**
 * One React for every entry: `react`, `react-dom` and their subpaths resolved from `bench/` (the
 * copy installed with the official SDK), whoever imports them (an app has one React).
 */
const oneReact: esbuild.Plugin = {
  name: "one-react",
  setup(build) {
    build.onResolve({ filter: /^(react|react-dom)(\/.*)?$/ }, async (args) => {
      if (args.pluginData === "one-react") return undefined
      const result = await build.resolve(args.path, { kind: args.kind, resolveDir: benchDir, pluginData: "one-react" })
      return result.errors.length > 0 ? { errors: result.errors } : { path: result.path, sideEffects: result.sideEffects }
    })
  }
}

const build = async (entry: string, splitting: boolean) =>
  esbuild.build({
    entryPoints: [join(entriesDir, entry)],
    bundle: true,
    minify: true,
    treeShaking: true,
    splitting,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    outdir: join(benchDir, "results", "bundles"),
    jsx: "automatic",
    define: { "process.env.NODE_ENV": "\"production\"" },
    logLevel: "silent",
    metafile: true,
    absWorkingDir: rootDir,
    plugins: [resolveBuiltPackage(await builtPackage()), oneReact]
  })

/**
 * Bundles one entry of `bench/entries/` twice (single file, code-split) and measures both.
 * `{ singleFile: false }` skips the single-file build (its figures are then 0 and no inputs).
 */
export const measureBundle = async (entry: string, options: { readonly singleFile?: boolean } = {}): Promise<BundleSize> => {
  const single = options.singleFile === false ? undefined : await build(entry, false)
  const code = single?.outputFiles.find((file) => file.path.endsWith(".js"))?.contents ?? new Uint8Array()
  const byInput = new Map<string, number>()
  for (const output of Object.values(single?.metafile.outputs ?? {})) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
      const key = pkg !== null ? pkg[1]! : path.split("/").slice(0, 2).join("/")
      byInput.set(key, (byInput.get(key) ?? 0) + input.bytesInOutput)
    }
  }
  const largestInputs = [...byInput]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([input, bytes]) => ({ input, bytes }))

  const split = await build(entry, true)
  const outputs = split.metafile.outputs
  const entryOutput = Object.keys(outputs).find((path) => path.endsWith(".js") && outputs[path]!.entryPoint !== undefined)
  const firstLoad = new Set<string>()
  const visit = (path: string) => {
    if (firstLoad.has(path) || outputs[path] === undefined) return
    firstLoad.add(path)
    for (const imported of outputs[path]!.imports) if (!imported.external && imported.kind === "import-statement") visit(imported.path)
  }
  if (entryOutput !== undefined) visit(entryOutput)
  const chunks = split.outputFiles
    .filter((file) => file.path.endsWith(".js"))
    .map((file) => {
      const key = Object.keys(outputs).find((path) => file.path.endsWith(path.replace(/^(\.\.\/)+/, "").replace(/^\.\//, ""))) ?? file.path
      return {
        chunk: basename(file.path),
        minifiedBytes: file.contents.byteLength,
        gzipBytes: gzipSync(file.contents, { level: 9 }).byteLength,
        firstLoad: firstLoad.has(key)
      }
    })
  const sum = (first: boolean, field: "minifiedBytes" | "gzipBytes") =>
    chunks.filter((chunk) => chunk.firstLoad === first).reduce((total, chunk) => total + chunk[field], 0)
  return {
    entry,
    minifiedBytes: code.byteLength,
    gzipBytes: single === undefined ? 0 : gzipSync(code, { level: 9 }).byteLength,
    firstLoadMinifiedBytes: sum(true, "minifiedBytes"),
    firstLoadGzipBytes: sum(true, "gzipBytes"),
    lazyMinifiedBytes: sum(false, "minifiedBytes"),
    lazyGzipBytes: sum(false, "gzipBytes"),
    chunks,
    largestInputs
  }
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

/**
 * The four comparisons of the issue, with their targets (ours ÷ official, issue 28) and
 * their floors: the smallest Effect program doing the same job (`bench/entries/floor-*`, see
 * `floor/client.ts`), which no Effect SDK can go below; `null` where none is measured.
 */
export const bundleCases: ReadonlyArray<{
  readonly id: "a" | "b" | "c" | "d"
  readonly label: string
  readonly ours: () => { readonly entry: string; readonly note: string | null }
  readonly official: string
  readonly floor: string | null
  readonly target: number | null
}> = [
  {
    id: "a",
    label: "(a) client + current user",
    ours: () => ({ entry: "ours-a.ts", note: null }),
    official: "official-a.ts",
    floor: "floor-a.ts",
    target: 0.55
  },
  {
    id: "b",
    label: "(b) (a) + password, teams, update",
    ours: () => ({ entry: "ours-b.ts", note: null }),
    official: "official-b.ts",
    floor: "floor-b.ts",
    target: 0.58
  },
  {
    id: "c",
    label: "(c) React provider + useUser, React included",
    ours: () => ({ entry: "ours-c.tsx", note: null }),
    official: "official-c.tsx",
    floor: "floor-c.tsx",
    target: 0.58
  },
  { id: "d", label: "(d) server: list users", ours: () => ({ entry: "ours-d.ts", note: null }), official: "official-d.ts", floor: null, target: null }
]
