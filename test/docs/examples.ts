/**
 * Finds the code examples of the documentation: the ```ts / ```tsx blocks of README.md and the
 * fenced blocks inside TSDoc comments (`@example`) of `src/` and `react/`, and type-checks them as
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

/** The documented files: README.md, then every source file of `src/` and `react/`. */
export const documentedFiles = (): Array<string> => ["README.md", ...sourceFiles("src"), ...sourceFiles("react")]

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
 * Writes each example as a module into `outDir` (inside the repository, so `node_modules`
 * resolves) and type-checks them in one program. Lines map 1:1 to the documented file; an
 * `export {}` at the end makes every block a module even without imports.
 */
export const checkExamples = (examples: ReadonlyArray<Example>, outDir: string): Array<ExampleDiagnostic> => {
  fs.rmSync(outDir, { recursive: true, force: true })
  fs.mkdirSync(outDir, { recursive: true })
  const byPath = new Map<string, Example>()
  examples.forEach((example, index) => {
    const name = `${String(index).padStart(3, "0")}_${example.file.replace(/[^A-Za-z0-9]+/g, "_")}_L${example.line}.${example.lang}`
    const target = path.join(outDir, name)
    fs.writeFileSync(target, `${example.code}\nexport {}\n`)
    byPath.set(path.resolve(target), example)
  })
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  if (config === undefined) throw new Error("tsconfig.json could not be read")
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false }
  const program = ts.createProgram({ rootNames: [...byPath.keys()], options })
  const diagnostics: Array<ExampleDiagnostic> = []
  for (const [fileName, example] of byPath) {
    const source = program.getSourceFile(fileName)
    if (source === undefined) {
      diagnostics.push({ file: example.file, line: example.line, message: "the example was not part of the program" })
      continue
    }
    const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    for (const diagnostic of found) {
      const at = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line
      diagnostics.push({
        file: example.file,
        line: example.line + at,
        message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`
      })
    }
  }
  return diagnostics
}
