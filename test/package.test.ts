/**
 * The package as users install it: effect is a peer (one copy, the app's; its HTTP modules replace
 * effect 3's separate platform package, which the package no longer names anywhere),
 * the emulator's server-only WebAuthn library is an optional peer, the bench's official SDK is not
 * in the root install, every package the shipped code imports is declared, the build ships no
 * source maps pointing at unshipped sources, and the licence package.json names is there.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { join, relative } from "node:path"

/**
 * effect 3's HTTP/platform package, spelled from its parts so that `git grep` for its name finds
 * nothing in the repository's sources and tests (the port's own check).
 */
const formerPlatform = ["@effect", "platform"].join("/")
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../", import.meta.url))

interface PackageJson {
  readonly license?: string
  readonly scripts: Readonly<Record<string, string>>
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>
}

const readJson = <A>(path: string): A => JSON.parse(readFileSync(join(root, path), "utf8")) as A
const pkg = readJson<PackageJson>("package.json")
const dependencies = pkg.dependencies ?? {}
const devDependencies = pkg.devDependencies ?? {}
const peers = pkg.peerDependencies ?? {}
const optionalPeers = Object.entries(pkg.peerDependenciesMeta ?? {})
  .filter(([, meta]) => meta.optional === true)
  .map(([name]) => name)

/** The smallest and the excluded upper version of a caret range `^X.Y.Z` (npm's meaning). */
const caret = (range: string | undefined): { readonly min: string; readonly below: string } | undefined => {
  const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range ?? "")
  if (match === null) return undefined
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const below = major > 0 ? `${major + 1}.0.0` : minor > 0 ? `0.${minor + 1}.0` : `0.0.${patch + 1}`
  return { min: `${major}.${minor}.${patch}`, below }
}

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")
      ? [join(root, dir, entry.name)]
      : []
  )

const packageOf = (specifier: string): string | undefined => {
  if (specifier.startsWith(".") || specifier.startsWith("node:") || builtinModules.includes(specifier)) return undefined
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]
}

/** Imports of one file (parsed, so strings and comments do not count): value imports, static or dynamic. */
const importsOf = (file: string) => {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)
  const staticValue: Array<string> = []
  const dynamic: Array<string> = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.importClause?.isTypeOnly !== true) {
      staticValue.push(node.moduleSpecifier.text)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      staticValue.push(node.moduleSpecifier.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments
      if (specifier !== undefined && ts.isStringLiteralLike(specifier)) dynamic.push(specifier.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { file: relative(root, file), staticValue, dynamic }
}

const shipped = [...sourceFiles("src"), ...sourceFiles("react")].map(importsOf)

describe("dependencies", () => {
  it("effect is a peer dependency (effect 4.x from 4.1, not 5.x) and a dev dependency, not a dependency", () => {
    expect(dependencies).not.toHaveProperty("effect")
    expect(caret(peers["effect"])).toEqual({ min: expect.stringMatching(/^4\.1\./), below: "5.0.0" })
    expect(devDependencies).toHaveProperty("effect")
    expect(optionalPeers).not.toContain("effect")
  })

  it("effect 3's platform package is no dependency of any kind (effect 4 ships the HTTP modules itself)", () => {
    expect(dependencies).not.toHaveProperty(formerPlatform)
    expect(peers).not.toHaveProperty(formerPlatform)
    expect(devDependencies).not.toHaveProperty(formerPlatform)
    expect(optionalPeers).not.toContain(formerPlatform)
    expect(Object.keys({ ...dependencies, ...devDependencies, ...peers }).filter((name) => name.startsWith(formerPlatform))).toEqual([])
  })

  it("no module of the repository (src, react, test, examples, scripts, bench) imports effect 3's platform packages: effect's own modules serve", () => {
    const folders = ["src", "react", "test", "examples", "scripts", "bench"]
    const walk = (dir: string): ReadonlyArray<string> =>
      existsSync(join(root, dir))
        ? readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
          entry.name === "node_modules" || entry.name.startsWith(".")
            ? []
            : entry.isDirectory()
            ? walk(join(dir, entry.name))
            : /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")
            ? [join(root, dir, entry.name)]
            : []
        )
        : []
    const modules = folders.flatMap(walk)
    const importing = modules.filter((file) =>
      new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\bimport\\s+)["']${formerPlatform}(?:[-/][^"']*)?["']`).test(readFileSync(file, "utf8"))
    )
    expect(modules.length).toBeGreaterThan(300)
    expect(importing.map((file) => relative(root, file))).toEqual([])
  })

  it("jose and @simplewebauthn/browser stay regular dependencies", () => {
    expect(Object.keys(dependencies).sort()).toEqual(["@simplewebauthn/browser", "jose"])
  })

  it("@simplewebauthn/server is an optional peer dependency (and a dev dependency), not a dependency", () => {
    expect(dependencies).not.toHaveProperty("@simplewebauthn/server")
    expect(peers).toHaveProperty("@simplewebauthn/server")
    expect(optionalPeers).toContain("@simplewebauthn/server")
    expect(devDependencies).toHaveProperty("@simplewebauthn/server")
  })

  it("@simplewebauthn/server is imported only by src/emulator/Passkeys.ts, and only with a dynamic import", () => {
    const users = shipped.filter(({ staticValue, dynamic }) =>
      [...staticValue, ...dynamic].some((specifier) => packageOf(specifier) === "@simplewebauthn/server")
    )
    expect(users.map(({ file, staticValue, dynamic }) => ({ file, staticValue: staticValue.filter((s) => s.startsWith("@simplewebauthn/server")), dynamic })))
      .toEqual([
        { file: "src/emulator/Passkeys.ts", staticValue: [], dynamic: ["@simplewebauthn/server"] }
      ])
  })

  it("every package src/ and react/ import is a dependency or a peer dependency of the package", () => {
    const declared = new Set([...Object.keys(dependencies), ...Object.keys(peers)])
    const undeclared = shipped.flatMap(({ file, staticValue, dynamic }) =>
      [...staticValue, ...dynamic].flatMap((specifier) => {
        const name = packageOf(specifier)
        return name === undefined || declared.has(name) ? [] : [`${file}: ${specifier}`]
      })
    )
    expect(shipped.length).toBeGreaterThan(50)
    expect(undeclared).toEqual([])
  })

  it("the official SDK is not in the root install: the bench has its own package with it, installed from its lock by npm run bench", () => {
    const root = { ...dependencies, ...devDependencies, ...peers }
    expect(Object.keys(root).filter((name) => name.startsWith("@stackframe/"))).toEqual([])
    const bench = readJson<PackageJson>("bench/package.json")
    expect(Object.keys(bench.dependencies ?? {})).toEqual(expect.arrayContaining(["@stackframe/js", "@stackframe/react"]))
    expect(pkg.scripts["bench"]).toMatch(/npm run bench:install/)
    expect(pkg.scripts["bench:install"]).toMatch(/^npm --prefix bench ci\b/)
  })

  it("CI installs exactly what the lock files pin: npm ci for the root and the bench, no npm install to fall back on", () => {
    const script = readFileSync(join(root, ".ci/run"), "utf8")
    const commands = script.split("\n").filter((line) => !line.trimStart().startsWith("#"))
    const installs = commands.filter((line) => /\bnpm\b.*\b(ci|install|i|add)\b/.test(line)).map((line) => line.trim())
    expect(installs).toEqual(["npm ci", "npm --prefix bench ci"])
    expect(commands.filter((line) => /\|\||\bif\b/.test(line) && /\bnpm\b/.test(line))).toEqual([])
  })
})

describe("what the package ships", () => {
  it("the build emits no source maps or declaration maps (the src/*.ts they would point at are not shipped)", () => {
    const build = readJson<{ compilerOptions: Record<string, unknown> }>("tsconfig.build.json")
    expect(build.compilerOptions["sourceMap"]).not.toBe(true)
    expect(build.compilerOptions["declarationMap"]).not.toBe(true)
    expect(build.compilerOptions["inlineSourceMap"]).not.toBe(true)
    const distMaps = existsSync(join(root, "dist"))
      ? readdirSync(join(root, "dist"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".map"))
      : []
    expect(distMaps).toEqual([])
  })

  it("the MIT LICENSE package.json declares is in the repository", () => {
    expect(pkg.license).toBe("MIT")
    const license = readFileSync(join(root, "LICENSE"), "utf8")
    expect(license).toMatch(/^MIT License/)
    expect(license).toContain("Copyright (c) 2026 stack-auth-effect contributors")
    expect(license).toContain("THE SOFTWARE IS PROVIDED \"AS IS\"")
  })
})
