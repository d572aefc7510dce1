/**
 * The lock files agree with their package.json, so that `npm ci` (what CI and the README's first
 * command run, with no fallback) installs them on a clean clone of any platform: the root's
 * `package-lock.json` and the bench's `bench/package-lock.json`.
 *
 * `npm ci` refuses a lock file when the tree npm would build from package.json and the lock
 * differs from the lock: a range of package.json that the lock's root entry does not repeat, a
 * locked version outside the range of a dependency asking for it, a dependency (optional ones
 * included: npm locks every platform's build of a native package, installed or not) or a required
 * peer missing from the lock, a locked package that nothing asks for. (A peer locked outside its
 * range is not one: npm installs it with a warning and keeps the lock.) The checks below read the lock as npm does
 * (each dependency found where Node would find it: the nearest `node_modules` folder up from the
 * package that asks for it) and need no network.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import semver from "semver"
import { describe, expect, it } from "vitest"
import { projectRoot } from "../../scripts/build.js"

/** The fields of a package.json and of a lock entry that name other packages. */
interface Manifest {
  readonly version?: string
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  readonly optionalDependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>
  readonly link?: boolean
}

/** A lock file of lockfileVersion 2 or 3: every installed package by its folder (`""` is the root). */
interface Lock {
  readonly lockfileVersion: number
  readonly packages: Readonly<Record<string, Manifest>>
}

const dependencyFields = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const

/**
 * Whether a locked version meets what a package asks for: a semver range (npm's loose reading),
 * an alias `npm:name@range` (its range), a tag or URL (any version: the lock records what it gave).
 */
const satisfies = (version: string, spec: string): boolean => {
  const alias = /^npm:(?:@[^/@]+\/)?[^@]+@(.*)$/.exec(spec)
  const range = alias === null ? spec : alias[1]!
  if (semver.validRange(range, { loose: true }) === null) return true
  return semver.satisfies(version, range, { loose: true })
}

/** The folder Node would load `name` from, for the package in `folder`: the nearest `node_modules/name` up the tree. */
const resolve = (lock: Lock, folder: string, name: string): string | undefined => {
  let from = folder
  for (;;) {
    const candidate = from === "" ? `node_modules/${name}` : `${from}/node_modules/${name}`
    if (candidate in lock.packages) return candidate
    if (from === "") return undefined
    const parent = from.lastIndexOf("/node_modules/")
    from = parent === -1 ? "" : from.slice(0, parent)
  }
}

/**
 * What `npm ci` would find wrong with `lock` for `manifest` (package.json), one line each; empty
 * when they agree.
 */
const lockProblems = (manifest: Manifest, lock: Lock): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const root = lock.packages[""]
  if (lock.lockfileVersion < 2 || root === undefined) return [`lockfileVersion ${lock.lockfileVersion} has no packages section`]
  for (const field of dependencyFields) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (root[field]?.[name] !== range) problems.push(`package.json ${field} ${name}@${range}: the lock's root entry has ${root[field]?.[name] ?? "nothing"}`)
    }
    for (const name of Object.keys(root[field] ?? {})) {
      if (manifest[field]?.[name] === undefined) problems.push(`the lock's root entry ${field} ${name}: not in package.json`)
    }
  }
  const reached = new Set<string>([""])
  const queue = [""]
  while (queue.length > 0) {
    const folder = queue.shift()!
    const entry = lock.packages[folder]!
    const edges = [
      ...Object.entries(entry.dependencies ?? {}).map(([name, spec]) => ({ name, spec, kind: "dependency", required: true })),
      ...Object.entries(entry.optionalDependencies ?? {}).map(([name, spec]) => ({ name, spec, kind: "optional dependency", required: true })),
      ...Object.entries(entry.peerDependencies ?? {}).map(([name, spec]) => ({
        name,
        spec,
        kind: "peer dependency",
        required: entry.peerDependenciesMeta?.[name]?.optional !== true
      })),
      ...(folder === "" ? Object.entries(entry.devDependencies ?? {}).map(([name, spec]) => ({ name, spec, kind: "dev dependency", required: true })) : [])
    ]
    for (const edge of edges) {
      const target = resolve(lock, folder, edge.name)
      const asker = folder === "" ? "the root" : folder
      if (target === undefined) {
        if (edge.required) problems.push(`${asker}: ${edge.kind} ${edge.name}@${edge.spec} is not in the lock`)
        continue
      }
      const version = lock.packages[target]!.version
      // npm installs a peer outside its range with a warning (a package's peer range older than
      // the app's React), and keeps the lock: only the other edges' ranges are binding
      if (version !== undefined && edge.kind !== "peer dependency" && lock.packages[target]!.link !== true && !satisfies(version, edge.spec)) {
        problems.push(`${asker}: ${edge.kind} ${edge.name}@${edge.spec} is locked at ${version} (${target})`)
      }
      if (!reached.has(target)) {
        reached.add(target)
        queue.push(target)
      }
    }
  }
  for (const folder of Object.keys(lock.packages)) {
    if (!reached.has(folder)) problems.push(`${folder}: locked, but no package asks for it`)
  }
  return problems
}

const readJson = <A>(path: string): A => JSON.parse(readFileSync(join(projectRoot, path), "utf8")) as A

describe.each([
  { manifest: "package.json", lock: "package-lock.json" },
  { manifest: "bench/package.json", lock: "bench/package-lock.json" }
])("$lock agrees with $manifest (npm ci installs it on every platform)", ({ lock, manifest }) => {
  it("every range of package.json is the lock's root entry's, every locked version meets the ranges asking for it, every dependency (optional ones of every platform included) is locked, nothing else is", () => {
    const locked = readJson<Lock>(lock)
    expect(Object.keys(locked.packages).length).toBeGreaterThan(100)
    expect(lockProblems(readJson<Manifest>(manifest), locked)).toEqual([])
  })
})

/** Whether the clone has the history of 290eb80, the commit that completed the lock (not in a shallow clone). */
const hasLockHistory = (): boolean => {
  try {
    execFileSync("git", ["cat-file", "-e", "290eb80~1:package-lock.json"], { cwd: projectRoot, stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

describe("the lock check finds what npm ci refuses", () => {
  const manifest = readJson<Manifest>("package.json")
  const lock = readJson<Lock>("package-lock.json")
  const without = (folder: string): Lock => ({ ...lock, packages: Object.fromEntries(Object.entries(lock.packages).filter(([path]) => path !== folder)) })

  it.skipIf(!hasLockHistory())(
    "the lock before 290eb80 (no other platform's builds of rollup and msgpackr-extract): exactly the optional packages 290eb80 added",
    () => {
      const show = (path: string) => execFileSync("git", ["show", path], { cwd: projectRoot, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
      const old = JSON.parse(show("290eb80~1:package-lock.json")) as Lock
      const fixed = JSON.parse(show("290eb80:package-lock.json")) as Lock
      const added = Object.keys(fixed.packages).filter((path) => !(path in old.packages))
      expect(added.length).toBeGreaterThan(20)
      expect(added.every((path) => /^node_modules\/@(rollup|msgpackr-extract)\//.test(path))).toBe(true)
      const problems = lockProblems(JSON.parse(show("290eb80~1:package.json")) as Manifest, old)
      expect(problems.every((problem) => problem.includes("optional dependency"))).toBe(true)
      expect(problems.map((problem) => /optional dependency (\S+)@/.exec(problem)?.[1]).sort()).toEqual(
        added.map((path) => path.slice("node_modules/".length)).sort()
      )
      expect(lockProblems(JSON.parse(show("290eb80:package.json")) as Manifest, fixed)).toEqual([])
    }
  )

  it("a platform package left out, a range changed in package.json, a version outside its range, a package nobody asks for", () => {
    const platform = Object.keys(lock.packages).find((path) => path.startsWith("node_modules/@rollup/rollup-"))!
    expect(lockProblems(manifest, without(platform))).toEqual([expect.stringMatching(/optional dependency @rollup\/rollup-.* is not in the lock/)])

    const bumped = { ...manifest, devDependencies: { ...manifest.devDependencies, vitest: "~4.0.0" } }
    expect(lockProblems(bumped, lock)).toEqual([expect.stringContaining("package.json devDependencies vitest@~4.0.0: the lock's root entry has ~5.")])

    const jose = lock.packages["node_modules/jose"]!
    const downgraded = { ...lock, packages: { ...lock.packages, "node_modules/jose": { ...jose, version: "5.0.0" } } }
    expect(lockProblems(manifest, downgraded)).toEqual([expect.stringContaining("dependency jose@^6")])

    const extra = { ...lock, packages: { ...lock.packages, "node_modules/left-pad": { version: "1.3.0" } } }
    expect(lockProblems(manifest, extra)).toEqual(["node_modules/left-pad: locked, but no package asks for it"])
  })
})
