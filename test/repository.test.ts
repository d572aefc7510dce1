/**
 * The repository stands alone: a clone (or the published package) needs nothing outside it.
 * Tests read their fixtures from `test/fixtures/` and `docs/`, never from a sibling folder of the
 * checkout; the shipped `dist` (when built) names no such folder either.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../", import.meta.url))
const self = fileURLToPath(import.meta.url)

const textFile = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|html|css)$/

/** Every text file under `dir` (relative to the root), skipping installed packages. */
const walk = (dir: string): ReadonlyArray<string> => {
  const absolute = join(root, dir)
  if (!existsSync(absolute)) return []
  if (statSync(absolute).isFile()) return [absolute]
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) =>
    entry.name === "node_modules" || entry.name.startsWith(".")
      ? []
      : entry.isDirectory()
      ? walk(join(dir, entry.name))
      : textFile.test(entry.name)
      ? [join(absolute, entry.name)]
      : []
  )
}

const checkedFolders = ["src", "test", "react", "examples", "bench", "scripts", "README.md", "package.json", "vitest.config.ts"]

/** The sibling folder of our own notes, spelled so that this file does not name it. */
const outsideNames = [["..", "shared"].join("/"), ["", "work", "shared"].join("/")]

const offenders = (files: ReadonlyArray<string>) =>
  files.flatMap((file) => {
    if (file === self) return []
    const text = readFileSync(file, "utf8")
    return outsideNames.filter((name) => text.includes(name)).map((name) => `${relative(root, file)} names ${name}`)
  })

describe("the repository stands alone", () => {
  it("no file in src, test, react, examples, bench, scripts or the README names the folder outside the repository", () => {
    const files = checkedFolders.flatMap(walk)
    expect(files.length).toBeGreaterThan(100)
    expect(offenders(files)).toEqual([])
  })

  it("no file path built with new URL(…, import.meta.url) leaves the repository", () => {
    const escapes = checkedFolders.flatMap(walk).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/new URL\(\s*["'`]((?:\.\.?\/)[^"'`$]*)["'`]\s*,\s*import\.meta\.url\s*\)/g)].flatMap((match) => {
        const target = resolve(dirname(file), match[1]!)
        return !relative(root, target).startsWith("..")
          ? []
          : [`${relative(root, file)}: ${match[1]} → ${target}`]
      })
    )
    expect(escapes).toEqual([])
  })

  it("the fixtures the tests read are part of the repository", () => {
    for (const file of ["docs/PROTOCOL.md", "docs/DESIGN.md", "test/fixtures/wire-samples/README.md"]) {
      expect(existsSync(join(root, file)), file).toBe(true)
    }
    expect(readFileSync(join(root, "docs/PROTOCOL.md"), "utf8")).toContain("## 4. Known errors")
    const samples = walk("test/fixtures/wire-samples").filter((file) => file.endsWith(".json"))
    expect(samples.length).toBeGreaterThan(200)
  })

  it("the built dist (when present) names no folder outside the package", () => {
    const dist = walk("dist").filter((file) => /\.(d\.ts|js)$/.test(file))
    expect(offenders(dist)).toEqual([])
  })
})
