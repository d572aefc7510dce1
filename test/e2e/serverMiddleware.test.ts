/**
 * The server middleware end to end over real HTTP (issue 15): the emulator's Node server on
 * 127.0.0.1; the app's `HttpApi` and `HttpRouter` behind `HttpApiAuth` (as web handlers) read
 * users through the SDK's real `fetch`. One `GET /users/me` per authenticated request, none for a
 * request without credentials, and none per call once the JWKS is cached for local verification.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningServer } from "../../src/emulator/server.js"
import { RequestAuth } from "../../src/server/index.js"
import { apiHandler, requestWith, routerHandler, serverRuntime, signedInUser } from "../server/support.js"
import type { Target } from "../server/support.js"
import { countingFetch, startServer } from "./support.js"

let main: { server: RunningServer; stop: () => Promise<void> }
let fetch: ReturnType<typeof countingFetch>
let target: Target

beforeAll(async () => {
  main = await startServer({ passwordHashIterations: 1000 })
  fetch = countingFetch()
  target = {
    projectId: main.server.emulator.demo.projectId,
    publishableClientKey: main.server.emulator.demo.publishableClientKey,
    secretServerKey: main.server.emulator.demo.secretServerKey,
    baseUrl: main.server.baseUrl,
    httpClient: fetch.layer
  }
})
afterAll(async () => {
  await main?.stop()
})

describe("server middleware over HTTP against the emulator", () => {
  it("HttpApi: 200 with the user from a bearer token, cookies or x-stack-auth (one GET /users/me each); 401 without credentials (none)", async () => {
    const api = apiHandler(target)
    try {
      const user = await signedInUser(target)
      for (const how of ["bearer", "cookies", "x-stack-auth"] as const) {
        const before = fetch.count("GET /users/me")
        const response = await api.handler(requestWith(target, user, how, "http://app.test/me"))
        expect(response.status).toBe(200)
        expect(await response.json()).toEqual({ id: user.userId, email: user.email })
        expect(fetch.count("GET /users/me") - before).toBe(1)
      }
      const before = fetch.count("GET /users/me")
      const refused = await api.handler(new Request("http://app.test/me"))
      expect(refused.status).toBe(401)
      expect(fetch.count("GET /users/me")).toBe(before)
    } finally {
      await api.dispose()
    }
  })

  it("HttpApi: an anonymous user gets 403 'anonymous', or 200 on a route that admits anonymous users", async () => {
    const strict = apiHandler(target)
    const lenient = apiHandler(target, { allowAnonymous: true })
    try {
      const anonymous = await signedInUser(target, { anonymous: true })
      const refused = await strict.handler(requestWith(target, anonymous, "bearer", "http://app.test/me"))
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({ _tag: "Forbidden", reason: "anonymous" })
      expect((await lenient.handler(requestWith(target, anonymous, "bearer", "http://app.test/me"))).status).toBe(200)
    } finally {
      await strict.dispose()
      await lenient.dispose()
    }
  })

  it("local verification: the JWKS is fetched once, then claims come with no request", async () => {
    const runtime = serverRuntime(target)
    try {
      const user = await signedInUser(target)
      const first = await runtime.runPromise(RequestAuth.verify(requestWith(target, user, "bearer"), { projectId: target.projectId }))
      expect(first.userId).toBe(user.userId)
      const jwks = `GET /projects/${target.projectId}/.well-known/jwks.json`
      expect(fetch.count(jwks)).toBe(1)
      for (let call = 0; call < 5; call++) {
        await runtime.runPromise(RequestAuth.verify(requestWith(target, user, "cookies"), { projectId: target.projectId }))
      }
      expect(fetch.count(jwks)).toBe(1)
    } finally {
      await runtime.dispose()
    }
  })

  it("HttpRouter middleware: 200 with CurrentUser, 401 JSON without credentials", async () => {
    const runtime = serverRuntime(target)
    try {
      const handler = await routerHandler(runtime, target.projectId)
      const user = await signedInUser(target)
      const ok = await handler(requestWith(target, user, "x-stack-auth", "http://app.test/me"))
      expect(ok.status).toBe(200)
      expect(await ok.json()).toEqual({ id: user.userId })
      const refused = await handler(new Request("http://app.test/me"))
      expect(refused.status).toBe(401)
      expect(await refused.json()).toMatchObject({ _tag: "Unauthorized", reason: "missing" })
    } finally {
      await runtime.dispose()
    }
  })
})
