/**
 * The three contenders against one bench server: this SDK (a `ManagedRuntime` over
 * `Stack.layerClient` / `layerServer` with real `fetch`), the official `@stackframe/js` apps
 * (pointed at the server with `baseUrl`), and raw `fetch`. Also the tokens the economy scenarios
 * need: an access token that expired, and one the server rejects although it looks valid.
 */
import { StackClientApp, StackServerApp, stackAppInternalsSymbol } from "@stackframe/js"
import { Effect, ManagedRuntime } from "effect"
import * as jose from "jose"
import { mintAccessToken } from "../../src/emulator/AccessTokens.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import type { BenchServer, Tokens } from "./harness.js"

/** A client runtime of this SDK, seeded with tokens (or signed out). */
export const ourClient = (bench: BenchServer, tokens?: Tokens, options: { readonly queryCache?: false } = {}) =>
  ManagedRuntime.make(
    Stack.layerClient({
      projectId: bench.projectId,
      publishableClientKey: bench.publishableClientKey,
      baseUrl: bench.baseUrl,
      tokenStore: TokenStore.layerMemory(tokens === undefined ? TokenStore.empty : TokenStore.fromStrings(tokens.accessToken, tokens.refreshToken)),
      ...(options.queryCache === false ? { queryCache: false as const } : {})
    })
  )

/** A server runtime of this SDK (no session of its own). */
export const ourServer = (bench: BenchServer) =>
  ManagedRuntime.make(
    Stack.layerServer({
      projectId: bench.projectId,
      publishableClientKey: bench.publishableClientKey,
      secretServerKey: bench.secretServerKey,
      baseUrl: bench.baseUrl
    })
  )

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
export const officialServer = (bench: BenchServer) =>
  new StackServerApp({
    projectId: bench.projectId,
    publishableClientKey: bench.publishableClientKey,
    secretServerKey: bench.secretServerKey,
    baseUrl: bench.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })

/** An access token of the session behind `tokens`, signed by the server's key but expired 100 s ago. */
export const expiredAccessToken = async (bench: BenchServer, tokens: Tokens): Promise<string> => {
  const claims = jose.decodeJwt(tokens.accessToken)
  const project = bench.emulator.state.projects.get(bench.projectId)!
  const user = project.users.get(claims.sub!)!
  const session = [...project.sessions.values()].find((s) => s.id === claims["refresh_token_id"])!
  return Effect.runPromise(
    mintAccessToken({ apiBase: bench.baseUrl, project, user, session, nowMillis: Date.now() - 700_000, lifetimeSeconds: 600 })
  )
}

/**
 * A token with the service's claims and an expiry an hour away, signed by a key the server does
 * not know: the client thinks it valid, the server rejects it.
 */
export const rejectedAccessToken = async (tokens: Tokens): Promise<string> => {
  const claims = jose.decodeJwt(tokens.accessToken)
  const { privateKey } = await jose.generateKeyPair("ES256")
  const now = Math.floor(Date.now() / 1000)
  return new jose.SignJWT({ ...claims, iat: now, exp: now + 3600 }).setProtectedHeader({ alg: "ES256", kid: "forgedkid000" }).sign(privateKey)
}
