/**
 * The package as shipped (`npm run build`, `scripts/build.ts`): each public entry is one bundled
 * file at the path package.json points to, sharing chunks with the other entries. Built once into
 * a temporary folder outside the repository (the JavaScript only: the declarations are `tsc`'s and
 * do not change), with the project's package.json beside it, and imported by the package's own
 * name from fresh Node processes (a package may import itself through its `exports`).
 */
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { parseSync } from "@babel/core"
import { describe, expect, it } from "vitest"
import { packageEntries, projectRoot } from "../../scripts/build.js"
import { builtPackage } from "./builtPackage.js"

const built = builtPackage("stack-auth-effect-package-")

/** Runs an ES module in a fresh Node process inside the package folder; its stdout, or the failure. */
const runFresh = (name: string, code: string): string => {
  const file = join(built.dir, `${name}.mjs`)
  writeFileSync(file, code)
  const run = spawnSync(process.execPath, [file], { cwd: built.dir, encoding: "utf8", timeout: 60_000 })
  if (run.status !== 0) throw new Error(`${name} exited with ${run.status}: ${run.stderr.slice(-1500)}`)
  return run.stdout.trim()
}

const specifiers = (): Array<string> => {
  const exports = (JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports
  return Object.entries(exports)
    .filter(([subpath, target]) => target !== null && !subpath.includes("*"))
    .map(([subpath]) => (subpath === "." ? "stack-auth-effect" : `stack-auth-effect/${subpath.slice(2)}`))
}

/** The package's own JavaScript files an entry loads: its file and every file it imports, transitively. */
const filesLoaded = (entry: string): Set<string> => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, "utf8")
    for (const match of code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^"';]*?["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(file), match[1]!))
  }
  visit(join(built.dir, "dist", entry))
  return seen
}

describe("the package is built as one bundled file per entry, entries sharing chunks", () => {
  it("every entry of package.json exports imports in a fresh Node process, by the package's name", () => {
    const names = specifiers()
    expect(names).toContain("stack-auth-effect/react")
    for (const specifier of names) {
      const out = runFresh("import-entry", `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).length)`)
      expect(Number(out), specifier).toBeGreaterThan(0)
    }
  }, 120_000)

  it("the emulator's command (package.json bin) keeps its #! line", () => {
    expect(readFileSync(join(built.dir, "dist", "src", "emulator", "cli.js"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true)
  })

  it("a source module is in exactly one output file, so entries share one instance of it (one Context tag, one class)", () => {
    const outputsOf = new Map<string, Array<string>>()
    for (const [output, { inputs }] of Object.entries(built.metafile.outputs)) {
      for (const input of Object.keys(inputs)) outputsOf.set(input, [...(outputsOf.get(input) ?? []), output])
    }
    const duplicated = [...outputsOf].filter(([, outputs]) => outputs.length > 1).map(([input]) => input)
    expect(duplicated).toEqual([])
    expect(outputsOf.get("src/cache/QueryCache.ts")).toHaveLength(1)
  })

  it("the main entry and the React entry load the same QueryCache and Session modules", () => {
    const main = filesLoaded("src/index.js")
    const react = filesLoaded("react/index.js")
    for (const source of ["src/cache/QueryCache.ts", "src/session/Session.ts"]) {
      const [output] = Object.entries(built.metafile.outputs).find(([, { inputs }]) => source in inputs)!
      const file = join(projectRoot, output)
      expect(main.has(file), source).toBe(true)
      expect(react.has(file), source).toBe(true)
    }
  })

  it("an error the React entry's hook fails with is an instance of the main entry's error class (one class across entries)", () => {
    const out = runFresh(
      "react-shares-classes",
      `import { createElement, Suspense } from "react"
import { prerenderToNodeStream } from "react-dom/static"
import { Effect, ManagedRuntime } from "effect"
import { Errors, Stack } from "stack-auth-effect"
import * as Emulator from "stack-auth-effect/emulator"
import { StackProvider, useSuspenseUser } from "stack-auth-effect/react"
const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
const runtime = ManagedRuntime.make(Stack.layerClient({ projectId: emulator.demo.projectId, publishableClientKey: emulator.demo.publishableClientKey, httpClient: Emulator.layerHttpClient(emulator), tokenStore: "memory" }))
const Who = () => createElement("p", null, String(useSuspenseUser({ or: "throw" })))
const errors = []
const { prelude } = await prerenderToNodeStream(
  createElement(StackProvider, { runtime }, createElement(Suspense, { fallback: "loading" }, createElement(Who))),
  { onError: (error) => { errors.push(error) } }
)
for await (const _ of prelude);
await runtime.dispose()
console.log(JSON.stringify(errors.map((error) => [error?._tag, error instanceof Errors.UserNotSignedIn])))`
    )
    expect(JSON.parse(out)).toEqual([["UserNotSignedIn", true]])
  }, 60_000)

  it("the main entry loads a handful of the package's files, not one per source module", () => {
    const sources = Object.keys(built.metafile.inputs).filter((input) => /^(src|react)\//.test(input)).length
    const loaded = filesLoaded("src/index.js").size
    expect(sources).toBeGreaterThan(150)
    // the shared chunks of the entries (esbuild's code splitting), nothing per module
    expect(loaded).toBeLessThanOrEqual(12)
    expect(loaded).toBeLessThanOrEqual(packageEntries().length + Object.keys(built.metafile.outputs).filter((file) => file.includes("/chunks/")).length)
  })

  it("an app's bundle of the main entry keeps only the namespaces it uses (namespace objects are pure)", async () => {
    const result = await esbuild.build({
      stdin: {
        contents: `import { Users } from "stack-auth-effect"\nexport const current = Users.getCurrent\n`,
        resolveDir: built.dir,
        loader: "js"
      },
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      external: ["effect", "effect/*", "@effect/*", "jose", "jose/*", "@simplewebauthn/*"],
      logLevel: "silent"
    })
    const code = result.outputFiles[0]!.text
    expect(code).toContain("Users_exports")
    for (const unused of ["EmailTemplates_exports", "AdminProjects_exports", "Passkeys_exports", "KnownErrors_exports"]) {
      expect(code, unused).not.toContain(unused)
    }
  })

  it("no built file of an export runs a call while it loads (what sideEffects: [] promises apps' bundlers)", () => {
    const bin = join(built.dir, "dist", "src", "emulator", "cli.js")
    const calls: Array<string> = []
    for (const output of Object.keys(built.metafile.outputs)) {
      const file = join(projectRoot, output)
      if (!file.endsWith(".js") || file === bin) continue
      const code = readFileSync(file, "utf8")
      const ast = parseSync(code, { sourceType: "module", babelrc: false, configFile: false })
      for (const statement of ast?.program.body ?? []) {
        if (statement.type !== "ExpressionStatement") continue
        const { type } = statement.expression
        if (type === "CallExpression" || type === "NewExpression" || type === "AwaitExpression") {
          calls.push(`${output.split("/dist/")[1]}:${statement.loc?.start.line}: ${code.slice(statement.start ?? 0, (statement.start ?? 0) + 60)}`)
        }
      }
    }
    expect(calls).toEqual([])
  })
})
