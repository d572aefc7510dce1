/**
 * The package as users install it (issue 28 items 1–2): `bundlePackage` of `scripts/build.ts`
 * (what `npm run build` writes to `dist/`: each `exports` entry bundled, chunks shared, the pure
 * annotations added; without the declarations) written into a folder laid out as an installed
 * package, `…/node_modules/stack-auth-effect/{package.json, dist/…}`. The bench's entries import
 * `stack-auth-effect` and `stack-auth-effect/react`, and the bundlers resolve them through that
 * `package.json`'s `exports` (a path it does not export fails the build, as in an app), by
 * resolving the specifier from a file next to that `node_modules` folder. Built once per process.
 */
import type * as esbuild from "esbuild"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { bundlePackage } from "../../scripts/build.js"

const rootDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))))

/** The package's name, as apps import it. */
export const packageName = "stack-auth-effect"

/** Whether a specifier names this package or one of its subpaths. */
export const isPackageSpecifier = (specifier: string): boolean => specifier === packageName || specifier.startsWith(`${packageName}/`)

/** Where the installed-like package is built (one folder per process; bench and tests may run at once). */
const installRoot = join(rootDir, "node_modules", ".cache", "stack-auth-effect-bench", `installed-${process.pid}`)

let built: Promise<string> | undefined

/**
 * Builds the package once per process; returns the folder that holds `node_modules/stack-auth-effect`
 * (resolve the package's specifiers from there).
 */
export const builtPackage = (): Promise<string> => (built ??= (async () => {
  // the folder is this process's own: removed when it exits
  process.once("exit", () => rmSync(installRoot, { recursive: true, force: true }))
  const packageDir = join(installRoot, "node_modules", packageName)
  mkdirSync(packageDir, { recursive: true })
  // the app's own package.json: the nearest one above the resolving folder, so the repository's
  // (named stack-auth-effect too) is not taken for a self-reference to its unbuilt `dist/`
  writeFileSync(join(installRoot, "package.json"), `${JSON.stringify({ name: "stack-auth-effect-bench-app", private: true, type: "module" })}\n`)
  const manifest = JSON.parse(readFileSync(join(rootDir, "package.json"), "utf8")) as Record<string, unknown>
  // what resolution and tree-shaking read: name, type, exports, sideEffects (the rest is the publisher's)
  const installed = {
    name: manifest["name"],
    version: manifest["version"],
    type: manifest["type"],
    sideEffects: manifest["sideEffects"],
    exports: manifest["exports"]
  }
  writeFileSync(join(packageDir, "package.json"), `${JSON.stringify(installed, null, 2)}\n`)
  await bundlePackage(join(packageDir, "dist"))
  return installRoot
})())

/** The built package's main entry as a file URL path (what `import "stack-auth-effect"` loads in Node). */
export const builtMainEntry = async (): Promise<string> => join(await builtPackage(), "node_modules", packageName, "dist", "src", "index.js")

/**
 * An esbuild plugin resolving `stack-auth-effect` and its subpaths to the built package, through
 * its `exports`, as an app's `node_modules` would.
 */
export const resolveBuiltPackage = (installed: string): esbuild.Plugin => ({
  name: "stack-auth-effect-built",
  setup(build) {
    build.onResolve({ filter: /^stack-auth-effect(\/.*)?$/ }, async (args) => {
      if (args.pluginData === "built") return undefined
      const result = await build.resolve(args.path, { kind: args.kind, resolveDir: installed, pluginData: "built" })
      return result.errors.length > 0 ? { errors: result.errors } : { path: result.path, sideEffects: result.sideEffects }
    })
  }
})
