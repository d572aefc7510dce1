/**
 * Span names match module names (issue 13 item 4): a function made with `Effect.fn("X.y")` in
 * module `X.ts` is exported by `X` as `y`, so a trace names the call as the app wrote it
 * (`Password.signInWithPassword`, not `Auth.signInWithPassword`). An endpoint descriptor is named
 * after the module whose functions call it (`name: "X.y"` in a domain's `internal/` module: `X.ts`
 * of that domain uses the descriptor). Read from the sources, so every module is covered without
 * a list.
 */
import { readdirSync, readFileSync } from "node:fs"
import { basename, join } from "node:path"
import { describe, expect, it } from "vitest"
import { projectRoot } from "./publicSurface.js"

const srcRoot = join(projectRoot, "src")

/** The `.ts` files under `dir`, the emulator left out (it names its own routes). */
const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "emulator" ? [] : sources(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

const isInternal = (path: string) => path.includes("/internal/")
const moduleName = (path: string) => basename(path, ".ts")

/** The names a module exports: `export const|function|class x`, `export { a as b }`, `export { a } from`. */
const exportsOf = (source: string): Set<string> => {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "")
  const names = new Set<string>()
  for (const match of text.matchAll(/^export (?:const|function|class|let) ([A-Za-z_$][\w$]*)/gm)) names.add(match[1]!)
  for (const match of text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of match[1]!.split(",")) {
      const alias = part.trim().split(/\s+as\s+/).pop()?.trim()
      if (alias) names.add(alias)
    }
  }
  return names
}

/** `Effect.fn("X.y")` spans of a public module, with the problem of each that breaks the rule. */
export const spanProblems = (path: string, text: string): Array<string> => {
  const module = moduleName(path)
  const exported = exportsOf(text)
  return [...text.matchAll(/Effect\.fn\("([^".]+)\.([^"]+)"\)/g)].flatMap((match) => {
    const [, prefix, name] = match
    const line = text.slice(0, match.index).split("\n").length
    const where = `${path.slice(projectRoot.length)}:${line} Effect.fn("${prefix}.${name}")`
    if (prefix !== module) return [`${where}: the module is ${module}`]
    if (!exported.has(name!)) return [`${where}: ${module} exports no ${name}`]
    return []
  })
}

/**
 * Endpoint names (`export const d = Endpoint.make({ name: "X.y"`) of a domain's internal module,
 * with the problem of each; `siblings` maps each public module of the domain to its source.
 */
export const endpointNameProblems = (path: string, text: string, siblings: ReadonlyMap<string, string>): Array<string> =>
  [...text.matchAll(/export const (\w+) = Endpoint\.make\(\{\s*name: "([^".]+)\.([^"]+)"/g)].flatMap((match) => {
    const [, descriptor, prefix, name] = match
    const line = text.slice(0, match.index).split("\n").length
    const where = `${path.slice(projectRoot.length)}:${line} name "${prefix}.${name}"`
    const module = siblings.get(prefix!)
    if (module === undefined) return [`${where}: no module ${prefix}.ts in this domain`]
    if (!new RegExp(`\\b${descriptor}\\b`).test(module)) return [`${where}: ${prefix}.ts does not call ${descriptor}`]
    return []
  })

describe("span names", () => {
  it("the rule reads spans and exports as intended", () => {
    const text = [
      "export const signIn = Effect.fn(\"Password.signIn\")(function* () {})",
      "const remove = Effect.fn(\"Password.delete\")(function* () {})",
      "export { remove as delete }",
      "export const signUp = Effect.fn(\"Auth.signUp\")(function* () {})",
      "export const other = Effect.fn(\"Password.renamed\")(function* () {})"
    ].join("\n")
    expect(spanProblems(`${projectRoot}src/auth/Password.ts`, text)).toEqual([
      "src/auth/Password.ts:4 Effect.fn(\"Auth.signUp\"): the module is Password",
      "src/auth/Password.ts:5 Effect.fn(\"Password.renamed\"): Password exports no renamed"
    ])
  })

  it("every Effect.fn span of a public module is <Module>.<its exported name>", () => {
    const problems = sources(srcRoot)
      .filter((path) => !isInternal(path))
      .flatMap((path) => spanProblems(path, readFileSync(path, "utf8")))
    expect(problems).toEqual([])
  })

  it("every endpoint is named after the public module of its domain that calls it", () => {
    const problems = sources(srcRoot)
      .filter(isInternal)
      .filter((path) => !path.includes("/core/") && !path.includes("/session/"))
      .flatMap((path) => {
        const domain = join(path, "..", "..")
        const siblings = new Map(
          readdirSync(domain)
            .filter((file) => file.endsWith(".ts"))
            .map((file) => [basename(file, ".ts"), readFileSync(join(domain, file), "utf8")] as const)
        )
        return endpointNameProblems(path, readFileSync(path, "utf8"), siblings)
      })
    expect(problems).toEqual([])
  })
})
