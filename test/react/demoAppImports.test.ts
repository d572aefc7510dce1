/**
 * The demo app (examples/react-app/src) uses the SDK the way a real app does: through the
 * package's public names (`stack-auth-effect`, `stack-auth-effect/react`, …), never by a relative
 * path into the repository's `src/` or `react/`; its Vite config maps every name it uses to the
 * sources; its hooks come from `makeStackHooks(runtime)`; its session store is `Stack.layerClient`'s
 * browser default (no explicit token store).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { packageAliases } from "../../examples/react-app/server.js"

const appSrc = fileURLToPath(new URL("../../examples/react-app/src/", import.meta.url))

const sourceFiles = (folder: string): Array<string> =>
  fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })

const specifiers = (text: string): Array<string> =>
  [...text.matchAll(/(?:import|export)\s[^"']*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? ""
  )

const files = sourceFiles(appSrc)
const all = files.flatMap((file) => specifiers(fs.readFileSync(file, "utf8")).map((specifier) => ({ file, specifier })))

describe("the demo app's imports", () => {
  it("finds the app's modules and their imports", () => {
    expect(files.length).toBeGreaterThanOrEqual(10)
    expect(all.some((entry) => entry.specifier === "stack-auth-effect")).toBe(true)
  })

  it("imports the SDK only by the package's public names, never by a relative path into src/ or react/", () => {
    const escaping = all.filter(({ file, specifier }) => {
      if (!specifier.startsWith(".")) return false
      const target = path.resolve(path.dirname(file), specifier)
      return !target.startsWith(appSrc)
    })
    expect(escaping.map(({ file, specifier }) => `${path.relative(appSrc, file)}: ${specifier}`)).toEqual([])
  })

  it("every package name it imports is mapped to the sources by its Vite config", () => {
    const names = [...new Set(all.map((entry) => entry.specifier).filter((specifier) => /^stack-auth-effect(\/|$)/.test(specifier)))]
    expect(names.length).toBeGreaterThan(0)
    for (const name of names) {
      const alias = packageAliases.find((candidate) => candidate.find.test(name))
      expect(alias, name).toBeDefined()
      expect(fs.existsSync(alias!.replacement), alias!.replacement).toBe(true)
    }
  })

  it("its hooks are typed by the runtime (makeStackHooks), and it sets no token store of its own", () => {
    const runtime = fs.readFileSync(path.join(appSrc, "runtime.ts"), "utf8")
    expect(runtime).toContain("makeStackHooks(runtime)")
    expect(runtime).not.toMatch(/tokenStore|BrowserCookieStore/)
    const hookImports = all.filter((entry) => entry.specifier === "stack-auth-effect/react")
    // only the provider and makeStackHooks come from the package: the hooks come from the runtime module
    for (const { file } of hookImports) {
      const text = fs.readFileSync(file, "utf8")
      const imported = /import\s*\{([^}]*)\}\s*from\s*["']stack-auth-effect\/react["']/.exec(text)?.[1] ?? ""
      const names = imported.split(",").map((name) => name.trim()).filter((name) => name !== "")
      expect(names.filter((name) => name.startsWith("use")), path.relative(appSrc, file)).toEqual([])
    }
  })
})
