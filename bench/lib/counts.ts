/**
 * What the bench can count rather than time, for `test/bench/bench.test.ts` and the budget file
 * `bench/budget.json`: fibers started by one server-side "user behind these tokens" call
 * (`ServerUsers.fromRequest`), and requests it sends; fibers and requests per page of a
 * `ServerUsers.stream` walk.
 */
import { Stream } from "effect"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import type { BenchServer, Tokens } from "./harness.js"
import { createSessions, createUser, seedUsers } from "./harness.js"
import { makeFiberCount } from "../../test/support/fibers.js"
import { ourServer } from "./clients.js"

/** Fibers started and requests received per `ServerUsers.fromRequest` call, over `calls` calls on distinct sessions. */
export const countPerCall = async (bench: BenchServer, calls = 5): Promise<{ readonly fibersPerCall: number; readonly requestsPerCall: number }> => {
  const userId = await createUser(bench, "counts")
  const sessions: Array<Tokens> = await createSessions(bench, userId, calls + 1)
  const runtime = ourServer(bench)
  const call = (tokens: Tokens) => ServerUsers.fromRequest({ headers: { "x-stack-auth": JSON.stringify(tokens) } }, { projectId: bench.projectId })
  try {
    // one unmeasured call: layers built, decoders made
    await runtime.runPromise(call(sessions[0]!))
    const counter = makeFiberCount()
    bench.requests.reset()
    for (const tokens of sessions.slice(1)) {
      const user = await runtime.runPromise(counter.track(call(tokens)))
      if (user._tag !== "Some" || user.value.id !== userId) throw new Error("counts: unexpected answer")
    }
    return { fibersPerCall: counter.started() / calls, requestsPerCall: bench.requests.total() / calls }
  } finally {
    await runtime.dispose()
  }
}

/**
 * Fibers started and `GET /users` requests per page of one `ServerUsers.stream` walk (page size
 * 100) over every user of the demo project, after seeding `seed` more users into it.
 */
export const countPerStreamedPage = async (
  bench: BenchServer,
  seed = 250
): Promise<{ readonly users: number; readonly pages: number; readonly fibers: number; readonly requestsPerPage: number }> => {
  seedUsers(bench.emulator, seed)
  const runtime = ourServer(bench)
  const walk = ServerUsers.stream({ limit: 100 }).pipe(Stream.runCount)
  try {
    await runtime.runPromise(walk)
    const counter = makeFiberCount()
    bench.requests.reset()
    const users = await runtime.runPromise(counter.track(walk))
    const pages = bench.requests.count("GET /users")
    return { users, pages, fibers: counter.started(), requestsPerPage: bench.requests.total() / pages }
  } finally {
    await runtime.dispose()
  }
}
