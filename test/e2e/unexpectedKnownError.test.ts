/**
 * End to end over real HTTP against the emulator: a catalogued known-error code the call does not
 * declare arrives as an `UnexpectedKnownError` carrying the instance of its class (issue 15 item 4).
 */
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Endpoint from "../../src/core/Endpoint.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import * as Stack from "../../src/Stack.js"
import { countingFetch, startServer } from "./support.js"

describe("end to end over HTTP against the emulator", () => {
  let emulator: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    emulator = await startServer()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  /** `GET /users` is server-only: the emulator answers a client call with INSUFFICIENT_ACCESS_TYPE. */
  const listUsersAsClient = Endpoint.make({
    name: "Test.listUsersAsClient",
    method: "GET",
    path: "/users",
    access: "client",
    session: "none",
    success: Schema.Unknown,
    errors: []
  })

  it("a call that does not declare the emulator's INSUFFICIENT_ACCESS_TYPE gets an UnexpectedKnownError carrying the class", async () => {
    const fetch = countingFetch()
    const layer = Stack.layerClient({
      projectId: emulator.server.emulator.demo.projectId,
      publishableClientKey: emulator.server.emulator.demo.publishableClientKey,
      baseUrl: emulator.server.baseUrl,
      httpClient: fetch.layer
    })
    const error = await Effect.runPromise(Effect.flip(Endpoint.call(listUsersAsClient, {})).pipe(Effect.provide(layer)))
    expect(fetch.count("GET /users")).toBe(1)
    expect(error._tag).toBe("UnexpectedKnownError")
    if (error._tag !== "UnexpectedKnownError") return
    expect(error.code).toBe("INSUFFICIENT_ACCESS_TYPE")
    expect(error.status).toBe(401)
    expect(error.error).toBeInstanceOf(KnownErrors.InsufficientAccessType)
    if (error.error._tag === "InsufficientAccessType") {
      expect(error.error.details.actual_access_type).toBe("client")
      expect(error.error.details.allowed_access_types).toContain("server")
    }
  })
})
