/**
 * Overhead per call on an uncached path (issue 7 §3): the user behind a request's tokens, server
 * side, each call with a distinct session (so no cache can answer), `n` calls per contender:
 * - raw `fetch`: `GET /users/me` with the server key and the access token;
 * - this SDK: `ServerUsers.fromRequest` (the `x-stack-auth` header; a session per call);
 * - official: `StackServerApp.getUser({ tokenStore: { accessToken, refreshToken } })`.
 * Calls are interleaved (raw, ours, official, raw, …) so load on the machine hits all three alike.
 * `{ official: false }` leaves the official client out (its figures are then `null`).
 */
import * as ServerUsers from "../../src/users/ServerUsers.js"
import type { BenchServer, Tokens } from "./harness.js"
import { createSessions, createUser, serverHeaders } from "./harness.js"
import { loadOfficial, ourServer } from "./clients.js"

/** Time and requests per contender. */
export interface OverheadResult {
  readonly calls: number
  readonly rawMsPerCall: number
  readonly oursMsPerCall: number
  /** `null` when the official client was left out. */
  readonly officialMsPerCall: number | null
  /** ours ÷ raw. */
  readonly oursRatio: number
  /** official ÷ raw (`null` when left out). */
  readonly officialRatio: number | null
  readonly requestsPerCall: { readonly raw: number; readonly ours: number; readonly official: number | null }
}

/** Runs the comparison with `n` measured calls each (after `warmup` unmeasured ones). */
export const runOverhead = async (
  bench: BenchServer,
  n = 1000,
  warmup = 50,
  options: { readonly official?: boolean } = {}
): Promise<OverheadResult> => {
  const withOfficial = options.official ?? true
  const userId = await createUser(bench, "overhead")
  const total = n + warmup
  const sessions = {
    raw: await createSessions(bench, userId, total),
    ours: await createSessions(bench, userId, total),
    official: withOfficial ? await createSessions(bench, userId, total) : []
  }
  const runtime = ourServer(bench)
  const official = withOfficial ? (await loadOfficial()).officialServer(bench) : undefined
  const calls = {
    raw: async (tokens: Tokens) => {
      const response = await fetch(`${bench.baseUrl}/api/v1/users/me`, { headers: serverHeaders(bench, tokens.accessToken) })
      const body = (await response.json()) as { id?: string }
      if (body.id !== userId) throw new Error("raw fetch: unexpected answer")
    },
    ours: async (tokens: Tokens) => {
      const user = await runtime.runPromise(
        ServerUsers.fromRequest({ headers: { "x-stack-auth": JSON.stringify(tokens) } }, { projectId: bench.projectId })
      )
      if (user._tag !== "Some" || user.value.id !== userId) throw new Error("ours: unexpected answer")
    },
    official: async (tokens: Tokens) => {
      const user = await official!.getUser({ tokenStore: tokens })
      if (user?.id !== userId) throw new Error("official: unexpected answer")
    }
  }
  const elapsed = { raw: 0, ours: 0, official: 0 }
  const requests = { raw: 0, ours: 0, official: 0 }
  try {
    for (let i = 0; i < total; i++) {
      for (const name of withOfficial ? (["raw", "ours", "official"] as const) : (["raw", "ours"] as const)) {
        const before = bench.requests.total()
        const start = performance.now()
        await calls[name](sessions[name][i]!)
        const ms = performance.now() - start
        if (i >= warmup) {
          elapsed[name] += ms
          requests[name] += bench.requests.total() - before
        }
      }
    }
  } finally {
    await runtime.dispose()
  }
  return {
    calls: n,
    rawMsPerCall: elapsed.raw / n,
    oursMsPerCall: elapsed.ours / n,
    officialMsPerCall: withOfficial ? elapsed.official / n : null,
    oursRatio: elapsed.ours / elapsed.raw,
    officialRatio: withOfficial ? elapsed.official / elapsed.raw : null,
    requestsPerCall: { raw: requests.raw / n, ours: requests.ours / n, official: withOfficial ? requests.official / n : null }
  }
}
