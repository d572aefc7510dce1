/**
 * Releases: the client version the SDK sends is package.json's (`src/core/internal/version.ts`,
 * written by `npm run version:sync`, which the release command runs after changesets bumps
 * package.json), and every change is recorded with changesets in CHANGELOG.md, which has the
 * entry of the version package.json states.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { StackConfig } from "stack-auth-effect"
import { projectRoot } from "../../scripts/build.js"
import { packageJsonVersion, versionModule, versionModuleIsCurrent, versionModulePath } from "../../scripts/version.js"

interface PackageJson {
  readonly name: string
  readonly version: string
  readonly scripts: Readonly<Record<string, string>>
}

const pkg = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as PackageJson

describe("the client version is package.json's", () => {
  it("src/core/internal/version.ts is the module package.json's version gives (npm run version:sync writes it)", () => {
    expect(packageJsonVersion()).toBe(pkg.version)
    expect(readFileSync(join(projectRoot, versionModulePath), "utf8")).toBe(versionModule(pkg.version))
    expect(versionModuleIsCurrent()).toBe(true)
    // what the build checks before it bundles: a bumped package.json with the module left behind
    expect(versionModuleIsCurrent(versionModule(pkg.version), "99.0.0")).toBe(false)
    expect(versionModuleIsCurrent(versionModule("99.0.0"), pkg.version)).toBe(false)
  })

  it("the SDK sends it: StackConfig.packageVersion and the default X-Stack-Client-Version", () => {
    expect(StackConfig.packageVersion).toBe(pkg.version)
    expect(StackConfig.defaultClientVersion).toBe(`js stack-auth-effect@${pkg.version}`)
  })

  it("the release commands rewrite the module after bumping package.json (changesets, npm version)", () => {
    expect(pkg.scripts["version:sync"]).toBe("tsx scripts/version.ts")
    expect(pkg.scripts["version-packages"]).toMatch(/^changeset version && npm run version:sync$/)
    expect(pkg.scripts["version"]).toMatch(/^npm run version:sync && git add src\/core\/internal\/version\.ts$/)
  })

  it("no source file states the version by hand", () => {
    const sources = (dir: string): Array<string> =>
      readdirSync(join(projectRoot, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : []
      )
    const stating = [...sources("src"), ...sources("react")].filter(
      (file) => file !== versionModulePath && readFileSync(join(projectRoot, file), "utf8").includes(JSON.stringify(pkg.version))
    )
    expect(stating).toEqual([])
  })
})

describe("changes are recorded with changesets in CHANGELOG.md", () => {
  const changesetDir = join(projectRoot, ".changeset")

  it("changesets' config names the changelog writer, the main branch and public access", () => {
    const config = JSON.parse(readFileSync(join(changesetDir, "config.json"), "utf8")) as Record<string, unknown>
    expect(config).toMatchObject({ changelog: "@changesets/cli/changelog", baseBranch: "main", access: "public", commit: false })
    expect(pkg.scripts["changeset"]).toBe("changeset")
  })

  it("every pending changeset bumps this package by patch, minor or major and says what changed", () => {
    const changesets = readdirSync(changesetDir).filter((file) => file.endsWith(".md") && file !== "README.md")
    expect(changesets.length).toBeGreaterThan(0)
    for (const file of changesets) {
      const match = /^---\n([^]*?)\n---\n\n?([^]+)$/.exec(readFileSync(join(changesetDir, file), "utf8"))
      expect(match, file).not.toBeNull()
      const bumps = match![1]!.split("\n").filter((line) => line.trim() !== "")
      expect(bumps, file).toEqual([expect.stringMatching(new RegExp(`^"${pkg.name}": (patch|minor|major)$`))])
      expect(match![2]!.trim().length, file).toBeGreaterThan(40)
    }
  })

  it("CHANGELOG.md is changesets' format, newest version first, with the entry of package.json's version", () => {
    const changelog = readFileSync(join(projectRoot, "CHANGELOG.md"), "utf8")
    expect(changelog.startsWith(`# ${pkg.name}\n\n## `)).toBe(true)
    const versions = [...changelog.matchAll(/^## (\S+)$/gm)].map((match) => match[1]!)
    expect(versions[0]).toBe(pkg.version)
    expect(versions).toContain("0.1.0")
    const ordered = versions.map((version) => version.split(".").map(Number))
    for (let i = 1; i < ordered.length; i++) {
      const [a, b] = [ordered[i - 1]!, ordered[i]!]
      const newer = a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!
      expect(newer, `${versions[i - 1]} before ${versions[i]}`).toBeGreaterThan(0)
    }
    for (const section of changelog.split(/^## /m).slice(1)) {
      expect(section, section.slice(0, 20)).toMatch(/^\S+\n\n### (Major|Minor|Patch) Changes\n\n- \S/)
    }
  })
})
