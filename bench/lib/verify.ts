/**
 * Server-side token check (issue 7 §5): `AccessTokenVerifier.verifyAccessToken` against the
 * cached JWKS vs a `GET /users/me` round trip with raw `fetch`, `n` requests each, over `tokens`
 * distinct sessions (a server sees the same user's token many times). Also the verification of
 * tokens seen for the first time (signature checked every call: remembered tokens turned off).
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import * as Stack from "../../src/Stack.js"
import type { BenchServer } from "./harness.js"
import { createSessions, createUser, serverHeaders } from "./harness.js"

/** The comparison's figures. */
export interface VerifyResult {
  readonly requests: number
  readonly distinctTokens: number
  readonly verifyMsPerCall: number
  readonly roundTripMsPerCall: number
  /** round trip ÷ verify: how many times faster the local check is. */
  readonly speedup: number
  /** Requests the verifier sent for all `requests` verifications (the JWKS, once). */
  readonly verifierNetworkRequests: number
  /** Requests sent after the JWKS was cached. */
  readonly networkRequestsAfterJwksCached: number
  /** Signature checked on every call (no remembered tokens). */
  readonly coldVerifyCalls: number
  readonly coldVerifyMsPerCall: number
  readonly coldSpeedup: number
}

const verifierRuntime = (bench: BenchServer, options: AccessTokenVerifier.VerifierOptions = {}) =>
  ManagedRuntime.make(
    Layer.provideMerge(
      AccessTokenVerifier.layer(options),
      Stack.layerClient({ projectId: bench.projectId, publishableClientKey: bench.publishableClientKey, baseUrl: bench.baseUrl })
    )
  )

/** Runs the comparison. */
export const runVerify = async (bench: BenchServer, n = 10_000, distinct = 100, cold = 2_000): Promise<VerifyResult> => {
  const userId = await createUser(bench, "verify")
  const tokens = (await createSessions(bench, userId, distinct)).map((session) => session.accessToken)

  const warm = verifierRuntime(bench)
  bench.requests.reset()
  await warm.runPromise(AccessTokenVerifier.verifyAccessToken(tokens[0]!))
  const afterFirst = bench.requests.total()
  let start = performance.now()
  await warm.runPromise(
    Effect.gen(function* () {
      for (let i = 0; i < n; i++) {
        const claims = yield* AccessTokenVerifier.verifyAccessToken(tokens[i % distinct]!)
        if (claims.userId !== userId) return yield* Effect.die("unexpected claims")
      }
    })
  )
  const verifyMs = performance.now() - start
  const verifierRequests = bench.requests.total()
  await warm.dispose()

  const coldRuntime = verifierRuntime(bench, { verifiedTokenCacheSize: 0 })
  await coldRuntime.runPromise(AccessTokenVerifier.verifyAccessToken(tokens[0]!))
  start = performance.now()
  await coldRuntime.runPromise(
    Effect.gen(function* () {
      for (let i = 0; i < cold; i++) yield* AccessTokenVerifier.verifyAccessToken(tokens[i % distinct]!)
    })
  )
  const coldMs = performance.now() - start
  await coldRuntime.dispose()

  start = performance.now()
  for (let i = 0; i < n; i++) {
    const response = await fetch(`${bench.baseUrl}/api/v1/users/me`, { headers: serverHeaders(bench, tokens[i % distinct]!) })
    const body = (await response.json()) as { id?: string }
    if (body.id !== userId) throw new Error("round trip: unexpected answer")
  }
  const roundTripMs = performance.now() - start

  const verifyPerCall = verifyMs / n
  const roundTripPerCall = roundTripMs / n
  return {
    requests: n,
    distinctTokens: distinct,
    verifyMsPerCall: verifyPerCall,
    roundTripMsPerCall: roundTripPerCall,
    speedup: roundTripPerCall / verifyPerCall,
    verifierNetworkRequests: verifierRequests,
    networkRequestsAfterJwksCached: verifierRequests - afterFirst,
    coldVerifyCalls: cold,
    coldVerifyMsPerCall: coldMs / cold,
    coldSpeedup: roundTripPerCall / (coldMs / cold)
  }
}
