/**
 * The client version the SDK sends (`X-Stack-Client-Version: js stack-auth-effect@…`) comes from
 * package.json: `src/core/internal/version.ts` is written from package.json's `version` by this
 * script (`npm run version:sync`, which `npm run version-packages` runs after `changeset version`
 * bumps package.json). The package build refuses to build when the two differ, and
 * `test/package/version.test.ts` compares them, so a release cannot ship a stale version.
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))

/** The generated module, relative to the project root. */
export const versionModulePath = "src/core/internal/version.ts"

/** package.json's `version`. */
export const packageJsonVersion = (): string => {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown }
  if (typeof version !== "string" || version.length === 0) throw new Error("package.json has no version")
  return version
}

/** The text of the generated module for `version`. */
export const versionModule = (version: string): string =>
  `/**
 * This package's version, from package.json (written by \`npm run version:sync\`, scripts/version.ts;
 * do not edit: the build and a test check it against package.json).
 *
 * @module
 */

/** package.json's \`version\`. */
export const packageVersion = ${JSON.stringify(version)}
`

/**
 * Whether a text of the generated module (default: the file on disk) is the one a version
 * (default: package.json's) gives.
 */
export const versionModuleIsCurrent = (
  text: string = readFileSync(join(root, versionModulePath), "utf8"),
  version: string = packageJsonVersion()
): boolean => text === versionModule(version)

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = packageJsonVersion()
  writeFileSync(join(root, versionModulePath), versionModule(version))
  console.log(`${versionModulePath}: ${version}`)
}
