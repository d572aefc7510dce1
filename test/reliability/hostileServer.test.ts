/**
 * A hostile server (or something in between): redirects to another origin, endless and oversized
 * bodies, JSON nested thousands of levels deep, stalls mid-body, non-JSON under a JSON content
 * type, huge headers, known-error headers with malformed details. Every case ends in a typed
 * error, in bounded time (TestClock where the limit is a time), sending nothing further, leaking
 * no secret. Counted: requests at each origin, attempts, bytes the client read.
 */
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Schedule } from "effect"
import { TestClock } from "effect/testing"
import { http, HttpResponse } from "msw"
import type * as net from "node:net"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as StackClient from "../../src/core/StackClient.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import * as Stack from "../../src/Stack.js"
import * as Session from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import {
  accessToken,
  apiUrl,
  baseUrl,
  makeMswServer,
  projectId,
  publishableClientKey,
  realPause,
  refreshTokenText,
  secretServerKey,
  sessionLayer,
  tokens,
  userBody
} from "../support/fixtures.js"
import { calls, layerFor, secretTexts } from "./faults.js"
import type { RawServer } from "./support.js"
import { classify, leakedSecrets, rawResponse, scaledRetryPolicy, showOutcome, startRawServer, watchUnhandledRejections } from "./support.js"

const msw = makeMswServer()
let api: RawServer
let other: RawServer
beforeAll(async () => {
  msw.listen({ onUnhandledFrame: "bypass" })
  api = await startRawServer((_request, socket) => socket.end(rawResponse(500, {}, "no behaviour")))
  other = await startRawServer((_request, socket) => socket.end(rawResponse(200, { "content-type": "application/json" }, "{}")))
})
afterEach(() => msw.resetHandlers())
afterAll(async () => {
  msw.close()
  await api.close()
  await other.close()
})
const unhandled = watchUnhandledRejections()

const signedIn = tokens(accessToken(4_000_000_000), refreshTokenText)
const otherOrigin = "http://elsewhere.test"

/** A client + server stack over msw's fetch (the SDK's default `layerFetch`). */
const mswStack = (retryPolicy: Layer.Layer<RetryPolicy.RetryPolicy> = RetryPolicy.layerWith({ attemptTimeout: "none" })) =>
  Stack.layerServer({ projectId, baseUrl, publishableClientKey, secretServerKey, tokenStore: TokenStore.layerMemory(signedIn), retryPolicy }).pipe(
    Layer.orDie
  )

/** What the client read of every answer body: total bytes and the largest chunk. */
interface ReadCounter {
  bytes: number
  largestChunk: number
}

/** `fetch` whose answer bodies are counted as the SDK pulls them. */
const countingFetch = (counter: ReadCounter): typeof globalThis.fetch => async (input, init) => {
  const response = await globalThis.fetch(input, init)
  if (response.body === null) return response
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        counter.bytes += chunk.byteLength
        counter.largestChunk = Math.max(counter.largestChunk, chunk.byteLength)
        controller.enqueue(chunk)
      }
    })
  )
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** Transport + session over `fetch` (counted) to `url`, with the given policy. */
const countedLayer = (url: string, counter: ReadCounter, policy: Layer.Layer<RetryPolicy.RetryPolicy>) =>
  Session.layer.pipe(
    Layer.provideMerge(TokenStore.layerMemory(signedIn)),
    Layer.provideMerge(
      StackClient.layerWithoutDependencies.pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, StackClient.fetchRequestInit)),
        Layer.provide(Layer.succeed(FetchHttpClient.Fetch, countingFetch(counter))),
        Layer.provide(policy),
        Layer.provideMerge(StackConfig.layer({ projectId, baseUrl: url, publishableClientKey }))
      )
    )
  )

const tagOf = (exit: Exit.Exit<unknown, unknown>): string => showOutcome(classify(exit))

/** A JSON text nesting `depth` arrays: `[[[…]]]`. */
const nestedArrays = (depth: number): string => "[".repeat(depth) + "]".repeat(depth)

/** A JSON text nesting `depth` objects: `{"a":{"a":…}}`. */
const nestedObjects = (depth: number): string => "{\"a\":".repeat(depth) + "{}" + "}".repeat(depth)

const knownError = (code: string, details: string) =>
  new HttpResponse(`{"code":${JSON.stringify(code)},"error":"Hostile.","details":${details}}`, {
    status: 200,
    headers: { "content-type": "application/json", "x-stack-known-error": code, "x-stack-actual-status": "400" }
  })

describe("hostile server", () => {
  describe("redirects are never followed", () => {
    for (const call of calls) {
      it.effect(`a 302 to another origin (msw) ends ${call.name} in HttpError, 0 requests reach the other origin`, () =>
        Effect.gen(function* () {
          let elsewhere = 0
          let attempts = 0
          msw.use(
            http.all(`${apiUrl}/*`, () => {
              attempts++
              return new HttpResponse(null, { status: 302, headers: { location: `${otherOrigin}/steal` } })
            }),
            http.all(`${otherOrigin}/*`, () => {
              elsewhere++
              return HttpResponse.json(call.okBody as Record<string, unknown>)
            })
          )
          const exit = yield* Effect.exit(call.run.pipe(Effect.provide(mswStack())))
          expect(tagOf(exit)).toBe("Failure(HttpError)")
          expect(elsewhere).toBe(0)
          expect(attempts).toBe(1)
          const error = Exit.isFailure(exit) ? classify(exit) : undefined
          if (error?._tag === "Failure") {
            expect((error.error as { status: number }).status).toBe(302)
            expect(String((error.error as { message: string }).message)).toContain("redirect")
            expect(leakedSecrets(error.error, secretTexts)).toEqual([])
          }
        }))
    }

    for (const status of [301, 303, 307, 308]) {
      it.effect(`a ${status} is refused the same way (0 requests elsewhere)`, () =>
        Effect.gen(function* () {
          let elsewhere = 0
          msw.use(
            http.all(`${apiUrl}/*`, () => new HttpResponse(null, { status, headers: { location: `${otherOrigin}/steal` } })),
            http.all(`${otherOrigin}/*`, () => (elsewhere++, HttpResponse.json(userBody)))
          )
          const exit = yield* Effect.exit(Users.getCurrent().pipe(Effect.provide(mswStack())))
          expect(tagOf(exit)).toBe("Failure(HttpError)")
          expect(elsewhere).toBe(0)
        }))
    }

    it.effect("a redirect is refused even when the app puts its own FetchHttpClient.RequestInit (no redirect option) in the context", () =>
      Effect.gen(function* () {
        let elsewhere = 0
        msw.use(
          http.all(`${apiUrl}/*`, () => new HttpResponse(null, { status: 302, headers: { location: `${otherOrigin}/steal` } })),
          http.all(`${otherOrigin}/*`, () => (elsewhere++, HttpResponse.json(userBody)))
        )
        const exit = yield* Effect.exit(
          Users.getCurrent().pipe(Effect.provide(mswStack()), Effect.provideService(FetchHttpClient.RequestInit, { credentials: "omit" }))
        )
        expect(tagOf(exit)).toBe("Failure(HttpError)")
        expect(elsewhere).toBe(0)
      }))

    it.effect("an opaque redirect (a browser's status 0 answer to redirect: manual) is an HttpError, not retried", () =>
      Effect.gen(function* () {
        let attempts = 0
        const opaque: typeof globalThis.fetch = async () => {
          attempts++
          return Response.error()
        }
        const exit = yield* Effect.exit(
          Users.getCurrent().pipe(Effect.provide(sessionLayer(signedIn)), Effect.provideService(FetchHttpClient.Fetch, opaque))
        )
        expect(tagOf(exit)).toBe("Failure(HttpError)")
        expect(attempts).toBe(1)
      }))

    for (const call of calls) {
      it.live(`a real socket server answering 302 to another origin: ${call.name} → HttpError, 0 requests reach the other origin`, () =>
        Effect.gen(function* () {
          other.reset((_request, socket) => socket.end(rawResponse(200, { "content-type": "application/json" }, JSON.stringify(call.okBody))))
          api.reset((_request, socket) => socket.end(rawResponse(302, { location: `${other.url}${call.path}` }, "")))
          const exit = yield* Effect.exit(call.run.pipe(Effect.provide(layerFor(api.url, scaledRetryPolicy()))))
          expect(tagOf(exit)).toBe("Failure(HttpError)")
          expect(api.requests).toHaveLength(1)
          expect(other.requests).toHaveLength(0)
          const outcome = classify(exit)
          if (outcome._tag === "Failure") expect(leakedSecrets(outcome.error, secretTexts)).toEqual([])
        }))
    }
  })

  describe("answer size is capped", () => {
    it("the default cap is 8 MiB", () => {
      expect(RetryPolicy.defaultMaxResponseBytes).toBe(8 * 1024 * 1024)
    })

    it.live("an endless body (real socket, no content-length) ends in InvalidResponse after reading at most cap + one chunk; not retried", () =>
      Effect.gen(function* () {
        const cap = 256 * 1024
        let written = 0
        let closed = false
        const endless = (socket: net.Socket) => {
          socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n[")
          const piece = Buffer.from("0,".repeat(8 * 1024))
          const pump = () => {
            while (!closed && !socket.destroyed) {
              written += piece.length
              if (!socket.write(piece)) return void socket.once("drain", pump)
            }
          }
          socket.on("close", () => void (closed = true))
          socket.on("error", () => void (closed = true))
          pump()
        }
        api.reset((_request, socket) => endless(socket))
        const counter: ReadCounter = { bytes: 0, largestChunk: 0 }
        const exit = yield* Effect.exit(
          Users.getCurrent().pipe(Effect.provide(countedLayer(api.url, counter, RetryPolicy.layerWith({ maxResponseBytes: cap }))))
        )
        expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
        expect(api.requests).toHaveLength(1)
        expect(counter.bytes).toBeGreaterThan(cap)
        // at most cap + the chunk that crossed it + what the counting stream had queued (one chunk)
        expect(counter.bytes).toBeLessThanOrEqual(cap + 2 * counter.largestChunk)
        // the connection is dropped: the server stops writing
        for (let i = 0; i < 200 && !closed; i++) yield* Effect.sleep("5 millis")
        expect(closed).toBe(true)
        const before = written
        yield* Effect.sleep("20 millis")
        expect(written).toBe(before)
      }))

    it.effect("a content-length above the cap is refused before the body is read (InvalidResponse)", () =>
      Effect.gen(function* () {
        const big = JSON.stringify({ ...userBody, display_name: "x".repeat(64 * 1024) })
        msw.use(http.get(`${apiUrl}/users/me`, () => new HttpResponse(big, { headers: { "content-type": "application/json" } })))
        const exit = yield* Effect.exit(
          Users.getCurrent().pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerWith({ attemptTimeout: "none", maxResponseBytes: 16 * 1024 }))))
        )
        expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
        const outcome = classify(exit)
        if (outcome._tag === "Failure") expect((outcome.error as { message: string }).message).toContain("larger than 16384 bytes")
      }))

    it.effect("a body under the cap is read whole", () =>
      Effect.gen(function* () {
        const big = JSON.stringify({ ...userBody, display_name: "x".repeat(10 * 1024) })
        msw.use(http.get(`${apiUrl}/users/me`, () => new HttpResponse(big, { headers: { "content-type": "application/json" } })))
        const user = yield* Users.getCurrent().pipe(
          Effect.provide(sessionLayer(signedIn, RetryPolicy.layerWith({ attemptTimeout: "none", maxResponseBytes: 16 * 1024 })))
        )
        expect(Option.map(user, (u) => u.displayName?.length)).toEqual(Option.some(10 * 1024))
      }))
  })

  describe("deeply nested JSON is an InvalidResponse, never a stack overflow", () => {
    const cases: ReadonlyArray<{ readonly name: string; readonly answer: () => HttpResponse<any> }> = [
      {
        name: "a 2xx answer [[[…]]] 3000 levels deep",
        answer: () => new HttpResponse(nestedArrays(3000), { headers: { "content-type": "application/json" } })
      },
      {
        name: "a 2xx answer {\"a\":{\"a\":…}} 3000 levels deep",
        answer: () => new HttpResponse(nestedObjects(3000), { headers: { "content-type": "application/json" } })
      },
      {
        name: "a 2xx user whose metadata nests 3000 levels",
        answer: () =>
          new HttpResponse(JSON.stringify(userBody).replace("\"client_metadata\":null", `"client_metadata":${nestedArrays(3000)}`), {
            headers: { "content-type": "application/json" }
          })
      },
      { name: "a declared known error whose details nest 3000 levels", answer: () => knownError("ACCESS_TOKEN_EXPIRED", nestedArrays(3000)) },
      { name: "a declared known error whose details are a malformed value 3000 levels deep", answer: () => knownError("SCHEMA_ERROR", nestedObjects(3000)) },
      { name: "an unknown known-error code whose details nest 3000 levels", answer: () => knownError("SOMETHING_NEW", nestedArrays(3000)) }
    ]
    for (const { name, answer } of cases) {
      it.effect(`${name} → InvalidResponse (a typed failure, no defect)`, () =>
        Effect.gen(function* () {
          let requests = 0
          msw.use(http.get(`${apiUrl}/users/me`, () => (requests++, answer())))
          const exit = yield* Effect.exit(Users.getCurrent().pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerNoRetries))))
          expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
          expect(requests).toBeGreaterThanOrEqual(1)
        }))
    }

    it.effect("metadata nesting 100 levels (a plausible app value) still decodes", () =>
      Effect.gen(function* () {
        const body = JSON.stringify(userBody).replace("\"client_metadata\":null", `"client_metadata":${nestedObjects(100)}`)
        msw.use(http.get(`${apiUrl}/users/me`, () => new HttpResponse(body, { headers: { "content-type": "application/json" } })))
        const user = yield* Users.getCurrent().pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerNoRetries)))
        expect(Option.isSome(user)).toBe(true)
      }))
  })

  describe("other misbehaviour ends in a typed error in bounded time", () => {
    it.effect("a stall mid-body ends in ConnectivityError when the attempt limit passes on the TestClock (POST: one attempt)", () =>
      Effect.gen(function* () {
        api.reset((_request, socket) => socket.write(rawResponse(200, { "content-type": "application/json" }, "{\"access_token\":", { contentLength: 500 })))
        const signIn = calls.find((call) => call.method === "POST" && call.access === "client")!
        const fiber = yield* Effect.forkChild(Effect.exit(signIn.run.pipe(Effect.provide(layerFor(api.url, RetryPolicy.layer)))))
        for (let i = 0; i < 1000 && api.requests.length === 0; i++) yield* realPause()
        yield* realPause(20)
        yield* TestClock.adjust("30 seconds")
        const exit = yield* Fiber.join(fiber)
        expect(tagOf(exit)).toBe("Failure(ConnectivityError)")
        expect(api.requests).toHaveLength(1)
        api.destroyConnections()
      }))

    it.effect("a stall mid-body on a GET without retries ends in ConnectivityError after the attempt limit (TestClock)", () =>
      Effect.gen(function* () {
        api.reset((_request, socket) => socket.write(rawResponse(200, { "content-type": "application/json" }, "{\"id\":", { contentLength: 500 })))
        const once = RetryPolicy.layerWith({ schedule: Schedule.recurs(0), attemptTimeout: "30 seconds" })
        const fiber = yield* Effect.forkChild(Effect.exit(Users.getCurrent().pipe(Effect.provide(layerFor(api.url, once)))))
        for (let i = 0; i < 1000 && api.requests.length === 0; i++) yield* realPause()
        yield* realPause(20)
        yield* TestClock.adjust("30 seconds")
        const exit = yield* Fiber.join(fiber)
        expect(tagOf(exit)).toBe("Failure(ConnectivityError)")
        expect(api.requests).toHaveLength(1)
        api.destroyConnections()
      }))

    for (const transport of ["msw", "socket"] as const) {
      it.live(`non-JSON under a JSON content type (${transport}) is an InvalidResponse, one request`, () =>
        Effect.gen(function* () {
          const html = "<html><body>Gateway</body></html>"
          let requests = 0
          msw.use(http.get(`${apiUrl}/users/me`, () => (requests++, new HttpResponse(html, { headers: { "content-type": "application/json" } }))))
          api.reset((_request, socket) => socket.end(rawResponse(200, { "content-type": "application/json; charset=utf-8" }, html)))
          const layer = transport === "msw" ? mswStack() : layerFor(api.url, scaledRetryPolicy())
          const exit = yield* Effect.exit(Users.getCurrent().pipe(Effect.provide(layer)))
          expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
          expect(transport === "msw" ? requests : api.requests.length).toBe(1)
        }))
    }

    it.live("a huge response header (real socket, 256 KB) ends in a typed error after at most 5 attempts", () =>
      Effect.gen(function* () {
        api.reset((_request, socket) =>
          socket.end(rawResponse(200, { "content-type": "application/json", "x-huge": "h".repeat(256 * 1024) }, JSON.stringify(userBody)))
        )
        const exit = yield* Effect.exit(Users.getCurrent().pipe(Effect.provide(layerFor(api.url, scaledRetryPolicy()))))
        expect(tagOf(exit)).toMatch(/^Failure\((ConnectivityError|InvalidResponse|HttpError)\)$/)
        expect(api.requests.length).toBeGreaterThanOrEqual(1)
        expect(api.requests.length).toBeLessThanOrEqual(RetryPolicy.maxAttempts)
        const outcome = classify(exit)
        if (outcome._tag === "Failure") expect(leakedSecrets(outcome.error, secretTexts)).toEqual([])
      }))

    const malformedDetails: ReadonlyArray<{ readonly name: string; readonly details: string }> = [
      { name: "a string", details: "\"not an object\"" },
      { name: "wrong member types", details: "{\"message\":42}" },
      { name: "null", details: "null" }
    ]
    for (const { name, details } of malformedDetails) {
      it.effect(`a known-error header naming a declared code with malformed details (${name}) is an InvalidResponse`, () =>
        Effect.gen(function* () {
          msw.use(http.get(`${apiUrl}/users/me`, () => knownError("SCHEMA_ERROR", details)))
          const exit = yield* Effect.exit(Users.getCurrent().pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerNoRetries))))
          expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
        }))
    }

    it.effect("a known-error header with a body that is not JSON is an InvalidResponse", () =>
      Effect.gen(function* () {
        msw.use(
          http.get(`${apiUrl}/users/me`, () =>
            new HttpResponse("<html>", { status: 200, headers: { "x-stack-known-error": "ACCESS_TOKEN_EXPIRED", "x-stack-actual-status": "401" } }))
        )
        const exit = yield* Effect.exit(Users.getCurrent().pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerNoRetries))))
        expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
      }))
  })

  describe("a hostile OAuth authorize answer", () => {
    for (const location of ["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "/relative/path", "not a url"]) {
      it.effect(`a location ${JSON.stringify(location.slice(0, 24))} is an InvalidResponse: the page does not navigate, no verifier cookie`, () =>
        Effect.gen(function* () {
          msw.use(http.get(`${apiUrl}/auth/oauth/authorize/:provider`, () => HttpResponse.json({ location })))
          const page = OAuthBrowser.makeMemory({ url: "http://localhost:3000/sign-in" })
          const exit = yield* Effect.exit(
            OAuth.signInWithOAuth({ provider: "github" }).pipe(Effect.provide(Layer.merge(sessionLayer(signedIn, RetryPolicy.layerNoRetries), page.layer)))
          )
          expect(tagOf(exit)).toBe("Failure(InvalidResponse)")
          expect(page.navigations).toEqual([])
          expect(page.jar.size).toBe(0)
        }))
    }
  })

  it("no unhandled rejection was raised", () => {
    expect(unhandled).toEqual([])
  })
})
