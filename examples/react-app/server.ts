/**
 * The demo app's servers in one Node process: the emulator (the Stack Auth API, in memory, over
 * HTTP) and the Vite dev server of the React app, both on 127.0.0.1. The demo project is seeded
 * with every sign-in method on (password, magic link, OAuth with the emulator's mock provider,
 * passkeys), client team creation, user deletion and API keys allowed, and one demo user.
 *
 * `start.ts` (`npm start`) prints what {@link startDemo} returns; the browser tests start it on
 * free ports.
 *
 * @module
 */
import { createRequire } from "node:module"
import * as net from "node:net"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import react from "@vitejs/plugin-react"
import { Effect, Exit, Scope } from "effect"
import { createServer } from "vite"
import type { ViteDevServer } from "vite"
import type { Emulator, ProjectConfig } from "stack-auth-effect/emulator"
import { defaults } from "stack-auth-effect/emulator"
import { serve } from "stack-auth-effect/emulator/server"
import { makeAppBackend } from "./appBackend.js"
import type { AppBackendOptions } from "./appBackend.js"
import { packageImports } from "./dependencies.js"

/** The folder of the app (Vite's root). */
export const appRoot = fileURLToPath(new URL(".", import.meta.url))

/** The repository (the app imports the SDK from its sources). */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url))

/**
 * The package's public names, as an app imports them (package.json "exports"), mapped to the
 * repository's sources: the app's code reads `import { Stack } from "stack-auth-effect"` like a real
 * app's, and tsc resolves the same names through tsconfig.json's `paths`.
 */
export const packageAliases: ReadonlyArray<{ readonly find: RegExp; readonly replacement: string }> = [
  { find: /^stack-auth-effect$/, replacement: `${repoRoot}src/index.ts` },
  { find: /^stack-auth-effect\/react$/, replacement: `${repoRoot}react/index.ts` },
  { find: /^stack-auth-effect\/next$/, replacement: `${repoRoot}src/next/index.ts` },
  { find: /^stack-auth-effect\/emulator$/, replacement: `${repoRoot}src/emulator/index.ts` }
]

/** The seeded demo user: the emulator's own (`defaults.demoUser`, as for `Emulator.make()` and `npx stack-auth-emulator`). */
export const demoUser = defaults.demoUser

/** What the demo project allows: the emulator's demo switches (`defaults.demoConfig`, every one on). */
export const demoProjectConfig: Partial<ProjectConfig> = defaults.demoConfig

/** What the app reads at start (`window.__STACK_DEMO__`, written into index.html). */
export interface DemoClientConfig {
  readonly apiUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly demoUser: { readonly email: string; readonly password: string }
}

/** The part of a running emulator the demo reads: its URL and its demo project's keys. */
export interface DemoEmulator {
  readonly baseUrl: string
  readonly emulator: {
    readonly demo: { readonly projectId: string; readonly publishableClientKey: string; readonly secretServerKey: string }
  }
}

/** What the app's page ({@link DemoClientConfig}) and its backend are given, read from the running emulator. */
export const demoConfigs = (server: DemoEmulator): { readonly client: DemoClientConfig; readonly backend: AppBackendOptions } => {
  const { demo } = server.emulator
  return {
    client: {
      apiUrl: server.baseUrl,
      projectId: demo.projectId,
      publishableClientKey: demo.publishableClientKey,
      demoUser: { email: demoUser.email, password: demoUser.password }
    },
    backend: {
      baseUrl: server.baseUrl,
      projectId: demo.projectId,
      publishableClientKey: demo.publishableClientKey,
      secretServerKey: demo.secretServerKey
    }
  }
}

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the app (Vite); 0 picks a free one. Default 3000. */
  readonly port?: number
  /** Port of the emulator; 0 picks a free one. Default 8102. */
  readonly emulatorPort?: number
  /** Hot reload and file watching (default true; tests turn them off). */
  readonly watch?: boolean
  /** Vite's log level (default "info"). */
  readonly logLevel?: "info" | "warn" | "error" | "silent"
  /** Vite's cache of pre-bundled dependencies (default `node_modules/.vite-react-app`). */
  readonly cacheDir?: string
}

/** The running demo. */
export interface RunningDemo {
  /** `http://localhost:{port}` — a host name, not an IP address: passkeys need a domain as relying-party id. */
  readonly appUrl: string
  /** The emulator's base URL, `http://127.0.0.1:{port}`. */
  readonly emulatorUrl: string
  readonly emulator: Emulator
  readonly projectId: string
  readonly publishableClientKey: string
  readonly demoUser: typeof demoUser
  /** Stops the app server, then the emulator. Safe to call twice. */
  readonly close: () => Promise<void>
}

/**
 * The packages the page imports (read from the sources: ./dependencies.ts), pre-bundled before the
 * first page is served, so that loading it does not make Vite bundle again and reload the page.
 */
export const prebundledDependencies = (): ReadonlyArray<string> =>
  packageImports(`${appRoot}src/main.tsx`, {
    "stack-auth-effect": `${repoRoot}src/index.ts`,
    "stack-auth-effect/react": `${repoRoot}react/index.ts`
  }).filter(resolvable)

/** A free port on 127.0.0.1 (Vite takes `port: 0` for "the default port"). */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })

/**
 * The Vite dev server of the app, talking to the API at `config.apiUrl`. With `backend` (server
 * access to the project) it also serves the app's own backend under `/app-api/` (./appBackend.ts:
 * granting and revoking team permissions, which a browser may not do); it stops with the server.
 */
export const createAppServer = async (
  config: DemoClientConfig,
  options: DemoOptions = {},
  backend?: AppBackendOptions
): Promise<ViteDevServer> => {
  const watch = options.watch ?? true
  const port = options.port === 0 ? await freePort() : (options.port ?? 3000)
  return createServer({
    configFile: false,
    envFile: false,
    root: appRoot,
    mode: "development",
    appType: "spa",
    clearScreen: false,
    logLevel: options.logLevel ?? "info",
    cacheDir: options.cacheDir ?? `${repoRoot}node_modules/.vite-react-app`,
    plugins: [
      react(),
      {
        name: "stack-demo-backend",
        configureServer: (server) => {
          if (backend === undefined) return
          const app = makeAppBackend(backend)
          server.middlewares.use(app.middleware)
          server.httpServer?.once("close", () => void app.close())
        }
      },
      {
        // the API URL and keys go into the page, not into `define`: a `define` change (a new
        // port) would make Vite pre-bundle the dependencies again
        name: "stack-demo-config",
        transformIndexHtml: () => [
          { tag: "script", injectTo: "head-prepend", children: `window.__STACK_DEMO__ = ${JSON.stringify(config).replace(/</g, "\\u003c")}` }
        ]
      }
    ],
    resolve: { alias: [...packageAliases], dedupe: ["react", "react-dom", "effect"] },
    optimizeDeps: { entries: ["index.html"], include: [...prebundledDependencies()] },
    server: {
      host: "127.0.0.1",
      port,
      strictPort: true,
      fs: { allow: [repoRoot] },
      hmr: watch,
      ...(watch ? {} : { watch: null })
    }
  })
}

const require = createRequire(import.meta.url)
const resolvable = (specifier: string): boolean => {
  try {
    require.resolve(specifier, { paths: [repoRoot] })
    return true
  } catch {
    return false
  }
}

/**
 * Starts the emulator (demo project + demo user seeded) and the app's dev server. Fails (rejects)
 * when a port is taken; what was started is stopped again.
 */
export const startDemo = async (options: DemoOptions = {}): Promise<RunningDemo> => {
  const scope = await Effect.runPromise(Scope.make())
  const closeScope = () => Effect.runPromise(Scope.close(scope, Exit.void))
  let vite: ViteDevServer | undefined
  try {
    const server = await Effect.runPromise(
      // the emulator seeds the demo project's switches and its demo user at start
      Scope.provide(
        serve({ port: options.emulatorPort ?? 8102, emulatorOptions: { demo: { config: demoProjectConfig, user: demoUser } } }),
        scope
      )
    )
    const emulator = server.emulator
    const { client: config, backend } = demoConfigs(server)
    vite = await createAppServer(config, options, backend)
    await vite.listen()
    const address = vite.httpServer?.address() as AddressInfo | null | undefined
    if (address === null || address === undefined) throw new Error("The app server did not report its address.")
    const appUrl = `http://localhost:${address.port}`
    const running = vite
    let closed: Promise<void> | undefined
    return {
      appUrl,
      emulatorUrl: server.baseUrl,
      emulator,
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      demoUser,
      close: () => (closed ??= running.close().finally(closeScope))
    }
  } catch (error) {
    await vite?.close().catch(() => undefined)
    await closeScope()
    throw error
  }
}
