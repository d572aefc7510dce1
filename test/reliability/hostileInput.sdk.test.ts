/**
 * Hostile input to the SDK (arguments and tokens): path parameters that are dot segments, empty or
 * not well-formed UTF-16, payloads that cannot be serialised, token texts no request header can
 * carry (CR/LF, text above U+00FF) arriving in cookies, in `x-stack-auth` or in a store. Every case
 * ends at once in a typed error or "no user", with 0 requests sent and no retry. Counted: requests
 * that reached the HTTP client (or a real emulator server), retry decisions.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Redacted, Schedule, SchemaAST } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { afterAll, beforeAll } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as Access from "../../src/core/Access.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import { fillPathChecked } from "../../src/core/internal/path.js"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import type { RunningServer } from "../../src/emulator/server.js"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import * as Cookies from "../../src/session/cookies.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import * as Session from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countingFetch, startServer } from "../e2e/support.js"
import {
  accessToken,
  projectId,
  publishableClientKey,
  realPause,
  recordSleepsOf,
  refreshTokenText,
  secretServerKey,
  sleeps,
  superSecretAdminKey,
  tokens
} from "../support/fixtures.js"
import { collectEndpoints } from "./endpoints.js"
import { classify, showOutcome } from "./support.js"

/** An HttpClient that records every request it is asked to send and answers 500. */
const recordingClient = () => {
  const requests: Array<string> = []
  const layer = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.sync(() => {
        requests.push(`${request.method} ${request.url}`)
        return HttpClientResponse.fromWeb(request, new Response("unexpected", { status: 500 }))
      })
    )
  )
  return { layer, requests }
}

/** A retry policy that counts its decisions (one per failed attempt that could be retried). */
const countingPolicy = () => {
  const counter = { decisions: 0 }
  const layer = RetryPolicy.layerWith({
    schedule: RetryPolicy.defaultSchedule.pipe(Schedule.tap(() => Effect.sync(() => void counter.decisions++)))
  })
  return { layer, counter }
}

const uuid = "2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11"
const signedIn = tokens(accessToken(4_000_000_000), refreshTokenText)

/** Every service any endpoint needs, over the recording client; the session holds `initial`. */
const everything = (client: ReturnType<typeof recordingClient>, initial: TokenStore.StoredTokens = signedIn) =>
  Layer.mergeAll(
    Stack.layerClient({ projectId, publishableClientKey, httpClient: client.layer, tokenStore: TokenStore.layerMemory(initial) }),
    Access.layerServer(secretServerKey),
    Access.layerAdminKey(superSecretAdminKey)
  ).pipe(Layer.orDie)

const tagOf = (exit: Exit.Exit<unknown, unknown>): string => showOutcome(classify(exit))

/** The domain property names of an endpoint's path-parameter schema. */
const paramNames = (endpoint: Endpoint.Any): ReadonlyArray<string> => {
  if (endpoint.params === undefined) return []
  const ast = SchemaAST.toType(endpoint.params.ast)
  return SchemaAST.isObjects(ast) ? ast.propertySignatures.map((signature) => String(signature.name)) : []
}

const hostileSegments = [".", "..", ""] as const

const collected = await collectEndpoints()
const withPathParameters = collected.endpoints.map(({ endpoint }) => endpoint).filter((endpoint) => endpoint.path.includes(":"))

describe("hostile input: path parameters", () => {
  it("every endpoint was collected and many have path parameters", () => {
    expect(collected.importFailures).toEqual([])
    expect(withPathParameters.length).toBeGreaterThan(20)
  })

  it("the shared path builder refuses '.', '..' and '' for every path parameter of every endpoint", () => {
    let checked = 0
    for (const endpoint of withPathParameters) {
      const names = [...endpoint.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!)
      for (const name of names) {
        for (const value of hostileSegments) {
          const params = Object.fromEntries(names.map((other) => [other, other === name ? value : "ok"]))
          const filled = fillPathChecked(endpoint.path, params)
          expect(filled._tag, `${endpoint.name} ${endpoint.path} with ${name}=${JSON.stringify(value)}`).toBe("Failure")
          checked++
        }
        const fine = fillPathChecked(endpoint.path, Object.fromEntries(names.map((other) => [other, "a.b"])))
        expect(fine._tag).toBe("Success")
      }
    }
    expect(checked).toBeGreaterThan(60)
  })

  it("'%2E' typed by a caller is sent as text (%252E), not as a dot segment", () => {
    const filled = fillPathChecked("/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token", {
      user_id: "me",
      provider_id: "github",
      provider_account_id: "%2E%2E"
    })
    expect(filled._tag === "Success" && filled.success).toBe("/connected-accounts/me/github/%252E%252E/access-token")
  })

  describe("sends no request when a path parameter is '.' or '..' (every endpoint, every parameter)", () => {
    for (const value of [".", ".."] as const) {
      it.effect(`'${value}': InvalidArgument, 0 requests`, () =>
        Effect.gen(function* () {
          const client = recordingClient()
          const layer = everything(client)
          let calls = 0
          let refusedBySegmentRule = 0
          for (const endpoint of withPathParameters) {
            const names = paramNames(endpoint)
            for (const name of names) {
              const params = Object.fromEntries(names.map((other) => [other, other === name ? value : uuid]))
              const exit = yield* Effect.exit(Endpoint.call(endpoint, { params } as never).pipe(Effect.provide(layer)) as Effect.Effect<unknown, unknown>)
              expect(tagOf(exit), `${endpoint.name} ${endpoint.path} with ${name}=${value}`).toBe("Failure(InvalidArgument)")
              const outcome = classify(exit)
              if (outcome._tag === "Failure") {
                expect((outcome.error as { argument: string }).argument).toBe("path parameters")
                if ((outcome.error as { message: string }).message.includes("dot segment")) refusedBySegmentRule++
              }
              calls++
            }
          }
          expect(client.requests).toEqual([])
          expect(calls).toBeGreaterThan(20)
          // parameters typed as free text (provider ids, account ids…) reach the segment rule
          expect(refusedBySegmentRule).toBeGreaterThan(5)
        }))
    }
  })

  for (
    const [name, options] of [
      ["accountId '.'", { provider: "github", accountId: "." }],
      ["accountId '..'", { provider: "github", accountId: ".." }],
      ["provider '..'", { provider: "..", accountId: "1" }],
      ["provider '.' (no account)", { provider: "." }],
      ["accountId ''", { provider: "github", accountId: "" }],
      ["accountId with a lone surrogate", { provider: "github", accountId: "a\uD800" }]
    ] as const
  ) {
    it.effect(`ConnectedAccounts.getAccessToken with ${name} sends no request: InvalidArgument`, () =>
      Effect.gen(function* () {
        const client = recordingClient()
        const exit = yield* Effect.exit(ConnectedAccounts.getAccessToken(options).pipe(Effect.provide(everything(client))))
        expect(tagOf(exit)).toBe("Failure(InvalidArgument)")
        expect(client.requests).toEqual([])
      }))
  }

  it.effect("a payload that cannot be serialised (a cycle, a BigInt) is an InvalidArgument with 0 requests, not a defect", () =>
    Effect.gen(function* () {
      const client = recordingClient()
      const cyclic: Record<string, unknown> = { a: 1 }
      cyclic["self"] = cyclic
      for (const clientMetadata of [cyclic, { n: 10n }]) {
        const exit = yield* Effect.exit(Users.updateCurrent({ clientMetadata }).pipe(Effect.provide(everything(client))))
        expect(tagOf(exit)).toBe("Failure(InvalidArgument)")
      }
      expect(client.requests).toEqual([])
    }))
})

describe("hostile input: tokens no request header can carry are not tokens", () => {
  const unsendable: ReadonlyArray<readonly [string, string]> = [
    ["CR/LF", "tok\r\nX-Injected: 1"],
    ["a lone LF", "tok\nen"],
    ["NUL", "tok\u0000en"],
    ["text above U+00FF", "tok\u0100en"],
    ["an emoji", "tok😀en"]
  ]

  for (const [label, bad] of unsendable) {
    it.effect(`a refresh cookie holding ${label} reads as no user: 0 requests, at once`, () =>
      Effect.gen(function* () {
        const client = recordingClient()
        const cookie = [
          `${Cookies.refreshCookieName(projectId, false)}=${encodeURIComponent(Cookies.refreshCookieValue(bad, 1))}`,
          `${Cookies.accessCookieName}=${encodeURIComponent(JSON.stringify([bad, accessToken(4_000_000_000)]))}`
        ].join("; ")
        const request = { headers: { cookie } }
        const layer = Session.layer.pipe(
          Layer.provideMerge(RequestTokenStore.layer(request, { projectId })),
          Layer.provideMerge(Stack.layerClient({ projectId, publishableClientKey, httpClient: client.layer, tokenStore: "memory" }))
        )
        const user = yield* Users.getCurrent().pipe(Effect.provide(Layer.orDie(layer)))
        expect(user).toEqual(Option.none())
        expect(client.requests).toEqual([])
      }))

    it.effect(`an access cookie holding ${label} is dropped (the refresh token alone remains)`, () =>
      Effect.sync(() => {
        const cookies = new Map([
          [Cookies.refreshCookieName(projectId, false), Cookies.refreshCookieValue("good-refresh-token", 1)],
          [Cookies.accessCookieName, JSON.stringify(["good-refresh-token", bad])]
        ])
        const read = Cookies.readTokens(cookies, projectId)
        expect(Option.isNone(read.accessToken)).toBe(true)
        expect(Option.map(read.refreshToken, Redacted.value)).toEqual(Option.some("good-refresh-token"))
      }))

    it.effect(`an x-stack-auth header whose tokens hold ${label} reads as no user: 0 requests, at once`, () =>
      Effect.gen(function* () {
        const client = recordingClient()
        const header = JSON.stringify({ accessToken: bad, refreshToken: bad })
        const request = { headers: { "x-stack-auth": header } }
        const layer = Session.layer.pipe(
          Layer.provideMerge(RequestTokenStore.layer(request, { projectId })),
          Layer.provideMerge(Stack.layerClient({ projectId, publishableClientKey, httpClient: client.layer, tokenStore: "memory" }))
        )
        const user = yield* Users.getCurrent().pipe(Effect.provide(Layer.orDie(layer)))
        expect(user).toEqual(Option.none())
        expect(client.requests).toEqual([])
      }))

    it.effect(`a framework cookie store (next) holding ${label} reads as no user: 0 requests, at once`, () =>
      Effect.gen(function* () {
        const client = recordingClient()
        const jar = new Map([
          [Cookies.legacyRefreshCookieName(projectId), bad],
          [Cookies.accessCookieName, JSON.stringify([bad, bad])]
        ])
        const framework: CookieTokenStore.FrameworkCookies = {
          get: (name) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
          getAll: () => [...jar].map(([name, value]) => ({ name, value })),
          set: () => undefined,
          delete: () => undefined
        }
        const layer = CookieTokenStore.layerSession(framework, { projectId }).pipe(
          Layer.provideMerge(Stack.layerClient({ projectId, publishableClientKey, httpClient: client.layer, tokenStore: "memory" }))
        )
        const user = yield* Users.getCurrent().pipe(Effect.provide(Layer.orDie(layer)))
        expect(user).toEqual(Option.none())
        expect(client.requests).toEqual([])
      }))
  }

  it.effect("a local request-building failure is never retried: a stored token with CR/LF ends in ConnectivityError at once, 0 requests, 0 retry decisions, no sleep", () =>
    Effect.gen(function* () {
      const client = recordingClient()
      const policy = countingPolicy()
      // a live JWT (the session sends it as it is) with header-breaking text appended
      const bad = `${accessToken(4_000_000_000)}\r\nX-Injected: stored-token`
      const layer = Stack.layerClient({
        projectId,
        publishableClientKey,
        httpClient: client.layer,
        retryPolicy: policy.layer,
        tokenStore: TokenStore.layerMemory(tokens(bad, refreshTokenText))
      }).pipe(Layer.orDie)
      yield* Effect.clockWith((clock) => Effect.sync(() => recordSleepsOf(clock)))
      const fiber = yield* Effect.forkChild(Effect.exit(Users.getCurrent().pipe(Effect.provide(layer))))
      for (let i = 0; i < 200 && fiber.pollUnsafe() === undefined; i++) yield* realPause()
      // it ended without the test clock moving: no backoff sleep was ever scheduled
      const done = fiber.pollUnsafe()
      expect(done !== undefined).toBe(true)
      const exit = yield* Fiber.join(fiber)
      expect(client.requests).toEqual([])
      expect(tagOf(exit)).toBe("Failure(ConnectivityError)")
      expect(policy.counter.decisions).toBe(0)
      const outcome = classify(exit)
      if (outcome._tag === "Failure") {
        const error = outcome.error as { message: string }
        expect(error.message).toContain("nothing was sent")
        expect(error.message).not.toContain("stored-token")
        expect(JSON.stringify(outcome.error)).not.toContain("stored-token")
      }
      expect(yield* sleeps).toEqual([])
    }))

  it.effect("a secret server key with CR/LF given by the app fails at once (ConnectivityError), 0 requests, the key never shown", () =>
    Effect.gen(function* () {
      const client = recordingClient()
      const policy = countingPolicy()
      const key = "ssk_bad\nkey-text-0123456789"
      const layer = Layer.merge(
        Stack.layerClient({ projectId, publishableClientKey, httpClient: client.layer, retryPolicy: policy.layer, tokenStore: "memory" }),
        Access.layerServer(key)
      ).pipe(Layer.orDie)
      const exit = yield* Effect.exit(ServerUsers.getById(uuid).pipe(Effect.provide(layer)))
      expect(tagOf(exit)).toBe("Failure(ConnectivityError)")
      expect(client.requests).toEqual([])
      expect(policy.counter.decisions).toBe(0)
      expect(JSON.stringify(classify(exit))).not.toContain("key-text")
    }))
})

describe("hostile input over real HTTP against the emulator server", () => {
  let main: { server: RunningServer; stop: () => Promise<void> }
  beforeAll(async () => {
    main = await startServer()
  })
  afterAll(async () => {
    await main?.stop()
  })

  it("ConnectedAccounts.getAccessToken with accountId '.' or '..' sends nothing (InvalidArgument); a real account id is asked", async () => {
    const fetchLayer = countingFetch()
    const layer = Stack.layerClient({
      projectId: main.server.emulator.demo.projectId,
      publishableClientKey: main.server.emulator.demo.publishableClientKey,
      baseUrl: main.server.baseUrl,
      httpClient: fetchLayer.layer,
      tokenStore: "memory"
    }).pipe(Layer.orDie)
    const email = `hostile-input-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
    const outcomes = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery staple", noVerificationCallback: true })
        const dot = yield* Effect.exit(ConnectedAccounts.getAccessToken({ provider: "github", accountId: "." }))
        const dotDot = yield* Effect.exit(ConnectedAccounts.getAccessToken({ provider: "github", accountId: ".." }))
        const real = yield* Effect.exit(ConnectedAccounts.getAccessToken({ provider: "github", accountId: "12345" }))
        return { dot, dotDot, real }
      }).pipe(Effect.provide(layer))
    )
    expect(tagOf(outcomes.dot)).toBe("Failure(InvalidArgument)")
    expect(tagOf(outcomes.dotDot)).toBe("Failure(InvalidArgument)")
    // the provider-level and the list endpoints (where '.' and '..' would land) were never asked
    expect(fetchLayer.count("POST /connected-accounts/me/github/access-token")).toBe(0)
    expect(fetchLayer.count("POST /connected-accounts/me/access-token")).toBe(0)
    // a real id is sent as asked
    expect(fetchLayer.count("POST /connected-accounts/me/github/12345/access-token")).toBe(1)
    void outcomes.real
  })
})
