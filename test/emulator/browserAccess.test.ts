/**
 * Issue 11 (G, E): a web page on another origin must not read the emulator's outbox nor use its
 * admin API (the default keys are public), and the mock OAuth provider redirects only to the
 * emulator's own OAuth callback. In process and over real HTTP (the Node server).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { isLoopbackOrigin } from "../../src/emulator/BrowserAccess.js"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"
import { clientHeaders, makeEmulator, origin, send, signUp } from "./helpers.js"
import { authorize, localPath } from "./oauthFlow.js"

const evil = "https://evil.example"
const verification = { verification_callback_url: "http://localhost:3000/handler/email-verification" }

const adminHeaders = (credentials: Emulator.ProjectCredentials, extra: Record<string, string> = {}) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey,
  ...extra
})

describe("the outbox and admin access are only for non-browser callers and loopback pages", () => {
  it.effect("the outbox answers a page on another origin 403 without CORS headers, and shows it no code", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "codes@example.com", undefined, verification)
      expect(emulator.outbox({ email: "codes@example.com" })).toHaveLength(1)
      const answer = yield* send(emulator, { path: "/api/v1/emulator/outbox", headers: { origin: evil } })
      expect(answer.status).toBe(403)
      expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(answer.headers.get("access-control-allow-origin")).toBeNull()
      expect(answer.text).toContain(evil)
      expect(answer.text).not.toContain("codes@example.com")
    }))

  it.effect("admin access from a page on another origin is refused before it changes anything", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      const before = project.displayName
      for (
        const headers of [
          adminHeaders(emulator.demo, { origin: evil }),
          // the admin key alone, or the access type alone, is enough to be treated as admin access
          { "x-stack-project-id": emulator.demo.projectId, "x-hexclave-super-secret-admin-key": emulator.demo.superSecretAdminKey, origin: evil },
          { "x-stack-project-id": emulator.demo.projectId, "x-stack-access-type": "ADMIN", origin: evil },
          { "x-stack-project-id": emulator.demo.projectId, "x-stack-access-type": "client", "x-stack-admin-access-token": "x", origin: evil }
        ]
      ) {
        const answer = yield* send(emulator, { method: "PATCH", path: "/api/v1/internal/projects/current", headers, body: { display_name: "Owned" } })
        expect(answer.status).toBe(403)
        expect(answer.headers.get("access-control-allow-origin")).toBeNull()
      }
      expect(project.displayName).toBe(before)
      const metrics = yield* send(emulator, { path: "/api/v1/internal/metrics", headers: adminHeaders(emulator.demo, { origin: "null" }) })
      expect(metrics.status).toBe(403)
    }))

  it.effect("a preflight from another origin for the outbox or with admin credential headers gets no CORS answer", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const outbox = yield* send(emulator, {
        method: "OPTIONS",
        path: "/api/v1/emulator/outbox",
        headers: { origin: evil, "access-control-request-method": "GET" }
      })
      expect(outbox.status).toBe(403)
      expect(outbox.headers.get("access-control-allow-origin")).toBeNull()
      for (const name of ["x-stack-super-secret-admin-key", "X-Hexclave-Admin-Access-Token"]) {
        const admin = yield* send(emulator, {
          method: "OPTIONS",
          path: "/api/v1/internal/projects/current",
          headers: { origin: evil, "access-control-request-method": "PATCH", "access-control-request-headers": `content-type, x-stack-access-type, ${name}` }
        })
        expect(admin.status).toBe(403)
        expect(admin.headers.get("access-control-allow-origin")).toBeNull()
      }
    }))

  it.effect("loopback pages keep the outbox and the admin API (their origin echoed, never *), non-browser callers too", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      for (const page of ["http://localhost:3000", "http://127.0.0.1:5173", "http://127.8.9.10:1", "http://[::1]:8080", "https://localhost"]) {
        const outbox = yield* send(emulator, { path: "/api/v1/emulator/outbox", headers: { origin: page } })
        expect(outbox.status, page).toBe(200)
        expect(outbox.headers.get("access-control-allow-origin")).toBe(page)
        expect(outbox.headers.get("vary")).toContain("origin")
        const metrics = yield* send(emulator, { path: "/api/v1/internal/metrics", headers: adminHeaders(emulator.demo, { origin: page }) })
        expect(metrics.status, page).toBe(200)
        const preflight = yield* send(emulator, {
          method: "OPTIONS",
          path: "/api/v1/internal/metrics",
          headers: { origin: page, "access-control-request-method": "GET", "access-control-request-headers": "x-stack-super-secret-admin-key" }
        })
        expect(preflight.status).toBe(200)
        expect(preflight.headers.get("access-control-allow-origin")).toBe(page)
      }
      const noOrigin = yield* send(emulator, { path: "/api/v1/emulator/outbox" })
      expect(noOrigin.status).toBe(200)
      expect(noOrigin.headers.get("access-control-allow-origin")).toBeNull()
      const adminNoOrigin = yield* send(emulator, { path: "/api/v1/internal/metrics", headers: adminHeaders(emulator.demo) })
      expect(adminNoOrigin.status).toBe(200)
    }))

  it.effect("client and server access from any origin keep the service's permissive CORS", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/v1/users/me", headers: clientHeaders(emulator.demo, { origin: evil }) })
      expect(answer.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER")
      expect(answer.headers.get("access-control-allow-origin")).toBe("*")
      const preflight = yield* send(emulator, {
        method: "OPTIONS",
        path: "/api/v1/users/me",
        headers: { origin: evil, "access-control-request-method": "GET", "access-control-request-headers": "x-stack-access-type, x-stack-access-token" }
      })
      expect(preflight.status).toBe(200)
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
    }))

  it.effect("the emulator's own origin may use its pages (the consent form posts back to itself)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ baseUrl: "https://emulator.test" })
      const own = yield* send(emulator, { path: "/api/v1/emulator/outbox", headers: { origin: "https://emulator.test" } })
      expect(own.status).toBe(200)
      const other = yield* send(emulator, { path: "/api/v1/emulator/outbox", headers: { origin: "https://emulator.test.evil.example" } })
      expect(other.status).toBe(403)
    }))

  it("only localhost, 127.x.x.x and [::1] are loopback origins", () => {
    for (const yes of ["http://localhost:3000", "http://127.0.0.1", "https://127.255.0.1:9", "http://[::1]:1"]) expect(isLoopbackOrigin(yes), yes).toBe(true)
    for (
      const no of [
        "http://localhost.evil.example",
        "http://127.0.0.1.nip.io",
        "http://evil.example",
        "null",
        "",
        "file://",
        "ftp://localhost",
        "http://128.0.0.1",
        "http://[::2]"
      ]
    ) {
      expect(isLoopbackOrigin(no), no).toBe(false)
    }
  })
})

describe("the mock OAuth provider redirects only to the emulator's own OAuth callback", () => {
  it.effect("a consent approved for another redirect_uri is a 400 text without a redirect (GET auto, POST approve, POST deny)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const start = yield* authorize(emulator, { project: emulator.demo })
      const providerUrl = new URL(start.json.location)
      for (
        const foreign of [
          "https://evil.example/steal",
          `${origin}/api/v1/auth/oauth/callback/google`,
          "http://localhost:8102/api/v1/auth/oauth/callback/github?x=1"
        ]
      ) {
        const query = new URLSearchParams(providerUrl.searchParams)
        query.set("redirect_uri", foreign)
        const auto = yield* send(emulator, { path: `${providerUrl.pathname}?${query.toString()}&auto=1&email=v%40example.com` })
        expect(auto.status, foreign).toBe(400)
        expect(auto.headers.get("location")).toBeNull()
        expect(auto.text).toContain("only redirects to the emulator's own OAuth callback")
        for (const action of ["authorize", "deny"]) {
          const form = new URLSearchParams(query)
          form.set("email", "v@example.com")
          form.set("action", action)
          const posted = yield* send(emulator, {
            method: "POST",
            path: providerUrl.pathname,
            headers: { "content-type": "application/x-www-form-urlencoded" },
            raw: form.toString()
          })
          expect(posted.status, `${foreign} ${action}`).toBe(400)
          expect(posted.headers.get("location")).toBeNull()
        }
      }
      // the emulator's own callback still works
      const approved = yield* send(emulator, { path: `${localPath(providerUrl.href)}&auto=1&email=v%40example.com` })
      expect(approved.status).toBe(303)
      expect(approved.headers.get("location")).toMatch(/^http:\/\/localhost:8102\/api\/v1\/auth\/oauth\/callback\/github\?code=/)
    }))
})

describe("over HTTP", () => {
  let server: RunningServer
  let stop: () => Promise<void>
  beforeAll(async () => {
    const started = await startServer({ passwordHashIterations: 1000 })
    server = started.server
    stop = started.stop
    await Effect.runPromise(signUp(server.emulator, server.emulator.demo, "http-codes@example.com", undefined, verification))
  })
  afterAll(() => stop())

  it("a page on another origin gets 403 without CORS from the outbox and the admin API over HTTP; loopback pages and curl get answers", async () => {
    const outbox = await fetch(`${server.baseUrl}/api/v1/emulator/outbox`, { headers: { origin: evil } })
    expect(outbox.status).toBe(403)
    expect(outbox.headers.get("access-control-allow-origin")).toBeNull()
    expect(await outbox.text()).not.toContain("http-codes@example.com")
    const admin = await fetch(`${server.baseUrl}/api/v1/internal/metrics`, { headers: { ...adminHeaders(server.emulator.demo), origin: evil } })
    expect(admin.status).toBe(403)
    const preflight = await fetch(`${server.baseUrl}/api/v1/emulator/outbox`, {
      method: "OPTIONS",
      headers: { origin: evil, "access-control-request-method": "GET" }
    })
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull()

    const demoApp = await fetch(`${server.baseUrl}/api/v1/emulator/outbox`, { headers: { origin: "http://localhost:3000" } })
    expect(demoApp.status).toBe(200)
    expect(demoApp.headers.get("access-control-allow-origin")).toBe("http://localhost:3000")
    const curl = (await (await fetch(`${server.baseUrl}/api/v1/emulator/outbox`)).json()) as { items: Array<{ to: string }> }
    expect(curl.items.some((item) => item.to === "http-codes@example.com")).toBe(true)
  })

  it("the mock provider over HTTP refuses a foreign redirect_uri with 400 and no Location", async () => {
    const query = new URLSearchParams({
      client_id: "github",
      redirect_uri: "https://evil.example/steal",
      state: "s",
      code_challenge: "c",
      auto: "1",
      email: "v@example.com"
    })
    const answer = await fetch(`${server.baseUrl}/api/v1/emulator/oauth-provider/github/authorize?${query.toString()}`, { redirect: "manual" })
    expect(answer.status).toBe(400)
    expect(answer.headers.get("location")).toBeNull()
  })
})
