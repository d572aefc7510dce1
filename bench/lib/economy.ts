/**
 * Request economy (issue 7 §2): requests the server receives for
 * 1. `n` concurrent current-user reads,
 * 2. `n` sequential current-user reads (well within 5 s),
 * 3. `n` concurrent calls while the stored access token has expired (refreshes counted),
 * 4. `n` concurrent calls while the server rejects a token the client thought valid (refreshes
 *    counted, and the wall time this adds compared with the same calls on a valid token).
 * Each client starts fresh, seeded with the session's tokens; counting starts at seeding, so the
 * official client's own prefetch after `signInWithTokens` is counted too.
 * Calls 3 and 4 update the user (`PATCH /users/me`), which no cache can absorb: ours through
 * `Users.updateCurrent`, the official one through its session machinery (`sendRequest`).
 */
import { Effect } from "effect"
import * as Users from "../../src/users/Users.js"
import type { BenchServer, Tokens } from "./harness.js"
import { createSession, createUser, timed } from "./harness.js"
import { expiredAccessToken, loadOfficial, ourClient, rejectedAccessToken } from "./clients.js"

/** Which client. */
export type Contender = "ours" | "official"

/** The economy scenarios. */
export type Scenario = "concurrentReads" | "sequentialReads" | "expiredToken" | "rejectedToken"

/** What one scenario cost one client. */
export interface EconomyResult {
  readonly scenario: Scenario
  readonly contender: Contender
  readonly calls: number
  /** Every request the server received in the window. */
  readonly requests: number
  /** `GET /users/me`. */
  readonly userReads: number
  /** `POST /auth/oauth/token` + `POST /auth/sessions/current/refresh`. */
  readonly refreshes: number
  readonly wallMs: number
  /** For `rejectedToken`: wall time minus the same calls with a valid token (median of 3 pairs). */
  readonly addedWallMs?: number
  readonly byPath: Readonly<Record<string, number>>
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

const updates = (n: number) => Array.from({ length: n }, (_, i) => ({ clientMetadata: { bench: i } }))

const runCalls = async (bench: BenchServer, contender: Contender, scenario: Scenario, tokens: Tokens, n: number) => {
  if (contender === "ours") {
    const runtime = ourClient(bench, tokens)
    try {
      switch (scenario) {
        case "concurrentReads":
          return await timed(() => runtime.runPromise(Effect.all(Array.from({ length: n }, () => Users.getCurrent()), { concurrency: "unbounded" })))
        case "sequentialReads":
          return await timed(async () => {
            for (let i = 0; i < n; i++) await runtime.runPromise(Users.getCurrent())
          })
        case "expiredToken":
        case "rejectedToken":
          return await timed(() => runtime.runPromise(Effect.all(updates(n).map((update) => Users.updateCurrent(update)), { concurrency: "unbounded" })))
      }
    } finally {
      await runtime.dispose()
    }
  }
  const { officialClient, officialSend } = await loadOfficial()
  const app = await officialClient(bench, tokens)
  switch (scenario) {
    case "concurrentReads":
      return await timed(() => Promise.all(Array.from({ length: n }, () => app.getUser())))
    case "sequentialReads":
      return await timed(async () => {
        for (let i = 0; i < n; i++) await app.getUser()
      })
    case "expiredToken":
    case "rejectedToken":
      return await timed(() =>
        Promise.all(
          updates(n).map(async (update) => {
            const response = await officialSend(app, "/users/me", {
              method: "PATCH",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ client_metadata: update.clientMetadata })
            })
            if (!response.ok) throw new Error(`official PATCH /users/me answered ${response.status}`)
          })
        )
      )
  }
}

/** Runs one scenario for one client with `n` calls (a fresh user and session each time). */
export const runScenario = async (bench: BenchServer, contender: Contender, scenario: Scenario, n = 20): Promise<EconomyResult> => {
  const userId = await createUser(bench, `economy-${contender}`)
  const session = await createSession(bench, userId)
  const accessToken = scenario === "expiredToken"
    ? await expiredAccessToken(bench, session)
    : scenario === "rejectedToken"
    ? await rejectedAccessToken(session)
    : session.accessToken
  bench.requests.reset()
  const { ms } = await runCalls(bench, contender, scenario, { accessToken, refreshToken: session.refreshToken }, n)
  await settle()
  const byPath = bench.requests.snapshot()
  const requests = bench.requests.total()
  const userReads = bench.requests.count("GET /users/me")
  const refreshes = bench.requests.count("POST /auth/oauth/token") + bench.requests.count("POST /auth/sessions/current/refresh")
  let addedWallMs: number | undefined
  if (scenario === "rejectedToken") {
    // the time a rejection adds: the median of 3 pairs (valid token, rejected token), as the machine may be busy
    const added: Array<number> = []
    for (let i = 0; i < 3; i++) {
      const valid = await createSession(bench, userId)
      const rejected = await createSession(bench, userId)
      const validMs = (await runCalls(bench, contender, scenario, valid, n)).ms
      await settle()
      const rejectedMs =
        (await runCalls(bench, contender, scenario, { accessToken: await rejectedAccessToken(rejected), refreshToken: rejected.refreshToken }, n)).ms
      await settle()
      added.push(rejectedMs - validMs)
    }
    addedWallMs = added.sort((x, y) => x - y)[1]!
  }
  return {
    scenario,
    contender,
    calls: n,
    requests,
    userReads,
    refreshes,
    wallMs: ms,
    ...(addedWallMs === undefined ? {} : { addedWallMs }),
    byPath
  }
}

/** Every scenario for both clients. */
export const runEconomy = async (bench: BenchServer, n = 20): Promise<ReadonlyArray<EconomyResult>> => {
  const results: Array<EconomyResult> = []
  for (const scenario of ["concurrentReads", "sequentialReads", "expiredToken", "rejectedToken"] as const) {
    for (const contender of ["ours", "official"] as const) results.push(await runScenario(bench, contender, scenario, n))
  }
  return results
}
