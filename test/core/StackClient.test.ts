import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { http, HttpResponse } from "msw"
import type { JsonBodyType } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import { StackClient } from "../../src/core/StackClient.js"
import * as Users from "../../src/users/Users.js"
import * as Password from "../../src/auth/Password.js"
import {
  accessToken,
  apiUrl,
  makeMswServer,
  projectId,
  publishableClientKey,
  refreshTokenText,
  runAdvancingClock,
  secretServerKey,
  sessionLayer,
  superSecretAdminKey,
  tokens,
  transportLayer,
  userBody
} from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const knownError = (code: string, status: number, message: string, details?: unknown, headerCode = code) =>
  HttpResponse.json(
    { code, error: message, ...(details === undefined ? {} : { details }) },
    { status: 200, headers: { "x-stack-known-error": headerCode, "x-stack-actual-status": String(status) } }
  )

const signedIn = tokens(accessToken(4_000_000_000), refreshTokenText)

const ok = (body: JsonBodyType = {}) => HttpResponse.json(body)

const send = (path: string, method: "GET" | "POST" = "GET", access: "client" | "server" | "admin" | "none" = "client") =>
  Effect.flatMap(StackClient, (client) => client.send({ method, path, access, body: method === "POST" ? { _tag: "Json", value: {} } : undefined }))

describe("request headers (PROTOCOL.md §1.2)", () => {
  it.effect("a client request carries exactly the client headers, credentials omitted and caching off", () =>
    Effect.gen(function* () {
      const seen: Array<Request> = []
      // msw 3 hands its handlers a Request without the `fetch` options' `credentials` and `cache`:
      // those are read from the options `fetch` was called with
      const inits: Array<RequestInit | undefined> = []
      const recordingFetch: typeof globalThis.fetch = (input, init) => (inits.push(init), globalThis.fetch(input, init))
      server.use(http.all(`${apiUrl}/*`, ({ request }) => (seen.push(request.clone()), ok())))
      yield* send("/users/me").pipe(Effect.provideService(FetchHttpClient.Fetch, recordingFetch))
      const request = seen[0]!
      const init = inits[0]!
      const stackHeaders = [...request.headers.keys()].filter((name) => name.startsWith("x-stack-")).sort()
      expect(stackHeaders).toEqual([
        "x-stack-access-type",
        "x-stack-allow-anonymous-user",
        "x-stack-client-version",
        "x-stack-override-error-status",
        "x-stack-project-id",
        "x-stack-publishable-client-key",
        "x-stack-random-nonce"
      ])
      expect(request.headers.get("x-stack-access-type")).toBe("client")
      expect(request.headers.get("x-stack-project-id")).toBe(projectId)
      expect(request.headers.get("x-stack-publishable-client-key")).toBe(publishableClientKey)
      expect(request.headers.get("x-stack-allow-anonymous-user")).toBe("true")
      expect(request.headers.get("x-stack-override-error-status")).toBe("true")
      expect(request.headers.get("x-stack-client-version")).toMatch(/^js stack-auth-effect@\d+\.\d+\.\d+$/)
      expect(init.credentials).toBe("omit")
      expect(init.cache).toBe("no-store")
    }).pipe(Effect.provide(transportLayer())))

  it.effect("the nonce is 224 random bits in lowercase Crockford base32, new on every request", () =>
    Effect.gen(function* () {
      const nonces: Array<string> = []
      server.use(http.all(`${apiUrl}/*`, ({ request }) => (nonces.push(request.headers.get("x-stack-random-nonce") ?? ""), ok())))
      yield* send("/users/me")
      yield* send("/users/me")
      for (const nonce of nonces) expect(nonce).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{45}$/)
      expect(nonces[0]).not.toBe(nonces[1])
    }).pipe(Effect.provide(transportLayer())))

  it.effect("server and admin requests carry their key and access type", () =>
    Effect.gen(function* () {
      const seen: Array<Request> = []
      server.use(http.all(`${apiUrl}/*`, ({ request }) => (seen.push(request.clone()), ok())))
      const client = yield* StackClient
      yield* client.send({ method: "GET", path: "/users", access: "server", credentials: { secretServerKey: Redacted.make(secretServerKey) } })
      yield* client.send({
        method: "GET",
        path: "/internal/projects/current",
        access: "admin",
        credentials: { superSecretAdminKey: Redacted.make(superSecretAdminKey) }
      })
      expect(seen[0]!.headers.get("x-stack-access-type")).toBe("server")
      expect(seen[0]!.headers.get("x-stack-secret-server-key")).toBe(secretServerKey)
      expect(seen[1]!.headers.get("x-stack-access-type")).toBe("admin")
      expect(seen[1]!.headers.get("x-stack-super-secret-admin-key")).toBe(superSecretAdminKey)
      expect(seen[1]!.headers.get("x-stack-secret-server-key")).toBeNull()
    }).pipe(Effect.provide(transportLayer())))

  it.effect("the signed-in user's access and refresh tokens are sent", () =>
    Effect.gen(function* () {
      const seen: Array<Request> = []
      server.use(http.get(`${apiUrl}/users/me`, ({ request }) => (seen.push(request.clone()), ok(userBody))))
      yield* Users.getCurrent()
      expect(seen[0]!.headers.get("x-stack-access-token")).toBe(Redacted.value(Option.getOrThrow(signedIn.accessToken)))
      expect(seen[0]!.headers.get("x-stack-refresh-token")).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("the OAuth token endpoint gets no x-stack headers, a form body", () =>
    Effect.gen(function* () {
      const seen: Array<Request> = []
      server.use(http.post(`${apiUrl}/auth/oauth/token`, ({ request }) => (seen.push(request.clone()), ok())))
      const client = yield* StackClient
      yield* client.send({ method: "POST", path: "/auth/oauth/token", access: "none", body: { _tag: "Form", value: { grant_type: "refresh_token" } } })
      expect([...seen[0]!.headers.keys()].filter((name) => name.startsWith("x-stack-"))).toEqual([])
      expect(seen[0]!.headers.get("content-type")).toBe("application/x-www-form-urlencoded;charset=UTF-8")
      expect(yield* Effect.promise(() => seen[0]!.text())).toBe("grant_type=refresh_token")
    }).pipe(Effect.provide(transportLayer())))
})

describe("responses (PROTOCOL.md §1.5)", () => {
  it.effect("reads x-stack-actual-status when the override is on: a 4xx sent as 200 is a known error with its real status", () =>
    Effect.gen(function* () {
      server.use(http.post(`${apiUrl}/auth/password/sign-in`, () => knownError("EMAIL_PASSWORD_MISMATCH", 400, "Wrong e-mail or password.")))
      const error = yield* Effect.flip(Password.signInWithPassword({ email: "a@example.com", password: "wrong-password" }))
      expect(error._tag).toBe("EmailPasswordMismatch")
      if (error._tag === "EmailPasswordMismatch") {
        expect(error.status).toBe(400)
        expect(error.message).toBe("Wrong e-mail or password.")
      }
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("a known error's details are decoded into its class", () =>
    Effect.gen(function* () {
      server.use(
        http.post(`${apiUrl}/auth/password/sign-up`, () => knownError("PASSWORD_TOO_SHORT", 400, "Password too short. Minimum length is 8.", { min_length: 8 }))
      )
      const error = yield* Effect.flip(Password.signUpWithPassword({ email: "a@example.com", password: "short", noVerificationCallback: true }))
      expect(error._tag).toBe("PasswordTooShort")
      if (error._tag === "PasswordTooShort") expect(error.details.min_length).toBe(8)
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("a known-error header that names another code than the body is an InvalidResponse", () =>
    Effect.gen(function* () {
      server.use(
        http.post(`${apiUrl}/auth/password/sign-in`, () => knownError("EMAIL_PASSWORD_MISMATCH", 400, "Wrong e-mail or password.", undefined, "SCHEMA_ERROR"))
      )
      const error = yield* Effect.flip(Password.signInWithPassword({ email: "a@example.com", password: "x" }))
      expect(error._tag).toBe("InvalidResponse")
      expect(error.message).toContain("does not match")
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("an unknown code keeps code, status and message in UnsupportedKnownError", () =>
    Effect.gen(function* () {
      server.use(http.post(`${apiUrl}/auth/password/sign-in`, () => knownError("BRAND_NEW_ERROR", 418, "Something new.", { a: 1 })))
      const error = yield* Effect.flip(Password.signInWithPassword({ email: "a@example.com", password: "x" }))
      expect(error._tag).toBe("UnsupportedKnownError")
      if (error._tag === "UnsupportedKnownError") {
        expect(error.code).toBe("BRAND_NEW_ERROR")
        expect(error.status).toBe(418)
        expect(error.message).toBe("Something new.")
        expect(error.details).toEqual({ a: 1 })
      }
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("a catalogued code the endpoint does not declare is an UnexpectedKnownError carrying its class", () =>
    Effect.gen(function* () {
      server.use(http.post(`${apiUrl}/auth/password/sign-in`, () => knownError("TEAM_NOT_FOUND", 404, "Team x not found.", { team_id: "x" })))
      const error = yield* Effect.flip(Password.signInWithPassword({ email: "a@example.com", password: "x" }))
      expect(error._tag).toBe("UnexpectedKnownError")
      if (error._tag === "UnexpectedKnownError") expect(error.error._tag).toBe("TeamNotFound")
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("malformed JSON on a 2xx is an InvalidResponse", () =>
    Effect.gen(function* () {
      server.use(http.get(`${apiUrl}/users/me`, () => new HttpResponse("{not json", { status: 200, headers: { "content-type": "application/json" } })))
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("InvalidResponse")
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a 2xx body that does not match the schema is an InvalidResponse naming the paths, not the values", () =>
    Effect.gen(function* () {
      server.use(http.get(`${apiUrl}/users/me`, () => ok({ ...userBody, has_password: "secret-value-xyz" })))
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("InvalidResponse")
      expect(error.message).toContain("has_password")
      expect(error.message).not.toContain("secret-value-xyz")
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a non-known-error failure is an HttpError with status and body text", () =>
    Effect.gen(function* () {
      server.use(
        http.get(`${apiUrl}/users/me`, () =>
          new HttpResponse("Invalid profile image URL", { status: 200, headers: { "x-stack-actual-status": "400", "content-type": "text/plain" } }))
      )
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("HttpError")
      if (error._tag === "HttpError") {
        expect(error.status).toBe(400)
        expect(error.body).toBe("Invalid profile image URL")
      }
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a 5xx is never rewritten and surfaces as HttpError", () =>
    Effect.gen(function* () {
      server.use(http.get(`${apiUrl}/users/me`, () => new HttpResponse("Something went wrong.", { status: 500 })))
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("HttpError")
      if (error._tag === "HttpError") expect(error.status).toBe(500)
    }).pipe(Effect.provide(sessionLayer(signedIn))))
})

describe("retry policy (SPEC.md §8, PROTOCOL.md §1.6)", () => {
  it.effect("429 with Retry-After waits that many seconds plus the backoff, then retries", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(
        http.get(`${apiUrl}/users/me`, () =>
          ++calls === 1
            ? new HttpResponse("Too many requests", { status: 200, headers: { "x-stack-actual-status": "429", "retry-after": "3" } })
            : ok(userBody))
      )
      const fiber = yield* Effect.forkChild(Users.getCurrent())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(delays).toHaveLength(1)
      expect(delays[0]).toBeGreaterThanOrEqual(3000 + 500)
      expect(delays[0]).toBeLessThanOrEqual(3000 + 1500)
      expect(calls).toBe(2)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("429 without Retry-After retries after the backoff, never at once", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls === 1 ? new HttpResponse("slow down", { status: 429 }) : ok(userBody))))
      const fiber = yield* Effect.forkChild(Users.getCurrent())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(delays).toHaveLength(1)
      expect(delays[0]).toBeGreaterThanOrEqual(500)
      expect(delays[0]).toBeLessThanOrEqual(1500)
      expect(calls).toBe(2)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a 429 that persists ends in RateLimited after 5 attempts", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, new HttpResponse("slow down", { status: 429, headers: { "retry-after": "1" } }))))
      const fiber = yield* Effect.forkChild(Effect.flip(Users.getCurrent()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("RateLimited")
      expect(calls).toBe(5)
      // Retry-After (1 s) plus the backoff of each retry: 1000 ms × 2^i × 0.5…1.5
      expect(delays).toHaveLength(4)
      delays.forEach((delay, i) => {
        expect(delay).toBeGreaterThanOrEqual(1000 + 500 * 2 ** i)
        expect(delay).toBeLessThanOrEqual(1000 + 1500 * 2 ** i)
      })
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a Retry-After over the policy's maxRetryAfter is not waited for: RateLimited at once, carrying the server's value", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, new HttpResponse("slow down", { status: 429, headers: { "retry-after": "3600" } }))))
      const fiber = yield* Effect.forkChild(Effect.flip(Users.getCurrent()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("RateLimited")
      expect(Exit.isSuccess(exit) && exit.value._tag === "RateLimited" && exit.value.retryAfterSeconds).toBe(3600)
      expect(calls).toBe(1)
      expect(delays).toEqual([])
    }).pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerWith({ attemptTimeout: "none", maxRetryAfter: "60 seconds" })))))

  it.effect("with maxRetryAfter \"none\" a long Retry-After is waited for (SPEC.md §8's letter)", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(
        http.get(`${apiUrl}/users/me`, () => ++calls === 1 ? new HttpResponse("slow down", { status: 429, headers: { "retry-after": "3600" } }) : ok(userBody))
      )
      const fiber = yield* Effect.forkChild(Users.getCurrent())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
      expect(delays).toHaveLength(1)
      expect(delays[0]).toBeGreaterThanOrEqual(3_600_000 + 500)
      expect(delays[0]).toBeLessThanOrEqual(3_600_000 + 1500)
    }).pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerWith({ attemptTimeout: "none", maxRetryAfter: "none" })))))

  it.effect("508 with the infinite-loop marker is retried with backoff", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(
        http.get(`${apiUrl}/users/me`, () => ++calls === 1 ? new HttpResponse("INFINITE_LOOP_DETECTED", { status: 508 }) : ok(userBody))
      )
      const fiber = yield* Effect.forkChild(Users.getCurrent())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(2)
      expect(delays).toHaveLength(1)
      expect(delays[0]).toBeGreaterThanOrEqual(500)
      expect(delays[0]).toBeLessThanOrEqual(1500)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("508 without the marker is an HttpError, not retried", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, new HttpResponse("Loop", { status: 508 }))))
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("HttpError")
      expect(calls).toBe(1)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a connection reset on GET is retried with exponential backoff and jitter", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls <= 2 ? HttpResponse.error() : ok(userBody))))
      const fiber = yield* Effect.forkChild(Users.getCurrent())
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(calls).toBe(3)
      expect(delays).toHaveLength(2)
      expect(delays[0]).toBeGreaterThanOrEqual(500)
      expect(delays[0]).toBeLessThanOrEqual(1500)
      expect(delays[1]).toBeGreaterThanOrEqual(1000)
      expect(delays[1]).toBeLessThanOrEqual(3000)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a GET that never connects gives up after 5 attempts with a ConnectivityError", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, HttpResponse.error())))
      const fiber = yield* Effect.forkChild(Effect.flip(Users.getCurrent()))
      const { exit, delays } = yield* runAdvancingClock(fiber)
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("ConnectivityError")
      expect(calls).toBe(5)
      expect(delays).toHaveLength(4)
    }).pipe(Effect.provide(sessionLayer(signedIn))))

  it.effect("a connection reset on POST is not retried: one request, a ConnectivityError with method and URL", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.post(`${apiUrl}/auth/password/sign-in`, () => (++calls, HttpResponse.error())))
      const error = yield* Effect.flip(Password.signInWithPassword({ email: "a@example.com", password: "whatever-password" }))
      expect(error._tag).toBe("ConnectivityError")
      if (error._tag === "ConnectivityError") {
        expect(error.method).toBe("POST")
        expect(error.url).toBe(`${apiUrl}/auth/password/sign-in`)
        expect(error.cause).toBeDefined()
      }
      expect(calls).toBe(1)
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("a swapped policy (no retries) surfaces the first failure", () =>
    Effect.gen(function* () {
      let calls = 0
      server.use(http.get(`${apiUrl}/users/me`, () => (++calls, HttpResponse.error())))
      const error = yield* Effect.flip(Users.getCurrent())
      expect(error._tag).toBe("ConnectivityError")
      expect(calls).toBe(1)
    }).pipe(Effect.provide(sessionLayer(signedIn, RetryPolicy.layerNoRetries))))

  it.effect("failures are typed errors, never defects", () =>
    Effect.gen(function* () {
      server.use(http.get(`${apiUrl}/users/me`, () => new HttpResponse(null, { status: 200, headers: { "x-stack-known-error": "X" } })))
      const exit = yield* Effect.exit(Users.getCurrent())
      expect(Exit.isFailure(exit) && exit.cause.reasons.length === 1 && Cause.isFailReason(exit.cause.reasons[0]!)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(signedIn))))
})

void Layer
