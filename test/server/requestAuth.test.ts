/**
 * Server middleware (issue 15 "Effect server middleware"), against the in-process emulator:
 * `RequestAuth.authenticate` / `verify` read the credentials of a request (bearer, `x-stack-auth`,
 * cookies) once and give the user or the verified claims, with typed 401 / 403 failures;
 * `HttpApiAuth`'s `HttpApi` middleware and `HttpRouter` middleware provide `CurrentUser` /
 * `CurrentClaims` to the handler and answer 401 / 403.
 */
import { Effect } from "effect"
import * as Cookies from "../../src/session/cookies.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"
import { RequestAuth } from "../../src/server/index.js"
import { countingClient } from "../support/countingClient.js"
import { apiHandler, requestWith, routerHandler, serverRuntime, signedInUser } from "./support.js"
import type { Target } from "./support.js"

let emulator: Emulator.Emulator
let target: Target
let http: ReturnType<typeof countingClient>
let runtime: ReturnType<typeof serverRuntime>

beforeAll(async () => {
  emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
  http = countingClient(emulator)
  target = {
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    secretServerKey: emulator.demo.secretServerKey,
    httpClient: http.layer
  }
  runtime = serverRuntime(target)
})
afterAll(async () => {
  await runtime?.dispose()
})

const options = () => ({ projectId: target.projectId })
const failure = <A, E>(effect: Effect.Effect<A, E, never>) => Effect.runPromise(Effect.flip(effect))

describe("RequestAuth.authenticate: the request's user, server view", () => {
  it.each(["bearer", "x-stack-auth", "cookies"] as const)("reads the user from %s with one GET /users/me", async (how) => {
    const user = await signedInUser(target)
    const before = http.count("GET /users/me")
    const found = await runtime.runPromise(RequestAuth.authenticate(requestWith(target, user, how), options()))
    expect(found.id).toBe(user.userId)
    expect(found.primaryEmail).toBe(user.email)
    expect(http.count("GET /users/me") - before).toBe(1)
  })

  it("a request without credentials is Unauthorized 'missing', with no request to the service", async () => {
    const before = http.count()
    const error = await runtime.runPromise(Effect.flip(RequestAuth.authenticate(new Request("http://app.test/me"), options())))
    expect(error).toMatchObject({ _tag: "Unauthorized", reason: "missing" })
    expect(http.count()).toBe(before)
  })

  it("a malformed Authorization or x-stack-auth header is Unauthorized 'invalid', with no request", async () => {
    const before = http.count()
    for (const headers of [{ authorization: "Basic abc" }, { "x-stack-auth": "{not json" }]) {
      const error = await runtime.runPromise(Effect.flip(RequestAuth.authenticate(new Request("http://app.test/me", { headers }), options())))
      expect(error).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
    }
    expect(http.count()).toBe(before)
  })

  it("a bearer token the service does not accept is Unauthorized", async () => {
    const error = await runtime.runPromise(
      Effect.flip(RequestAuth.authenticate(new Request("http://app.test/me", { headers: { authorization: "Bearer not.a.token" } }), options()))
    )
    expect(error._tag).toBe("Unauthorized")
  })

  it("an anonymous user is Forbidden 'anonymous' unless the route admits anonymous users", async () => {
    const user = await signedInUser(target, { anonymous: true })
    const error = await runtime.runPromise(Effect.flip(RequestAuth.authenticate(requestWith(target, user, "bearer"), options())))
    expect(error).toMatchObject({ _tag: "Forbidden", reason: "anonymous" })
    const admitted = await runtime.runPromise(RequestAuth.authenticate(requestWith(target, user, "bearer"), { ...options(), allowAnonymous: true }))
    expect(admitted.isAnonymous).toBe(true)
  })

  it("the errors are typed: Unauthorized and Forbidden carry a reason and the HTTP status in their schema", async () => {
    const error = await failure(RequestAuth.credentialsOf(new Request("http://app.test/"), options()))
    expect(error).toBeInstanceOf(RequestAuth.Unauthorized)
    expect(new RequestAuth.Forbidden({ message: "m", reason: "restricted" })._tag).toBe("Forbidden")
  })
})

describe("RequestAuth.verify: local JWT verification", () => {
  it("verifies the bearer token against the JWKS fetched once: a second verification sends nothing", async () => {
    const user = await signedInUser(target)
    const claims = await runtime.runPromise(RequestAuth.verify(requestWith(target, user, "bearer"), options()))
    expect(claims.userId).toBe(user.userId)
    const before = http.count()
    const again = await runtime.runPromise(RequestAuth.verify(requestWith(target, user, "x-stack-auth"), options()))
    expect(again.userId).toBe(user.userId)
    expect(http.count()).toBe(before)
  })

  it("a tampered token is Unauthorized 'invalid'; an anonymous user's is Forbidden 'anonymous'", async () => {
    const user = await signedInUser(target)
    const [head, body] = user.accessToken.split(".")
    const tampered = { ...user, accessToken: `${head}.${body}.${"A".repeat(86)}` }
    const error = await runtime.runPromise(Effect.flip(RequestAuth.verify(requestWith(target, tampered, "bearer"), options())))
    expect(error).toMatchObject({ _tag: "Unauthorized", reason: "invalid" })
    const anonymous = await signedInUser(target, { anonymous: true })
    const refused = await runtime.runPromise(Effect.flip(RequestAuth.verify(requestWith(target, anonymous, "bearer"), options())))
    expect(refused).toMatchObject({ _tag: "Forbidden", reason: "anonymous" })
  })
})

describe("HttpApiAuth: effect/http-api and effect/http middleware", () => {
  it("HttpApi: the handler reads CurrentUser; no credentials is 401, an anonymous user 403, as JSON", async () => {
    const api = apiHandler(target)
    try {
      const user = await signedInUser(target)
      const ok = await api.handler(requestWith(target, user, "cookies", "http://app.test/me"))
      expect(ok.status).toBe(200)
      expect(await ok.json()).toEqual({ id: user.userId, email: user.email })
      const missing = await api.handler(new Request("http://app.test/me"))
      expect(missing.status).toBe(401)
      expect(await missing.json()).toMatchObject({ _tag: "Unauthorized", reason: "missing" })
      const anonymous = await signedInUser(target, { anonymous: true })
      const refused = await api.handler(requestWith(target, anonymous, "x-stack-auth", "http://app.test/me"))
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({ _tag: "Forbidden", reason: "anonymous" })
    } finally {
      await api.dispose()
    }
  })

  it("HttpApi: a request with a rejected bearer token is authenticated once although three schemes are tried (one GET /users/me)", async () => {
    const api = apiHandler(target)
    try {
      const user = await signedInUser(target)
      const [head, body] = user.accessToken.split(".")
      // readable and unexpired, so it is sent; its signature is wrong, so the service rejects it
      const tampered = `${head}.${body}.${"A".repeat(86)}`
      const before = http.count("GET /users/me")
      const response = await api.handler(new Request("http://app.test/me", { headers: { authorization: `Bearer ${tampered}` } }))
      expect(response.status).toBe(401)
      expect(http.count("GET /users/me") - before).toBe(1)
    } finally {
      await api.dispose()
    }
  })

  it("HttpApi with local verification: the handler reads CurrentClaims", async () => {
    const api = apiHandler(target)
    try {
      const user = await signedInUser(target)
      const response = await api.handler(requestWith(target, user, "bearer", "http://app.test/claims"))
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ userId: user.userId })
      expect((await api.handler(new Request("http://app.test/claims"))).status).toBe(401)
    } finally {
      await api.dispose()
    }
  })

  it("HttpRouter middleware: provides CurrentUser, or answers 401 without running the route", async () => {
    const handler = await routerHandler(runtime, target.projectId)
    const user = await signedInUser(target)
    const ok = await handler(requestWith(target, user, "bearer", "http://app.test/me"))
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ id: user.userId })
    const refused = await handler(new Request("http://app.test/me"))
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ _tag: "Unauthorized", reason: "missing" })
  })
})

describe("cookieDomains: a --custom- refresh cookie counts only for a configured domain", () => {
  /**
   * A request to https://app.example.com carrying the official SDK's cross-subdomain session: the
   * `--custom-` refresh cookie of `example.com` (no `__Host-` cookie) and `stack-access`.
   */
  const sharedSessionRequest = (user: { readonly accessToken: string; readonly refreshToken: string }) => {
    const custom = Cookies.customRefreshCookieName(target.projectId, "example.com")
    const refresh = encodeURIComponent(JSON.stringify({ refresh_token: user.refreshToken, updated_at_millis: 1 }))
    const access = encodeURIComponent(JSON.stringify([user.refreshToken, user.accessToken]))
    return new Request("https://app.example.com/me", {
      headers: { cookie: `${custom}=${refresh}; ${Cookies.accessCookieName}=${access}; ${Cookies.isHttpsCookieName}=true` }
    })
  }

  it("RequestAuth.authenticate reads the configured domain's cookie, not an unconfigured one", async () => {
    const user = await signedInUser(target)
    const request = sharedSessionRequest(user)
    const found = await runtime.runPromise(RequestAuth.authenticate(request, { ...options(), cookieDomains: ["example.com"] }))
    expect(found.id).toBe(user.userId)
    for (const cookieDomains of [undefined, [], ["other.example"], ["app.example.com"]]) {
      const error = await runtime.runPromise(Effect.flip(RequestAuth.authenticate(request, { ...options(), cookieDomains })))
      expect(error).toMatchObject({ _tag: "Unauthorized", reason: "missing" })
    }
  })

  it("RequestAuth.verify reads the access token of the configured domain's session only", async () => {
    const user = await signedInUser(target)
    const request = sharedSessionRequest(user)
    const claims = await runtime.runPromise(RequestAuth.verify(request, { ...options(), secure: true, cookieDomains: ["example.com"] }))
    expect(claims.userId).toBe(user.userId)
    const error = await runtime.runPromise(Effect.flip(RequestAuth.verify(request, { ...options(), secure: true })))
    expect(error).toMatchObject({ _tag: "Unauthorized", reason: "missing" })
  })

  it("HttpApiAuth's HttpApi and HttpRouter middleware pass cookieDomains on", async () => {
    const user = await signedInUser(target)
    const configured = apiHandler(target, { cookieDomains: ["example.com"] })
    const unconfigured = apiHandler(target)
    try {
      expect((await configured.handler(sharedSessionRequest(user))).status).toBe(200)
      expect((await configured.handler(new Request("https://app.example.com/claims", sharedSessionRequest(user)))).status).toBe(200)
      expect((await unconfigured.handler(sharedSessionRequest(user))).status).toBe(401)
      expect((await unconfigured.handler(new Request("https://app.example.com/claims", sharedSessionRequest(user)))).status).toBe(401)
    } finally {
      await configured.dispose()
      await unconfigured.dispose()
    }
    const router = await routerHandler(runtime, target.projectId, { cookieDomains: ["example.com"] })
    expect((await router(sharedSessionRequest(user))).status).toBe(200)
    expect((await (await routerHandler(runtime, target.projectId))(sharedSessionRequest(user))).status).toBe(401)
  })
})
