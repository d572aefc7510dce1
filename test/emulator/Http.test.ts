import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const silentLogger = Logger.layer([])

describe("requests and responses (PROTOCOL.md §1.1, §1.4, §1.5)", () => {
  it.effect("GET /api/v1 answers the welcome text, echoing the resolved authentication", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const none = yield* send(emulator, { path: "/api/v1" })
      expect(none.status).toBe(200)
      expect(none.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(none.text).toMatch(/^Welcome to the Stack API endpoint!.*\n\nAuthentication: None$/s)
      const client = yield* send(emulator, { path: "/api/v1/", headers: clientHeaders(emulator.demo) })
      expect(client.text).toMatch(new RegExp(`Authentication: Client\\n  Project: ${emulator.demo.projectId}\\n  User: None$`))
    }))

  it.effect("any query on the welcome endpoint → 400 SCHEMA_ERROR in the service's message format", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/v1?foo=bar" })
      expect(answer.status).toBe(400)
      const message = "Request validation failed on GET /api/v1:\n  - query contains unknown properties: foo"
      expect(answer.json).toEqual({ code: "SCHEMA_ERROR", details: { message }, error: message })
      expect(answer.text).toBe(JSON.stringify(answer.json, undefined, 2))
    }))

  it.effect("unknown body keys → 400 SCHEMA_ERROR naming them; wrong types are named too", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "keys@example.com")
      const headers = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      const unknown = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers,
        body: { display_name: "x", favourite_colour: "blue" }
      })
      expect(unknown.json.details.message).toBe(
        "Request validation failed on PATCH /api/v1/users/me:\n  - body contains unknown properties: favourite_colour"
      )
      const wrongType = yield* send(emulator, { method: "PATCH", path: "/api/v1/users/me", headers, body: { otp_auth_enabled: "yes" } })
      expect(wrongType.json.code).toBe("SCHEMA_ERROR")
      expect(wrongType.json.error).toBe(
        "Request validation failed on PATCH /api/v1/users/me:\n  - body.otp_auth_enabled must be a `boolean` type, but the final value was: `\"yes\"`."
      )
      const missing = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(emulator.demo),
        body: { password: "x" }
      })
      expect(missing.json.error).toBe("Request validation failed on POST /api/v1/auth/password/sign-in:\n  - body.email must be defined")
      const badUuid = yield* send(emulator, { path: "/api/v1/users/not-a-uuid", headers: serverHeaders(emulator.demo) })
      expect(badUuid.json.error).toBe("Request validation failed on GET /api/v1/users/not-a-uuid:\n  - params.user_id must be a valid UUID")
    }))

  it.effect("malformed JSON → 400 BODY_PARSING_ERROR; an unknown content type too", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const malformed = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: { ...clientHeaders(emulator.demo), "content-type": "application/json" },
        raw: "{not json"
      })
      expect(malformed.status).toBe(400)
      expect(malformed.headers.get("x-stack-known-error")).toBe("BODY_PARSING_ERROR")
      expect(malformed.json).toEqual({ code: "BODY_PARSING_ERROR", error: "Invalid JSON in request body" })
      const unknownType = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: { ...clientHeaders(emulator.demo), "content-type": "application/xml" },
        raw: "<a/>"
      })
      expect(unknownType.json).toEqual({ code: "BODY_PARSING_ERROR", error: "Unknown content type in request body: application/xml" })
    }))

  it.effect("x-stack-override-error-status: 4xx → 200 + x-stack-actual-status, body and known-error header unchanged", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { clientUserDeletionEnabled: false } } })
      const headers = serverHeaders(emulator.demo, { "x-stack-override-error-status": "true" })
      const known = yield* send(emulator, { path: "/api/v1/users/00000000-0000-4000-8000-000000000000", headers })
      expect(known.status).toBe(200)
      expect(known.headers.get("x-stack-actual-status")).toBe("404")
      expect(known.headers.get("x-stack-known-error")).toBe("USER_NOT_FOUND")
      expect(known.json).toEqual({ code: "USER_NOT_FOUND", error: "User not found." })

      const tokens = yield* signUp(emulator, emulator.demo, "override@example.com")
      const text = yield* send(emulator, {
        method: "DELETE",
        path: "/api/v1/users/me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token, "x-stack-override-error-status": "true" })
      })
      expect(text.status).toBe(200)
      expect(text.headers.get("x-stack-actual-status")).toBe("400")
      expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(text.text).toBe("Client user deletion is not enabled for this project")

      const success = yield* send(emulator, { path: "/api/v1/users?limit=1", headers })
      expect(success.status).toBe(200)
      expect(success.headers.get("x-stack-actual-status")).toBeNull()
    }))

  it.effect("the token endpoint answers real statuses even when asked to override", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/oauth/token",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-stack-override-error-status": "true" },
        raw: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: "unknown",
          client_id: emulator.demo.projectId,
          client_secret: emulator.demo.publishableClientKey
        }).toString()
      })
      expect(answer.status).toBe(401)
      expect(answer.headers.get("x-stack-actual-status")).toBeNull()
      expect(answer.json.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")
    }))

  it.effect("unexpected failures → 500 text with the request id, never rewritten, the emulator keeps serving", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "boom@example.com")
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      const users = project.users
      ;(project as { users: unknown }).users = undefined
      const answer = yield* send(emulator, {
        path: "/api/v1/users/me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token, "x-stack-override-error-status": "true" })
      }).pipe(Effect.provide(silentLogger))
      ;(project as { users: unknown }).users = users
      expect(answer.status).toBe(500)
      expect(answer.headers.get("x-stack-actual-status")).toBeNull()
      const requestId = answer.headers.get("x-stack-request-id")
      expect(answer.text).toBe(`Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${requestId}`)
      const after = yield* send(emulator, { path: "/api/v1" })
      expect(after.status).toBe(200)
    }))

  it.effect("every response carries a request id, cache-control no-store and permissive CORS; OPTIONS is answered", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/v1/users/me", headers: clientHeaders(emulator.demo) })
      expect(answer.headers.get("x-stack-request-id")).toMatch(/^[0-9a-z]{16}$/)
      expect(answer.headers.get("cache-control")).toBe("no-store, max-age=0")
      expect(answer.headers.get("access-control-allow-origin")).toBe("*")
      expect(answer.headers.get("access-control-expose-headers")).toBe("content-type, x-stack-actual-status, x-stack-known-error")
      const preflight = yield* send(emulator, { method: "OPTIONS", path: "/api/v1/users/me" })
      expect(preflight.status).toBe(200)
      expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, PATCH, DELETE, OPTIONS")
      expect(preflight.headers.get("access-control-max-age")).toBe("86400")
      expect(preflight.headers.get("access-control-allow-headers")).toContain("x-stack-access-token")
    }))

  it.effect("unknown paths under /api/ → 404 text; a known path with another method → 405", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const unknown = yield* send(emulator, { path: "/api/v1/this-path-does-not-exist", headers: clientHeaders(emulator.demo) })
      expect(unknown.status).toBe(404)
      expect(unknown.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(unknown.text).toContain("404 — this page does not exist in Stack Auth's API.")
      expect(unknown.text).toContain("URL: http://localhost:8102/api/v1/this-path-does-not-exist")
      const method = yield* send(emulator, { method: "PUT", path: "/api/v1/auth/password/sign-in" })
      expect(method.status).toBe(405)
    }))
})
