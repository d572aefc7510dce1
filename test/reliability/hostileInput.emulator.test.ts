/**
 * Issue 11 (B, C, D, F, I): hostile input never gets a 500 from the emulator, and never changes
 * who the emulator says it is.
 * - a request body nested thousands of levels deep → 400 SCHEMA_ERROR (known-error header), on
 *   every route that reads a body, in process and over HTTP;
 * - user-chosen keys (`country_code`, query keys) named like `Object.prototype` members are plain
 *   keys: `/internal/metrics` counts `constructor`, `toString`, `__proto__`;
 * - the `Host` header (malformed, or another host) neither breaks the Node server nor decides the
 *   token issuer or OAuth URLs: the server's base URL is fixed at start;
 * - a `Host` that is not one of the server's names (its base URL's, `localhost`, `*.localhost`, an
 *   IP address, `allowedHosts`) is answered 403 before any route runs (issue 25 item 6: a page
 *   reaching the emulator through DNS rebinding reads no code and uses no admin key);
 * - request bodies are capped (1 MiB by default, `maxRequestBodyBytes`): 413 text, nothing stored;
 * - the outbox (which anyone can fill with sign-in codes) keeps the newest 10 000 e-mails.
 */
import * as nodeHttp from "node:http"
import { Effect, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fillPath } from "../../src/core/Endpoint.js"
import { foreignHostText } from "../../src/emulator/BrowserAccess.js"
import { tooDeepConfigText } from "../../src/emulator/ConfigOverrides.js"
import * as Outbox from "../../src/emulator/Outbox.js"
import * as Passkeys from "../../src/emulator/Passkeys.js"
import { maxJsonDepth } from "../../src/emulator/Router.js"
import { allRoutes } from "../../src/emulator/routes/index.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { serve } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"
import type { Answer } from "../emulator/helpers.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "../emulator/helpers.js"
import { authorizeQuery, pkce } from "../emulator/oauthFlow.js"
import { watchUnhandledRejections } from "./support.js"

const unhandled = watchUnhandledRejections()

const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`

const adminHeaders = (credentials: { readonly projectId: string; readonly superSecretAdminKey: string }) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

/** A raw HTTP/1.1 request (any `Host` header, any request target) to 127.0.0.1:port. */
const raw = (port: number, options: { readonly method?: string; readonly path: string; readonly headers?: Record<string, string>; readonly body?: string }) =>
  new Promise<Answer>((resolve, reject) => {
    const request = nodeHttp.request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
        setHost: options.headers?.["host"] === undefined
      },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          let json: any
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          const headers = new Headers()
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") headers.set(name, value)
          resolve({ status: response.statusCode ?? 0, headers, text, json })
        })
      }
    )
    request.on("error", reject)
    if (options.body !== undefined) request.write(options.body)
    request.end()
  })

const claimsOf = (jwt: string): { readonly iss: string } => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8"))

// ---------------------------------------------------------------------------------------------
// B: nesting

describe("a deeply nested JSON body is a SCHEMA_ERROR, never a 500", () => {
  it("a body nested 3000 levels deep answers 400 SCHEMA_ERROR on every route that reads a body", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    const body = nested(3000)
    expect(body.length).toBeGreaterThan(6000)
    const statuses = new Map<string, number>()
    for (const { endpoint } of allRoutes) {
      if (endpoint.method === "GET") continue
      const path = `/api/v1${fillPath(endpoint.path, new Proxy({}, { get: () => "00000000-0000-4000-8000-000000000000" }) as Record<string, string>)}`
      for (const headers of [serverHeaders(emulator.demo), {}]) {
        const answer = await Effect.runPromise(
          send(emulator, { method: endpoint.method, path, headers: { ...headers, "content-type": "application/json" }, raw: body })
        )
        statuses.set(`${answer.status}`, (statuses.get(`${answer.status}`) ?? 0) + 1)
        expect(answer.status, `${endpoint.method} ${path}`).toBe(400)
        expect(answer.headers.get("x-stack-known-error"), `${endpoint.method} ${path}`).toBe("SCHEMA_ERROR")
        expect(answer.json.code).toBe("SCHEMA_ERROR")
        expect(answer.json.error).toContain(`body is nested more than ${maxJsonDepth} levels deep`)
      }
    }
    // many routes were tried, all answered 400
    expect([...statuses.keys()]).toEqual(["400"])
    expect(statuses.get("400")!).toBeGreaterThan(60)
  })

  it("nesting up to the limit is accepted (metadata keeps its shape), one level more is a SCHEMA_ERROR", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    const tokens = await Effect.runPromise(signUp(emulator, emulator.demo, "deep@example.com"))
    const patch = (depth: number) =>
      Effect.runPromise(
        send(emulator, {
          method: "PATCH",
          path: `/api/v1/users/${tokens.user_id}`,
          headers: { ...serverHeaders(emulator.demo), "content-type": "application/json" },
          // the body object is one level, the metadata the rest
          raw: `{"server_metadata":${nested(depth - 1)}}`
        })
      )
    const atLimit = await patch(maxJsonDepth)
    expect(atLimit.status, atLimit.text.slice(0, 300)).toBe(200)
    expect(JSON.stringify(atLimit.json.server_metadata)).toBe(nested(maxJsonDepth - 1))
    const over = await patch(maxJsonDepth + 1)
    expect(over.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    // brackets inside strings do not count
    const inString = await Effect.runPromise(
      send(emulator, {
        method: "PATCH",
        path: `/api/v1/users/${tokens.user_id}`,
        headers: serverHeaders(emulator.demo),
        body: { server_metadata: "[{".repeat(5000) }
      })
    )
    expect(inString.status).toBe(200)
  })
})

describe("JSON text inside a request is bounded like the body (one parser for every JSON the emulator reads)", () => {
  const deepConfig = (depth: number) => `${"{\"a\":".repeat(depth)}1${"}".repeat(depth)}`

  it("a config_override_string or config_string nested 3000 levels deep is a 400 text, never a 500, and changes nothing", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    const headers = adminHeaders(emulator.demo)
    const before = emulator.state.projects.get(emulator.demo.projectId)!.config
    const storedBefore = await Effect.runPromise(send(emulator, { path: "/api/v1/internal/config/override/environment", headers }))
    const writes = [
      { method: "PATCH", path: "/api/v1/internal/config/override/environment", body: { config_override_string: deepConfig(3000) } },
      { method: "PUT", path: "/api/v1/internal/config/override/environment", body: { config_string: deepConfig(3000) } },
      { method: "PUT", path: "/api/v1/internal/config/override/branch", body: { config_string: deepConfig(3000), source: { type: "unlinked" } } }
    ]
    for (const write of writes) {
      const answer = await Effect.runPromise(send(emulator, { ...write, headers }))
      expect([write.method, write.path, answer.status], answer.text.slice(0, 200)).toEqual([write.method, write.path, 400])
      expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(answer.text).toBe(tooDeepConfigText)
    }
    expect(emulator.state.projects.get(emulator.demo.projectId)!.config).toBe(before)
    const stored = await Effect.runPromise(send(emulator, { path: "/api/v1/internal/config/override/environment", headers }))
    expect(stored.json).toEqual(storedBefore.json)
  })

  it(`a config string nesting ${maxJsonDepth} levels is read, one level more is refused`, async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    const patch = (depth: number) =>
      Effect.runPromise(
        send(emulator, {
          method: "PATCH",
          path: "/api/v1/internal/config/override/environment",
          headers: adminHeaders(emulator.demo),
          body: { config_override_string: deepConfig(depth) }
        })
      )
    // read at the limit: parsed, then judged by the config schema as the service judges it (no key
    // "a" in the schema: its 400 text), not by the depth bound
    const atLimit = await patch(maxJsonDepth)
    expect(atLimit.status, atLimit.text.slice(0, 200)).toBe(400)
    expect(atLimit.text).toContain("The key \"a\" is not valid")
    expect(atLimit.text).not.toBe(tooDeepConfigText)
    const over = await patch(maxJsonDepth + 1)
    expect([over.status, over.text]).toEqual([400, tooDeepConfigText])
  })

  it("an access token whose header or payload is nested 3000 levels deep is UNPARSABLE_ACCESS_TOKEN; a passkey's clientDataJSON nested as deep has no origin", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    const part = (json: string) => Buffer.from(json, "utf8").toString("base64url")
    const deep = nested(3000, `{"aud":"${emulator.demo.projectId}"}`)
    const flat = part(`{"alg":"ES256","kid":"k"}`)
    for (const token of [`${part(deep)}.${part(`{"aud":"${emulator.demo.projectId}"}`)}.c2ln`, `${flat}.${part(deep)}.c2ln`]) {
      const answer = await Effect.runPromise(
        send(emulator, { path: "/api/v1/users/me", headers: clientHeaders(emulator.demo, { "x-stack-access-token": token }) })
      )
      expect([answer.status, answer.headers.get("x-stack-known-error")]).toEqual([401, "UNPARSABLE_ACCESS_TOKEN"])
    }
    const project = emulator.state.projects.get(emulator.demo.projectId)!
    const clientData = part(`{"origin":"http://localhost:3000","deep":${nested(3000)}}`)
    const party = Passkeys.expectedRelyingParty(project, clientData, "registration")
    expect(Result.isFailure(party) && party.failure.message).toBe("Passkey registration failed because the origin is not allowed")
    expect(Result.isSuccess(Passkeys.expectedRelyingParty(project, part(`{"origin":"http://localhost:3000"}`), "registration"))).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// C, I: keys named like Object.prototype members

describe("user-chosen keys are plain keys", () => {
  it("/internal/metrics counts country codes named constructor, toString and __proto__ like any other", async () => {
    const emulator = await Effect.runPromise(makeEmulator({ demo: { user: false } }))
    const server = serverHeaders(emulator.demo)
    const codes = ["constructor", "toString", "__proto__", "__proto__", "hasOwnProperty", "valueOf", "US"]
    for (const [index, country_code] of codes.entries()) {
      const answer = await Effect.runPromise(
        send(emulator, { method: "POST", path: "/api/v1/users", headers: server, body: { primary_email: `c${index}@example.com`, country_code } })
      )
      expect(answer.status).toBe(201)
    }
    const metrics = await Effect.runPromise(send(emulator, { path: "/api/v1/internal/metrics", headers: adminHeaders(emulator.demo) }))
    expect(metrics.status).toBe(200)
    const table = metrics.json.users_by_country as Record<string, number>
    expect(Object.keys(table).sort()).toEqual(["US", "__proto__", "constructor", "hasOwnProperty", "toString", "valueOf"])
    expect(Object.getOwnPropertyDescriptor(table, "__proto__")?.value).toBe(2)
    expect(table["constructor"]).toBe(1)
    expect(table["toString"]).toBe(1)
    expect(metrics.json.total_users).toBe(codes.length)
  })

  it("a query key named __proto__ is an unknown key like any other (SCHEMA_ERROR), not silently dropped", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    for (const key of ["__proto__", "constructor", "x"]) {
      const answer = await Effect.runPromise(send(emulator, { path: `/api/v1/users?${key}=1`, headers: serverHeaders(emulator.demo) }))
      expect(answer.headers.get("x-stack-known-error"), key).toBe("SCHEMA_ERROR")
      expect(answer.json.error).toContain(`query contains unknown properties: ${key}`)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// F: body size

describe("request bodies are capped", () => {
  it("a body over maxRequestBodyBytes answers 413 text and nothing of it is stored; at the limit it is read", async () => {
    const emulator = await Effect.runPromise(makeEmulator({ maxRequestBodyBytes: 2000 }))
    const tokens = await Effect.runPromise(signUp(emulator, emulator.demo, "big@example.com"))
    const patch = (size: number) => {
      const prefix = "{\"server_metadata\":\""
      const suffix = "\"}"
      return Effect.runPromise(
        send(emulator, {
          method: "PATCH",
          path: `/api/v1/users/${tokens.user_id}`,
          headers: { ...serverHeaders(emulator.demo), "content-type": "application/json" },
          raw: `${prefix}${"m".repeat(size - prefix.length - suffix.length)}${suffix}`
        })
      )
    }
    const atLimit = await patch(2000)
    expect(atLimit.status).toBe(200)
    const over = await patch(2001)
    expect(over.status).toBe(413)
    expect(over.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(over.text).toContain("at most 2000 bytes")
    const user = emulator.state.projects.get(emulator.demo.projectId)!.users.get(tokens.user_id)!
    expect((user.serverMetadata as string).length).toBe(2000 - 22)
    // the SDK's override header turns it into 200 + x-stack-actual-status, as for every 4xx
    const overridden = await Effect.runPromise(
      send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: { ...clientHeaders(emulator.demo), "x-stack-override-error-status": "true", "content-type": "application/json" },
        raw: " ".repeat(3000)
      })
    )
    expect(overridden.status).toBe(200)
    expect(overridden.headers.get("x-stack-actual-status")).toBe("413")
  })

  it("the default cap is 1 MiB: 20 MB of metadata in one request is refused in process", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    expect(emulator.settings.maxRequestBodyBytes).toBe(1024 * 1024)
    const tokens = await Effect.runPromise(signUp(emulator, emulator.demo, "huge@example.com"))
    const answer = await Effect.runPromise(
      send(emulator, {
        method: "PATCH",
        path: `/api/v1/users/${tokens.user_id}`,
        headers: serverHeaders(emulator.demo),
        body: { server_metadata: "m".repeat(20_000_000) }
      })
    )
    expect(answer.status).toBe(413)
    expect(emulator.state.projects.get(emulator.demo.projectId)!.users.get(tokens.user_id)!.serverMetadata).toBeNull()
  })
})

describe("the outbox is bounded", () => {
  it("the outbox keeps the newest 10 000 e-mails however many are sent", async () => {
    const emulator = await Effect.runPromise(makeEmulator())
    for (let index = 0; index < Outbox.maxEntries + 5; index++) {
      Outbox.send(emulator.state, {
        projectId: emulator.demo.projectId,
        to: `n${index}@example.com`,
        subject: "s",
        text: "t",
        html: "h",
        kind: "magic_link",
        code: null,
        link: null,
        sentAtMillis: index
      })
    }
    expect(Outbox.maxEntries).toBe(10_000)
    expect(emulator.outbox()).toHaveLength(10_000)
    expect(emulator.outbox()[0]!.to).toBe("n5@example.com")
    expect(emulator.latestEmail()!.to).toBe(`n${Outbox.maxEntries + 4}@example.com`)
  })
})

// ---------------------------------------------------------------------------------------------
// Over HTTP: B, D, F

describe("over HTTP", () => {
  let server: RunningServer
  let stop: () => Promise<void>
  beforeAll(async () => {
    const started = await startServer({ passwordHashIterations: 1000 })
    server = started.server
    stop = started.stop
  })
  afterAll(() => stop())

  it("a body nested 3000 levels deep answers 400 SCHEMA_ERROR over HTTP", async () => {
    const answer = await raw(server.port, {
      method: "POST",
      path: "/api/v1/users",
      headers: { ...serverHeaders(server.emulator.demo), "content-type": "application/json" },
      body: nested(3000)
    })
    expect(answer.status).toBe(400)
    expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
  })

  it("a malformed Host header never answers 500: it is refused like a foreign one (403 text)", async () => {
    for (const host of ["bad host", "[", "a:b:c", "%zz", "evil.example:99999", "@", "\\\\x"]) {
      const answer = await raw(server.port, { path: "/api/v1", headers: { host } })
      expect(answer.status, host).toBe(403)
      expect(answer.headers.get("content-type"), host).toBe("text/plain; charset=utf-8")
    }
  })

  it("the Host header decides neither the token issuer nor the OAuth URLs: the server's base URL does", async () => {
    const signedUp = await raw(server.port, {
      method: "POST",
      path: "/api/v1/auth/password/sign-up",
      headers: { ...clientHeaders(server.emulator.demo), host: "localhost:1", "content-type": "application/json" },
      body: JSON.stringify({ email: "host@example.com", password: "correct horse battery" })
    })
    expect(signedUp.status).toBe(200)
    expect(claimsOf(signedUp.json.access_token).iss).toBe(`${server.baseUrl}/api/v1/projects/${server.emulator.demo.projectId}`)
    const authorize = await raw(server.port, {
      path: `/api/v1/auth/oauth/authorize/github?${authorizeQuery({ project: server.emulator.demo }, pkce().challenge).toString()}`,
      headers: { host: "app.localhost:3000" }
    })
    expect(authorize.status).toBe(200)
    const location = new URL(authorize.json.location)
    expect(location.origin).toBe(server.baseUrl)
    expect(location.searchParams.get("redirect_uri")).toBe(`${server.baseUrl}/api/v1/auth/oauth/callback/github`)
    // an absolute-form request target keeps only its path
    const absolute = await raw(server.port, { path: "http://evil.example/api/v1/this-path-does-not-exist", headers: { host: "localhost" } })
    expect(absolute.status).toBe(404)
    expect(absolute.text).toContain(`URL: ${server.baseUrl}/api/v1/this-path-does-not-exist`)
  })

  it("serve({ baseUrl }) fixes the issuer whatever the Host; an invalid baseUrl is refused", async () => {
    const answer = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const fixed = yield* serve({ port: 0, baseUrl: "http://localhost:8999", emulatorOptions: { passwordHashIterations: 1000 } })
          expect(fixed.baseUrl).toBe("http://localhost:8999")
          return yield* Effect.promise(() =>
            raw(fixed.port, {
              method: "POST",
              path: "/api/v1/auth/password/sign-up",
              headers: { ...clientHeaders(fixed.emulator.demo), host: "10.1.2.3:80", "content-type": "application/json" },
              body: JSON.stringify({ email: "fixed@example.com", password: "correct horse battery" })
            })
          )
        })
      )
    )
    expect(claimsOf(answer.json.access_token).iss).toMatch(/^http:\/\/localhost:8999\/api\/v1\/projects\//)
    for (const baseUrl of ["not a url", "ftp://localhost:1", "http://localhost:1/path"]) {
      const failed = await Effect.runPromise(Effect.scoped(Effect.flip(serve({ port: 0, baseUrl }))))
      expect(failed._tag, baseUrl).toBe("ServeError")
    }
  })

  it("20 MB of metadata over HTTP answers 413 and stores nothing; the server keeps serving", async () => {
    const demo = server.emulator.demo
    const signedUp = await raw(server.port, {
      method: "POST",
      path: "/api/v1/auth/password/sign-up",
      headers: { ...clientHeaders(demo), "content-type": "application/json" },
      body: JSON.stringify({ email: "heavy@example.com", password: "correct horse battery" })
    })
    const userId = signedUp.json.user_id as string
    const response = await fetch(`${server.baseUrl}/api/v1/users/${userId}`, {
      method: "PATCH",
      headers: { ...serverHeaders(demo), "content-type": "application/json" },
      body: JSON.stringify({ server_metadata: "m".repeat(20_000_000) })
    })
    expect(response.status).toBe(413)
    expect(await response.text()).toContain("at most 1048576 bytes")
    expect(server.emulator.state.projects.get(demo.projectId)!.users.get(userId)!.serverMetadata).toBeNull()
    const after = await fetch(`${server.baseUrl}/api/v1`)
    expect(after.status).toBe(200)
  })

  describe("DNS rebinding: a request whose Host is not one of the server's names is refused before any route runs", () => {
    const foreign = ["evil.example", "evil.example:8102", "127.0.0.1.nip.io", "localhost.evil.example", "EVIL.example.", "[::1].evil.example"]

    it("the outbox, admin access and a sign-up with a foreign Host answer 403 text without CORS headers, and nothing is read or written", async () => {
      const demo = server.emulator.demo
      const project = server.emulator.state.projects.get(demo.projectId)!
      const usersBefore = project.users.size
      const nameBefore = project.displayName
      await raw(server.port, {
        method: "POST",
        path: "/api/v1/auth/otp/send-sign-in-code",
        headers: { ...clientHeaders(demo), "content-type": "application/json" },
        body: JSON.stringify({ email: "victim@example.com", callback_url: "http://localhost:3000/handler/magic-link-callback" })
      })
      const outboxBefore = server.emulator.outbox().length
      expect(outboxBefore).toBeGreaterThan(0)
      for (const host of foreign) {
        const requests = [
          { path: "/api/v1/emulator/outbox", headers: { host } },
          {
            method: "PATCH",
            path: "/api/v1/internal/projects/current",
            headers: { ...adminHeaders(demo), host, "content-type": "application/json" },
            body: JSON.stringify({ display_name: "Owned" })
          },
          {
            method: "POST",
            path: "/api/v1/auth/password/sign-up",
            headers: { ...clientHeaders(demo), host, "content-type": "application/json" },
            body: JSON.stringify({ email: "rebound@example.com", password: "correct horse battery" })
          },
          { path: "/api/v1", headers: { host } }
        ]
        for (const request of requests) {
          const answer = await raw(server.port, request)
          expect([host, request.path, answer.status]).toEqual([host, request.path, 403])
          expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8")
          expect(answer.headers.get("access-control-allow-origin")).toBeNull()
          expect(answer.headers.get("x-stack-request-id")).toBeNull()
          // its body is never read: the connection is closed after the answer
          expect(answer.headers.get("connection")).toBe("close")
          expect(answer.text).toBe(foreignHostText(host, server.baseUrl))
          expect(answer.text).not.toContain("victim@example.com")
        }
      }
      expect(project.users.size).toBe(usersBefore)
      expect(project.displayName).toBe(nameBefore)
      expect(server.emulator.outbox().length).toBe(outboxBefore)
    })

    it("the base URL's host, localhost, a name under .localhost and IP addresses are answered, with any port", async () => {
      for (
        const host of [
          new URL(server.baseUrl).host,
          "127.0.0.1",
          "localhost",
          "LOCALHOST:3000",
          "localhost.:8102",
          "app.localhost:5173",
          "[::1]:8102",
          "[::1]",
          "10.0.0.5:8102",
          "192.168.1.20"
        ]
      ) {
        const answer = await raw(server.port, { path: "/api/v1", headers: { host } })
        expect([host, answer.status]).toEqual([host, 200])
      }
    })

    it("serve({ baseUrl, allowedHosts }) answers those hosts too; an allowed host that is not a name is refused at start", async () => {
      const statuses = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const named = yield* serve({ port: 0, baseUrl: "http://emulator.test:8999", allowedHosts: ["emulator", "https://auth.example.com"] })
            const status = (host: string) =>
              Effect.promise(() => raw(named.port, { path: "/api/v1", headers: { host } }).then((answer) => [host, answer.status] as const))
            return yield* Effect.all(
              ["emulator.test", "emulator.test:1", "emulator:8102", "Auth.Example.com", "evil.example", "emulator.test.evil.example"].map(status)
            )
          })
        )
      )
      expect(statuses).toEqual([
        ["emulator.test", 200],
        ["emulator.test:1", 200],
        ["emulator:8102", 200],
        ["Auth.Example.com", 200],
        ["evil.example", 403],
        ["emulator.test.evil.example", 403]
      ])
      for (const allowedHosts of [["not a host"], ["ftp://x y"], ["a/b"]]) {
        const failed = await Effect.runPromise(Effect.scoped(Effect.flip(serve({ port: 0, allowedHosts }))))
        expect(failed._tag, allowedHosts[0]).toBe("ServeError")
      }
    })

    it("a server listening on all IPv6 interfaces starts and answers its loopback", async () => {
      const answer = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const all = yield* serve({ port: 0, host: "::" })
            return yield* Effect.promise(() => fetch(`http://[::1]:${all.port}/api/v1`).then((response) => response.status))
          })
        )
      )
      expect(answer).toBe(200)
    })
  })
})

describe("no unhandled rejection", () => {
  it("none was raised", () => {
    expect(unhandled).toEqual([])
  })
})
