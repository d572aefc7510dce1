/**
 * The official `@stackframe/js` apps pointed at a bench server (`baseUrl`). This file is the only
 * one of `bench/lib` that imports the official SDK, a dependency of the bench's own package
 * (`bench/package.json`); `./clients.ts` loads it with `loadOfficial`.
 */
import { stackAppInternalsSymbol, StackClientApp, StackServerApp } from "@stackframe/js"
import type { Official } from "./clients.js"
import type { BenchServer, Target, Tokens } from "./harness.js"

/** The official client app with an in-memory token store, signed in with tokens when given. */
export const officialClient = async (bench: BenchServer, tokens?: Tokens) => {
  const app = new StackClientApp({
    projectId: bench.projectId,
    publishableClientKey: bench.publishableClientKey,
    baseUrl: bench.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true,
    devTool: false
  })
  // the official app's own sign-in entry point for tokens obtained elsewhere
  if (tokens !== undefined) await (app as any)[stackAppInternalsSymbol].signInWithTokens(tokens)
  return app
}

/**
 * Sends one authenticated request through the official client's session machinery (token
 * refresh and retry included) without its caches: `app[stackAppInternalsSymbol].sendRequest`.
 */
export const officialSend = (app: StackClientApp, path: string, init: RequestInit): Promise<Response> =>
  (app as any)[stackAppInternalsSymbol].sendRequest(path, init)

/** The official server app. */
export const officialServer = (bench: Target) =>
  new StackServerApp({
    projectId: bench.projectId,
    publishableClientKey: bench.publishableClientKey,
    secretServerKey: bench.secretServerKey,
    baseUrl: bench.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })

// the shapes ./clients.ts relies on
void ({ officialClient, officialSend, officialServer } satisfies Official)
