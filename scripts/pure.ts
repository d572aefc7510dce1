/**
 * Pure annotations, added at build time instead of by hand (as Effect's own packages do with
 * `babel-plugin-annotate-pure-calls`): every call or `new` whose value is kept while a module
 * loads (`export const x = Schema.Struct(…)`, `class X extends KnownError(…)`) gets a
 * `/*#__PURE__*\/` comment, so a bundler may drop it when nothing uses it. Calls run for their
 * effect (a statement of their own) and calls inside functions are left alone.
 *
 * `annotatePure(code, file)` annotates one source text (TypeScript, TSX or JavaScript); the
 * command `tsx scripts/pure.ts DIR…` annotates every `.js` file below the folders in place. The
 * build (`scripts/build.ts`) applies the function to each file it bundles into `dist/`; the bench
 * applies it to the sources it bundles, so its figures are those of the published package.
 *
 * @module
 */
import { transformSync } from "@babel/core"
import annotatePureCalls from "babel-plugin-annotate-pure-calls"
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** Annotates the pure calls of one source text; `file` picks the syntax (`.ts`, `.tsx`, `.js`). */
export const annotatePure = (code: string, file: string): string => {
  const typescript = /\.(c|m)?tsx?$/.test(file)
  const result = transformSync(code, {
    filename: file,
    babelrc: false,
    configFile: false,
    sourceType: "module",
    compact: false,
    parserOpts: { plugins: typescript ? ["typescript", ...(file.endsWith("x") ? (["jsx"] as const) : [])] : ["jsx"] },
    plugins: [annotatePureCalls]
  })
  if (result?.code == null) throw new Error(`pure annotations: no output for ${file}`)
  return result.code
}

/** Every `.js` file below `dir`. */
const jsFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return jsFiles(path)
    return name.endsWith(".js") ? [path] : []
  })

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dirs = process.argv.slice(2)
  if (dirs.length === 0) {
    console.error("usage: tsx scripts/pure.ts DIR…")
    process.exit(2)
  }
  let files = 0
  for (const dir of dirs) {
    for (const file of jsFiles(dir)) {
      writeFileSync(file, annotatePure(readFileSync(file, "utf8"), file))
      files++
    }
  }
  console.log(`pure annotations: ${files} files`)
}
