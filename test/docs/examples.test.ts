/**
 * Docs that compile: every ```ts / ```tsx block of README.md and of the guides (docs/guides), and
 * every `@example` of the TSDoc in `src/` and `react/`, is a module that type-checks against the
 * package's public entry points (tsconfig.json's options without the unused-name checks; a guide's
 * app files, `// app/page.tsx` on their first line, as one app with a bundler's resolution). The
 * project's own files are checked in the same program (`npm test`'s type check: one program for
 * both instead of `tsc` and this check each building their own).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import {
  checkExamplesInChild,
  checkProjectAndExamplesInChild,
  documentedFiles,
  type Example,
  type ExampleDiagnostic,
  examplesOf,
  exampleTagLines,
  guideFiles,
  markdownExamples,
  root,
  tsdocExamples
} from "./examples.js"

const files = documentedFiles()
const examples: Array<Example> = files.flatMap(examplesOf)
const documented = [...new Set(examples.map((example) => example.file))]
/** The server-rendering example app route: checked for the Option-as-JSON rule (tsc checks the rest). */
const serverRouteExample = "examples/next-server-route.ts"

describe("the example extractor", () => {
  it("finds the ```ts and ```tsx blocks of markdown, not ```sh", () => {
    const text = ["# t", "```sh", "npm i", "```", "```ts", "const a = 1", "```", "text", "```tsx", "<b />", "```"].join("\n")
    expect(markdownExamples("X.md", text)).toEqual([
      { file: "X.md", line: 6, lang: "ts", code: "const a = 1" },
      { file: "X.md", line: 10, lang: "tsx", code: "<b />" }
    ])
  })

  it("finds a TSDoc @example block with the `* ` prefixes stripped and its line in the file", () => {
    const text = ["/**", " * Doc.", " *", " * @example", " * ```ts", " * const a = 1", " *   .toString()", " * ```", " */"].join("\n")
    expect(tsdocExamples("x.ts", text)).toEqual([{ file: "x.ts", line: 6, lang: "ts", code: "const a = 1\n  .toString()" }])
  })

  const selftest = () =>
    checkExamplesInChild({
      examples: [
        { file: "x.ts", line: 10, lang: "ts", code: "import { Option } from \"effect\"\n\nOption.noSuchThing" },
        {
          file: "y.ts",
          line: 1,
          lang: "ts",
          code: [
            "import { Option } from \"effect\"",
            "declare const user: Option.Option<{ readonly id: string }>",
            "export const a = Response.json(user)",
            "export const b = JSON.stringify({ user })",
            "export const c = Response.json(Option.getOrNull(user))",
            "export const d = JSON.stringify([Option.some(1)])"
          ].join("\n")
        },
        // two files of one guide's app: the second imports the first by the app's `@/` alias
        { file: "g.md", line: 20, lang: "ts", code: "// lib/a.ts\nexport const a = 1" },
        { file: "g.md", line: 40, lang: "ts", code: "// app/b.ts\nimport { a } from \"@/lib/a\"\nexport const b: string = a" }
      ],
      outDir: path.join(root, "test-output/examples-selftest")
    })
  let found: Array<ExampleDiagnostic> = []
  beforeAll(async () => {
    found = await selftest()
  }, 240_000)

  it("reports a failing example by file and line", () => {
    const inX = found.filter((d) => d.file === "x.ts")
    expect(inX.map((d) => `${d.file}:${d.line}`)).toEqual(["x.ts:12"])
    expect(inX[0]!.message).toContain("noSuchThing")
  })

  it("checks a guide's app files (first line `// app/b.ts`) together, importing each other by `@/…`", () => {
    const inG = found.filter((d) => d.file === "g.md")
    expect(inG.map((d) => `${d.file}:${d.line}`)).toEqual(["g.md:42"])
    expect(inG[0]!.message).toContain("TS2322")
  })

  it("reports an example that sends an Effect Option as JSON (Response.json / JSON.stringify), directly or inside an object", () => {
    const inY = found.filter((d) => d.file === "y.ts")
    expect(inY.map((d) => `${d.file}:${d.line}`)).toEqual(["y.ts:3", "y.ts:4", "y.ts:6"])
    expect(inY[0]!.message).toContain("sends an Effect Option as JSON")
  })
})

describe("documentation examples", () => {
  let diagnostics: Array<ExampleDiagnostic> = []
  /** The project's own type errors, as `npm run typecheck` prints them: checked in the examples' program (one program, not two). */
  let projectErrors = ""
  beforeAll(async () => {
    const found = await checkProjectAndExamplesInChild({ outDir: path.join(root, "test-output/examples"), alsoFiles: [serverRouteExample] })
    diagnostics = found.examples
    projectErrors = found.project
  }, 300_000)

  it("the project type-checks: tsconfig.json's files with all its options (what `npm run typecheck` checks), in the examples' program", () => {
    expect(projectErrors).toBe("")
  })

  it("README.md and the TSDoc of src/ and react/ have examples to check", () => {
    expect(documented).toContain("README.md")
    expect(examples.filter((example) => example.file === "README.md").length).toBeGreaterThanOrEqual(5)
    expect(examples.length).toBeGreaterThanOrEqual(30)
  })

  it("every guide of docs/guides has examples, and they are checked", () => {
    const guides = guideFiles()
    expect(guides.length).toBeGreaterThanOrEqual(5)
    for (const guide of guides) expect(documented, guide).toContain(guide)
  })

  it("every @example tag is followed by a fenced ```ts or ```tsx block", () => {
    const bare = files
      .filter((file) => !file.endsWith(".md"))
      .flatMap((file) => {
        const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n")
        return exampleTagLines(lines.join("\n"))
          .filter((line) => !/^\s*\*\s*```(ts|tsx|typescript)\s*$/.test(lines[line] ?? ""))
          .map((line) => `${file}:${line}`)
      })
    expect(bare).toEqual([])
  })

  it("examples import the package by its public names, never a relative path", () => {
    const relative = examples
      .filter((example) => /\bfrom\s+["']\.{1,2}\//.test(example.code) || /\bimport\s*\(\s*["']\.{1,2}\//.test(example.code))
      .map((example) => `${example.file}:${example.line}`)
    expect(relative).toEqual([])
  })

  it("no example sends an Effect Option to the client as JSON, nor does examples/next-server-route.ts", () => {
    const findings = diagnostics.filter((d) => d.message.startsWith("sends an Effect Option as JSON")).map((d) => `${d.file}:${d.line} ${d.message}`)
    expect(findings).toEqual([])
  })

  for (const file of documented) {
    it(`${file}: every example type-checks`, () => {
      const failures = diagnostics.filter((d) => d.file === file).map((d) => `${d.file}:${d.line} ${d.message}`)
      expect(failures).toEqual([])
    })
  }
})
