/**
 * The packages the demo app's page imports, for Vite to pre-bundle before the first page is
 * served. Vite otherwise discovers some of them only while the browser loads the page (the SDK's
 * deep imports such as `effect/Schema`), bundles them again and reloads the page ("optimized
 * dependencies changed"): the first load took 8.6 s with a reload. The list is read from the
 * sources at start — the app's entry, through the package names mapped to the repository
 * (`stack-auth-effect`, `stack-auth-effect/react`) — so it never falls behind the code.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"

/** What the React plugin adds to every module (JSX runtimes) and what the entry renders with. */
const alwaysBundled = ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client"] as const

/**
 * Static imports and re-exports (`import … from "x"`, `export … from "x"`, `import "x"`), type-only
 * ones excluded, and dynamic imports (`import("x")`: a passkey library loaded on first use would
 * otherwise be discovered, and the page reloaded, in the middle of a sign-in).
 */
const importPattern = /(?:^|\n)[ \t]*(?:import|export)[ \t]+(type[ \t]+)?(?:[^'";]*?[ \t]from[ \t]*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g

const sourceExtensions = [".ts", ".tsx", "/index.ts", "/index.tsx", ""] as const

const resolveRelative = (from: string, specifier: string): string | undefined => {
  const base = resolve(dirname(from), specifier).replace(/\.jsx?$/, "")
  for (const extension of sourceExtensions) {
    const candidate = `${base}${extension}`
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate
  }
  return undefined
}

/**
 * The bare package imports reachable from `entry` (a source file), following relative imports
 * and `aliases` (package name → source file). Sorted, each once; the JSX runtimes included.
 */
export const packageImports = (entry: string, aliases: Readonly<Record<string, string>>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const packages = new Set<string>(alwaysBundled)
  const pending = [entry]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    for (const match of readFileSync(file, "utf8").matchAll(importPattern)) {
      if (match[1] !== undefined) continue
      const specifier = (match[2] ?? match[3])!
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier)
        if (target !== undefined) pending.push(target)
      } else if (aliases[specifier] !== undefined) {
        pending.push(aliases[specifier]!)
      } else if (!specifier.startsWith("node:")) {
        packages.add(specifier)
      }
    }
  }
  return [...packages].sort()
}
