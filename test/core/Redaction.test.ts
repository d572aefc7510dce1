/**
 * Tokens and keys never appear in a log line, an error message or a span attribute
 * (issue: "Tokens are Redacted everywhere").
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Layer, Logger, Option, Redacted, References, Tracer } from "effect"
import { Headers, HttpClient } from "effect/http"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import { layerServer } from "../../src/core/Access.js"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as StackClient from "../../src/core/StackClient.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import * as Session from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import {
  accessToken,
  apiUrl,
  baseUrl,
  makeMswServer,
  projectId,
  publishableClientKey,
  refreshTokenText,
  secretServerKey,
  sessionLayer,
  tokens
} from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const signInAccess = accessToken(60)
const refreshedAccess = accessToken(100_000)
const secrets = [signInAccess, refreshedAccess, refreshTokenText, secretServerKey, publishableClientKey, "hunter2-password"]

/** The failures and defects of a cause. */
const causeValues = (cause: Cause.Cause<unknown>): ReadonlyArray<unknown> =>
  cause.reasons.flatMap((reason) => (Cause.isFailReason(reason) ? [reason.error] : Cause.isDieReason(reason) ? [reason.defect] : []))

/** A tracer that records every span's name and attributes. */
const recordingTracer = (spans: Array<{ name: string; attributes: Map<string, unknown> }>) =>
  Tracer.make({
    span: ({ annotations, kind, links, name, parent, sampled, startTime }) => {
      const attributes = new Map<string, unknown>()
      spans.push({ name, attributes })
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: `span-${spans.length}`,
        traceId: "trace",
        parent,
        annotations,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled,
        kind,
        end: (_endTime, exit) => void attributes.set("exit", Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "success"),
        attribute: (key, value) => void attributes.set(key, value),
        event: (eventName, _time, eventAttributes) => void attributes.set(`event:${eventName}`, eventAttributes),
        addLinks: () => {}
      }
      return span
    }
  })

describe("no secret text leaks", () => {
  it.effect("logs, error messages and span attributes of sign-in, refresh, failures and sign-out hold no token or key", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const spans: Array<{ name: string; attributes: Map<string, unknown> }> = []
      let meCalls = 0
      server.use(
        http.post(`${apiUrl}/auth/password/sign-in`, () => HttpResponse.json({ access_token: signInAccess, refresh_token: refreshTokenText, user_id: "u1" })),
        http.post(`${apiUrl}/auth/oauth/token`, () => HttpResponse.json({ access_token: refreshedAccess, token_type: "Bearer" })),
        http.get(`${apiUrl}/users/me`, () =>
          ++meCalls === 1
            ? HttpResponse.json({ code: "ACCESS_TOKEN_EXPIRED", error: "Access token has expired." }, {
              status: 401,
              headers: { "x-stack-known-error": "ACCESS_TOKEN_EXPIRED" }
            })
            : HttpResponse.error()),
        http.get(`${apiUrl}/users/:id`, () => new HttpResponse(`bad ${"request"}`, { status: 400 })),
        http.delete(`${apiUrl}/auth/sessions/current`, () => HttpResponse.json({ code: "X" }, { headers: { "x-stack-known-error": "Y" } }))
      )
      const logger = Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))
      const failures: Array<unknown> = []
      const record = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        effect.pipe(
          Effect.tapCause((cause) => Effect.logError("call failed", cause)),
          Effect.catchCause((cause) => Effect.sync(() => void failures.push(...causeValues(cause))))
        )
      const program = Effect.gen(function* () {
        yield* record(Password.signInWithPassword({ email: "ada@example.com", password: "hunter2-password" }))
        yield* Effect.log("signed in")
        yield* record(Users.getCurrent())
        yield* record(ServerUsers.getById("2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11"))
        yield* record(Sessions.signOut())
      })
      yield* program.pipe(
        Effect.provide(Layer.merge(sessionLayer(undefined, RetryPolicy.layerNoRetries), layerServer(secretServerKey))),
        Effect.provide(Logger.layer([logger])),
        Effect.provideService(References.MinimumLogLevel, "All"),
        Effect.withTracer(recordingTracer(spans))
      )
      expect(failures.length).toBeGreaterThanOrEqual(3)
      const texts = [
        ...lines,
        ...failures.flatMap((failure) => [String(failure), failure instanceof Error ? failure.message : "", JSON.stringify(failure) ?? ""]),
        ...spans.flatMap((span) => [span.name, ...[...span.attributes.entries()].map(([key, value]) => `${key}=${JSON.stringify(value)}`)])
      ]
      expect(spans.length).toBeGreaterThan(0)
      for (const secret of secrets) {
        for (const text of texts) expect(text.includes(secret), `leaked ${secret.slice(0, 8)}… in: ${text.slice(0, 200)}`).toBe(false)
      }
    }))

  it("Redacted tokens print as <redacted>", () => {
    const token = Redacted.make(refreshTokenText)
    expect(String(token)).not.toContain(refreshTokenText)
    expect(JSON.stringify({ token })).not.toContain(refreshTokenText)
    void Option
    void Context
  })

  /** Every text a run recorded: log lines, failures (String, message, JSON), span names and attributes. */
  const recordedTexts = (
    lines: ReadonlyArray<string>,
    failures: ReadonlyArray<unknown>,
    spans: ReadonlyArray<{ name: string; attributes: Map<string, unknown> }>
  ): ReadonlyArray<string> => [
    ...lines,
    ...failures.flatMap((failure) => [
      String(failure),
      failure instanceof Error ? `${failure.message}\n${failure.stack ?? ""}` : "",
      JSON.stringify(failure) ?? "",
      Cause.pretty(Cause.fail(failure))
    ]),
    ...spans.flatMap((span) => [span.name, ...[...span.attributes.entries()].map(([key, value]) => `${key}=${JSON.stringify(value)}`)])
  ]

  const expectNoSecret = (texts: ReadonlyArray<string>, secretTexts: ReadonlyArray<string>) => {
    for (const secret of secretTexts) {
      for (const form of [secret, encodeURIComponent(secret)]) {
        for (const text of texts) expect(text.includes(form), `leaked ${secret.slice(0, 8)}… in: ${text.slice(0, 300)}`).toBe(false)
      }
    }
  }

  it.effect("no token or key in the query string of a recorded span, log or error: OAuth sign-in and linking (authorize URL with client_secret and token)", () =>
    Effect.gen(function* () {
      const userToken = accessToken(4_000_000_000)
      const lines: Array<string> = []
      const spans: Array<{ name: string; attributes: Map<string, unknown> }> = []
      const failures: Array<unknown> = []
      const seenQueries: Array<URLSearchParams> = []
      let answer: "ok" | "text" | "network" = "ok"
      server.use(
        http.get(`${apiUrl}/auth/oauth/authorize/:provider`, ({ request }) => {
          seenQueries.push(new URL(request.url).searchParams)
          if (answer === "text") return new HttpResponse("Invalid redirect URL", { status: 400 })
          if (answer === "network") return HttpResponse.error()
          return HttpResponse.json({ location: "https://provider.example/authorize?x=1" })
        })
      )
      const page = OAuthBrowser.makeMemory({ url: "http://localhost:3000/sign-in" })
      const logger = Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))
      const record = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        effect.pipe(
          Effect.tapCause((cause) => Effect.logError("call failed", cause)),
          Effect.tap((value) => Effect.log("done", value)),
          Effect.catchCause((cause) => Effect.sync(() => void failures.push(...causeValues(cause))))
        )
      const program = Effect.gen(function* () {
        yield* record(OAuth.signInWithOAuth({ provider: "github" }))
        yield* record(OAuth.linkAccount({ provider: "github" }))
        answer = "text"
        yield* record(OAuth.signInWithOAuth({ provider: "github" }))
        answer = "network"
        yield* record(OAuth.linkAccount({ provider: "github" }))
      })
      yield* program.pipe(
        Effect.provide(Layer.merge(sessionLayer(tokens(userToken, refreshTokenText), RetryPolicy.layerNoRetries), page.layer)),
        Effect.provide(Logger.layer([logger])),
        Effect.provideService(References.MinimumLogLevel, "All"),
        Effect.withTracer(recordingTracer(spans))
      )
      // the secrets really were sent in the query (so the check below is not vacuous)
      expect(seenQueries).toHaveLength(4)
      expect(seenQueries[0]!.get("client_secret")).toBe(publishableClientKey)
      expect(seenQueries[1]!.get("token")).toBe(userToken)
      expect(failures.length).toBeGreaterThanOrEqual(2)
      const clientSpans = spans.filter((span) => span.attributes.has("url.full"))
      expect(clientSpans).toHaveLength(4)
      expect(String(clientSpans[0]!.attributes.get("url.full"))).toContain("client_secret=<redacted>")
      expectNoSecret(recordedTexts(lines, failures, spans), [userToken, publishableClientKey, refreshTokenText])
    }))

  it.effect("the app's own redacted header names are kept: the SDK appends its secret headers to them", () =>
    Effect.gen(function* () {
      const appSecret = "app-secret-header-value-0123456789"
      const spans: Array<{ name: string; attributes: Map<string, unknown> }> = []
      server.use(http.get(`${apiUrl}/users/me`, () => HttpResponse.json({ code: "X" }, { status: 500 })))
      const layer = Session.layer.pipe(
        Layer.provideMerge(TokenStore.layerMemory(tokens(accessToken(4_000_000_000), refreshTokenText))),
        Layer.provideMerge(
          StackClient.layerWithoutDependencies.pipe(
            Layer.provide(StackClient.layerFetch),
            Layer.provide(RetryPolicy.layerNoRetries),
            Layer.provideMerge(StackConfig.layer({ projectId, baseUrl, publishableClientKey, extraHeaders: { "x-app-secret": appSecret } }))
          )
        )
      )
      yield* Effect.exit(Users.getCurrent()).pipe(
        Effect.provide(layer),
        Effect.updateService(Headers.CurrentRedactedNames, (names) => [...names, "x-app-secret"]),
        // effect 4's client records headers in its spans only when the app asks for them
        Effect.provideService(HttpClient.TracerHeaderFilter, () => true),
        Effect.withTracer(recordingTracer(spans))
      )
      const clientSpan = spans.find((span) => span.attributes.has("http.request.header.x-app-secret"))
      expect(clientSpan).toBeDefined()
      expect(String(clientSpan!.attributes.get("http.request.header.x-app-secret"))).not.toContain(appSecret)
      // and the SDK's own secret headers are redacted as well
      expect(String(clientSpan!.attributes.get("http.request.header.x-stack-publishable-client-key"))).not.toContain(publishableClientKey)
      expectNoSecret(recordedTexts([], [], spans), [appSecret, publishableClientKey, refreshTokenText])
    }))
})
