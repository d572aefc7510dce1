/**
 * The package build: the JavaScript of each public entry (package.json `exports` and `bin`)
 * bundled by esbuild at the path the entry points to, code-split so that entries share chunks
 * (one module, one instance: a `Context.Service` used by `.` and `./react` is the same object), every
 * dependency, peer dependency and `node:` module left external; the pure annotations of
 * `scripts/pure.ts` added to the output; the declarations from `tsc` (`emitDeclarationOnly`) at
 * the paths `tsc` gives them, so the types do not change. The command refuses to build when the
 * client version module is not package.json's version (`scripts/version.ts`).
 *
 * React's `"use client"` directive, which esbuild drops when it bundles, is put back at the top of
 * every output file that holds a module declaring it (the `./react` entry), and only there: the
 * other entries stay server modules (see {@link clientOutputs}).
 *
 * `bundlePackage(outdir)` writes the JavaScript (the bench's cold start imports what it writes);
 * the command `tsx scripts/build.ts` (what `npm run build` runs) empties `dist/`, bundles into it
 * and emits the declarations.
 *
 * @module
 */
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { annotatePure } from "./pure.js"
import { packageJsonVersion, versionModuleIsCurrent, versionModulePath } from "./version.js"

/** The project's root folder (where package.json is). */
export const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)))

interface PackageJson {
  readonly exports: Readonly<Record<string, null | { readonly types?: string; readonly default?: string }>>
  readonly bin?: Readonly<Record<string, string>>
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
}

const packageJson = (): PackageJson => JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as PackageJson

/** One entry of the package: its source file and the output path (below `dist/`) it is shipped at. */
export interface PackageEntry {
  /** Source file, relative to the project root (`src/index.ts`). */
  readonly source: string
  /** Output file, relative to `dist/` (`src/index.js`). */
  readonly output: string
}

/**
 * The entries the package ships: every `exports` target and every `bin`, each mapped back to its
 * source (`./dist/src/index.js` → `src/index.ts` or `.tsx`).
 */
export const packageEntries = (): ReadonlyArray<PackageEntry> => {
  const pkg = packageJson()
  const targets = [
    ...Object.values(pkg.exports).flatMap((target) => (target?.default === undefined ? [] : [target.default])),
    ...Object.values(pkg.bin ?? {})
  ]
  return [...new Set(targets)].map((target) => {
    const output = relative("dist", target.replace(/^\.\//, ""))
    const base = output.replace(/\.js$/, "")
    const source = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(join(projectRoot, candidate)))
    if (source === undefined) throw new Error(`build: no source for the entry ${target}`)
    return { source, output }
  })
}

/** What stays an `import` of its own: every dependency and peer dependency (and their subpaths), `node:` modules. */
export const externalModules = (): ReadonlyArray<string> => {
  const pkg = packageJson()
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]
  return [...names.flatMap((name) => [name, `${name}/*`]), "node:*"]
}

/** The target of the sources (`compilerOptions.target` of tsconfig.base.json), lower case for esbuild. */
const target = (): string => {
  const config = JSON.parse(readFileSync(join(projectRoot, "tsconfig.base.json"), "utf8")) as { compilerOptions: { target: string } }
  return config.compilerOptions.target.toLowerCase()
}

/** The esbuild options of the package build, writing below `outdir`. */
export const bundleOptions = (outdir: string): esbuild.BuildOptions & { metafile: true } => ({
  absWorkingDir: projectRoot,
  entryPoints: packageEntries().map((entry) => ({ in: entry.source, out: entry.output.replace(/\.js$/, "") })),
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: target(),
  external: [...externalModules()],
  tsconfig: join(projectRoot, "tsconfig.build.json"),
  jsx: "automatic",
  chunkNames: "chunks/[name]-[hash]",
  // the package keeps its sources' names and layout readable: no minifying, no source maps
  minify: false,
  treeShaking: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning"
})

/** esbuild's namespace object of an `export * as X`: `var X_exports = {};` then `__export(X_exports, { … });`. */
const namespaceObject = /^var (\w+) = \{\};\n__export\(\1, (\{\n[^]*?\n\})\);$/gm

/**
 * Turns each namespace object esbuild writes (`var Users_exports = {}; __export(Users_exports, {…})`)
 * into one annotated expression, `var Users_exports = /*#__PURE__*\/((target) => (__export(target, {…}), target))({})`:
 * the same object, built at the same place, but an app's bundler sees a pure value and drops a
 * namespace nobody uses. As esbuild writes it, the `__export` call is a statement of its own,
 * which bundlers keep, and with it every function of every namespace of the entry (the main
 * entry's first-load bundle grew from 114 KB to 163 KB gz). Throws if a call is left in another shape.
 */
export const pureNamespaces = (code: string, file: string): string => {
  const rewritten = code.replace(
    namespaceObject,
    (_, name: string, members: string) => `var ${name} = /*#__PURE__*/((target) => (__export(target, ${members}), target))({});`
  )
  if (/^__export\(/m.test(rewritten)) throw new Error(`build: ${file} has an __export statement in a shape the build does not know`)
  return rewritten
}

/**
 * Whether a source text declares `"use client"` (React's directive: a module of the client graph):
 * one of the directives that open the file, after a `#!` line, comments and other directives.
 */
export const declaresUseClient = (code: string): boolean => {
  let rest = code.replace(/^#![^\n]*/, "")
  for (;;) {
    rest = rest.trimStart()
    if (rest.startsWith("//")) {
      const end = rest.indexOf("\n")
      rest = end === -1 ? "" : rest.slice(end + 1)
    } else if (rest.startsWith("/*")) {
      const end = rest.indexOf("*/", 2)
      if (end === -1) return false
      rest = rest.slice(end + 2)
    } else {
      const directive = /^(["'])(use [a-z]+)\1[ \t]*(?:;|\n|$)/.exec(rest)
      if (directive === null) return false
      if (directive[2] === "use client") return true
      rest = rest.slice(directive[0].length)
    }
  }
}

/**
 * The output files of a build that must start with `"use client"`: those holding code of a source
 * module that declares it (`isClient(input)`). esbuild drops the directive when it bundles; a
 * React server component (Next.js's App Router) importing the `./react` entry without it runs its
 * hooks and `createContext` on the server and fails. Throws if a file without the directive
 * imports one with it: that file (an entry other than `./react`, or a chunk it shares) would hand
 * a server component client references instead of its values, so the client code must stay in
 * files only client files import.
 */
export const clientOutputs = (metafile: esbuild.Metafile, isClient: (input: string) => boolean): ReadonlySet<string> => {
  const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"))
  const client = new Set(outputs.filter(([, output]) => Object.keys(output.inputs).some(isClient)).map(([file]) => file))
  const crossings = outputs.flatMap(([file, output]) =>
    client.has(file)
      ? []
      : output.imports.filter((imported) => imported.external !== true && client.has(imported.path)).map((imported) => `${file} imports ${imported.path}`)
  )
  if (crossings.length > 0) throw new Error(`build: a server file imports a "use client" file: ${crossings.join("; ")}`)
  return client
}

/** `code` with `"use client"` as its first statement (after a `#!` line). */
const withUseClient = (code: string): string => {
  const hashbang = /^#![^\n]*\n/.exec(code)?.[0] ?? ""
  return `${hashbang}"use client";\n${code.slice(hashbang.length)}`
}

/**
 * Bundles the package's entries into `outdir`, makes the namespace objects pure, adds the pure
 * annotations to every file written and `"use client"` to the files of {@link clientOutputs};
 * returns esbuild's metafile (outputs, imports).
 */
export const bundlePackage = async (outdir: string): Promise<esbuild.Metafile> => {
  const result = await esbuild.build(bundleOptions(outdir))
  const client = clientOutputs(result.metafile, (input) => /\.(ts|tsx)$/.test(input) && declaresUseClient(readFileSync(join(projectRoot, input), "utf8")))
  for (const file of Object.keys(result.metafile.outputs)) {
    const path = join(projectRoot, file)
    if (!path.endsWith(".js")) continue
    const code = annotatePure(pureNamespaces(readFileSync(path, "utf8"), path), path)
    writeFileSync(path, client.has(file) ? withUseClient(code) : code)
  }
  return result.metafile
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!versionModuleIsCurrent()) {
    console.error(`build: ${versionModulePath} is not package.json's version ${packageJsonVersion()}: run npm run version:sync`)
    process.exit(1)
  }
  const dist = join(projectRoot, "dist")
  rmSync(dist, { recursive: true, force: true })
  const metafile = await bundlePackage(dist)
  const tsc = spawnSync(
    process.execPath,
    [join(projectRoot, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json", "--emitDeclarationOnly"],
    {
      cwd: projectRoot,
      stdio: "inherit"
    }
  )
  if (tsc.status !== 0) process.exit(tsc.status ?? 1)
  const missing = Object.values(packageJson().exports)
    .flatMap((target) => [target?.types, target?.default])
    .filter((file): file is string => file !== undefined && !existsSync(join(projectRoot, file)))
  if (missing.length > 0) {
    console.error(`build: package.json exports files that were not written: ${missing.join(", ")}`)
    process.exit(1)
  }
  const outputs = Object.keys(metafile.outputs).filter((file) => file.endsWith(".js"))
  console.log(`build: ${packageEntries().length} entries, ${outputs.length} JavaScript files (entries and shared chunks), declarations by tsc`)
}
