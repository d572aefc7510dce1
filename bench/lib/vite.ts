/**
 * Vite production builds of the bench's React pages (issue 28 items 3 and 8): an `index.html`
 * with a `#root` element and a module script mounting a page (a module exporting
 * `mount(element)`), built by `vite build` (production mode, its default minifier and chunking).
 * This SDK is the built package (`./package.ts`), resolved through its `exports`; React is one
 * copy for both sides (`bench/`'s, the one the official `@stackframe/react` was installed with),
 * as in `./bundle.ts`. The first load is the page's entry chunk and every chunk it imports
 * statically (Vite's manifest), gzip -9 summed file by file; `import()` chunks are lazy.
 */
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Plugin } from "vite"
import { benchDir } from "./bundle.js"
import { builtPackage, isPackageSpecifier } from "./package.js"

/** What a Vite build of a page gives. */
export interface ViteBuild {
  /** The folder served as the site (`index.html` and `assets/`). */
  readonly outDir: string
  /** Gzip -9 bytes of the JavaScript loaded first (entry chunk and its static imports). */
  readonly firstLoadGzipBytes: number
  /** Minified bytes of the same. */
  readonly firstLoadMinifiedBytes: number
  /** Gzip -9 bytes of the chunks reached only through `import()`. */
  readonly lazyGzipBytes: number
}

/** Resolves this SDK to the built package and React to `bench/`'s copy, whoever imports them (as imported by an existing file there: Vite resolves from the importer's folder only when the file exists). */
const resolvePlugin = (installed: string): Plugin => ({
  name: "bench-resolve",
  enforce: "pre",
  async resolveId(source, _importer, options) {
    if (isPackageSpecifier(source)) return this.resolve(source, join(installed, "package.json"), { ...options, skipSelf: true })
    if (/^(react|react-dom)(\/.*)?$/.test(source)) return this.resolve(source, join(benchDir, "package.json"), { ...options, skipSelf: true })
    return null
  }
})

/**
 * Builds a page with Vite into `outDir` (emptied first). `page` is an absolute path to a module
 * exporting `mount(element: HTMLElement)`; `title` goes into the page's `<title>`.
 */
export const viteBuildPage = async (page: string, outDir: string, title = "bench"): Promise<ViteBuild> => {
  const { build } = await import("vite")
  const installed = await builtPackage()
  const appDir = `${outDir}-app`
  rmSync(appDir, { recursive: true, force: true })
  mkdirSync(appDir, { recursive: true })
  writeFileSync(
    join(appDir, "index.html"),
    `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body><div id="root"></div><script type="module" src="./main.ts"></script></body>\n</html>\n`
  )
  writeFileSync(join(appDir, "main.ts"), `import { mount } from ${JSON.stringify(page)}\nmount(document.getElementById("root"))\n`)
  try {
    await build({
      // real paths: the work folders may sit below a symlinked node_modules, and Vite names the
      // page's output relative to its root
      root: realpathSync(appDir),
      configFile: false,
      logLevel: "silent",
      mode: "production",
      plugins: [resolvePlugin(installed)],
      esbuild: { jsx: "automatic" },
      // relative asset URLs: the built site can be served from any folder of a file server
      base: "./",
      build: { outDir, emptyOutDir: true, manifest: true, target: "es2022", reportCompressedSize: false }
    })
  } finally {
    rmSync(appDir, { recursive: true, force: true })
  }
  const manifest = JSON.parse(readFileSync(join(outDir, ".vite", "manifest.json"), "utf8")) as Record<
    string,
    { readonly file: string; readonly isEntry?: boolean; readonly imports?: ReadonlyArray<string>; readonly dynamicImports?: ReadonlyArray<string> }
  >
  const first = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (chunk === undefined || first.has(chunk.file)) return
    first.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry === true) visit(key)
  let firstGzip = 0
  let firstMinified = 0
  let lazyGzip = 0
  for (const chunk of new Set(Object.values(manifest).map((c) => c.file))) {
    if (!chunk.endsWith(".js")) continue
    const code = readFileSync(join(outDir, chunk))
    const gzip = gzipSync(code, { level: 9 }).byteLength
    if (first.has(chunk)) {
      firstGzip += gzip
      firstMinified += code.byteLength
    } else lazyGzip += gzip
  }
  return { outDir, firstLoadGzipBytes: firstGzip, firstLoadMinifiedBytes: firstMinified, lazyGzipBytes: lazyGzip }
}
