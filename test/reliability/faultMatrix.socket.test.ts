/**
 * Fault matrix over a REAL socket (node:net on 127.0.0.1, random port) that misbehaves on purpose:
 * the SDK's default `fetch` transport meets true TCP resets, bodies cut short of their
 * content-length and stalls. Delays come from the default retry decisions shrunk 200× (see
 * `scaledRetryPolicy`), so the suite runs in real time without long sleeps.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Exit, Layer, Scope } from "effect"
import type * as net from "node:net"
import { afterAll, beforeAll } from "vitest"
import type { CallUnderTest, Reply } from "./faults.js"
import { calls, faults, layerFor, secretTexts } from "./faults.js"
import type { RawServer } from "./support.js"
import { classify, leakedSecrets, rawResponse, reset, scaledRetryPolicy, showOutcome, startRawServer, watchUnhandledRejections } from "./support.js"

let server: RawServer
beforeAll(async () => {
  server = await startRawServer((_request, socket) => socket.end(rawResponse(500, {}, "no behaviour")))
})
afterAll(async () => {
  await server.close()
})
const unhandled = watchUnhandledRejections()

const play = (reply: Reply, call: CallUnderTest, socket: net.Socket): void => {
  switch (reply._tag) {
    case "Ok":
      socket.end(rawResponse(call.okStatus, { "content-type": "application/json; charset=utf-8" }, JSON.stringify(call.okBody)))
      return
    case "OkAs":
      socket.end(rawResponse(call.okStatus, { "content-type": reply.contentType }, JSON.stringify(call.okBody)))
      return
    case "Http":
      socket.end(rawResponse(reply.status, reply.headers, reply.body))
      return
    case "ResetBeforeResponse":
      reset(socket)
      return
    case "ResetMidBody":
      socket.write(rawResponse(reply.status, { "content-type": "application/json" }, reply.partial, { contentLength: reply.declaredLength }))
      setTimeout(() => reset(socket), 5)
      return
    case "CloseMidBody":
      socket.end(rawResponse(reply.status, { "content-type": "application/json" }, reply.partial, { contentLength: reply.declaredLength }))
      return
  }
}

/** Unexpected requests (another method or path than the call's) recorded here. */
let unexpected: Array<string> = []

const serve = (call: CallUnderTest, replies: ReadonlyArray<Reply>) => {
  unexpected = []
  let attempt = 0
  server.reset((request, socket) => {
    if (request.method !== call.method || request.path !== call.path) {
      unexpected.push(`${request.method} ${request.path}`)
      socket.end(rawResponse(500, {}, "unexpected request"))
      return
    }
    play(replies[Math.min(attempt++, replies.length - 1)]!, call, socket)
  })
}

describe("fault matrix over a real socket", () => {
  let cases = 0
  for (const fault of faults.filter((candidate) => candidate.only !== "msw")) {
    for (const call of calls) {
      const expected = call.idempotent ? fault.idempotent : fault.nonIdempotent
      it.live(`${fault.name} — ${call.name} → ${expected.outcome} after ${expected.requests} request(s)`, () =>
        Effect.gen(function* () {
          cases++
          serve(call, fault.replies)
          const exit = yield* Effect.exit(call.run)
          const outcome = classify(exit)
          expect(showOutcome(outcome)).toBe(expected.outcome === "Success" ? "Success" : `Failure(${expected.outcome})`)
          expect(server.requests.filter((request) => request.path === call.path)).toHaveLength(expected.requests)
          expect(unexpected).toEqual([])
          if (outcome._tag === "Failure") expect(leakedSecrets(outcome.error, secretTexts)).toEqual([])
        }).pipe(Effect.provide(layerFor(server.url, scaledRetryPolicy()))))
    }
  }

  it("ran every fault against every call", () => {
    expect(cases).toBe(faults.filter((candidate) => candidate.only !== "msw").length * calls.length)
  })

  it.live("the request the socket saw carries the SDK's headers (the server really parsed it)", () =>
    Effect.gen(function* () {
      const call = calls[1]!
      serve(call, [{ _tag: "Ok" }])
      yield* call.run
      const request = server.requests[0]!
      expect(request.headers["x-stack-access-type"]).toBe("client")
      expect(request.headers["content-type"]).toContain("application/json")
      expect(JSON.parse(request.body)).toEqual({ email: "ada@example.com", password: "correct horse battery" })
    }).pipe(Effect.provide(layerFor(server.url, scaledRetryPolicy()))))
})

describe("stalled sockets", () => {
  const stalls: ReadonlyArray<{ readonly name: string; readonly behave: (socket: net.Socket) => void }> = [
    { name: "before the status line", behave: () => {} },
    {
      name: "after the headers, mid-body",
      behave: (socket) => socket.write(rawResponse(200, { "content-type": "application/json" }, "{\"id\":", { contentLength: 500 }))
    }
  ]

  /**
   * Runs `body` against a fresh raw server (its own port, so no pooled connection of another test
   * is involved) with the SDK layer built in its own scope; afterwards drops every connection (so
   * nothing stays stalled), closes the scope and the server.
   */
  const withOwnScope = <A, E>(
    body: (context: Context.Context<Layer.Success<ReturnType<typeof layerFor>>>, own: RawServer) => Effect.Effect<A, E>
  ) =>
    Effect.gen(function* () {
      const own = yield* Effect.promise(() => startRawServer(() => {}))
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layerFor(own.url, scaledRetryPolicy()), scope)
      return yield* body(context, own).pipe(
        Effect.ensuring(
          Effect.sync(() => own.destroyConnections()).pipe(
            Effect.andThen(Scope.close(scope, Exit.void)),
            Effect.andThen(Effect.promise(() => own.close()))
          )
        )
      )
    })

  const waitForAbort = (own: RawServer) =>
    Effect.gen(function* () {
      for (let i = 0; i < 100 && own.clientAborts() === 0; i++) yield* Effect.sleep(Duration.millis(5))
    })

  // Users.getCurrent goes through the query cache; its stall behaviour is covered below.
  const uncached = calls.filter((call) => call.path !== "/api/v1/users/me")
  for (const stall of stalls) {
    for (const call of uncached) {
      it.live(`stalled ${stall.name}: a caller's timeout ends ${call.name} with TimeoutError and aborts the request`, () =>
        withOwnScope((context, own) =>
          Effect.gen(function* () {
            own.reset((request, socket) => {
              if (request.path === call.path) stall.behave(socket)
              else socket.end(rawResponse(500, {}, "unexpected"))
            })
            const exit = yield* Effect.exit(call.run.pipe(Effect.timeout(Duration.millis(300)), Effect.provide(context)))
            expect(showOutcome(classify(exit))).toBe("Failure(TimeoutError)")
            yield* waitForAbort(own)
            expect(own.requests).toHaveLength(1)
            // the interrupted fetch is aborted: the client closed the stalled connection
            expect(own.clientAborts()).toBe(1)
          })
        ))
    }
  }

  const getCurrent = calls.find((call) => call.path === "/api/v1/users/me")!
  const stallThenRecover = (own: RawServer) => {
    let stalled = false
    own.reset((request, socket) => {
      if (!stalled) {
        stalled = true
        return
      }
      socket.end(rawResponse(200, { "content-type": "application/json" }, JSON.stringify(getCurrent.okBody)))
      void request
    })
  }

  it.live("a caller's timeout ends a stalled Users.getCurrent with TimeoutError", () =>
    withOwnScope((context, own) =>
      Effect.gen(function* () {
        stallThenRecover(own)
        const exit = yield* Effect.exit(getCurrent.run.pipe(Effect.timeout(Duration.millis(300)), Effect.provide(context)))
        expect(showOutcome(classify(exit))).toBe("Failure(TimeoutError)")
      })
    ))

  // The query cache shares one fetch among its readers: when the last reader is interrupted (a
  // caller's timeout) the request is aborted, the next read asks again, and closing the layer ends it.
  it.live("a caller's timeout on a stalled cached read aborts the request", () =>
    withOwnScope((context, own) =>
      Effect.gen(function* () {
        stallThenRecover(own)
        yield* Effect.exit(getCurrent.run.pipe(Effect.timeout(Duration.millis(300)), Effect.provide(context)))
        yield* waitForAbort(own)
        expect(own.clientAborts()).toBe(1)
      })
    ))

  it.live("after a stalled cached read timed out, the next read asks the recovered server again", () =>
    withOwnScope((context, own) =>
      Effect.gen(function* () {
        stallThenRecover(own)
        yield* Effect.exit(getCurrent.run.pipe(Effect.timeout(Duration.millis(300)), Effect.provide(context)))
        const second = yield* Effect.exit(getCurrent.run.pipe(Effect.timeout(Duration.millis(500)), Effect.provide(context)))
        expect(showOutcome(classify(second))).toBe("Success")
        expect(own.requests).toHaveLength(2)
      })
    ))

  it.live("closing the client layer while a cached read is stalled completes", () =>
    Effect.gen(function* () {
      const own = yield* Effect.promise(() => startRawServer(() => {}))
      stallThenRecover(own)
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layerFor(own.url, scaledRetryPolicy()), scope)
      yield* Effect.exit(getCurrent.run.pipe(Effect.timeout(Duration.millis(300)), Effect.provide(context)))
      const closed = yield* Effect.exit(Scope.close(scope, Exit.void).pipe(Effect.timeout(Duration.millis(500))))
      // unblock the stuck fetch so the scope really closes before the next test
      own.destroyConnections()
      yield* Scope.close(scope, Exit.void)
      yield* Effect.promise(() => own.close())
      expect(closed._tag).toBe("Success")
    }))
})

describe("no unhandled rejection", () => {
  it("none was raised during the socket matrix", () => {
    expect(unhandled).toEqual([])
  })
})
