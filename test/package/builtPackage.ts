/**
 * The package's JavaScript built for a test file (`bundlePackage` of scripts/build.ts, the
 * declarations are tsc's and not needed): once per file, into a temporary folder outside the
 * repository holding `dist/`, the project's package.json and a link to its node_modules (the
 * dependencies an app would have installed next to the package), so that a fresh Node process in
 * that folder imports the package by its name; removed after the file's tests.
 */
import type * as esbuild from "esbuild"
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { bundlePackage, projectRoot } from "../../scripts/build.js"

/** The package built by {@link builtPackage}, readable once the file's `beforeAll` ran. */
export interface BuiltPackage {
  /** The temporary folder: `dist/`, `package.json`, `node_modules`. */
  readonly dir: string
  /** esbuild's metafile of the build (outputs relative to the project root, their inputs and imports). */
  readonly metafile: esbuild.Metafile
}

/** Builds the package before the calling test file's tests (`prefix` names the temporary folder) and removes it after them. */
export const builtPackage = (prefix: string): BuiltPackage => {
  let dir = ""
  let metafile: esbuild.Metafile | undefined
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix))
    metafile = await bundlePackage(join(dir, "dist"))
    copyFileSync(join(projectRoot, "package.json"), join(dir, "package.json"))
    symlinkSync(join(projectRoot, "node_modules"), join(dir, "node_modules"), "dir")
  }, 60_000)
  afterAll(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true })
  })
  return {
    get dir() {
      if (dir === "") throw new Error("builtPackage: read before the build (use it inside a test)")
      return dir
    },
    get metafile() {
      if (metafile === undefined) throw new Error("builtPackage: read before the build (use it inside a test)")
      return metafile
    }
  }
}
