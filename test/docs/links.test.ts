/**
 * The links users follow resolve in the published package: every relative link of the README (what
 * npm shows) and of the shipped user docs (the guides, the API reference, the benchmarks) names a
 * file that `npm pack` puts in the tarball (`npm pack --dry-run --json`: package.json `files`,
 * plus the README, the licence and package.json that npm always adds). CONTRIBUTING.md is for a
 * clone of the repository: its links point at the sources, and are not checked here.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { root } from "./examples.js"

/** The relative link targets of a markdown text (code blocks and inline code skipped), without `#anchor`. */
const relativeLinks = (text: string): Array<string> =>
  [...text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
    .map((target) => target.replace(/#.*$/, ""))

/** The links of `file` (relative to the package root) whose target is not in `packed`, as `file → target`. */
const unresolved = (file: string, text: string, packed: ReadonlySet<string>): Array<string> =>
  relativeLinks(text).flatMap((target) => {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target))).replace(/\/$/, "")
    const found = packed.has(resolved) || [...packed].some((packedFile) => packedFile.startsWith(`${resolved}/`))
    return found ? [] : [`${file} → ${target}`]
  })

/** The files `npm pack` would publish (scripts skipped: the build's `dist/` is not linked from any doc). */
const packedFiles = (): Promise<Set<string>> =>
  new Promise((resolve, reject) => {
    execFile("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) return reject(new Error(`${error.message}\n${stderr}`))
      const [pack] = JSON.parse(stdout) as ReadonlyArray<{ readonly files: ReadonlyArray<{ readonly path: string }> }>
      resolve(new Set(pack!.files.map((file) => file.path)))
    })
  })

let packed = new Set<string>()
beforeAll(async () => {
  packed = await packedFiles()
}, 120_000)

describe("links in the published package", () => {
  it("the link finder skips code, absolute URLs and anchors, and reports a target missing from the package", () => {
    const text = [
      "[guide](docs/guides/nextjs.md#middleware) [site](https://effect.website) [top](#install)",
      "`[not a link](nowhere.md)`",
      "```md\n[in code](nowhere.md)\n```",
      "[gone](test/fixtures/x.md) [folder](docs/api/)"
    ].join("\n")
    expect(relativeLinks(text)).toEqual(["docs/guides/nextjs.md", "test/fixtures/x.md", "docs/api/"])
    const files = new Set(["README.md", "docs/guides/nextjs.md", "docs/api/README.md"])
    expect(unresolved("README.md", text, files)).toEqual(["README.md → test/fixtures/x.md"])
    expect(unresolved("docs/guides/testing.md", "[up](../api/Stack.md) [next](nextjs.md)", files)).toEqual(["docs/guides/testing.md → ../api/Stack.md"])
  })

  it("the package ships the README, the API reference, the guides and the benchmarks", () => {
    for (const file of ["README.md", "docs/api/README.md", "docs/api/Stack.md", "docs/api/server.md", "docs/BENCHMARKS.md"]) expect(packed).toContain(file)
  })

  it("the README links to the API reference", () => {
    expect(relativeLinks(fs.readFileSync(path.join(root, "README.md"), "utf8"))).toContain("docs/api/README.md")
  })

  it("every relative link of the README and of the shipped docs resolves inside the package", () => {
    const documents = [...packed].filter((file) => file.endsWith(".md") && file !== "CONTRIBUTING.md").sort()
    expect(documents.length).toBeGreaterThan(80)
    const broken = documents.flatMap((file) => unresolved(file, fs.readFileSync(path.join(root, file), "utf8"), packed))
    expect(broken).toEqual([])
  })
})
