import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as jose from "jose"
import { clientHeaders, makeEmulator, origin, send, signUp } from "./helpers.js"

const me = "/api/v1/users/me"

describe("access tokens (PROTOCOL.md §2.3) and JWKS (§2.4)", () => {
  it.effect("carry exactly the service's claims, header {alg: ES256, kid (12 chars)}", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_795_317_595_345)
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "claims@example.com")
      const header = jose.decodeProtectedHeader(tokens.access_token)
      expect(Object.keys(header).sort()).toEqual(["alg", "kid"])
      expect(header.alg).toBe("ES256")
      expect(header.kid).toMatch(/^[A-Za-z0-9_-]{12}$/)
      const claims = jose.decodeJwt(tokens.access_token)
      const session = [...emulator.state.projects.get(emulator.demo.projectId)!.sessions.values()][0]!
      expect(claims).toEqual({
        sub: tokens.user_id,
        project_id: emulator.demo.projectId,
        branch_id: "main",
        refresh_token_id: session.id,
        role: "authenticated",
        name: null,
        email: "claims@example.com",
        email_verified: false,
        selected_team_id: null,
        signed_up_at: 1_795_317_595,
        is_anonymous: false,
        is_restricted: false,
        restricted_reason: null,
        requires_totp_mfa: false,
        iss: `${origin}/api/v1/projects/${emulator.demo.projectId}`,
        iat: 1_795_317_595,
        aud: emulator.demo.projectId,
        exp: 1_795_317_595 + 600
      })
      expect(session.refreshToken).toBe(tokens.refresh_token)
      expect(tokens.refresh_token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/)
    }))

  it.effect("anonymous users get the anonymous issuer and audience", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ baseUrl: "https://auth.example.com/" })
      const answer = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      const claims = jose.decodeJwt(answer.json.access_token)
      expect(claims).toMatchObject({
        iss: `https://auth.example.com/api/v1/projects-anonymous-users/${emulator.demo.projectId}`,
        aud: `${emulator.demo.projectId}:anon`,
        is_anonymous: true,
        is_restricted: true,
        restricted_reason: { type: "anonymous" },
        email: null
      })
    }))

  it.effect("the project's JWKS verifies its tokens; include_anonymous adds the restricted and anonymous keys", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "jwks@example.com")
      const anonymous = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      const jwksPath = `/api/v1/projects/${emulator.demo.projectId}/.well-known/jwks.json`
      const normal = yield* send(emulator, { path: jwksPath })
      expect(normal.status).toBe(200)
      expect(normal.headers.get("cache-control")).toBe("public, max-age=3600")
      expect(normal.json.keys).toHaveLength(2)
      for (const key of normal.json.keys) expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"])
      const restricted = yield* send(emulator, { path: `${jwksPath}?include_restricted=true` })
      expect(restricted.json.keys).toHaveLength(4)
      const all = yield* send(emulator, { path: `${jwksPath}?include_anonymous=true` })
      expect(all.json.keys).toHaveLength(6)

      const verified = yield* Effect.promise(() =>
        jose.jwtVerify(tokens.access_token, jose.createLocalJWKSet(normal.json), { currentDate: new Date(0), audience: emulator.demo.projectId })
      )
      expect(verified.payload.sub).toBe(tokens.user_id)
      const anonymousRejected = yield* Effect.promise(() =>
        jose.jwtVerify(anonymous.json.access_token, jose.createLocalJWKSet(normal.json), { currentDate: new Date(0) }).then(
          () => "verified",
          () => "rejected"
        )
      )
      expect(anonymousRejected).toBe("rejected")
      const anonymousVerified = yield* Effect.promise(() =>
        jose.jwtVerify(anonymous.json.access_token, jose.createLocalJWKSet(all.json), { currentDate: new Date(0) })
      )
      expect(anonymousVerified.payload.is_anonymous).toBe(true)
    }))

  it.effect("JWKS: unknown project → 404 text, bad query → SCHEMA_ERROR, the anonymous issuer path → 307", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const unknown = yield* send(emulator, { path: "/api/v1/projects/00000000-0000-4000-8000-000000000000/.well-known/jwks.json" })
      expect(unknown.status).toBe(404)
      expect(unknown.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(unknown.text).toBe("Project not found")
      const bad = yield* send(emulator, { path: `/api/v1/projects/${emulator.demo.projectId}/.well-known/jwks.json?include_anonymous=yes` })
      expect(bad.json.code).toBe("SCHEMA_ERROR")
      const alias = yield* send(emulator, { path: `/api/v1/projects-anonymous-users/${emulator.demo.projectId}/.well-known/jwks.json` })
      expect(alias.status).toBe(307)
      expect(alias.headers.get("location")).toBe(
        `${origin}/api/v1/projects/${emulator.demo.projectId}/.well-known/jwks.json?include_anonymous=true`
      )
    }))

  it.effect("an access token past its lifetime → 401 ACCESS_TOKEN_EXPIRED with its ids; a refresh gives a fresh one", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ accessTokenLifetimeSeconds: 60 })
      const tokens = yield* signUp(emulator, emulator.demo, "expiry@example.com")
      const headers = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      const fresh = yield* send(emulator, { path: me, headers })
      expect(fresh.status).toBe(200)
      yield* TestClock.adjust("59 seconds")
      expect((yield* send(emulator, { path: me, headers })).status).toBe(200)
      yield* TestClock.adjust("1 second")
      const expired = yield* send(emulator, { path: me, headers })
      expect(expired.status).toBe(401)
      expect(expired.headers.get("x-stack-known-error")).toBe("ACCESS_TOKEN_EXPIRED")
      const claims = jose.decodeJwt(tokens.access_token)
      expect(expired.json.details).toEqual({
        expired_at_millis: 60_000,
        project_id: emulator.demo.projectId,
        user_id: tokens.user_id,
        refresh_token_id: claims.refresh_token_id
      })
      expect(expired.json.error).toContain("Access token has expired. Please refresh it and try again. (The access token expired at 1970-01-01T00:01:00.000Z.)")
      const refreshed = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(emulator.demo, { "x-stack-refresh-token": tokens.refresh_token })
      })
      const again = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo, { "x-stack-access-token": refreshed.json.access_token }) })
      expect(again.status).toBe(200)
      expect(jose.decodeJwt(refreshed.json.access_token).iat).toBe(60)
    }))

  it.effect("a token signed by a key the project does not have is unparsable", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const other = yield* makeEmulator()
      const tokens = yield* signUp(other, other.demo, "forged@example.com")
      const answer = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }) })
      expect(answer.json.code).toBe("UNPARSABLE_ACCESS_TOKEN")
    }))
})
