/**
 * `npm run docs` (scripts/docs.ts): the API reference, one markdown page per public module,
 * generated from the TSDoc. Run here into a temp folder (test-output/, git-ignored).
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Api from "stack-auth-effect"
import * as React from "stack-auth-effect/react"
import * as Next from "stack-auth-effect/next"
import * as Emulator from "stack-auth-effect/emulator"
import { beforeAll, describe, expect, it } from "vitest"
import type { GenerateResult } from "../../scripts/docs.js"
import { root } from "./examples.js"

/** What `scripts/docs.ts <outDir> --json` reports (the type import keeps the script type-checked). */
type Summary = Pick<GenerateResult, "files" | "undocumented"> & { readonly names: number }

/**
 * Runs the generator as \`npm run docs\` does, in a child process (the compiler works for tens of
 * seconds; the test worker's event loop stays free).
 */
const runDocs = (dir: string): Promise<Summary> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(root, "scripts", "docs.ts"), dir, "--json"],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error === null ? resolve(JSON.parse(stdout) as Summary) : reject(new Error(`${error.message}\n${stderr}`)))
    )
  })

const outDir = path.join(root, "test-output", "api-reference")
const page = (name: string) => fs.readFileSync(path.join(outDir, `${name}.md`), "utf8")
const headings = (text: string) => new Set([...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]!))

/** The namespaces of an entry point at run time (`export * as X`): objects of functions and values. */
const namespaces = (entry: Record<string, unknown>) =>
  Object.entries(entry).filter(([, value]) => typeof value === "object" && value !== null && Object.getPrototypeOf(value) === null)

let result: Summary

beforeAll(async () => {
  result = await runDocs(outDir)
}, 300_000)

describe("the API reference (npm run docs)", () => {
  it("writes a page per namespace of src/index.ts, and a page per entry point", () => {
    const expected = [
      ...namespaces(Api).map(([name]) => `${name}.md`),
      "index.md", "react.md", "next.md", "emulator.md", "emulator-server.md", "emulator-msw.md", "README.md"
    ]
    for (const file of expected) expect(result.files).toContain(file)
    expect(namespaces(Api).length).toBeGreaterThanOrEqual(50)
  })

  it("every exported value of every namespace of src/index.ts has a section in its page", () => {
    const missing = namespaces(Api).flatMap(([name, members]) => {
      const sections = headings(page(name))
      return Object.keys(members as object).filter((member) => !sections.has(member)).map((member) => `${name}.${member}`)
    })
    expect(missing).toEqual([])
  })

  it("every exported value of the other entry points has a section in its page", () => {
    const missing = ([["index", Api], ["react", React], ["next", Next], ["emulator", Emulator]] as const).flatMap(([name, entry]) => {
      const sections = headings(page(name))
      return Object.keys(entry).filter((member) => !sections.has(member)).map((member) => `${name}.${member}`)
    })
    expect(missing).toEqual([])
    const nested = namespaces(Next).flatMap(([name, members]) => {
      const sections = headings(page(`next.${name}`))
      return Object.keys(members as object).filter((member) => !sections.has(member)).map((member) => `next.${name}.${member}`)
    })
    expect(nested).toEqual([])
  })

  it("lists types and interfaces too, with their signature and TSDoc", () => {
    const stack = page("Stack")
    expect(stack).toContain("## ClientOptions")
    expect(stack).toContain("interface ClientOptions")
    expect(stack).toMatch(/## layerClient\n\n\*const\*\n\n```ts\nconst layerClient: \(options/)
    // the @example of the module and of a function are in the page
    expect(page("Mfa")).toContain('Mfa.signIn({ attemptCode: error.details.attempt_code, totp })')
    expect(page("RetryPolicy")).toContain("**Example**")
  })

  it("every exported name has TSDoc", () => {
    expect(result.names).toBeGreaterThanOrEqual(1000)
    expect(result.undocumented).toEqual([])
  })

  it("is deterministic: a second run writes the same bytes", async () => {
    const again = path.join(root, "test-output", "api-reference-again")
    const second = await runDocs(again)
    expect(second.files).toEqual(result.files)
    const differing = result.files.filter(
      (file) => fs.readFileSync(path.join(outDir, file), "utf8") !== fs.readFileSync(path.join(again, file), "utf8")
    )
    expect(differing).toEqual([])
  }, 300_000)

  it("is machine-independent: no absolute paths, no import(\"…\") types", () => {
    const leaks = result.files.filter((file) => {
      const text = fs.readFileSync(path.join(outDir, file), "utf8")
      return text.includes(root) || /import\("/.test(text)
    })
    expect(leaks).toEqual([])
  })
})
