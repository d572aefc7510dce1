/**
 * The import checker behind `importRank.test.ts`. It reads the rules from one place,
 * docs/ARCHITECTURE.md: the ranks table (core < session < cache < domains < urls < react / next /
 * emulator / server < entry < examples) and the table of forbidden arrows beside it (the emulator
 * never imports the session, no part imports another part's `internal/`, the bindings import only
 * the package's public modules, the examples import the package by its name). A row it cannot read
 * is an error, so the page and the checker cannot disagree.
 *
 * It reads the `import` / `export … from` specifiers of each source file (type-only ones
 * included: a type is a dependency too), resolves the relative ones, and reports every import of
 * a higher rank, every import between parts of one rank, every forbidden arrow and every cycle,
 * each naming the file, the line and the imported module.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

/** One part of the ranks table: its name, its rank and its folders (or files), without a trailing `/`. */
export interface Part {
  readonly name: string
  readonly rank: number
  readonly folders: ReadonlyArray<string>
}

/** One row of the forbidden-arrows table, as the checker applies it. */
export type Rule =
  /** `From` may not import any module of the part `to`. */
  | { readonly kind: "part"; readonly from: ReadonlyArray<string>; readonly to: string; readonly row: string }
  /**
   * `From` may not reach the part `to` at run time, even through modules of other parts: no chain
   * of imports that are not type-only leads there.
   */
  | { readonly kind: "reach"; readonly from: ReadonlyArray<string>; readonly to: string; readonly row: string }
  /**
   * No file imports an `internal/` module of another folder of the ranks table (each folder is a
   * part of its own here), except from a part to a part listed in `except`.
   */
  | {
    readonly kind: "internal"
    readonly from: ReadonlyArray<string> | "every"
    readonly except: ReadonlyArray<{ readonly from: string; readonly to: string }>
    readonly row: string
  }
  /** `From` imports from other parts only the package's public modules (see {@link publicModules}). */
  | { readonly kind: "public"; readonly from: ReadonlyArray<string>; readonly row: string }
  /** `From` imports the package by its name (an entry of package.json `exports`), never by a relative path out of its folders. */
  | { readonly kind: "byName"; readonly from: ReadonlyArray<string>; readonly row: string }

/** The ranks and the forbidden arrows, as read from docs/ARCHITECTURE.md. */
export interface Architecture {
  readonly parts: ReadonlyArray<Part>
  readonly rules: ReadonlyArray<Rule>
}

/** A row of docs/ARCHITECTURE.md the checker cannot read, or a table it cannot find. */
export class ArchitectureDocError extends Error {
  /** `problems`: one sentence per row it cannot read (or table it cannot find). */
  constructor(readonly problems: ReadonlyArray<string>) {
    super(`docs/ARCHITECTURE.md: ${problems.join("; ")}`)
  }
}

/** The header of the ranks table. */
export const ranksHeader = "| Rank | Part | Folders |"

/** The header of the forbidden-arrows table. */
export const arrowsHeader = "| From | May not import | Except | Why |"

/**
 * The `May not import` texts the checker knows, besides a part's name in backticks, alone or
 * followed by `, even through other modules (run time)`.
 */
export const ruleTexts = {
  internal: "another part's `internal/`",
  public: "a module no entry point exports",
  byName: "the package by a relative path"
} as const

const cells = (line: string): Array<string> =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim())

/** The rows of the table whose header line starts with `header`, or `undefined` when there is none. */
const tableRows = (markdown: string, header: string): Array<string> | undefined => {
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => line.startsWith(header))
  if (start === -1) return undefined
  const rows: Array<string> = []
  // the header, then the separator row, then the rows up to the first line that is not a table row
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(lines[i]!)
  return rows
}

const backticked = (text: string): Array<string> => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)

/**
 * The ranks and the forbidden arrows of `markdown` (docs/ARCHITECTURE.md). Throws an
 * {@link ArchitectureDocError} naming every row it cannot read: a rank that is not a number, part
 * names and folder groups that do not pair up (`a · b` with `` `x/` · `y/` ``), a folder not in
 * backticks, an arrow from or to a part the ranks table does not name, a `May not import` it does
 * not know, an `Except` that is not `part → part`.
 */
export const parseArchitecture = (markdown: string): Architecture => {
  const problems: Array<string> = []
  const parts: Array<Part> = []
  const rankRows = tableRows(markdown, ranksHeader)
  if (rankRows === undefined || rankRows.length === 0) problems.push(`no ranks table (a table headed "${ranksHeader} …")`)
  for (const row of rankRows ?? []) {
    const [rankText = "", namesText = "", foldersText = ""] = cells(row)
    const rank = Number(rankText)
    const names = namesText.split("·").map((name) => name.trim())
    const groups = foldersText.split("·").map((group) => backticked(group).map((folder) => folder.replace(/\/$/, "")))
    if (!/^\d+$/.test(rankText)) problems.push(`ranks row "${row}": the rank is not a number`)
    else if (names.some((name) => !/^[a-z][a-z-]*$/.test(name))) problems.push(`ranks row "${row}": a part's name is not one lowercase word`)
    else if (names.length !== groups.length) problems.push(`ranks row "${row}": ${names.length} parts but ${groups.length} folder groups`)
    else if (groups.some((group) => group.length === 0)) problems.push(`ranks row "${row}": a part without folders in backticks`)
    else names.forEach((name, index) => parts.push({ name, rank, folders: groups[index]! }))
  }
  const known = new Set(parts.map((part) => part.name))
  const partList = (text: string, row: string): Array<string> | undefined => {
    const names = text.split(",").map((name) => name.trim())
    const unknown = names.filter((name) => !known.has(name))
    if (unknown.length === 0) return names
    problems.push(`arrows row "${row}": ${unknown.map((name) => `"${name}"`).join(", ")} not a part of the ranks table`)
    return undefined
  }
  const rules: Array<Rule> = []
  const arrowRows = tableRows(markdown, arrowsHeader)
  if (arrowRows === undefined || arrowRows.length === 0) problems.push(`no forbidden-arrows table (a table headed "${arrowsHeader}")`)
  for (const row of arrowRows ?? []) {
    const [fromText = "", target = "", exceptText = ""] = cells(row)
    const from = fromText === "every part" ? ("every" as const) : partList(fromText, row)
    if (from === undefined) continue
    const except: Array<{ from: string; to: string }> = []
    if (exceptText !== "—") {
      for (const pair of exceptText.split(",")) {
        const match = /^([a-z][a-z-]*) → ([a-z][a-z-]*)$/.exec(pair.trim())
        if (match === null || !known.has(match[1]!) || !known.has(match[2]!)) {
          problems.push(`arrows row "${row}": the exception "${pair.trim()}" is not "part → part" with parts of the ranks table`)
        } else except.push({ from: match[1]!, to: match[2]! })
      }
    }
    const partTarget = /^`([a-z][a-z-]*)`$/.exec(target)
    const reachTarget = /^`([a-z][a-z-]*)`, even through other modules \(run time\)$/.exec(target)
    if (target === ruleTexts.internal) {
      rules.push({ kind: "internal", from, except, row })
      continue
    }
    if (from === "every" || except.length > 0) {
      problems.push(`arrows row "${row}": "every part" and exceptions are read only with "${ruleTexts.internal}"`)
      continue
    }
    if (partTarget !== null && known.has(partTarget[1]!)) rules.push({ kind: "part", from, to: partTarget[1]!, row })
    else if (reachTarget !== null && known.has(reachTarget[1]!)) rules.push({ kind: "reach", from, to: reachTarget[1]!, row })
    else if (target === ruleTexts.public) rules.push({ kind: "public", from, row })
    else if (target === ruleTexts.byName) rules.push({ kind: "byName", from, row })
    else problems.push(`arrows row "${row}": "${target}" is neither a part in backticks nor one of: ${Object.values(ruleTexts).join(" / ")}`)
  }
  if (problems.length > 0) throw new ArchitectureDocError(problems)
  return { parts, rules }
}

/** The project root (two folders above this file). */
export const projectRoot = resolve(dirname(new URL(import.meta.url).pathname), "../..")

/** A path relative to the project root. */
export const fromRoot = (path: string) => relative(projectRoot, path).replace(/\\/g, "/")

/** The ranks and arrows of the project's docs/ARCHITECTURE.md. */
export const architecture: Architecture = parseArchitecture(readFileSync(join(projectRoot, "docs/ARCHITECTURE.md"), "utf8"))

/** The parts in dependency order, from docs/ARCHITECTURE.md; a file may import its own part or a lower one. */
export const parts: ReadonlyArray<Part> = architecture.parts

/** One entry point of the package: its name (`stack-auth-effect/react`) and its source file. */
export interface Entry {
  readonly name: string
  readonly source: string
}

/**
 * The package's entry points, read from package.json `exports` under `root`: each name with the
 * source of the file it points to (`./dist/react/index.js` is `react/index.ts`); blocked paths
 * (`"./internal/*": null`) are not entry points.
 */
export const readEntries = (root: string): ReadonlyArray<Entry> => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    readonly name: string
    readonly exports: Record<string, { readonly default: string } | null>
  }
  return Object.entries(manifest.exports).flatMap(([key, target]) =>
    target === null
      ? []
      : [{ name: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`, source: target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts") }]
  )
}

/** One source file and the project files it imports. */
export interface SourceFile {
  /** Path relative to the project root, with `/`. */
  readonly path: string
  readonly imports: ReadonlyArray<{ readonly target: string; readonly line: number }>
  /** The project files it re-exports from (`export … from`), resolved as `imports` are. */
  readonly reexports?: ReadonlyArray<string>
  /** The package's own names it imports (`stack-auth-effect`, `stack-auth-effect/react`…). */
  readonly names?: ReadonlyArray<{ readonly specifier: string; readonly line: number }>
  /** The project files it imports at run time (not `import type` / `export type`); all of `imports` when absent. */
  readonly runtime?: ReadonlyArray<string>
}

/** A broken rule, as a sentence naming the file, the line and the import. */
export type Violation = string

const specifierPattern =
  /(?:^|\n)\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g

const specifiers = (text: string) =>
  [...text.matchAll(specifierPattern)].flatMap((match) => {
    const specifier = match[1] ?? match[2] ?? match[3]
    if (specifier === undefined) return []
    const offset = match.index + match[0].indexOf(specifier)
    const line = text.slice(0, offset).split("\n").length
    return [{ specifier, line, reexport: /^\s*export\b/.test(match[0]), typeOnly: /^\s*(?:import|export)\s+type\b/.test(match[0]) }]
  })

const resolveRelative = (path: string, specifier: string) =>
  join(dirname(path), specifier).replace(/\\/g, "/").replace(/\.js$/, ".ts").replace(/\.jsx$/, ".tsx")

/** The relative specifiers of `text`, resolved against `path` (a project-relative file). */
export const importsOf = (path: string, text: string): SourceFile["imports"] =>
  specifiers(text)
    .filter(({ specifier }) => specifier.startsWith("."))
    .map(({ specifier, line }) => ({ target: resolveRelative(path, specifier), line }))

/** The relative specifiers of `text`'s `export … from` lines, resolved against `path`. */
export const reexportsOf = (path: string, text: string): ReadonlyArray<string> =>
  specifiers(text)
    .filter(({ specifier, reexport }) => reexport && specifier.startsWith("."))
    .map(({ specifier }) => resolveRelative(path, specifier))

/** The relative specifiers of `text` imported at run time (not `import type` / `export type`), resolved against `path`. */
export const runtimeImportsOf = (path: string, text: string): ReadonlyArray<string> =>
  specifiers(text)
    .filter(({ specifier, typeOnly }) => !typeOnly && specifier.startsWith("."))
    .map(({ specifier }) => resolveRelative(path, specifier))

/** The specifiers of `text` that name the package itself (`stack-auth-effect`, `stack-auth-effect/…`). */
export const packageNamesOf = (text: string, packageName = "stack-auth-effect"): NonNullable<SourceFile["names"]> =>
  specifiers(text)
    .filter(({ specifier }) => specifier === packageName || specifier.startsWith(`${packageName}/`))
    .map(({ specifier, line }) => ({ specifier, line }))

const inFolder = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`)

/** The part a project-relative path belongs to, if any. */
export const partOf = (path: string, within: ReadonlyArray<Part> = parts) => within.find((part) => part.folders.some((folder) => inFolder(path, folder)))

/** The folder of the ranks table a path is in (`src/teams`), the unit of the `internal/` rule. */
const folderOf = (path: string, within: ReadonlyArray<Part>) => within.flatMap((part) => part.folders).find((folder) => inFolder(path, folder))

/**
 * The package's public modules: the entry points' sources and every module they re-export from
 * (`export * as X from`, `export { … } from`), and so on down.
 */
export const publicModules = (files: ReadonlyArray<SourceFile>, entries: ReadonlyArray<Entry>): ReadonlySet<string> => {
  const byPath = new Map(files.map((file) => [file.path, file]))
  const found = new Set<string>()
  const queue = entries.map((entry) => entry.source)
  while (queue.length > 0) {
    const path = queue.pop()!
    const actual = byPath.has(path) ? path : byPath.has(path.replace(/\.ts$/, ".tsx")) ? path.replace(/\.ts$/, ".tsx") : path
    if (found.has(actual)) continue
    found.add(actual)
    queue.push(...(byPath.get(actual)?.reexports ?? []))
  }
  return found
}

/** What {@link check} checks against: by default the project's docs/ARCHITECTURE.md and package.json. */
export interface CheckOptions {
  /** The ranks and arrows (default: docs/ARCHITECTURE.md's, {@link architecture}). */
  readonly architecture?: Architecture
  /** The package's entry points (default: package.json's, {@link readEntries}). */
  readonly entries?: ReadonlyArray<Entry>
}

const appliesTo = (from: ReadonlyArray<string> | "every", part: Part) => from === "every" || from.includes(part.name)

/**
 * Every rule broken by `files`: rank order, parts of one rank kept apart, the forbidden arrows and
 * cycles. An import is reported once, for the first rule it breaks in that order.
 */
export const check = (files: ReadonlyArray<SourceFile>, options: CheckOptions = {}): ReadonlyArray<Violation> => {
  const { parts: within, rules } = options.architecture ?? architecture
  const entries = options.entries ?? readEntries(projectRoot)
  const violations: Array<Violation> = []
  const known = new Set(files.map((file) => file.path))
  const resolveTarget = (target: string) => known.has(target) ? target : known.has(target.replace(/\.ts$/, ".tsx")) ? target.replace(/\.ts$/, ".tsx") : target
  const exported = publicModules(files, entries)
  const byPath = new Map(files.map((file) => [file.path, file]))
  const runtimeOf = (file: SourceFile) => (file.runtime ?? file.imports.map((entry) => entry.target)).map(resolveTarget)
  /** The shortest run-time chain from `start` to a file of `part`, or `undefined` (memoized per start and part). */
  const chains = new Map<string, ReadonlyArray<string> | undefined>()
  const runtimeChain = (start: string, part: string): ReadonlyArray<string> | undefined => {
    const key = `${start} ${part}`
    if (chains.has(key)) return chains.get(key)
    const parent = new Map<string, string | undefined>([[start, undefined]])
    const queue = [start]
    let found: ReadonlyArray<string> | undefined = undefined
    while (queue.length > 0 && found === undefined) {
      const path = queue.shift()!
      if (partOf(path, within)?.name === part) {
        const chain = [path]
        for (let step = parent.get(path); step !== undefined; step = parent.get(step)) chain.unshift(step)
        found = chain
        break
      }
      const source = byPath.get(path)
      for (const next of source === undefined ? [] : runtimeOf(source)) {
        if (!parent.has(next)) {
          parent.set(next, path)
          queue.push(next)
        }
      }
    }
    chains.set(key, found)
    return found
  }
  const entryNames = new Set(entries.map((entry) => entry.name))
  const arrow = (from: Part, file: SourceFile, to: Part, target: string): string | undefined => {
    const path = file.path
    for (const rule of rules) {
      if (!appliesTo(rule.from, from)) continue
      switch (rule.kind) {
        case "part":
          if (to.name === rule.to && from.name !== to.name) return `${from.name} may not import ${to.name}`
          break
        case "reach": {
          if (from.name === to.name || from.name === rule.to || !runtimeOf(file).includes(target)) break
          const chain = runtimeChain(target, rule.to)
          if (chain !== undefined) return `${from.name} may not reach ${rule.to}, even through other modules (${chain.join(" -> ")})`
          break
        }
        case "internal": {
          const own = folderOf(path, within)
          const internal = /(^|\/)internal\//.test(target.slice((folderOf(target, within) ?? "").length))
          if (internal && folderOf(target, within) !== own && !rule.except.some((pair) => pair.from === from.name && pair.to === to.name)) {
            return `no part imports another part's internal/ (${folderOf(target, within)})`
          }
          break
        }
        case "public":
          if (from.name !== to.name && !exported.has(target)) {
            return `${from.name} imports only the package's public modules, and no entry point exports ${target}`
          }
          break
        case "byName":
          if (from.name !== to.name) {
            return `${from.name} may import the package only by its name (${entries[0]?.name ?? "its name"}, ${
              entries[0]?.name ?? "its name"
            }/…), not by a relative path`
          }
          break
      }
    }
    return undefined
  }
  for (const file of files) {
    const from = partOf(file.path, within)
    if (from === undefined) continue
    for (const { target: written, line } of file.imports) {
      const target = resolveTarget(written)
      const to = partOf(target, within)
      if (to === undefined) continue
      if (to.rank > from.rank) {
        violations.push(`${file.path}:${line} imports ${written}: ${from.name} (rank ${from.rank}) may not import ${to.name} (rank ${to.rank})`)
      } else if (to.rank === from.rank && to.name !== from.name) {
        violations.push(`${file.path}:${line} imports ${written}: ${from.name} and ${to.name} are separate parts and may not import each other`)
      } else {
        const broken = arrow(from, file, to, target)
        if (broken !== undefined) violations.push(`${file.path}:${line} imports ${written}: ${broken}`)
      }
    }
    if (rules.some((rule) => rule.kind === "byName" && appliesTo(rule.from, from))) {
      for (const { specifier, line } of file.names ?? []) {
        if (!entryNames.has(specifier)) violations.push(`${file.path}:${line} imports ${specifier}: not an entry point of package.json "exports"`)
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

/** The folders the checker reads: the package's sources and its examples. */
export const sourceFolders: ReadonlyArray<string> = ["src", "react", "examples"]

/** The project's source files (`src/`, `react/`, `examples/`), read from disk under `root`. */
export const readSources = (root: string): ReadonlyArray<SourceFile> => {
  const files: Array<SourceFile> = []
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path)
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        const text = readFileSync(join(root, path), "utf8")
        files.push({
          path,
          imports: importsOf(path, text),
          reexports: reexportsOf(path, text),
          names: packageNamesOf(text),
          runtime: runtimeImportsOf(path, text)
        })
      }
    }
  }
  for (const folder of sourceFolders) walk(folder)
  return files
}
