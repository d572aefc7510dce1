/**
 * Truthful errors under hostile answers, and bounded waits (issue 25 items 3 and 4), over REAL
 * HTTP against a raw server on 127.0.0.1 that misbehaves on purpose:
 *
 * - an answer that arrived is never a connectivity error: a body that fails while it is read (it
 *   does not match its `Content-Encoding`, it is cut short) ends the call in `InvalidResponse`
 *   after exactly one request, for GET and POST, over the `fetch` client and over a client whose
 *   answers are read through effect's body stream;
 * - a 429 whose `Retry-After` is longer than the retry policy's `maxRetryAfter` (60 s by default)
 *   is never slept on: `RateLimited` at once, carrying the server's value, after one request —
 *   `RequestAuth.authenticate` included. The live tests carry a guard timeout only so that a
 *   regression fails instead of hanging; what they assert is the outcome and the request count.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as net from "node:net"
import * as zlib from "node:zlib"
import { afterAll, beforeAll } from "vitest"
import { RequestAuth } from "../../src/server/index.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import { accessToken, projectId, publishableClientKey, secretServerKey } from "../support/fixtures.js"
import type { CallUnderTest } from "./faults.js"
import { calls, layerFor, secretTexts, signedIn } from "./faults.js"
import type { RawServer } from "./support.js"
import { classify, leakedSecrets, scaledRetryPolicy, showOutcome, startRawServer, watchUnhandledRejections } from "./support.js"

let server: RawServer
beforeAll(async () => {
  server = await startRawServer((_request, socket) => socket.end("HTTP/1.1 500 Status\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"))
})
afterAll(async () => {
  await server.close()
})
const unhandled = watchUnhandledRejections()

/** A complete HTTP/1.1 answer with a binary body (its `content-length` the body's), then the connection closed. */
const answer = (socket: net.Socket, status: number, headers: Readonly<Record<string, string>>, body: Buffer): void => {
  const lines = [`HTTP/1.1 ${status} Status`, "connection: close", `content-length: ${body.length}`]
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  socket.end(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]))
}

const json = { "content-type": "application/json; charset=utf-8" }

/** Answers every request of `call` with `reply`; anything else is a 500 (and shows in the count). */
const serve = (call: CallUnderTest, reply: (socket: net.Socket) => void) =>
  server.reset((request, socket) =>
    request.method === call.method && request.path === call.path ? reply(socket) : answer(socket, 500, {}, Buffer.from("unexpected request"))
  )

/** What a call ended in, as `Success` / `Failure(<tag>)` / `Defect(…)`, with the typed error. */
const outcomeOf = <A, E>(exit: Exit.Exit<A, E>) => {
  const outcome = classify(exit)
  return { shown: showOutcome(outcome), error: outcome._tag === "Failure" ? outcome.error : undefined }
}

/** Runs `effect` with a guard: a call that never ends fails the test instead of hanging it. */
const guarded = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.exit(Effect.timeoutOrElse(effect, { duration: "15 seconds", orElse: () => Effect.fail(new Error("the call did not end")) }))

/** The key under which effect's fetch-backed answers hand out their web `Response` (`HttpClientResponse.toWeb`). */
const webSourceKey = "~effect/http/HttpClientResponse/WebSource"

/**
 * An `HttpClient` over `fetch` whose answers hide their web `Response` (`HttpClientResponse.toWeb`
 * finds none), so the transport reads them through effect's body stream
 * (`HttpClientResponse.stream`), as it reads the answers of a client that is not `fetch`-based.
 */
const streamOnlyClient: Layer.Layer<HttpClient.HttpClient> = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) =>
    HttpClient.transformResponse(client, (response) =>
      Effect.map(
        response,
        (answer): HttpClientResponse.HttpClientResponse =>
          new Proxy(answer, {
            get: (target, property) => (property === webSourceKey || property === "source" ? undefined : Reflect.get(target, property, target))
          })
      )))
).pipe(Layer.provide(FetchHttpClient.layer), Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" })))

/** Client + server services against `url` over {@link streamOnlyClient}, with shrunk retry delays. */
const streamOnlyStack = (url: string) =>
  Stack.layerServer({
    projectId,
    baseUrl: url,
    publishableClientKey,
    secretServerKey,
    tokenStore: TokenStore.layerMemory(signedIn),
    retryPolicy: scaledRetryPolicy(),
    httpClient: streamOnlyClient
  }).pipe(Layer.orDie)

/** A body that does not match its `Content-Encoding`, for each encoding `fetch` decodes. */
const mismatched: ReadonlyArray<{ readonly encoding: string; readonly body: () => Buffer }> = [
  { encoding: "gzip", body: () => Buffer.from("{\"id\":\"not gzip at all\"}") },
  { encoding: "br", body: () => Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x13, 0x37, 0x42, 0x42, 0x42]) },
  { encoding: "deflate", body: () => Buffer.from("this is not a zlib stream, whatever the header says") }
]

describe("an answer that arrived is never a connectivity error (issue 25 item 3)", () => {
  for (const { encoding, body } of mismatched) {
    for (const call of calls) {
      it.live(`a ${encoding} Content-Encoding on a body that is not ${encoding}: ${call.name} → InvalidResponse after exactly one request`, () =>
        Effect.gen(function* () {
          serve(call, (socket) => answer(socket, call.okStatus, { ...json, "content-encoding": encoding }, body()))
          const { shown, error } = outcomeOf(yield* guarded(call.run.pipe(Effect.provide(layerFor(server.url, scaledRetryPolicy())))))
          expect(shown).toBe("Failure(InvalidResponse)")
          expect(server.requests).toHaveLength(1)
          expect(String((error as { message?: unknown }).message)).toContain("not a network failure")
          expect(leakedSecrets(error, secretTexts)).toEqual([])
        }))
    }
  }

  // undici decodes a truncated gzip stream as far as it goes (no error): the JSON is cut short
  it.live("a gzip body cut short (a valid gzip stream truncated, content-length of what is sent) → InvalidResponse, one request (GET)", () =>
    Effect.gen(function* () {
      const call = calls[2]!
      const whole = zlib.gzipSync(Buffer.from(JSON.stringify(call.okBody)))
      serve(call, (socket) => answer(socket, call.okStatus, { ...json, "content-encoding": "gzip" }, whole.subarray(0, Math.floor(whole.length / 2))))
      const { shown } = outcomeOf(yield* guarded(call.run.pipe(Effect.provide(layerFor(server.url, scaledRetryPolicy())))))
      expect(shown).toBe("Failure(InvalidResponse)")
      expect(server.requests).toHaveLength(1)
    }))

  it.live("a well-formed gzip answer is read (the encoding itself is fine)", () =>
    Effect.gen(function* () {
      const call = calls[2]!
      serve(call, (socket) => answer(socket, call.okStatus, { ...json, "content-encoding": "gzip" }, zlib.gzipSync(Buffer.from(JSON.stringify(call.okBody)))))
      const { shown } = outcomeOf(yield* guarded(call.run.pipe(Effect.provide(layerFor(server.url, scaledRetryPolicy())))))
      expect(shown).toBe("Success")
      expect(server.requests).toHaveLength(1)
    }))

  for (const call of [calls[2]!, calls[3]!]) {
    it.live(`read through effect's body stream (a client that is not fetch-based): bad gzip on ${call.name} → InvalidResponse, one request`, () =>
      Effect.gen(function* () {
        serve(call, (socket) => answer(socket, call.okStatus, { ...json, "content-encoding": "gzip" }, Buffer.from("not gzip")))
        const { shown } = outcomeOf(
          yield* guarded(call.run.pipe(Effect.provide(streamOnlyStack(server.url))))
        )
        expect(shown).toBe("Failure(InvalidResponse)")
        expect(server.requests).toHaveLength(1)
      }))
  }
})

describe("a Retry-After above maxRetryAfter is never slept on (issue 25 item 4)", () => {
  /** A 429 as the service sends it under `x-stack-override-error-status`. */
  const tooMany = (retryAfter: string) => (socket: net.Socket) =>
    answer(socket, 200, { ...json, "x-stack-actual-status": "429", "retry-after": retryAfter }, Buffer.from("{\"message\":\"Too many requests\"}"))

  for (const call of calls) {
    it.live(`Retry-After: 99999999999 under the default policy: ${call.name} → RateLimited at once with the server's value, one request`, () =>
      Effect.gen(function* () {
        serve(call, tooMany("99999999999"))
        const { shown, error } = outcomeOf(yield* guarded(call.run.pipe(Effect.provide(layerFor(server.url)))))
        expect(shown).toBe("Failure(RateLimited)")
        expect((error as { retryAfterSeconds?: unknown }).retryAfterSeconds).toBe(99999999999)
        expect(server.requests).toHaveLength(1)
      }))
  }

  it.live("an HTTP-date an hour ahead under the default policy → RateLimited at once carrying the seconds until it, one request", () =>
    Effect.gen(function* () {
      const call = calls[0]!
      serve(call, tooMany(new Date(Date.now() + 3_600_000).toUTCString()))
      const { shown, error } = outcomeOf(yield* guarded(call.run.pipe(Effect.provide(layerFor(server.url)))))
      expect(shown).toBe("Failure(RateLimited)")
      const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds
      expect(typeof seconds === "number" && seconds > 3500 && seconds <= 3600).toBe(true)
      expect(server.requests).toHaveLength(1)
    }))

  it.live("RequestAuth.authenticate meeting Retry-After: 99999999999 ends in RateLimited at once, one request", () =>
    Effect.gen(function* () {
      const me = calls[0]!
      serve(me, tooMany("99999999999"))
      const request = new Request("http://app.test/me", { headers: { authorization: `Bearer ${accessToken(4_000_000_000)}` } })
      const { shown, error } = outcomeOf(yield* guarded(RequestAuth.authenticate(request, { projectId }).pipe(Effect.provide(layerFor(server.url)))))
      expect(shown).toBe("Failure(RateLimited)")
      expect((error as { retryAfterSeconds?: unknown }).retryAfterSeconds).toBe(99999999999)
      expect(server.requests).toHaveLength(1)
    }))
})

describe("no stray failures", () => {
  it("no unhandled promise rejection was recorded", () => {
    expect(unhandled).toEqual([])
  })
})
