/**
 * Issue 16 item 11, restricted users (PROTOCOL.md §1.3, §2.3, §3.0): when a project requires
 * e-mail verification (`onboarding.requireEmailVerification`, set through the config override
 * API), a user whose primary e-mail is not verified is restricted with reason
 * `email_not_verified` — tokens for the restricted audience (`aud` `<project>:restricted`,
 * `is_restricted`), 403 `RESTRICTED_USER_NOT_ALLOWED` without `x-stack-allow-restricted-user`,
 * left out of `GET /users` unless `include_restricted=true` — until the e-mail is verified.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>

describe("item 11: users restricted until their e-mail is verified", () => {
  it.effect("a project requiring verification restricts unverified users (email_not_verified) until the e-mail is verified", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const demo = emulator.demo
      const required = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/internal/config/override/environment",
        headers: adminHeaders(demo),
        body: { config_override_string: JSON.stringify({ "onboarding.requireEmailVerification": true }) }
      })
      expect(required.status).toBe(200)

      const tokens = yield* signUp(emulator, demo, "unverified@example.com")
      const claims = claimsOf(tokens.access_token)
      expect(claims).toMatchObject({ aud: `${demo.projectId}:restricted`, is_restricted: true, restricted_reason: { type: "email_not_verified" } })

      const refused = yield* send(emulator, { path: "/api/v1/users/me", headers: clientHeaders(demo, { "x-stack-access-token": tokens.access_token }) })
      expect(refused.status).toBe(403)
      expect(refused.headers.get("x-stack-known-error")).toBe("RESTRICTED_USER_NOT_ALLOWED")
      const allowed = yield* send(emulator, {
        path: "/api/v1/users/me",
        headers: clientHeaders(demo, { "x-stack-access-token": tokens.access_token, "x-stack-allow-restricted-user": "true" })
      })
      expect(allowed.json).toMatchObject({ is_restricted: true, restricted_reason: { type: "email_not_verified" } })

      const listed = yield* send(emulator, { path: "/api/v1/users", headers: serverHeaders(demo) })
      expect(listed.json.items).toEqual([])
      const withRestricted = yield* send(emulator, { path: "/api/v1/users?include_restricted=true", headers: serverHeaders(demo) })
      expect(withRestricted.json.items.map((user: { id: string }) => user.id)).toEqual([tokens.user_id])

      yield* send(emulator, { method: "PATCH", path: `/api/v1/users/${tokens.user_id}`, headers: serverHeaders(demo), body: { primary_email_verified: true } })
      const refreshed = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(demo, { "x-stack-refresh-token": tokens.refresh_token })
      })
      expect(claimsOf(refreshed.json.access_token)).toMatchObject({ aud: demo.projectId, is_restricted: false, restricted_reason: null })
    }))

  it.effect("without the requirement an unverified user is not restricted", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const tokens = yield* signUp(emulator, emulator.demo, "free@example.com")
      expect(claimsOf(tokens.access_token)).toMatchObject({ aud: emulator.demo.projectId, is_restricted: false })
    }))
})
