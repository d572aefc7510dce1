/**
 * Token safety under faults (SPEC.md §4–5, issue 7):
 * - the refresh token survives every network fault and every garbled answer during a refresh;
 * - it is cleared only by a rejected refresh (the REFRESH_TOKEN_ERROR family) or a sign-out;
 * - a sign-out during a refresh wins, whatever the refresh answers and in whichever order;
 * - no token, key or password text appears in any error, log line or span of all of the above
 *   (captured with a test Logger at LogLevel.All and a recording tracer).
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Layer, Logger, Option, Redacted, References } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { TestClock } from "effect/testing"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Access from "../../src/core/Access.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import { defaultRefreshFailureCooldown, Session } from "../../src/session/Session.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import {
  accessToken,
  apiUrl,
  makeMswServer,
  projectId,
  publishableClientKey,
  realPause,
  refreshTokenText,
  runAdvancingClock,
  secretServerKey,
  sessionLayer,
  superSecretAdminKey,
  tokens,
  userBody
} from "../support/fixtures.js"
import * as fc from "./arbitraries.js"
import { classify, count, showOutcome, timeout, watchUnhandledRejections } from "./support.js"
import { recordingTracer as recordingTracerOf } from "../support/recordingTracer.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
const unhandled = watchUnhandledRejections()

/** The test clock starts at 0; this access token expired at 60 s and the tests run at 120 s. */
const expiredAccess = accessToken(60)
const validAccess = accessToken(4_000_000_000)
const freshAccess = accessToken(100_000, "user-1")
const rotatedRefresh = "rotatedrefresh000000000000000000000000000000000"
const password = "hunter2-correct-horse"
const secrets = [
  expiredAccess,
  validAccess,
  freshAccess,
  refreshTokenText,
  rotatedRefresh,
  publishableClientKey,
  secretServerKey,
  superSecretAdminKey,
  password
]

// ---------------------------------------------------------------------------------------------
// Capture of everything observable: log lines, spans, errors.

interface Captured {
  readonly lines: Array<string>
  readonly spans: Array<{ readonly name: string; readonly attributes: Map<string, unknown>; readonly events: Array<string> }>
  readonly errors: Array<unknown>
}
const captured: Captured = { lines: [], spans: [], errors: [] }

const recordingTracer = recordingTracerOf(captured.spans)

const captureLogger = Logger.make((options) => {
  captured.lines.push(Logger.formatLogFmt.log(options))
  captured.lines.push(Logger.formatJson.log(options))
})

/**
 * Runs an effect with the capturing logger and tracer (its HTTP client spans recording every
 * request and response header: effect 4 records none unless asked); logs (and records) every failure.
 */
const observed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.tapCause((cause) =>
      Effect.andThen(
        Effect.sync(() =>
          void captured.errors.push(
            ...cause.reasons.flatMap((reason) => (Cause.isFailReason(reason) ? [reason.error] : Cause.isDieReason(reason) ? [reason.defect] : []))
          )
        ),
        Effect.logError("call failed", cause)
      )
    ),
    Effect.tap((value) => Effect.logDebug("call succeeded", value)),
    Effect.provide(Logger.layer([captureLogger])),
    Effect.provideService(References.MinimumLogLevel, "All"),
    Effect.withTracer(recordingTracer),
    Effect.provideService(HttpClient.TracerHeaderFilter, () => true)
  )

// ---------------------------------------------------------------------------------------------
// Servers

const json = (body: Record<string, unknown>, status = 200) => HttpResponse.json(body, { status })
const knownError = (code: string, status: number, message: string, details?: unknown) =>
  HttpResponse.json(
    { code, error: message, ...(details === undefined ? {} : { details }) },
    { status: 200, headers: { "x-stack-known-error": code, "x-stack-actual-status": String(status) } }
  )
const tokenResponse = (refresh?: string) =>
  json({ access_token: freshAccess, token_type: "Bearer", expires_in: 3599, ...(refresh === undefined ? {} : { refresh_token: refresh }) })

const broken = (text: string) =>
  new HttpResponse(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text))
        // the stream ends where the connection was reset: msw 3 hands a body whose stream fails after
        // the answer went out to the client as a truncated body (and fails the whole fetch if it fails
        // before), so the cut-short answer is modelled as msw 3 delivers it
        controller.close()
      }
    }),
    { status: 200, headers: { "content-type": "application/json" } }
  )

/** Every fault a refresh can meet that is NOT a rejection of the refresh token. */
const refreshFaults: ReadonlyArray<{ readonly name: string; readonly answer: () => Response }> = [
  { name: "connection reset", answer: () => HttpResponse.error() },
  { name: "connection reset mid-body", answer: () => broken("{\"access_token\":\"eyJ") },
  { name: "500", answer: () => new HttpResponse("Something went wrong.", { status: 500 }) },
  { name: "502 HTML page", answer: () => new HttpResponse("<html>502 Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } }) },
  { name: "503 empty", answer: () => new HttpResponse(null, { status: 503 }) },
  { name: "429 storm", answer: () => new HttpResponse("slow down", { status: 429, headers: { "retry-after": "1" } }) },
  { name: "508 loop storm", answer: () => new HttpResponse("INFINITE_LOOP_DETECTED", { status: 508 }) },
  { name: "truncated JSON", answer: () => new HttpResponse("{\"access_token\":\"eyJhbGciOi", { headers: { "content-type": "application/json" } }) },
  { name: "empty 200", answer: () => new HttpResponse("", { status: 200 }) },
  { name: "HTML 200", answer: () => new HttpResponse("<!doctype html><p>login</p>", { headers: { "content-type": "text/html" } }) },
  { name: "JSON of the wrong shape", answer: () => json({ items: [] }) },
  { name: "an unusable access token", answer: () => json({ access_token: "undefined", token_type: "Bearer" }) },
  {
    name: "known-error header without a body code",
    answer: () => new HttpResponse("{\"error\":\"x\"}", { headers: { "x-stack-known-error": "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED" } })
  },
  {
    name: "header and body codes disagree (a rejection code in the header only)",
    answer: () => new HttpResponse("{\"code\":\"SCHEMA_ERROR\",\"error\":\"x\"}", { headers: { "x-stack-known-error": "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED" } })
  },
  {
    name: "header and body codes disagree (a rejection code in the body only)",
    answer: () => new HttpResponse("{\"code\":\"REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED\",\"error\":\"x\"}", { headers: { "x-stack-known-error": "SCHEMA_ERROR" } })
  },
  { name: "unknown known-error code", answer: () => knownError("BRAND_NEW_ERROR", 400, "new") },
  { name: "SCHEMA_ERROR", answer: () => knownError("SCHEMA_ERROR", 400, "Request validation failed", { message: "Request validation failed" }) },
  { name: "INVALID_PUBLISHABLE_CLIENT_KEY", answer: () => knownError("INVALID_PUBLISHABLE_CLIENT_KEY", 401, "bad key", { project_id: projectId }) }
]

const refreshRoute = (answer: () => Response | Promise<Response>) => {
  const seen = { count: 0 }
  server.use(
    http.post(`${apiUrl}/auth/oauth/token`, () => {
      seen.count++
      return answer()
    })
  )
  return seen
}

const meRoute = () => {
  const seen = { count: 0 }
  server.use(
    http.get(`${apiUrl}/users/me`, () => {
      seen.count++
      return json(userBody)
    })
  )
  return seen
}

const stored = Effect.flatMap(TokenStore, (store) => store.get)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))

let scenarios = 0

describe("the refresh token survives every fault during a refresh", () => {
  for (const fault of refreshFaults) {
    it.effect(`${fault.name}: typed error, refresh token kept, session still usable afterwards`, () =>
      Effect.gen(function* () {
        scenarios++
        refreshRoute(fault.answer)
        const me = meRoute()
        yield* TestClock.setTime(120_000)
        const fiber = yield* Effect.forkChild(Effect.exit(observed(Users.getCurrent())))
        const { exit } = yield* runAdvancingClock(fiber)
        const outcome = Exit.isSuccess(exit) ? classify(exit.value) : classify(exit)
        expect(outcome._tag, showOutcome(outcome)).toBe("Failure")
        expect(me.count).toBe(0)
        const after = yield* stored
        expect(text(after.refreshToken)).toBe(refreshTokenText)
        // the service recovers: once the refresh cooldown has passed, the kept refresh token works
        yield* TestClock.adjust(defaultRefreshFailureCooldown)
        server.resetHandlers()
        refreshRoute(() => tokenResponse())
        meRoute()
        const user = yield* observed(Users.getCurrent())
        expect(Option.isSome(user)).toBe(true)
        expect(text((yield* stored).accessToken)).toBe(freshAccess)
      }).pipe(Effect.provide(sessionLayer(tokens(expiredAccess, refreshTokenText)))))
  }
})

describe("the refresh token is cleared only by a rejected refresh or a sign-out", () => {
  for (const code of KnownErrors.refreshTokenErrorCodes) {
    it.effect(`a refresh rejected with ${code} clears both tokens; the user is signed out`, () =>
      Effect.gen(function* () {
        scenarios++
        const cls = KnownErrors.byCode.get(code)!
        refreshRoute(() => knownError(code, cls.status, "Refresh token rejected."))
        const me = meRoute()
        yield* TestClock.setTime(120_000)
        const user = yield* observed(Users.getCurrent())
        expect(Option.isNone(user)).toBe(true)
        expect(me.count).toBe(0)
        const after = yield* stored
        expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
      }).pipe(Effect.provide(sessionLayer(tokens(expiredAccess, refreshTokenText)))))
  }

  it.effect("sign-out clears both tokens", () =>
    Effect.gen(function* () {
      scenarios++
      server.use(http.delete(`${apiUrl}/auth/sessions/current`, () => json({ success: true })))
      yield* observed(Sessions.signOut())
      const after = yield* stored
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(validAccess, refreshTokenText)))))

  it.effect(`random sequences of refresh outcomes: the token is kept until the first rejection (${count(40, 300)} sequences)`, () =>
    Effect.gen(function* () {
      const outcomes = fc.oneof<string>(
        { weight: 6, arbitrary: fc.constantFrom(...refreshFaults.map((fault) => fault.name)) },
        { weight: 3, arbitrary: fc.constant("success") },
        { weight: 2, arbitrary: fc.constant("rotate") },
        { weight: 1, arbitrary: fc.constantFrom(...KnownErrors.refreshTokenErrorCodes) }
      )
      const property = (sequence: ReadonlyArray<string>) => {
        scenarios++
        let step = 0
        server.resetHandlers()
        refreshRoute(() => {
          const kind = sequence[Math.min(step, sequence.length - 1)]!
          if (kind === "success") return tokenResponse()
          if (kind === "rotate") return tokenResponse(rotatedRefresh)
          if (KnownErrors.refreshTokenErrorCodes.has(kind)) return knownError(kind, 401, "rejected")
          return refreshFaults.find((fault) => fault.name === kind)!.answer()
        })
        const program = Effect.gen(function* () {
          const session = yield* Session
          let expected: string | undefined = refreshTokenText
          for (step = 0; step < sequence.length; step++) {
            const kind = sequence[step]!
            const fiber = yield* Effect.forkChild(Effect.exit(observed(session.refresh)))
            const { exit } = yield* runAdvancingClock(fiber)
            expect(Exit.isSuccess(exit)).toBe(true)
            if (Exit.isSuccess(exit)) expect(classify(exit.value)._tag).not.toBe("Defect")
            if (expected !== undefined) {
              if (kind === "rotate") expected = rotatedRefresh
              else if (KnownErrors.refreshTokenErrorCodes.has(kind)) expected = undefined
            }
            expect(text((yield* stored).refreshToken)).toBe(expected)
            // past the refresh cooldown: the next step sends its own refresh
            yield* TestClock.adjust(defaultRefreshFailureCooldown)
          }
        })
        return program.pipe(Effect.provide(sessionLayer(tokens(expiredAccess, refreshTokenText))), Effect.as(true))
      }
      yield* fc.check(fc.array(outcomes, { minLength: 1, maxLength: 8 }), property, { runs: count(40, 300) })
    }), timeout(120_000, 120_000))
})

describe("a sign-out during a refresh wins", () => {
  /** A server whose refresh and sign-out answers wait for the test to release them. */
  const gatedServer = (refreshAnswer: () => Response) => {
    const gates = { refresh: () => {}, signOut: () => {}, refreshSeen: 0, signOutSeen: 0 }
    server.use(
      http.post(`${apiUrl}/auth/oauth/token`, async () => {
        gates.refreshSeen++
        await new Promise<void>((resolve) => (gates.refresh = resolve))
        return refreshAnswer()
      }),
      http.delete(`${apiUrl}/auth/sessions/current`, async () => {
        gates.signOutSeen++
        await new Promise<void>((resolve) => (gates.signOut = resolve))
        return json({ success: true })
      })
    )
    return gates
  }

  const answers: ReadonlyArray<{ readonly name: string; readonly answer: () => Response }> = [
    { name: "new access token", answer: () => tokenResponse() },
    { name: "new access and refresh tokens", answer: () => tokenResponse(rotatedRefresh) },
    { name: "rejection", answer: () => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, "gone") },
    { name: "network failure", answer: () => HttpResponse.error() },
    { name: "500", answer: () => new HttpResponse("boom", { status: 500 }) }
  ]

  const waitFor = (predicate: () => boolean) =>
    Effect.gen(function* () {
      for (let i = 0; i < 1000 && !predicate(); i++) yield* realPause(1)
    })

  for (const refreshAnswer of answers) {
    for (const order of ["refresh answered first", "sign-out answered first"] as const) {
      it.effect(`refresh answers ${refreshAnswer.name}, ${order}: signed out afterwards, for good`, () =>
        Effect.gen(function* () {
          scenarios++
          const gates = gatedServer(refreshAnswer.answer)
          const me = meRoute()
          const session = yield* Session
          const refreshing = yield* Effect.forkChild(Effect.exit(observed(session.refresh)))
          yield* waitFor(() => gates.refreshSeen === 1)
          const signingOut = yield* Effect.forkChild(Effect.exit(observed(Sessions.signOut())))
          yield* waitFor(() => gates.signOutSeen === 1)
          if (order === "refresh answered first") {
            gates.refresh()
            yield* Fiber.join(refreshing)
            gates.signOut()
            yield* Fiber.join(signingOut)
          } else {
            gates.signOut()
            const signOutExit = yield* Fiber.join(signingOut)
            expect(showOutcome(classify(signOutExit))).toBe("Success")
            gates.refresh()
            yield* Fiber.join(refreshing)
          }
          const after = yield* stored
          expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
          // nothing resurrects the session: the next read finds nobody, without a request
          const user = yield* observed(Users.getCurrent())
          expect(Option.isNone(user)).toBe(true)
          expect(me.count).toBe(0)
        }).pipe(Effect.provide(sessionLayer(tokens(validAccess, refreshTokenText)))))
    }
  }
})

describe("no secret text anywhere", () => {
  it.effect("server calls with faults log and trace no key either", () =>
    Effect.gen(function* () {
      scenarios++
      server.use(
        http.get(`${apiUrl}/users/:id`, () => new HttpResponse("<html>502</html>", { status: 502 })),
        http.post(`${apiUrl}/users`, () => HttpResponse.error())
      )
      const layer = Layer.merge(sessionLayer(), Access.layerServer(secretServerKey))
      yield* Effect.exit(observed(ServerUsers.getById("2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11").pipe(Effect.provide(layer))))
      yield* Effect.exit(observed(ServerUsers.create({ primaryEmail: "a@example.com", password }).pipe(Effect.provide(layer))))
    }))

  it("no token, key or password appears in the captured errors, log lines and spans of this file", () => {
    const texts: Array<string> = [
      ...captured.lines,
      ...captured.errors.flatMap((error) => [
        String(error),
        error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : "",
        JSON.stringify(error) ?? "",
        Cause.pretty(Cause.fail(error))
      ]),
      ...captured.spans.flatMap((span) => [
        span.name,
        ...[...span.attributes.entries()].map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`),
        ...span.events
      ])
    ]
    expect(captured.errors.length).toBeGreaterThan(20)
    expect(captured.spans.length).toBeGreaterThan(50)
    expect(captured.lines.length).toBeGreaterThan(20)
    // the HTTP client spans record the request headers, redacted
    expect(texts.some((line) => line.startsWith("http.request.header.x-stack-refresh-token="))).toBe(true)
    for (const secret of secrets) {
      const leaks = texts.filter((line) => line.includes(secret))
      expect(leaks.map((line) => line.slice(0, 300)), `leaked ${secret.slice(0, 10)}…`).toEqual([])
    }
  })

  it("ran every scenario; no unhandled rejection", () => {
    expect(scenarios).toBeGreaterThanOrEqual(refreshFaults.length + KnownErrors.refreshTokenErrorCodes.size + 10)
    expect(unhandled).toEqual([])
  })
})
