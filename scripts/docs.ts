/**
 * The API reference: one markdown file per public module in `docs/api/` (or the folder given as
 * the first argument), generated from the TSDoc of the package's entry points with the TypeScript
 * compiler API. Each exported name gets its kind, its signature as an editor shows it, its TSDoc
 * text and its examples. Deterministic: names sorted, no paths, no dates.
 *
 * `npm run docs` (`tsx scripts/docs.ts [outDir] [--json]`); `test/docs/apiReference.test.ts` runs
 * it into a folder of test-output/.
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
  { specifier: "stack-auth-effect/next", file: "src/next/index.ts", page: "next", alias: "StackNext" }
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

const formatFlags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.WriteArrowStyleSignature |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed })

/** `/abs/path/file.ts` and `import("/abs/…")` never reach the output: the reference is machine-independent. */
const scrubPaths = (text: string): string =>
  text.replace(/import\("[^"]*"(?:, \{[^}]*\})?\)\./g, "").split(root + path.sep).join("")

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

const resolve = (checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol

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
  text.replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g, (_, target: string, label: string) =>
    label.trim() !== "" ? label.trim() : `\`${target}\``
  )

const docText = (checker: ts.TypeChecker, symbol: ts.Symbol): string =>
  ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim()

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
  return `class ${name}${declaration.typeParameters ? `<${declaration.typeParameters.map((p) => p.getText(file)).join(", ")}>` : ""}${heritage} {${members.length > 0 ? `\n${members.join("\n")}\n` : " "}}`
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
  return scrubPaths(parts.join("\n\n"))
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
    doc: links(scrubPaths(doc)),
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
      doc: links(moduleDoc(file)),
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
        doc: links([own, moduleDoc(source)].filter((text) => text !== "").join("\n\n")),
        entries: checker.getExportsOfModule(target).slice().sort(byName).map((member) => entryOf(checker, member))
      })
    }
  }
  return modules
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
  const lines = ["# API reference", "", "Generated from the TSDoc by `npm run docs` (`scripts/docs.ts`).", "", "| page | import | summary |", "|---|---|---|"]
  for (const module of modules) {
    const summary = (module.doc.split(/\n\s*\n/)[0] ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim()
    lines.push(`| [${module.page}](${module.page}.md) | \`${module.importLine}\` | ${summary} |`)
  }
  return `${lines.join("\n")}\n`
}

/** Writes the reference into `outDir` (emptied first). */
export const generate = (outDir: string, program?: ts.Program): GenerateResult => {
  const modules = collect(program)
  fs.rmSync(outDir, { recursive: true, force: true })
  fs.mkdirSync(outDir, { recursive: true })
  const files: Array<string> = []
  for (const module of modules) {
    fs.writeFileSync(path.join(outDir, `${module.page}.md`), renderModule(module))
    files.push(`${module.page}.md`)
  }
  fs.writeFileSync(path.join(outDir, "README.md"), renderIndex(modules))
  files.push("README.md")
  const undocumented = modules.flatMap((module) =>
    module.entries.filter((entry) => entry.doc === "" && entry.kind !== "namespace").map((entry) => `${module.page}.${entry.name}`)
  )
  return { files: files.sort(), modules, undocumented }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2)
  const json = args.includes("--json")
  const outDir = path.resolve(args.find((arg) => !arg.startsWith("--")) ?? path.join(root, "docs", "api"))
  const result = generate(outDir)
  const names = result.modules.reduce((sum, module) => sum + module.entries.length, 0)
  if (json) {
    process.stdout.write(JSON.stringify({ files: result.files, names, undocumented: result.undocumented }))
  } else {
    console.log(`API reference: ${result.files.length} files, ${names} exported names in ${path.relative(process.cwd(), outDir) || "."}`)
    if (result.undocumented.length > 0) console.log(`${result.undocumented.length} exported names without TSDoc:\n  ${result.undocumented.join("\n  ")}`)
  }
}
