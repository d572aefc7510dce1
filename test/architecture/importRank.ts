/**
 * The import-rank checker behind `importRank.test.ts` (docs/ARCHITECTURE.md): dependencies point
 * one way, core < session < cache < domains < urls < react / next / emulator / server, and no module
 * imports another that (directly or not) imports it back.
 *
 * It reads the `import` / `export … from` specifiers of each source file (type-only ones
 * included: a type is a dependency too), resolves the relative ones, and reports every import of
 * a higher rank, every import between the three top parts, and every cycle, each naming the file,
 * the line and the imported module.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

/** The parts in dependency order; a file may import its own part or a lower one. */
export const parts: ReadonlyArray<{ readonly name: string; readonly rank: number; readonly folders: ReadonlyArray<string> }> = [
  { name: "core", rank: 0, folders: ["src/core"] },
  { name: "session", rank: 1, folders: ["src/session"] },
  { name: "cache", rank: 2, folders: ["src/cache"] },
  {
    name: "domains",
    rank: 3,
    folders: [
      "src/auth",
      "src/users",
      "src/teams",
      "src/permissions",
      "src/contact-channels",
      "src/api-keys",
      "src/projects",
      "src/emails",
      "src/connected-accounts"
    ]
  },
  { name: "urls", rank: 4, folders: ["src/urls"] },
  { name: "react", rank: 5, folders: ["react"] },
  { name: "next", rank: 5, folders: ["src/next"] },
  { name: "emulator", rank: 5, folders: ["src/emulator"] },
  { name: "server", rank: 5, folders: ["src/server"] },
  // the package's entry points compose everything below them
  { name: "entry", rank: 6, folders: ["src/Stack.ts", "src/index.ts"] }
]

/** One source file and the project files it imports. */
export interface SourceFile {
  /** Path relative to the project root, with `/`. */
  readonly path: string
  readonly imports: ReadonlyArray<{ readonly target: string; readonly line: number }>
}

/** A broken rule, as a sentence naming the file, the line and the import. */
export type Violation = string

const specifierPattern = /(?:^|\n)\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g

/** The relative specifiers of `text`, resolved against `path` (a project-relative file). */
export const importsOf = (path: string, text: string): SourceFile["imports"] => {
  const found: Array<{ target: string; line: number }> = []
  for (const match of text.matchAll(specifierPattern)) {
    const specifier = match[1] ?? match[2] ?? match[3]
    if (specifier === undefined || !specifier.startsWith(".")) continue
    const offset = match.index + match[0].indexOf(specifier)
    const line = text.slice(0, offset).split("\n").length
    const target = join(dirname(path), specifier).replace(/\\/g, "/").replace(/\.js$/, ".ts").replace(/\.jsx$/, ".tsx")
    found.push({ target, line })
  }
  return found
}

/** The part a project-relative path belongs to, if any. */
export const partOf = (path: string) =>
  parts.find((part) => part.folders.some((folder) => path === folder || path.startsWith(`${folder}/`)))

/** Every rule broken by `files`: rank order, the top parts kept apart, and cycles. */
export const check = (files: ReadonlyArray<SourceFile>): ReadonlyArray<Violation> => {
  const violations: Array<Violation> = []
  const known = new Set(files.map((file) => file.path))
  const resolveTarget = (target: string) =>
    known.has(target) ? target : known.has(target.replace(/\.ts$/, ".tsx")) ? target.replace(/\.ts$/, ".tsx") : target
  for (const file of files) {
    const from = partOf(file.path)
    if (from === undefined) continue
    for (const { target, line } of file.imports) {
      const to = partOf(resolveTarget(target))
      if (to === undefined) continue
      if (to.rank > from.rank) {
        violations.push(`${file.path}:${line} imports ${target}: ${from.name} (rank ${from.rank}) may not import ${to.name} (rank ${to.rank})`)
      } else if (to.rank === from.rank && to.name !== from.name) {
        violations.push(`${file.path}:${line} imports ${target}: ${from.name} and ${to.name} are separate parts and may not import each other`)
      }
    }
  }
  // cycles between files (Tarjan's strongly connected components)
  const edges = new Map(files.map((file) => [file.path, file.imports.map((entry) => resolveTarget(entry.target)).filter((target) => known.has(target))]))
  let index = 0
  const indices = new Map<string, number>()
  const lowlinks = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const visit = (node: string) => {
    indices.set(node, index)
    lowlinks.set(node, index)
    index++
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next)
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!))
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!))
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) violations.push(`import cycle: ${component.sort().join(" -> ")}`)
    }
  }
  for (const file of files) if (!indices.has(file.path)) visit(file.path)
  return violations
}

/** The project's source files (`src/`, `react/`), read from disk under `root`. */
export const readSources = (root: string): ReadonlyArray<SourceFile> => {
  const files: Array<SourceFile> = []
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        files.push({ path, imports: importsOf(path, readFileSync(join(root, path), "utf8")) })
      }
    }
  }
  walk("src")
  walk("react")
  return files
}

/** The project root (two folders above this file). */
export const projectRoot = resolve(dirname(new URL(import.meta.url).pathname), "../..")

/** A path relative to the project root. */
export const fromRoot = (path: string) => relative(projectRoot, path).replace(/\\/g, "/")
