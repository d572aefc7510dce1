/**
 * React's `"use client"` in the package as shipped: esbuild drops the directive when it bundles,
 * so the build (`scripts/build.ts`) puts it back at the top of every output file holding a module
 * that declares it. A Next.js App Router server component importing `stack-auth-effect/react`
 * needs it (without it the hooks and `createContext` run in the server graph and fail); the other
 * entries (`.`, `./server`, `./next`, `./emulator*`) must stay server modules, with every chunk
 * they load.
 *
 * Built once into a temporary folder (the JavaScript only), with the project's package.json and
 * node_modules beside it, and imported by the package's name from a fresh Node process with no
 * DOM, as a server renders.
 */
import type * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { parseSync } from "@babel/core"
import { describe, expect, it } from "vitest"
import { clientOutputs, declaresUseClient, projectRoot } from "../../scripts/build.js"
import { builtPackage } from "./builtPackage.js"

const built = builtPackage("stack-auth-effect-client-")

/** The built JavaScript files, relative to `dist/` (`react/index.js`, `chunks/chunk-….js`). */
const builtFiles = (): Array<string> =>
  Object.keys(built.metafile.outputs).filter((file) => file.endsWith(".js")).map((file) => relative(join(built.dir, "dist"), join(projectRoot, file)))

/** The metafile's entry for a built file given relative to `dist/`. */
const outputOf = (file: string) => built.metafile.outputs[relative(projectRoot, join(built.dir, "dist", file))]!

/** Whether a built file's first statement is the directive `"use client"` (parsed, so a string elsewhere does not count). */
const startsWithUseClient = (file: string): boolean => {
  const ast = parseSync(readFileSync(join(built.dir, "dist", file), "utf8"), { babelrc: false, configFile: false, sourceType: "module", filename: file })
  return ast?.program.directives[0]?.value.value === "use client"
}

/** The package's own built files an entry loads (relative to `dist/`): its file and every file it imports, transitively. */
const filesLoaded = (entry: string): Set<string> => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const imported of outputOf(file).imports) {
      if (imported.external !== true) visit(relative(join(built.dir, "dist"), join(projectRoot, imported.path)))
    }
  }
  visit(entry)
  return seen
}

/** Whether a built file imports React (its hooks, context or JSX runtime). */
const importsReact = (file: string): boolean =>
  outputOf(file).imports.some((imported) => imported.external === true && /^react(-dom)?(\/|$)/.test(imported.path))

describe("\"use client\" in the built package", () => {
  it("the React entry and every built file holding React code start with the directive, and no other file does", () => {
    const files = builtFiles()
    const client = files.filter(startsWithUseClient)
    expect(client).toContain("react/index.js")
    const withReact = files.filter(importsReact)
    expect(withReact.length).toBeGreaterThan(0)
    for (const file of withReact) expect(startsWithUseClient(file), file).toBe(true)
    // a file gets the directive because it holds a module that declares it, nothing else
    for (const file of files) {
      const holdsClientModule = Object.keys(outputOf(file).inputs).some((input) => declaresUseClient(readFileSync(join(projectRoot, input), "utf8")))
      expect(startsWithUseClient(file), file).toBe(holdsClientModule)
    }
  })

  it("the other entries and every chunk they load stay server modules (the chunks shared with the React entry hold no React code)", () => {
    const exports = (JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { exports: Record<string, { default?: string } | null> }).exports
    const serverEntries = Object.entries(exports)
      .filter(([subpath, target]) => subpath !== "./react" && target?.default !== undefined)
      .map(([, target]) => relative("dist", target!.default!.replace(/^\.\//, "")))
    expect(serverEntries).toEqual(expect.arrayContaining(["src/index.js", "src/server/index.js", "src/next/index.js", "src/emulator/index.js"]))
    const loaded = new Set(serverEntries.flatMap((entry) => [...filesLoaded(entry)]))
    const shared = [...filesLoaded("react/index.js")].filter((file) => loaded.has(file))
    expect(shared.length).toBeGreaterThan(0)
    expect([...loaded].filter(startsWithUseClient)).toEqual([])
    expect([...loaded].filter(importsReact)).toEqual([])
  })

  it("the emulator's command keeps its #! line first (the directive goes after it, where a file has both)", () => {
    expect(readFileSync(join(built.dir, "dist", "src", "emulator", "cli.js"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true)
  })

  it(
    "a Next.js server component's render: the built React entry, imported by name in a process with no window, renders StackProvider with react-dom/server",
    () => {
      const file = join(built.dir, "server-render.mjs")
      writeFileSync(
        file,
        `import { createElement } from "react"
import { renderToReadableStream, renderToString } from "react-dom/server"
import { Effect, ManagedRuntime } from "effect"
import { Stack } from "stack-auth-effect"
import * as Emulator from "stack-auth-effect/emulator"
import { StackProvider, useUser } from "stack-auth-effect/react"
const before = typeof window
const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
const runtime = ManagedRuntime.make(Stack.layerClient({ projectId: emulator.demo.projectId, publishableClientKey: emulator.demo.publishableClientKey, httpClient: Emulator.layerHttpClient(emulator), tokenStore: "memory" }))
const Who = () => createElement("p", null, "user: " + useUser().status)
const tree = createElement(StackProvider, { runtime }, createElement(Who))
const html = renderToString(tree)
const stream = await renderToReadableStream(tree)
await stream.allReady
const streamed = await new Response(stream).text()
await runtime.dispose()
console.log(JSON.stringify({ before, after: typeof window, html, streamed }))`
      )
      const run = spawnSync(process.execPath, [file], { cwd: built.dir, encoding: "utf8", timeout: 60_000 })
      expect(run.status, run.stderr.slice(-1500)).toBe(0)
      const out = JSON.parse(run.stdout.trim()) as { before: string; after: string; html: string; streamed: string }
      expect(out).toEqual({ before: "undefined", after: "undefined", html: "<p>user: loading</p>", streamed: "<p>user: loading</p>" })
      // what the process imported as `stack-auth-effect/react` is the built file checked above
      const resolved = spawnSync(process.execPath, ["--input-type=module", "-e", `console.log(import.meta.resolve("stack-auth-effect/react"))`], {
        cwd: built.dir,
        encoding: "utf8"
      })
      expect(new URL(resolved.stdout.trim()).pathname).toBe(join(built.dir, "dist", "react", "index.js"))
      expect(startsWithUseClient("react/index.js")).toBe(true)
      for (const chunk of [...filesLoaded("react/index.js")].filter(importsReact)) expect(startsWithUseClient(chunk), chunk).toBe(true)
    },
    60_000
  )
})

describe("the build's rule for the directive", () => {
  it("a source declares \"use client\" only in the directives that open it", () => {
    expect(declaresUseClient(`"use client"\nimport { useState } from "react"`)).toBe(true)
    expect(declaresUseClient(`/** The provider. */\n// client only\n"use strict";\n'use client';\nexport {}`)).toBe(true)
    expect(declaresUseClient(`#!/usr/bin/env node\n"use client"\n`)).toBe(true)
    expect(declaresUseClient(`import { useState } from "react"\n"use client"`)).toBe(false)
    expect(declaresUseClient(`export const mode = "use client"`)).toBe(false)
    expect(declaresUseClient(`"use client" + suffix`)).toBe(false)
    expect(declaresUseClient(`/** "use client" */\nexport {}`)).toBe(false)
    expect(declaresUseClient(readFileSync(join(projectRoot, "react/StackProvider.tsx"), "utf8"))).toBe(true)
    expect(declaresUseClient(readFileSync(join(projectRoot, "src/index.ts"), "utf8"))).toBe(false)
  })

  /** A metafile of three outputs: a React entry, a server entry and one chunk, the chunk holding `chunkInput`. */
  const metafileOf = (chunkInput: string, serverImportsReact: boolean): esbuild.Metafile => {
    const output = (inputs: ReadonlyArray<string>, imports: ReadonlyArray<string>): esbuild.Metafile["outputs"][string] => ({
      bytes: 1,
      inputs: Object.fromEntries(inputs.map((input) => [input, { bytesInOutput: 1 }])),
      imports: imports.map((path) => ({ path, kind: "import-statement" as const })),
      exports: []
    })
    return {
      inputs: {},
      outputs: {
        "dist/react/index.js": output(["react/index.ts", "react/hooks.ts"], ["dist/chunks/chunk-A.js"]),
        "dist/src/index.js": output(["src/index.ts"], serverImportsReact ? ["dist/react/index.js"] : ["dist/chunks/chunk-A.js"]),
        "dist/chunks/chunk-A.js": output([chunkInput], [])
      }
    }
  }
  const isClient = (input: string) => input === "react/hooks.ts" || input === "react/StackProvider.tsx"

  it("the files holding a client module get the directive; a server file importing one is refused", () => {
    expect([...clientOutputs(metafileOf("src/cache/QueryCache.ts", false), isClient)]).toEqual(["dist/react/index.js"])
    expect(() => clientOutputs(metafileOf("react/StackProvider.tsx", false), isClient)).toThrow(
      "build: a server file imports a \"use client\" file: dist/src/index.js imports dist/chunks/chunk-A.js"
    )
    expect(() => clientOutputs(metafileOf("src/cache/QueryCache.ts", true), isClient)).toThrow("dist/src/index.js imports dist/react/index.js")
  })
})
