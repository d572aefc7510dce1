/**
 * The demo app (examples/react-app) for the browser tests that use it, bundled instead of served
 * by Vite's dev server: the same sources, the same emulator and app backend (what
 * {@link startDemo} starts), but the page is one HTML document, one script and one style sheet
 * (cached by the browser across steps) instead of about 260 modules revalidated on every load,
 * which was most of the CPU time of those tests. The bundle is esbuild's (the transformer Vite
 * itself uses), in development mode as `npm start` serves it: React's development build, JSX with
 * its development runtime. What only Vite's dev server does (pre-bundling the dependencies, one
 * load without a reload) is tested on the dev server itself (demoStates item 8, start.test.ts).
 */
import { readFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit, Scope } from "effect"
import { build } from "esbuild"
import type { Plugin } from "esbuild"
import { serve } from "../../src/emulator/server.js"
import { makeAppBackend } from "../../examples/react-app/appBackend.js"
import { appRoot, demoConfigs, demoProjectConfig, demoUser, packageAliases } from "../../examples/react-app/server.js"
import type { RunningDemo } from "../../examples/react-app/server.js"

/** The files of the bundle, by URL path (`/assets/main-HASH.js`), and the page that loads them. */
interface Bundle {
  readonly assets: ReadonlyMap<string, { readonly type: string; readonly body: Uint8Array }>
  /** index.html with the script and the style sheet pointing at the bundle's files. */
  readonly html: string
}

/** The package's names mapped to the repository's sources, as Vite's `resolve.alias` does for the app. */
const aliases: Plugin = {
  name: "package-aliases",
  setup: (build) => {
    for (const alias of packageAliases) build.onResolve({ filter: alias.find }, () => ({ path: alias.replacement }))
  }
}

const types: Readonly<Record<string, string>> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" }

/** Bundles the app's entry and style sheet (esbuild: about a second). */
const bundle = async (): Promise<Bundle> => {
  const result = await build({
    entryPoints: { main: `${appRoot}src/main.tsx`, styles: `${appRoot}src/styles.css` },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    jsxDev: true,
    define: { "process.env.NODE_ENV": "\"development\"" },
    plugins: [aliases],
    outdir: "/assets",
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    write: false,
    logLevel: "silent"
  })
  const assets = new Map(
    result.outputFiles.map((file) => [file.path, { type: types[/\.\w+$/.exec(file.path)![0]] ?? "application/octet-stream", body: file.contents }])
  )
  const named = (pattern: RegExp) => [...assets.keys()].find((path) => pattern.test(path))!
  const html = readFileSync(`${appRoot}index.html`, "utf8")
    .replace("href=\"/src/styles.css\"", `href="${named(/^\/assets\/styles-\w+\.css$/)}"`)
    .replace("src=\"/src/main.tsx\"", `src="${named(/^\/assets\/main-\w+\.js$/)}"`)
  if (html.includes("/src/")) throw new Error("index.html names a source file the bundle does not replace")
  return { assets, html }
}

/**
 * Starts the emulator (demo project + demo user seeded, as {@link startDemo}) and an HTTP server
 * on 127.0.0.1 serving the bundled app: its files (cached for good: their names carry their
 * hash), the app's backend under `/app-api/`, and index.html with `window.__STACK_DEMO__` for
 * every other path (a single-page app).
 */
export const startBundledDemo = async (): Promise<RunningDemo> => {
  const built = bundle()
  built.catch(() => undefined) // awaited below; not unhandled when the emulator fails first
  const scope = await Effect.runPromise(Scope.make())
  const closeScope = () => Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    const server = await Effect.runPromise(
      Scope.provide(serve({ port: 0, emulatorOptions: { demo: { config: demoProjectConfig, user: demoUser } } }), scope)
    )
    const emulator = server.emulator
    const { client: config, backend: backendOptions } = demoConfigs(server)
    const { assets, html } = await built
    const page = html.replace("<head>", `<head><script>window.__STACK_DEMO__ = ${JSON.stringify(config).replace(/</g, "\\u003c")}</script>`)
    const backend = makeAppBackend(backendOptions)
    const app = http.createServer((request, response) =>
      backend.middleware(request, response, () => {
        const asset = assets.get((request.url ?? "/").split("?")[0]!)
        if (asset !== undefined) {
          response.writeHead(200, { "content-type": asset.type, "cache-control": "public, max-age=31536000, immutable" }).end(asset.body)
        } else if (request.method === "GET" || request.method === "HEAD") {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" }).end(page)
        } else {
          response.writeHead(404).end()
        }
      })
    )
    await new Promise<void>((resolve, reject) => {
      app.once("error", reject)
      app.listen(0, "127.0.0.1", resolve)
    })
    let closed: Promise<void> | undefined
    const close = async () => {
      app.closeAllConnections()
      await new Promise((resolve) => app.close(resolve))
      await backend.close()
      await closeScope()
    }
    return {
      appUrl: `http://localhost:${(app.address() as AddressInfo).port}`,
      emulatorUrl: server.baseUrl,
      emulator,
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      demoUser,
      close: () => (closed ??= close())
    }
  } catch (error) {
    await closeScope()
    throw error
  }
}
