/**
 * The toolchain the repository installs for itself: development and the suite run on Node 22 (the
 * npm registry's `node` package, a devDependency whose binary `npm run`, `npm test` and `npm exec`
 * put first on PATH; vitest 5, @effect/vitest 4 and msw 3 need Node 22.12 or newer), while the
 * published package keeps `engines.node >=20`, which CI checks with `scripts/smoke-node20.mjs` on
 * the system Node (the README's Quick start, from the packed tarball, against the packed emulator). The smoke itself needs the registry and a build, so CI runs it
 * after `npm run build`; here, the pieces it relies on.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import semver from "semver"
import { describe, expect, it } from "vitest"
import { quickStartBlock, toJavaScript } from "../../scripts/smoke-node20.mjs"

const root = fileURLToPath(new URL("../../", import.meta.url))

interface PackageJson {
  readonly engines?: Readonly<Record<string, string>>
  readonly scripts: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  readonly allowScripts?: Readonly<Record<string, boolean>>
}

const readJson = <A>(path: string): A => JSON.parse(readFileSync(join(root, path), "utf8")) as A
const pkg = readJson<PackageJson>("package.json")
const lock = readJson<{ readonly packages: Readonly<Record<string, { readonly version?: string; readonly dev?: boolean }>> }>("package-lock.json")
const major = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1])

describe("development on the Node the repository installs", () => {
  it("package.json pins the node devDependency to Node 22, the lock file to one 22.x release, and approves its install script", () => {
    expect(pkg.devDependencies?.["node"]).toMatch(/^[\^~]?22\.\d+\.\d+$/)
    const locked = lock.packages["node_modules/node"]
    expect(locked?.dev).toBe(true)
    expect(major(locked?.version ?? "")).toBe(22)
    // the package's preinstall fetches the platform's binary package: allowed, not merely tolerated
    expect(pkg.allowScripts?.["node"]).toBe(true)
  })

  it("the suite runs on Node 22 or newer: the installed node package's binary, first on npm's PATH", () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(22)
    const installed = join(root, "node_modules/node/package.json")
    expect(existsSync(installed), "node_modules/node is missing: run npm ci (or npm install)").toBe(true)
    const version = readJson<{ readonly version: string }>("node_modules/node/package.json").version
    expect(process.versions.node, "the suite did not start from npm run / npm exec").toBe(version)
    expect(realpathSync(process.execPath)).toBe(realpathSync(join(root, "node_modules/.bin/node")))
  })

  it("the suite runs on vitest 5 with @effect/vitest 4 (its peer range), both of whose Node ranges the installed Node 22 meets", () => {
    expect(pkg.devDependencies?.["vitest"]).toMatch(/^[\^~]?5\.\d+\.\d+$/)
    expect(pkg.devDependencies?.["@effect/vitest"]).toMatch(/^[\^~]?4\.\d+\.\d+$/)
    const vitest = lock.packages["node_modules/vitest"]?.version ?? ""
    const effectVitest = lock.packages["node_modules/@effect/vitest"]?.version ?? ""
    expect(major(vitest)).toBe(5)
    expect(major(effectVitest)).toBe(4)
    const installed = (name: string) =>
      readJson<{ readonly version: string; readonly engines?: Readonly<Record<string, string>>; readonly peerDependencies?: Readonly<Record<string, string>> }>(
        `node_modules/${name}/package.json`
      )
    expect(installed("vitest").version).toBe(vitest)
    expect(installed("@effect/vitest").version).toBe(effectVitest)
    expect(semver.satisfies(vitest, installed("@effect/vitest").peerDependencies?.["vitest"] ?? "")).toBe(true)
    const node = lock.packages["node_modules/node"]?.version ?? ""
    for (const name of ["vitest", "msw"]) {
      const range = installed(name).engines?.["node"]
      expect(range, `${name} declares the Node it needs`).toBeDefined()
      expect(semver.satisfies(node, range ?? ""), `${name} needs Node ${range}; the node devDependency is ${node}`).toBe(true)
    }
  })

  it("the published package still supports Node 20", () => {
    expect(pkg.engines?.["node"]).toBe(">=20")
  })
})

describe("the Node 20 smoke test of the built package", () => {
  it("CI runs it after the build and the full suite, on the system Node; npm run smoke builds first", () => {
    const ci = readFileSync(join(root, ".ci/run"), "utf8")
    const lines = ci.split("\n").map((line) => line.trim())
    const test = lines.indexOf("npm test")
    const build = lines.indexOf("npm run build")
    const smoke = lines.findIndex((line) => line.includes("scripts/smoke-node20.mjs"))
    expect([test, build, smoke].every((index) => index >= 0)).toBe(true)
    expect(test).toBeLessThan(build)
    expect(build).toBeLessThan(smoke)
    expect(lines).toContain("system_node=/usr/bin/node")
    expect(lines[smoke]).toBe("SMOKE_NODE=\"$system_node\" \"$system_node\" scripts/smoke-node20.mjs")
    expect(pkg.scripts["smoke"]).toBe("npm run build && node scripts/smoke-node20.mjs")
  })

  it("the program it runs is the README's Quick start, as an ES module the system Node parses", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const block = quickStartBlock(readme)
    expect(block.source).toContain("from \"stack-auth-effect\"")
    expect(block.source).toContain("email: \"demo@example.com\", password: \"demo-password-1234\"")
    const program = await toJavaScript(block)
    for (const piece of ["Password.signInWithPassword", "Users.getCurrent()", "signed in as ${u.primaryEmail}", "process.env.STACK_API_URL"]) {
      expect(program).toContain(piece)
    }
    // type annotations and non-null assertions are gone: the system Node (20) parses it as is
    const folder = mkdtempSync(join(tmpdir(), "stack-auth-effect-quickstart-"))
    try {
      const file = join(folder, "quickstart.mjs")
      writeFileSync(file, program)
      const systemNode = existsSync("/usr/bin/node") ? "/usr/bin/node" : process.execPath
      const check = spawnSync(systemNode, ["--check", file], { encoding: "utf8" })
      expect(check.stderr).toBe("")
      expect(check.status).toBe(0)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it("a README without a Quick start program is reported, not run", () => {
    expect(() => quickStartBlock("# Title\n\n## Install\n\n```sh\nnpm i\n```\n")).toThrow("README.md has no section `## Quick start`")
    expect(() =>
      quickStartBlock("# Title\n\n## Quick start\n\n```sh\nnpx stack-auth-emulator\n```\n\n## Next\n\n```ts\nimport {} from \"stack-auth-effect\"\n```\n")
    ).toThrow(
      "README.md's Quick start has no code block importing stack-auth-effect"
    )
  })
})
