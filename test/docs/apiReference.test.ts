/**
 * The API reference under `docs/api/` (committed, shipped in the package): current with the
 * sources' TSDoc (`scripts/docs.ts --check` renders it in memory and compares, file by file), a
 * page per public module of every entry point, and written for users (no maintainer notes, no
 * source file names).
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Api from "stack-auth-effect"
import * as React from "stack-auth-effect/react"
import * as Next from "stack-auth-effect/next"
import * as Server from "../../src/server/index.js" // the `./server` entry (vitest.config.ts has no alias for it)
import * as Emulator from "stack-auth-effect/emulator"
import * as EmulatorServer from "stack-auth-effect/emulator/server"
import * as EmulatorMsw from "stack-auth-effect/emulator/msw"
import { beforeAll, describe, expect, it } from "vitest"
import { type CheckResult, compareWith } from "../../scripts/docs.js"
import { root } from "./examples.js"

/** What `scripts/docs.ts docs/api --check --json` reports. */
type Summary = CheckResult & { readonly names: number; readonly undocumented: ReadonlyArray<string> }

/**
 * Runs `tsx scripts/docs.ts docs/api --check --json` in a child process (the compiler works for
 * tens of seconds; the test worker's event loop stays free). It writes nothing.
 */
const runCheck = (): Promise<Summary> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(root, "scripts", "docs.ts"), path.join(root, "docs", "api"), "--check", "--json"],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error === null ? resolve(JSON.parse(stdout) as Summary) : reject(new Error(`${error.message}\n${stderr}`)))
    )
  })

const apiDir = path.join(root, "docs", "api")
const committed = fs.readdirSync(apiDir).filter((file) => file.endsWith(".md")).sort()
const page = (name: string) => fs.readFileSync(path.join(apiDir, `${name}.md`), "utf8")
const headings = (text: string) => new Set([...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]!))

/** The namespaces of an entry point at run time (`export * as X`): objects of functions and values. */
const namespaces = (entry: Record<string, unknown>) =>
  Object.entries(entry).filter(([, value]) => typeof value === "object" && value !== null && Object.getPrototypeOf(value) === null)

let result: Summary

beforeAll(async () => {
  result = await runCheck()
}, 300_000)

describe("the API reference (docs/api, npm run docs)", () => {
  it("is current: the committed files are those the sources' TSDoc gives today (else run npm run docs)", () => {
    expect({ missing: result.missing, extra: result.extra, stale: result.stale }).toEqual({ missing: [], extra: [], stale: [] })
  })

  it("the currency check reports a missing, an extra and a changed file", () => {
    const dir = path.join(root, "test-output", `api-compare-${process.pid}`)
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, "Same.md"), "# Same\n")
    fs.writeFileSync(path.join(dir, "Old.md"), "# Old\n")
    fs.writeFileSync(path.join(dir, "Changed.md"), "# Changed, by hand\n")
    const rendered = new Map([["Changed.md", "# Changed\n"], ["New.md", "# New\n"], ["Same.md", "# Same\n"]])
    expect(compareWith(dir, rendered)).toEqual({ missing: ["New.md"], extra: ["Old.md"], stale: ["Changed.md"] })
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("has a page per namespace of src/index.ts, and a page per entry point", () => {
    const expected = [
      ...namespaces(Api).map(([name]) => `${name}.md`),
      ...namespaces(Server).map(([name]) => `server.${name}.md`),
      "index.md",
      "react.md",
      "next.md",
      "server.md",
      "emulator.md",
      "emulator-server.md",
      "emulator-msw.md",
      "README.md"
    ]
    for (const file of expected) expect(committed).toContain(file)
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
    const entries = [["index", Api], ["react", React], ["next", Next], ["server", Server], ["emulator", Emulator], ["emulator-server", EmulatorServer], [
      "emulator-msw",
      EmulatorMsw
    ]] as const
    const missing = entries.flatMap(([name, entry]) => {
      const sections = headings(page(name))
      return Object.keys(entry).filter((member) => !sections.has(member)).map((member) => `${name}.${member}`)
    })
    expect(missing).toEqual([])
    const nested = ([["next", Next], ["server", Server]] as const).flatMap(([entry, values]) =>
      namespaces(values).flatMap(([name, members]) => {
        const sections = headings(page(`${entry}.${name}`))
        return Object.keys(members as object).filter((member) => !sections.has(member)).map((member) => `${entry}.${name}.${member}`)
      })
    )
    expect(nested).toEqual([])
  })

  it("lists types and interfaces too, with their signature and TSDoc", () => {
    const stack = page("Stack")
    expect(stack).toContain("## ClientOptions")
    expect(stack).toContain("interface ClientOptions")
    expect(stack).toMatch(/## layerClient\n\n\*const\*\n\n```ts\nconst layerClient: \(options/)
    // the @example of the module and of a function are in the page
    expect(page("Mfa")).toContain("Mfa.signIn({ attemptCode: error.details.attempt_code, totp })")
    expect(page("RetryPolicy")).toContain("**Example**")
  })

  it("every exported name has TSDoc", () => {
    expect(result.names).toBeGreaterThanOrEqual(1000)
    expect(result.undocumented).toEqual([])
  })

  it("is machine-independent: no absolute paths, no import(\"…\") types", () => {
    const leaks = committed.filter((file) => {
      const text = page(file.replace(/\.md$/, ""))
      return text.includes(root) || /import\("/.test(text)
    })
    expect(leaks).toEqual([])
  })

  it("is written for users: no maintainer notes (PROTOCOL.md §3.1), issue numbers or source file names", () => {
    const internal =
      /(?:PROTOCOL|SPEC|DESIGN|ARCHITECTURE)\.md|§\s?\d|wire.samples|\bissue \d|core\/internal|\b(?:src|react|session|core|auth|emulator|routes)\/[\w/.-]*\.tsx?\b|`[A-Za-z]+\.tsx?`|\bsee [A-Za-z]+\.tsx?\b/
    const found = committed.flatMap((file) =>
      page(file.replace(/\.md$/, "")).split("\n").flatMap((line, index) => (internal.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []))
    )
    expect(found).toEqual([])
  })
})
