/**
 * Server-side token check (issue 7 §5, corrected by issue 14): `AccessTokenVerifier.verifyAccessToken`
 * vs a `GET /users/me` round trip with raw `fetch` to the emulator running in a process of its own.
 * Every token is distinct and seen once per run, so every verification checks a signature (no
 * remembered token answers). Runs alternate in order after an unmeasured warm-up pass; each run
 * has a fresh verifier (JWKS fetched once before the timed part). The remembered-token path (the
 * same tokens verified a second time) is reported apart and labelled as a cache hit.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import * as Stack from "../../src/Stack.js"
import type { Target } from "./harness.js"
import { createSessions, createUser, serverHeaders } from "./harness.js"
import type { Spread } from "./processes.js"
import { load, spread } from "./processes.js"

/** The comparison's figures. */
export interface VerifyResult {
  /** Distinct tokens per run (each verified once, signature checked). */
  readonly distinctTokens: number
  readonly runs: number
  /** Milliseconds per verification with a signature check, over the runs. */
  readonly verifyMsPerCall: Spread
  /** Milliseconds per `GET /users/me` round trip, over the runs. */
  readonly roundTripMsPerCall: Spread
  /** round trip ÷ verify (median ÷ median). */
  readonly speedup: number
  /** round trip ÷ verify of each run. */
  readonly speedupSpread: Spread
  /** Same tokens verified again on the same verifier: a remembered-token (cache) hit, ms per call. */
  readonly cacheHitMsPerCall: Spread
  /** Requests the verifiers sent in the timed parts (the JWKS is fetched before them): 0 expected. */
  readonly networkRequestsWhileVerifying: number
  /** Requests of the round trips: one per token. */
  readonly roundTripRequests: number
  readonly loadAverage: { readonly start: number; readonly end: number }
}

const verifierRuntime = (target: Target) =>
  ManagedRuntime.make(
    Layer.provideMerge(
      AccessTokenVerifier.layer(),
      Stack.layerClient({ projectId: target.projectId, publishableClientKey: target.publishableClientKey, baseUrl: target.baseUrl })
    )
  )

/**
 * Runs the comparison: `distinct` tokens, `runs` timed runs. `requests` reads the server's request
 * total (to check that verification sends nothing).
 */
export const runVerify = async (target: Target, requests: () => Promise<number>, distinct = 1000, runs = 5): Promise<VerifyResult> => {
  const loadStart = load()
  const userId = await createUser(target, "verify")
  const tokens = (await createSessions(target, userId, distinct + 1)).map((session) => session.accessToken)
  const first = tokens[0]!
  const timedTokens = tokens.slice(1)

  let verifierRequests = 0
  let roundTripRequests = 0
  const verifyPass = async () => {
    const runtime = verifierRuntime(target)
    try {
      await runtime.runPromise(AccessTokenVerifier.verifyAccessToken(first))
      const before = await requests()
      const verifyAll = Effect.gen(function* () {
        for (const token of timedTokens) {
          const claims = yield* AccessTokenVerifier.verifyAccessToken(token)
          if (claims.userId !== userId) return yield* Effect.die("unexpected claims")
        }
      })
      let start = performance.now()
      await runtime.runPromise(verifyAll)
      const signatureMs = performance.now() - start
      start = performance.now()
      await runtime.runPromise(verifyAll)
      const cachedMs = performance.now() - start
      verifierRequests += (await requests()) - before
      return { signature: signatureMs / timedTokens.length, cached: cachedMs / timedTokens.length }
    } finally {
      await runtime.dispose()
    }
  }
  const roundTripPass = async () => {
    const before = await requests()
    const start = performance.now()
    for (const token of timedTokens) {
      const response = await fetch(`${target.baseUrl}/api/v1/users/me`, { headers: serverHeaders(target, token) })
      const body = (await response.json()) as { id?: string }
      if (body.id !== userId) throw new Error("round trip: unexpected answer")
    }
    const ms = (performance.now() - start) / timedTokens.length
    roundTripRequests += (await requests()) - before
    return ms
  }

  // warm-up: one unmeasured pass of each
  await verifyPass()
  await roundTripPass()
  verifierRequests = 0
  roundTripRequests = 0

  const verify: Array<number> = []
  const cached: Array<number> = []
  const roundTrip: Array<number> = []
  const ratios: Array<number> = []
  for (let run = 0; run < runs; run++) {
    let v: { signature: number; cached: number }
    let r: number
    if (run % 2 === 0) {
      v = await verifyPass()
      r = await roundTripPass()
    } else {
      r = await roundTripPass()
      v = await verifyPass()
    }
    verify.push(v.signature)
    cached.push(v.cached)
    roundTrip.push(r)
    ratios.push(r / v.signature)
  }
  const verifySpread = spread(verify)
  const roundTripSpread = spread(roundTrip)
  return {
    distinctTokens: timedTokens.length,
    runs,
    verifyMsPerCall: verifySpread,
    roundTripMsPerCall: roundTripSpread,
    speedup: roundTripSpread.median / verifySpread.median,
    speedupSpread: spread(ratios),
    cacheHitMsPerCall: spread(cached),
    networkRequestsWhileVerifying: verifierRequests,
    roundTripRequests,
    loadAverage: { start: loadStart, end: load() }
  }
}
