/**
 * The three contenders against one bench server: this SDK (a `ManagedRuntime` over
 * `Stack.layerClient` / `layerServer` with real `fetch`), the official `@stackframe/js` apps
 * (pointed at the server with `baseUrl`; loaded from `./official.ts` with {@link loadOfficial}),
 * and raw `fetch`. Also the tokens the economy scenarios
 * need: an access token that expired, and one the server rejects although it looks valid.
 */
import { Effect, ManagedRuntime } from "effect"
import * as jose from "jose"
import { mintAccessToken } from "../../src/emulator/AccessTokens.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import type { BenchServer, Target, Tokens } from "./harness.js"

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

/** What the bench uses of an official client app (`StackClientApp` of `@stackframe/js`). */
export interface OfficialClientApp {
  getUser(): Promise<unknown>
}

/** What the bench uses of an official server app (`StackServerApp` of `@stackframe/js`). */
export interface OfficialServerApp {
  getUser(options: { readonly tokenStore: Tokens }): Promise<{ readonly id: string } | null>
  listUsers(options: { readonly limit: number; readonly cursor?: string }): Promise<ReadonlyArray<unknown> & { readonly nextCursor: string | null }>
}

/** The official SDK's contenders, from `./official.ts` (which imports `@stackframe/js`). */
export interface Official {
  /** The official client app with an in-memory token store, signed in with tokens when given. */
  officialClient(bench: BenchServer, tokens?: Tokens): Promise<OfficialClientApp>
  /** One authenticated request through the official client's session machinery, without its caches. */
  officialSend(app: OfficialClientApp, path: string, init: RequestInit): Promise<Response>
  /** The official server app. */
  officialServer(bench: Target): OfficialServerApp
}

/**
 * The official SDK is a dependency of the bench's own package (`bench/package.json`), installed by
 * `npm run bench`, not by the root's `npm install`. Its module is named through a variable so that
 * the root type check (which reaches this file from `test/bench/`) does not need it installed.
 */
const officialModule: string = "./official.js"

let officialLoading: Promise<Official> | undefined

/** Loads the official contenders; fails with how to install them when the bench's dependencies are missing. */
export const loadOfficial = (): Promise<Official> => (officialLoading ??= (import(officialModule) as Promise<Official>).catch((cause: unknown) => {
  officialLoading = undefined
  throw new Error(
    "The official SDK (@stackframe/js, @stackframe/react) is a dependency of the bench's own package: run `npm --prefix bench install` (`npm run bench` does it first).",
    { cause }
  )
}))

/** Whether the bench's own dependencies (the official SDK) are installed. */
export const officialInstalled = (): Promise<boolean> =>
  loadOfficial().then(
    () => true,
    () => false
  )

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
