/**
 * Finds the code examples of the documentation: the ```ts / ```tsx blocks of README.md and of
 * the guides (`docs/guides/*.md`), and the fenced blocks inside TSDoc comments (`@example`) of `src/` and `react/`, and type-checks them as
 * modules of one TypeScript program (the options of tsconfig.json: the package's entry points by
 * name, `effect`, … from node_modules).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** One code block of the documentation. */
export interface Example {
  /** The documented file, relative to the repository root (`src/auth/Mfa.ts`). */
  readonly file: string
  /** 1-based line of the block's first code line in `file`. */
  readonly line: number
  readonly lang: "ts" | "tsx"
  readonly code: string
}

const fence = /^```(ts|tsx|typescript)\s*$/

/** The ```ts / ```tsx blocks of a markdown text. */
export const markdownExamples = (file: string, text: string): Array<Example> => {
  const lines = text.split("\n")
  const found: Array<Example> = []
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!.trim())
    if (open === null) continue
    const start = i + 1
    let end = start
    while (end < lines.length && lines[end]!.trim() !== "```") end++
    found.push({ file, line: start + 1, lang: open[1] === "tsx" ? "tsx" : "ts", code: lines.slice(start, end).join("\n") })
    i = end
  }
  return found
}

/** The fenced ```ts / ```tsx blocks inside the `/** … *\/` comments of a source file, `* ` prefixes stripped. */
export const tsdocExamples = (file: string, text: string): Array<Example> => {
  const lines = text.split("\n")
  const found: Array<Example> = []
  const strip = (line: string) => line.replace(/^\s*\* ?/, "")
  let inDoc = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (!inDoc) {
      if (/^\s*\/\*\*/.test(line) && !line.includes("*/")) inDoc = true
      continue
    }
    if (line.includes("*/")) {
      inDoc = false
      continue
    }
    const open = fence.exec(strip(line).trim())
    if (open === null) continue
    const start = i + 1
    let end = start
    while (end < lines.length && strip(lines[end]!).trim() !== "```" && !lines[end]!.includes("*/")) end++
    found.push({
      file,
      line: start + 1,
      lang: open[1] === "tsx" ? "tsx" : "ts",
      code: lines.slice(start, end).map(strip).join("\n")
    })
    i = end
  }
  return found
}

/** `@example` tags of TSDoc comments (a line `* @example`), by 1-based line. */
export const exampleTagLines = (text: string): Array<number> =>
  text.split("\n").flatMap((line, index) => (/^\s*\*\s*@example\s*$/.test(line) ? [index + 1] : []))

const sourceFiles = (dir: string): Array<string> =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort()

/** The guides: every markdown file of `docs/guides/`, sorted. */
export const guideFiles = (): Array<string> =>
  fs
    .readdirSync(path.join(root, "docs", "guides"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/guides/${name}`)

/** The documented files: README.md, the guides, then every source file of `src/` and `react/`. */
export const documentedFiles = (): Array<string> => ["README.md", ...guideFiles(), ...sourceFiles("src"), ...sourceFiles("react")]

/**
 * The part of Next.js' types the guides use (`next/headers`, `next/server`), as Next 15 declares
 * them (the same signatures, fewer members), so that the guides' Next.js code is checked against
 * the shapes an app gets without installing the framework here. Written next to the examples,
 * outside the project's own sources.
 */
export const nextTypes = `declare module "next/headers" {
  export interface RequestCookie { name: string; value: string }
  export interface ResponseCookie extends RequestCookie {
    expires?: number | Date; maxAge?: number; domain?: string; path?: string; secure?: boolean
    httpOnly?: boolean; sameSite?: true | false | "lax" | "strict" | "none"; partitioned?: boolean
    priority?: "low" | "medium" | "high"
  }
  export interface ReadonlyRequestCookies {
    get(...args: [name: string] | [RequestCookie]): RequestCookie | undefined
    getAll(...args: [name: string] | [RequestCookie] | []): RequestCookie[]
    has(name: string): boolean
    set(...args: [key: string, value: string, cookie?: Partial<ResponseCookie>] | [options: ResponseCookie]): ReadonlyRequestCookies
    delete(...args: [key: string] | [options: Omit<ResponseCookie, "value" | "expires">]): ReadonlyRequestCookies
  }
  export function cookies(): Promise<ReadonlyRequestCookies>
  export function headers(): Promise<Headers>
}
declare module "next/navigation" {
  export function redirect(url: string): never
}
declare module "next/server" {
  import type { RequestCookie } from "next/headers"
  export interface RequestCookies {
    get(...args: [name: string] | [RequestCookie]): RequestCookie | undefined
    getAll(...args: [name: string] | [RequestCookie] | []): RequestCookie[]
    has(name: string): boolean
  }
  export class NextRequest extends Request {
    get cookies(): RequestCookies
    get nextUrl(): URL
  }
  export class NextResponse<Body = unknown> extends Response {
    static json<JsonBody>(body: JsonBody, init?: ResponseInit): NextResponse<JsonBody>
    static redirect(url: string | URL, init?: number | ResponseInit): NextResponse
    static next(init?: { headers?: HeadersInit; request?: { headers?: Headers } }): NextResponse
  }
}
`

/** Every example of a documented file. */
export const examplesOf = (file: string): Array<Example> => {
  const text = fs.readFileSync(path.join(root, file), "utf8")
  return file.endsWith(".md") ? markdownExamples(file, text) : tsdocExamples(file, text)
}

/** A failing example: where, and the compiler's message. */
export interface ExampleDiagnostic {
  readonly file: string
  readonly line: number
  readonly message: string
}

/**
 * A guide's block that is a file of an app (its first line names it, `// app/layout.tsx`): the
 * guide's blocks of this kind form one app, importing each other as `@/lib/stack-server`.
 */
const appFileOf = (example: Example): string | undefined => {
  if (!example.file.endsWith(".md")) return undefined
  const match = /^\/\/ ((?:[\w@.[\]()-]+\/)*[\w@.[\]()-]+\.tsx?)\s*$/.exec(example.code.split("\n", 1)[0]!)
  return match?.[1]
}

/** The incremental check's cache ({@link checkProjectAndExamples}). */
const buildInfoFile = path.join(root, "node_modules", ".cache", "stack-auth-effect-test", "examples.tsbuildinfo")

/** The unused-name diagnostics (noUnusedLocals, noUnusedParameters): not asked of an example. */
const unusedCodes = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205])

/**
 * Writes each example as a module into `outDir` (inside the repository, so `node_modules`
 * resolves) and type-checks them. Lines map 1:1 to the documented file; an `export {}` at the end
 * makes every block a module even without imports. Most examples are checked in one program with
 * tsconfig.json's options; the app files of a guide (first line `// app/page.tsx`) are written at
 * their paths in a folder per guide and checked in a second program with the module resolution
 * of a bundled app (`Bundler`, as Next.js' own tsconfig) and its `@/*` alias.
 */
export const checkExamples = (
  examples: ReadonlyArray<Example>,
  outDir: string,
  /** Source files of the repository (relative paths) checked for the Option-as-JSON rule only. */
  alsoFiles: ReadonlyArray<string> = []
): Array<ExampleDiagnostic> => check(examples, outDir, alsoFiles, false).examples

/**
 * {@link checkExamples}, with the examples' program also holding the project's own files
 * (tsconfig.json's, with all its options: the examples' unused names are not reported): one
 * program instead of the type check's and the examples' own. `project` is what `tsc --noEmit -p
 * tsconfig.json` (`npm run typecheck`) reports for them, formatted as it does ("" when none).
 */
export const checkProjectAndExamples = (
  examples: ReadonlyArray<Example>,
  outDir: string,
  alsoFiles: ReadonlyArray<string> = []
): { readonly examples: Array<ExampleDiagnostic>; readonly project: string } => check(examples, outDir, alsoFiles, true)

const check = (
  examples: ReadonlyArray<Example>,
  outDir: string,
  alsoFiles: ReadonlyArray<string>,
  withProject: boolean
): { readonly examples: Array<ExampleDiagnostic>; readonly project: string } => {
  fs.rmSync(outDir, { recursive: true, force: true })
  fs.mkdirSync(outDir, { recursive: true })
  const modules = new Map<string, Example>()
  const appFiles = new Map<string, Example>()
  const appDirs = new Set<string>()
  examples.forEach((example, index) => {
    const appFile = appFileOf(example)
    const dir = path.join(outDir, "apps", example.file.replace(/[^A-Za-z0-9]+/g, "_"))
    const target = appFile === undefined
      ? path.join(outDir, `${String(index).padStart(3, "0")}_${example.file.replace(/[^A-Za-z0-9]+/g, "_")}_L${example.line}.${example.lang}`)
      : path.join(dir, appFile)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.writeFileSync(target, `${example.code}\nexport {}\n`)
    if (appFile === undefined) modules.set(path.resolve(target), example)
    else {
      appFiles.set(path.resolve(target), example)
      appDirs.add(dir)
    }
  })
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  if (config === undefined) throw new Error("tsconfig.json could not be read")
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false }
  const extra = alsoFiles.map((file) => path.join(root, file))
  const shim = path.join(outDir, "next-types.d.ts")
  fs.writeFileSync(shim, nextTypes)
  const projectFiles = withProject ? config.fileNames.map((file) => path.resolve(file)) : []
  const rootNames = [...new Set([...projectFiles, ...modules.keys(), ...extra, shim])]
  // with the project: TypeScript's incremental builder (as `tsc --incremental`), its cache in
  // node_modules/.cache: the diagnostics of the files unchanged since the last check are reused
  const builder = withProject
    ? ts.createIncrementalProgram({
      rootNames,
      options: { ...config.options, noEmit: true, incremental: true, tsBuildInfoFile: buildInfoFile },
      configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config)
    })
    : undefined
  const program = builder?.getProgram() ?? ts.createProgram({ rootNames, options })
  /** Every file's diagnostics at once (the builder answers those of unchanged files from its cache), by file. */
  const byFile = new Map<string, Array<ts.Diagnostic>>()
  for (const diagnostic of builder === undefined ? [] : [...builder.getSyntacticDiagnostics(), ...builder.getSemanticDiagnostics()]) {
    const fileName = diagnostic.file === undefined ? "" : path.resolve(diagnostic.file.fileName)
    byFile.set(fileName, [...(byFile.get(fileName) ?? []), diagnostic])
  }
  const diagnosticsIn = (source: ts.SourceFile) => byFile.get(path.resolve(source.fileName)) ?? []
  const diagnostics: Array<ExampleDiagnostic & { readonly code?: number }> = []
  for (const [index, fileName] of extra.entries()) {
    const source = program.getSourceFile(fileName)
    if (source === undefined) continue
    for (const finding of optionJsonFindings(program.getTypeChecker(), source)) {
      diagnostics.push({ file: alsoFiles[index]!, line: finding.line + 1, message: finding.message })
    }
  }
  diagnostics.push(
    ...diagnosticsOf(program, modules, builder === undefined ? undefined : diagnosticsIn).filter((found) =>
      !withProject || found.code === undefined || !unusedCodes.has(found.code)
    )
  )
  if (appFiles.size > 0) {
    const appOptions: ts.CompilerOptions = {
      ...options,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      paths: { ...options.paths, "@/*": [...appDirs].map((dir) => `${dir}/*`) }
    }
    diagnostics.push(...diagnosticsOf(ts.createProgram({ rootNames: [...appFiles.keys(), shim], options: appOptions }), appFiles))
  }
  const project = builder === undefined ? [] : [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...projectFiles.flatMap((file) => {
      const source = program.getSourceFile(file)
      return source === undefined ? [] : diagnosticsIn(source)
    })
  ]
  // the cache for the next check (written whole, then renamed: a check running meanwhile reads a whole one)
  builder?.emit(undefined, (fileName, text) => {
    fs.mkdirSync(path.dirname(fileName), { recursive: true })
    fs.writeFileSync(`${fileName}.${process.pid}`, text)
    fs.renameSync(`${fileName}.${process.pid}`, fileName)
  })
  const host = { getCanonicalFileName: (file: string) => file, getCurrentDirectory: () => root, getNewLine: () => "\n" }
  return { examples: diagnostics.map(({ file, line, message }) => ({ file, line, message })), project: ts.formatDiagnostics(project, host) }
}

/** The compiler's diagnostics and the Option-as-JSON findings of the examples of a program, by documented file and line. */
const diagnosticsOf = (
  program: ts.Program,
  examples: ReadonlyMap<string, Example>,
  diagnosticsIn: (source: ts.SourceFile) => ReadonlyArray<ts.Diagnostic> = (source) => [
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source)
  ]
): Array<ExampleDiagnostic & { readonly code?: number }> => {
  const checker = program.getTypeChecker()
  const diagnostics: Array<ExampleDiagnostic & { readonly code?: number }> = []
  for (const [fileName, example] of examples) {
    const source = program.getSourceFile(fileName)
    if (source === undefined) {
      diagnostics.push({ file: example.file, line: example.line, message: "the example was not part of the program" })
      continue
    }
    for (const finding of optionJsonFindings(checker, source)) {
      diagnostics.push({ file: example.file, line: example.line + finding.line, message: finding.message })
    }
    for (const diagnostic of diagnosticsIn(source)) {
      const at = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line
      diagnostics.push({
        file: example.file,
        line: example.line + at,
        message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
        code: diagnostic.code
      })
    }
  }
  return diagnostics
}

/** Is the type an Effect `Option` (`None` / `Some` of effect/Option), or does it hold one (3 levels of properties, arrays, unions)? */
const holdsOption = (checker: ts.TypeChecker, type: ts.Type, depth: number, seen: Set<ts.Type>): boolean => {
  if (depth > 3 || seen.has(type)) return false
  seen.add(type)
  const symbol = type.aliasSymbol ?? type.getSymbol()
  const declaration = symbol?.declarations?.[0]
  if (
    symbol !== undefined && ["Option", "None", "Some"].includes(symbol.getName()) &&
    declaration !== undefined && /[\\/]effect[\\/]dist[\\/].*Option\.d\.ts$/.test(declaration.getSourceFile().fileName)
  ) return true
  if (type.isUnionOrIntersection()) return type.types.some((member) => holdsOption(checker, member, depth, seen))
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    return checker.getTypeArguments(type as ts.TypeReference).some((member) => holdsOption(checker, member, depth + 1, seen))
  }
  if ((type.flags & ts.TypeFlags.Object) === 0) return false
  return checker.getPropertiesOfType(type).some((property) => {
    const declared = property.valueDeclaration ?? property.declarations?.[0]
    return declared !== undefined && holdsOption(checker, checker.getTypeOfSymbolAtLocation(property, declared), depth + 1, seen)
  })
}

/**
 * Calls that send an Effect `Option` to a client as JSON: `Response.json(x)` / `JSON.stringify(x)`
 * where `x` is or holds an Option (it would arrive as `{"_id":"Option","_tag":"None"}`).
 */
export const optionJsonFindings = (checker: ts.TypeChecker, source: ts.SourceFile): Array<{ readonly line: number; readonly message: string }> => {
  const findings: Array<{ readonly line: number; readonly message: string }> = []
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments.length > 0) {
      const callee = node.expression.getText(source)
      if (callee === "Response.json" || callee === "JSON.stringify") {
        const argument = node.arguments[0]!
        if (holdsOption(checker, checker.getTypeAtLocation(argument), 0, new Set())) {
          findings.push({
            line: source.getLineAndCharacterOfPosition(argument.getStart(source)).line,
            message: `sends an Effect Option as JSON (${callee}(${argument.getText(source)})): send the value or null instead`
          })
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return findings
}

/** What the checker's child process is asked (on stdin, JSON). */
export interface CheckRequest {
  /** The examples to check; every documented example when absent. */
  readonly examples?: ReadonlyArray<Example> | undefined
  readonly outDir: string
  readonly alsoFiles?: ReadonlyArray<string> | undefined
  /** Check the project's own files in the same program ({@link checkProjectAndExamples}). */
  readonly project?: boolean | undefined
}

/**
 * Runs {@link checkExamples} in a child process (`node --import tsx`), so the test worker's event
 * loop stays free while the compiler works for tens of seconds.
 */
export const checkExamplesInChild = (request: CheckRequest): Promise<Array<ExampleDiagnostic>> =>
  inChild<{ readonly examples: Array<ExampleDiagnostic> }>({ ...request, project: false }).then((result) => result.examples)

/** Runs {@link checkProjectAndExamples} in a child process, as {@link checkExamplesInChild}. */
export const checkProjectAndExamplesInChild = (request: CheckRequest): Promise<ReturnType<typeof checkProjectAndExamples>> =>
  inChild({ ...request, project: true })

const inChild = async <A>(request: CheckRequest): Promise<A> => {
  const { spawn } = await import("node:child_process")
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], { cwd: root, stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("error", reject)
    child.on(
      "close",
      (code) => code === 0 ? resolve(JSON.parse(stdout) as A) : reject(new Error(`example checker exited with ${code}: ${stderr}`))
    )
    child.stdin.end(JSON.stringify(request))
  })
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const request = JSON.parse(fs.readFileSync(0, "utf8")) as CheckRequest
  const examples = request.examples ?? documentedFiles().flatMap(examplesOf)
  process.stdout.write(JSON.stringify(check(examples, request.outDir, request.alsoFiles ?? [], request.project === true)))
}
