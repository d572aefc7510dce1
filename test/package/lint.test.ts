/**
 * The linter and the formatter: `npm test` runs `npm run lint` (ESLint, check only) before the tests
 * (whose test/docs/examples.test.ts type-checks the project, in one program with the documentation's
 * examples), CI runs `npm test`, and `npm run format` writes the formatting. The
 * configuration (eslint.config.js) is checked through ESLint's own API on small texts: dprint's
 * formatting in this repository's style, and the rules beside it.
 */
import { ESLint } from "eslint"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { projectRoot } from "../../scripts/build.js"

const pkg = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }

let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: projectRoot })
})

/** The rule of each problem ESLint reports for `code` as the file `file` (relative to the project root). */
const problems = async (code: string, file = "src/example.ts"): Promise<Array<string>> => {
  const [result] = await eslint.lintText(code, { filePath: join(projectRoot, file) })
  return result!.messages.map((message) => message.ruleId ?? message.message)
}

/** `code` as `npm run format` writes it. */
const formatted = async (code: string, file = "src/example.ts"): Promise<string> => {
  const fixer = new ESLint({ cwd: projectRoot, fix: true })
  const [result] = await fixer.lintText(code, { filePath: join(projectRoot, file) })
  return result!.output ?? code
}

describe("npm test and CI run the linter", () => {
  it("npm test: lint, then the tests, which type-check the project (tsconfig.json, as npm run typecheck); lint only checks, format writes", () => {
    const steps = pkg.scripts["test"]!.split(" && ")
    expect(steps.slice(0, 2).map((step) => step.split(" ").slice(0, 3).join(" "))).toEqual([
      "npm run lint",
      "vitest run --reporter=default"
    ])
    // the type check: one program with the documentation's examples (test/docs/examples.test.ts)
    expect(pkg.scripts["typecheck"]).toBe("tsc --noEmit -p tsconfig.json")
    const examplesTest = readFileSync(join(projectRoot, "test/docs/examples.test.ts"), "utf8")
    expect(examplesTest).toContain("checkProjectAndExamplesInChild(")
    expect(examplesTest).toContain("expect(projectErrors).toBe(\"\")")
    expect(pkg.scripts["lint"]).toMatch(/^eslint (?!.*--fix).* \.$/)
    expect(pkg.scripts["format"]).toMatch(/^eslint --fix .* \.$/)
    const ci = readFileSync(join(projectRoot, ".ci/run"), "utf8")
    expect(ci).toMatch(/^npm test$/m)
  })

  it("every source folder is linted: src, react, test, scripts, examples, bench, and the config files", async () => {
    for (
      const file of [
        "src/index.ts",
        "react/StackProvider.tsx",
        "test/package/lint.test.ts",
        "scripts/build.ts",
        "examples/demo.ts",
        "bench/run.ts",
        "scripts/react18.mjs",
        "vitest.config.ts",
        "eslint.config.js"
      ]
    ) {
      expect(await eslint.isPathIgnored(join(projectRoot, file)), file).toBe(false)
    }
    for (const file of ["dist/src/index.js", "node_modules/effect/dist/esm/index.js", "docs/api/index.md"]) {
      expect(await eslint.isPathIgnored(join(projectRoot, file)), file).toBe(true)
    }
  })
})

describe("formatting: dprint in this repository's style (2 spaces, no semicolons, double quotes, no trailing commas)", () => {
  it("code in the style passes", async () => {
    const code = `import * as Effect from "effect/Effect"

/** Doubles. */
export const double = (n: number): Effect.Effect<number> =>
  Effect.gen(function* () {
    const value = yield* Effect.succeed(n)
    return value * 2
  })

export const pair = { first: "a", second: "it's" }
`
    expect(await problems(code)).toEqual([])
    expect(await problems(code.replace(`"it's"`, `'it\\'s'`))).toEqual(["@effect/dprint"])
  })

  it("semicolons, single quotes, 4-space indents and trailing commas are reported, and format rewrites them", async () => {
    const code = `export const make = (n: number) => {\n    const list = ['a', 'b',];\n    return { n, list, };\n}\n`
    expect((await problems(code)).length).toBeGreaterThan(0)
    expect(new Set(await problems(code))).toEqual(new Set(["@effect/dprint"]))
    expect(await formatted(code)).toBe(`export const make = (n: number) => {\n  const list = ["a", "b"]\n  return { n, list }\n}\n`)
  })

  it("a generic arrow function in TSX keeps the comma that tells it from JSX (format does not break the file)", async () => {
    const code = `export const id = <A,>(a: A) => a\n`
    expect(await problems(code, "react/Example.tsx")).toEqual([])
    expect(await formatted(code, "react/Example.tsx")).toBe(code)
    expect(await formatted(`export const f = <A,>(a: A) => a\n`, "src/example.ts")).toBe(`export const f = <A>(a: A) => a\n`)
  })

  it("TSX and plain JavaScript modules are formatted too", async () => {
    expect(await problems(`export const A = () => <p className='x'>a</p>;\n`, "react/Example.tsx")).toEqual(["@effect/dprint"])
    expect(await problems(`export const a = 'x';\n`, "scripts/example.mjs")).toEqual(["@effect/dprint"])
  })
})

describe("the rules beside formatting", () => {
  it("ESLint's and typescript-eslint's recommended rules apply", async () => {
    expect(await problems(`export const f = () => {\n  debugger\n}\n`)).toEqual(["no-debugger"])
    expect(await problems(`// @ts-ignore\nexport const n: number = 1\n`)).toEqual(["@typescript-eslint/ban-ts-comment"])
  })

  it("arrays are written Array<A> and ReadonlyArray<A>, as in the rest of the code", async () => {
    expect(await problems(`export const xs: string[] = []\n`)).toEqual(["@typescript-eslint/array-type"])
    expect(await problems(`export const xs: readonly string[] = []\n`)).toEqual(["@typescript-eslint/array-type"])
    expect(await problems(`export const xs: ReadonlyArray<string> = []\n`)).toEqual([])
  })

  it("this is aliased only as self (for a method's Effect.gen), and a || b as a statement is allowed", async () => {
    expect(await problems(`export class A {\n  f() {\n    const that = this\n    return that\n  }\n}\n`)).toEqual(["@typescript-eslint/no-this-alias"])
    expect(await problems(`export class A {\n  f() {\n    const self = this\n    return self\n  }\n}\n`)).toEqual([])
    expect(await problems(`export const f = (a: () => boolean, b: () => boolean) => {\n  a() || b()\n}\n`)).toEqual([])
    expect(await problems(`export const f = (a: number) => {\n  a + 1\n}\n`)).toEqual(["@typescript-eslint/no-unused-expressions"])
  })

  it("Node's globals are known in plain JavaScript files (scripts/*.mjs)", async () => {
    expect(await problems(`console.log(process.argv.length)\n`, "scripts/example.mjs")).toEqual([])
    expect(await problems(`console.log(undefinedName)\n`, "scripts/example.mjs")).toEqual(["no-undef"])
  })
})
