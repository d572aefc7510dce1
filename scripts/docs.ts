/**
 * The API reference: one markdown file per public module in `docs/api/` (or the folder given as
 * the first argument), generated from the TSDoc of the package's entry points with the TypeScript
 * compiler API. Each exported name gets its kind, its signature as an editor shows it, its TSDoc
 * text and its examples. Deterministic: names sorted, no paths, no dates.
 *
 * The reference is committed under `docs/api/` and shipped in the package. `npm run docs`
 * (`tsx scripts/docs.ts [outDir] [--json]`) rewrites it; `tsx scripts/docs.ts --check` compares
 * the committed files with the sources' reference rendered in memory (exit code 1 when they
 * differ). `test/docs/apiReference.test.ts` runs both.
 *
 * Maintainer notes cited in the TSDoc (`PROTOCOL.md §3.1`, `SPEC.md §4`) are dropped from the
 * pages, and a source file named in the prose (`PasswordReset.ts`) becomes the public module of
 * that name: users of the package have neither the notes nor the file layout.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import ts from "typescript"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** A public entry point of the package (package.json "exports"). */
export interface EntryPoint {
  /** The import specifier (`stack-auth-effect/next`). */
  readonly specifier: string
  /** The source file, relative to the repository root. */
  readonly file: string
  /** The reference file of the entry's own exports (`next` → `docs/api/next.md`). */
  readonly page: string
  /** The namespace name the page's import line uses (`import * as StackNext from "stack-auth-effect/next"`). */
  readonly alias: string
}

/** The package's entry points, in the order of package.json "exports". */
export const entryPoints: ReadonlyArray<EntryPoint> = [
  { specifier: "stack-auth-effect", file: "src/index.ts", page: "index", alias: "StackAuth" },
  { specifier: "stack-auth-effect/react", file: "react/index.ts", page: "react", alias: "StackReact" },
  { specifier: "stack-auth-effect/emulator", file: "src/emulator/index.ts", page: "emulator", alias: "Emulator" },
  { specifier: "stack-auth-effect/emulator/server", file: "src/emulator/server.ts", page: "emulator-server", alias: "EmulatorServer" },
  { specifier: "stack-auth-effect/emulator/msw", file: "src/emulator/MswHandlers.ts", page: "emulator-msw", alias: "EmulatorMsw" },
  { specifier: "stack-auth-effect/next", file: "src/next/index.ts", page: "next", alias: "StackNext" },
  { specifier: "stack-auth-effect/server", file: "src/server/index.ts", page: "server", alias: "StackServer" }
]

/** One documented name. */
export interface ApiEntry {
  readonly name: string
  readonly kind: string
  readonly signature: string
  readonly doc: string
  readonly examples: ReadonlyArray<string>
  readonly deprecated: string | undefined
}

/** One reference page: an entry point's own exports, or a namespace exported by an entry point. */
export interface ApiModule {
  /** The page's file name without `.md` (`Password`, `next.Cookies`). */
  readonly page: string
  /** How an app imports it (`import { Password } from "stack-auth-effect"`). */
  readonly importLine: string
  readonly doc: string
  readonly entries: ReadonlyArray<ApiEntry>
}

/** What {@link generate} wrote. */
export interface GenerateResult {
  /** Written files, relative to the output folder, sorted. */
  readonly files: ReadonlyArray<string>
  readonly modules: ReadonlyArray<ApiModule>
  /** `page.name` of every exported name without TSDoc text. */
  readonly undocumented: ReadonlyArray<string>
}

const formatFlags = ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.WriteArrowStyleSignature |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed })

/** `/abs/path/file.ts` and `import("/abs/…")` never reach the output: the reference is machine-independent. */
const scrubPaths = (text: string): string => text.replace(/import\("[^"]*"(?:, \{[^}]*\})?\)\./g, "").split(root + path.sep).join("")

const makeProgram = (): ts.Program => {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  if (config === undefined) throw new Error("tsconfig.json could not be read")
  return ts.createProgram({
    rootNames: entryPoints.map((entry) => path.join(root, entry.file)),
    options: { ...config.options, noEmit: true }
  })
}

const resolve = (checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol => symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol

const isModuleSymbol = (symbol: ts.Symbol): boolean =>
  (symbol.flags & ts.SymbolFlags.ValueModule) !== 0 &&
  (symbol.declarations ?? []).some((declaration) => ts.isSourceFile(declaration))

/** The `@module` comment of a source file (its first `/** … *\/` holding `@module`), without the tag. */
const moduleDoc = (file: ts.SourceFile): string => {
  const match = /\/\*\*([\s\S]*?)\*\//.exec(file.text)
  if (match === null || !match[1]!.includes("@module")) return ""
  return match[1]!
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .filter((line) => line.trim() !== "@module")
    .map((line) => (line.trim() === "@example" ? "**Example**\n" : line))
    .join("\n")
    .trim()
}

/** `{@link Name}` / `{@link Name | text}` / `{@link Name text}` as markdown code or text. */
const links = (text: string): string =>
  text.replace(
    /\{@link(?:code|plain)?\s+([^}|\s]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g,
    (_, target: string, label: string) => label.trim() !== "" ? label.trim() : `\`${target}\``
  )

/**
 * Pointers to the repository's maintainer notes (`PROTOCOL.md §3.1`, `SPEC.md §4 "OAuth flow"`,
 * `§6 #1`, `wire samples emails/*`, `issue 15`): useful next to the code, meaningless to a user
 * of the package, who has neither file.
 */
const citation = String
  .raw`(?:docs\/)?(?:PROTOCOL|SPEC|DESIGN|ARCHITECTURE)\.md(?:'s)?|§\s?\d+(?:\.\d+)*(?:[–-]\d+(?:\.\d+)*)?|#\d+|row \d+|"[^"]*"|wire samples [\w/*.-]+|issue \d+|\b(?:see|and|also)\b`
const onlyCitations = new RegExp(String.raw`^(?:\s|${citation})*$`)
const hasCitation = /(?:PROTOCOL|SPEC|DESIGN|ARCHITECTURE)\.md|§\s?\d|wire samples|issue \d/
const leadingCitation = new RegExp(String.raw`^\s*(?:(?:${citation})\s*)+:\s*`)

/**
 * A parenthesis of the TSDoc without its citations of maintainer notes: `(PROTOCOL.md §3.4)` is
 * dropped, `(PROTOCOL.md §2.1: \`client_id\` …)` keeps its text, `(SPEC.md §5; a broken answer …)`
 * keeps the part after the citation.
 */
const withoutCitations = (text: string): string =>
  text.replace(/\s?\(((?:[^()]|\([^()]*\))*)\)/g, (whole, inner: string) => {
    if (!hasCitation.test(inner)) return whole
    const pieces = inner.split(/([;,]\s*)/)
    const kept: Array<string> = []
    for (let i = 0; i < pieces.length; i += 2) {
      const piece = pieces[i]!.replace(leadingCitation, "")
      if (onlyCitations.test(piece)) continue
      kept.push(piece.trim())
    }
    const space = whole.startsWith(" ") || whole.startsWith("\n") ? whole[0] : ""
    return kept.length === 0 ? "" : `${space}(${kept.join("; ")})`
  })

/** The comments inside a printed declaration, without citations of maintainer notes. */
const commentsForUsers = (code: string): string => code.replace(/\/\*\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => withoutCitations(comment))

/** Documentation text for users: links as code, citations of maintainer notes dropped; code blocks kept as written. */
const prose = (text: string): string =>
  text
    .split(/(```[\s\S]*?```)/)
    .map((part, index) => (index % 2 === 1 ? part : links(withoutCitations(part))))
    .join("")

const docText = (checker: ts.TypeChecker, symbol: ts.Symbol): string => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim()

const tagText = (tag: ts.JSDocTagInfo): string => ts.displayPartsToString(tag.text).trim()

const kindOf = (symbol: ts.Symbol, declaration: ts.Declaration | undefined): string => {
  if (declaration === undefined) return "value"
  if (ts.isSourceFile(declaration) || ts.isModuleDeclaration(declaration)) return "namespace"
  if (ts.isClassDeclaration(declaration)) return "class"
  if (ts.isInterfaceDeclaration(declaration)) return "interface"
  if (ts.isTypeAliasDeclaration(declaration)) return symbol.flags & ts.SymbolFlags.Value ? "const + type" : "type"
  if (ts.isEnumDeclaration(declaration)) return "enum"
  if (ts.isFunctionDeclaration(declaration)) return "function"
  if (ts.isVariableDeclaration(declaration)) {
    const isConst = (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0
    return symbol.flags & ts.SymbolFlags.Type ? "const + type" : isConst ? "const" : "let"
  }
  return ts.SyntaxKind[declaration.kind] ?? "value"
}

/** A type-level declaration (interface, type alias, enum) as written, its members' comments included. */
const printDeclaration = (declaration: ts.Node): string =>
  declaration.getText(declaration.getSourceFile()).replace(/\/\* @__PURE__ \*\/ ?/g, "").replace(/^export (declare )?/, "")

/** A class: its header and the names of its public members, as a declaration file would show it. */
const printClass = (checker: ts.TypeChecker, name: string, declaration: ts.ClassDeclaration): string => {
  const file = declaration.getSourceFile()
  const heritage = (declaration.heritageClauses ?? []).map((clause) => ` ${printer.printNode(ts.EmitHint.Unspecified, clause, file)}`).join("")
  const members = declaration.members
    .filter((member) => {
      const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : []
      return !modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword || modifier.kind === ts.SyntaxKind.ProtectedKeyword) &&
        !(member.name !== undefined && ts.isPrivateIdentifier(member.name))
    })
    .map((member) => {
      const symbol = member.name === undefined ? undefined : checker.getSymbolAtLocation(member.name)
      const isStatic = (ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : []).some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword)
      if (ts.isConstructorDeclaration(member)) {
        return `  constructor(${member.parameters.map((parameter) => printer.printNode(ts.EmitHint.Unspecified, parameter, file)).join(", ")})`
      }
      if (symbol === undefined) return undefined
      const type = checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, member), member, formatFlags)
      return `  ${isStatic ? "static " : ""}readonly ${symbol.getName()}: ${type}`
    })
    .filter((line): line is string => line !== undefined)
  return `class ${name}${declaration.typeParameters ? `<${declaration.typeParameters.map((p) => p.getText(file)).join(", ")}>` : ""}${heritage} {${
    members.length > 0 ? `\n${members.join("\n")}\n` : " "
  }}`
}

const signatureOf = (checker: ts.TypeChecker, name: string, symbol: ts.Symbol, kind: string): string => {
  const declarations = symbol.declarations ?? []
  const parts: Array<string> = []
  const value = declarations.find((declaration) => ts.isVariableDeclaration(declaration) || ts.isFunctionDeclaration(declaration))
  const klass = declarations.find(ts.isClassDeclaration)
  if (klass !== undefined) parts.push(printClass(checker, name, klass))
  else if (value !== undefined) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, value)
    if (ts.isFunctionDeclaration(value)) {
      const signatures = type.getCallSignatures().map((signature) => `function ${name}${checker.signatureToString(signature, value, formatFlags)}`)
      parts.push(...signatures)
    } else {
      parts.push(`${kind.startsWith("let") ? "let" : "const"} ${name}: ${checker.typeToString(type, value, formatFlags)}`)
    }
  }
  for (const declaration of declarations) {
    if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration) || ts.isEnumDeclaration(declaration)) {
      parts.push(printDeclaration(declaration))
    }
  }
  return commentsForUsers(scrubPaths(parts.join("\n\n")))
}

const entryOf = (checker: ts.TypeChecker, exported: ts.Symbol): ApiEntry => {
  const target = resolve(checker, exported)
  const declaration = target.declarations?.[0]
  const kind = kindOf(target, declaration)
  const name = exported.getName()
  const tags = target.getJsDocTags(checker)
  // an `export * as X` / `export { a as b }` may carry its own comment; else the target's
  const own = exported === target ? "" : docText(checker, exported)
  const moduleText = isModuleSymbol(target) ? moduleDoc(target.declarations!.find(ts.isSourceFile)!) : ""
  const doc = own !== "" ? own : moduleText !== "" ? moduleText.replace(/```[\s\S]*?```/g, "").trim() : docText(checker, target)
  return {
    name,
    kind,
    signature: isModuleSymbol(target) ? "" : signatureOf(checker, name, target, kind),
    doc: prose(scrubPaths(doc)),
    examples: isModuleSymbol(target) ? [] : tags.filter((tag) => tag.name === "example").map(tagText),
    deprecated: tags.find((tag) => tag.name === "deprecated") === undefined ? undefined : tagText(tags.find((tag) => tag.name === "deprecated")!)
  }
}

const byName = (a: ts.Symbol, b: ts.Symbol): number => {
  const x = a.getName()
  const y = b.getName()
  return x.toLowerCase() < y.toLowerCase() ? -1 : x.toLowerCase() > y.toLowerCase() ? 1 : x < y ? -1 : x > y ? 1 : 0
}

/** The reference pages of the package: each entry point's own exports, and each namespace it exports. */
export const collect = (program: ts.Program = makeProgram()): Array<ApiModule> => {
  const checker = program.getTypeChecker()
  const modules: Array<ApiModule> = []
  for (const entry of entryPoints) {
    const file = program.getSourceFile(path.join(root, entry.file))
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file)
    if (file === undefined || moduleSymbol === undefined) throw new Error(`${entry.file} is not a module`)
    const exports = checker.getExportsOfModule(moduleSymbol).slice().sort(byName)
    modules.push({
      page: entry.page,
      importLine: `import * as ${entry.alias} from "${entry.specifier}"`,
      doc: prose(moduleDoc(file)),
      entries: exports.map((symbol) => entryOf(checker, symbol))
    })
    for (const symbol of exports) {
      const target = resolve(checker, symbol)
      if (!isModuleSymbol(target)) continue
      const source = target.declarations!.find(ts.isSourceFile)!
      const own = docText(checker, symbol)
      modules.push({
        page: entry.page === "index" ? symbol.getName() : `${entry.page}.${symbol.getName()}`,
        importLine: `import { ${symbol.getName()} } from "${entry.specifier}"`,
        doc: prose([own, moduleDoc(source)].filter((text) => text !== "").join("\n\n")),
        entries: checker.getExportsOfModule(target).slice().sort(byName).map((member) => entryOf(checker, member))
      })
    }
  }
  return modulesNamedForUsers(modules)
}

/**
 * A source file's name in the prose (`PasswordReset.ts`, `src/session/cookies.ts`) as the public
 * module an app imports (`PasswordReset`, `Cookies`), when there is one of that name.
 */
const modulesNamedForUsers = (modules: ReadonlyArray<ApiModule>): Array<ApiModule> => {
  const byFile = new Map(
    modules.filter((module) => !entryPoints.some((entry) => entry.page === module.page)).map((module) => {
      const name = module.page.slice(module.page.lastIndexOf(".") + 1)
      return [name.toLowerCase(), name] as const
    })
  )
  const rename = (text: string): string =>
    text
      .split(/(```[\s\S]*?```)/)
      .map((part, index) =>
        index % 2 === 1 ? part : part.replace(/(?:[\w-]+\/)*([A-Za-z]+)\.tsx?\b/g, (whole, base: string) => byFile.get(base.toLowerCase()) ?? whole)
      )
      .join("")
  return modules.map((module) => ({
    ...module,
    doc: rename(module.doc),
    entries: module.entries.map((entry) => ({ ...entry, doc: rename(entry.doc) }))
  }))
}

const anchor = (name: string): string => name.toLowerCase().replace(/[^a-z0-9_-]/g, "")

const fenced = (code: string): string => (/^```/.test(code) ? code : `\`\`\`ts\n${code}\n\`\`\``)

/** The markdown of one page. */
export const renderModule = (module: ApiModule): string => {
  const lines: Array<string> = [`# ${module.page === "index" ? "stack-auth-effect" : module.page}`, "", "```ts", module.importLine, "```", ""]
  if (module.doc !== "") lines.push(module.doc, "")
  if (module.entries.length > 0) {
    lines.push("## Exports", "")
    for (const entry of module.entries) lines.push(`- [\`${entry.name}\`](#${anchor(entry.name)}) (${entry.kind})`)
    lines.push("")
  }
  for (const entry of module.entries) {
    lines.push(`## ${entry.name}`, "", `*${entry.kind}*`, "")
    if (entry.kind === "namespace") {
      const page = module.page === "index" ? entry.name : `${module.page}.${entry.name}`
      lines.push(`See [${page}](${page}.md).`, "")
    }
    if (entry.deprecated !== undefined) lines.push(`**Deprecated.** ${entry.deprecated}`, "")
    if (entry.signature !== "") lines.push("```ts", entry.signature, "```", "")
    if (entry.doc !== "") lines.push(entry.doc, "")
    for (const example of entry.examples) lines.push("**Example**", "", fenced(example), "")
  }
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`
}

const renderIndex = (modules: ReadonlyArray<ApiModule>): string => {
  const lines = [
    "# API reference",
    "",
    "Every public module of the package, generated from its TSDoc comments.",
    "",
    "| page | import | summary |",
    "|---|---|---|"
  ]
  for (const module of modules) {
    const summary = (module.doc.split(/\n\s*\n/)[0] ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim()
    lines.push(`| [${module.page}](${module.page}.md) | \`${module.importLine}\` | ${summary} |`)
  }
  return `${lines.join("\n")}\n`
}

/** The reference's files in memory: file name (relative to the reference folder) → markdown. */
export const render = (modules: ReadonlyArray<ApiModule> = collect()): Map<string, string> => {
  const files = new Map<string, string>()
  for (const module of modules) files.set(`${module.page}.md`, renderModule(module))
  files.set("README.md", renderIndex(modules))
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** Writes the reference into `outDir` (emptied first). */
export const generate = (outDir: string, program?: ts.Program): GenerateResult => {
  const modules = collect(program)
  const rendered = render(modules)
  fs.rmSync(outDir, { recursive: true, force: true })
  fs.mkdirSync(outDir, { recursive: true })
  for (const [file, text] of rendered) fs.writeFileSync(path.join(outDir, file), text)
  return { files: [...rendered.keys()], modules, undocumented: undocumentedOf(modules) }
}

/** `page.name` of every exported name without TSDoc text. */
const undocumentedOf = (modules: ReadonlyArray<ApiModule>): Array<string> =>
  modules.flatMap((module) => module.entries.filter((entry) => entry.doc === "" && entry.kind !== "namespace").map((entry) => `${module.page}.${entry.name}`))

/** How the committed reference differs from the sources' (file names relative to the folder). */
export interface CheckResult {
  /** Files the sources give that the folder lacks. */
  readonly missing: ReadonlyArray<string>
  /** Files of the folder the sources no longer give. */
  readonly extra: ReadonlyArray<string>
  /** Files whose text differs. */
  readonly stale: ReadonlyArray<string>
}

/** Compares the reference rendered in memory with the `.md` files of `dir` (the committed `docs/api/`); writes nothing. */
export const check = (dir: string, program?: ts.Program): CheckResult & { readonly names: number; readonly undocumented: ReadonlyArray<string> } => {
  const modules = collect(program)
  return { ...compareWith(dir, render(modules)), names: modules.reduce((sum, module) => sum + module.entries.length, 0), undocumented: undocumentedOf(modules) }
}

/** Compares rendered reference files with the `.md` files of `dir`. */
export const compareWith = (dir: string, rendered: ReadonlyMap<string, string>): CheckResult => {
  const present = fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file.endsWith(".md")).sort() : []
  return {
    missing: [...rendered.keys()].filter((file) => !present.includes(file)),
    extra: present.filter((file) => !rendered.has(file)),
    stale: present.filter((file) => rendered.has(file) && fs.readFileSync(path.join(dir, file), "utf8") !== rendered.get(file))
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2)
  const json = args.includes("--json")
  const outDir = path.resolve(args.find((arg) => !arg.startsWith("--")) ?? path.join(root, "docs", "api"))
  if (args.includes("--check")) {
    const result = check(outDir)
    const problems = [...result.missing.map((f) => `missing ${f}`), ...result.extra.map((f) => `extra ${f}`), ...result.stale.map((f) => `stale ${f}`)]
    if (json) process.stdout.write(JSON.stringify(result))
    else console.log(problems.length === 0 ? "API reference is current" : `API reference is not current (npm run docs):\n  ${problems.join("\n  ")}`)
    process.exitCode = problems.length === 0 || json ? 0 : 1
  } else {
    const result = generate(outDir)
    const names = result.modules.reduce((sum, module) => sum + module.entries.length, 0)
    if (json) {
      process.stdout.write(JSON.stringify({ files: result.files, names, undocumented: result.undocumented }))
    } else {
      console.log(`API reference: ${result.files.length} files, ${names} exported names in ${path.relative(process.cwd(), outDir) || "."}`)
      if (result.undocumented.length > 0) console.log(`${result.undocumented.length} exported names without TSDoc:\n  ${result.undocumented.join("\n  ")}`)
    }
  }
}
