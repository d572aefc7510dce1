import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as jose from "jose"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const password = "Sup3r-secret-pw!"

describe("password sign-up and sign-in (PROTOCOL.md §3.1)", () => {
  it.effect("sign-up → me → patch → sign-out → refresh fails", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "flow@example.com", password)
      expect(Object.keys(tokens).sort()).toEqual(["access_token", "refresh_token", "user_id"])
      const auth = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })

      const me = yield* send(emulator, { path: "/api/v1/users/me", headers: auth })
      expect(me.status).toBe(200)
      expect(me.json).toMatchObject({
        id: tokens.user_id,
        primary_email: "flow@example.com",
        primary_email_verified: false,
        has_password: true,
        auth_with_email: true,
        display_name: null,
        selected_team: null,
        oauth_providers: []
      })
      expect(me.json).not.toHaveProperty("server_metadata")

      const patched = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: auth,
        body: { display_name: "Flow", client_metadata: { theme: "dark" }, selected_team_id: null, otp_auth_enabled: true }
      })
      expect(patched.status).toBe(200)
      expect(patched.json).toMatchObject({ display_name: "Flow", client_metadata: { theme: "dark" }, otp_auth_enabled: true })

      const server = yield* send(emulator, { path: "/api/v1/users/me", headers: serverHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }) })
      expect(server.json).toMatchObject({
        display_name: "Flow",
        primary_email_auth_enabled: true,
        server_metadata: null,
        risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } }
      })

      const signOut = yield* send(emulator, { method: "DELETE", path: "/api/v1/auth/sessions/current", headers: auth, body: {} })
      expect(signOut.status).toBe(200)
      expect(signOut.json).toEqual({ success: true })
      const again = yield* send(emulator, { method: "DELETE", path: "/api/v1/auth/sessions/current", headers: auth })
      expect(again.status).toBe(401)
      expect(again.json.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")

      const refresh = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/oauth/token",
        headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
        raw: new URLSearchParams({
          refresh_token: tokens.refresh_token,
          grant_type: "refresh_token",
          client_id: emulator.demo.projectId,
          client_secret: emulator.demo.publishableClientKey
        }).toString()
      })
      expect(refresh.status).toBe(401)
      expect(refresh.json.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")
    }))

  it.effect("sign-in: right password → tokens of the same user; wrong password or unknown e-mail → EMAIL_PASSWORD_MISMATCH", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const created = yield* signUp(emulator, emulator.demo, "signin@example.com", password)
      const signIn = (email: string, pw: string) =>
        send(emulator, { method: "POST", path: "/api/v1/auth/password/sign-in", headers: clientHeaders(emulator.demo), body: { email, password: pw } })
      const ok = yield* signIn("signin@example.com", password)
      expect(ok.status).toBe(200)
      expect(ok.json.user_id).toBe(created.user_id)
      expect(ok.json.refresh_token).not.toBe(created.refresh_token)
      for (
        const [email, pw] of [
          ["signin@example.com", "Wrong-password-1!"],
          ["nobody@example.com", password]
        ] as const
      ) {
        const wrong = yield* signIn(email, pw)
        expect(wrong.status).toBe(400)
        expect(wrong.json).toEqual({ code: "EMAIL_PASSWORD_MISMATCH", error: "Wrong e-mail or password." })
      }
    }))

  it.effect("sign-up rules: password 8–70 characters, e-mail unique, switches, trusted callback URLs", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const signUpAnswer = (body: Record<string, unknown>, credentials = emulator.demo) =>
        send(emulator, { method: "POST", path: "/api/v1/auth/password/sign-up", headers: clientHeaders(credentials), body })
      const short = yield* signUpAnswer({ email: "a@example.com", password: "short" })
      expect(short.json).toEqual({ code: "PASSWORD_TOO_SHORT", details: { min_length: 8 }, error: "Password too short. Minimum length is 8." })
      const long = yield* signUpAnswer({ email: "a@example.com", password: "x".repeat(71) })
      expect(long.json).toEqual({ code: "PASSWORD_TOO_LONG", details: { maxLength: 70 }, error: "Password too long. Maximum length is 70." })
      yield* signUp(emulator, emulator.demo, "taken@example.com")
      const taken = yield* signUpAnswer({ email: "taken@example.com", password })
      expect(taken.status).toBe(409)
      expect(taken.json).toEqual({
        code: "USER_EMAIL_ALREADY_EXISTS",
        details: { email: "taken@example.com", would_work_if_email_was_verified: false },
        error: "A user with email \"taken@example.com\" already exists."
      })
      const untrusted = yield* signUpAnswer({ email: "b@example.com", password, verification_callback_url: "https://evil.example.com/verify" })
      expect(untrusted.json.code).toBe("REDIRECT_URL_NOT_WHITELISTED")

      const closed = yield* emulator
        .createProject({ config: { signUpEnabled: false, allowLocalhost: false, domains: [{ domain: "https://*.example.com", handlerPath: "/handler" }] } })
        .pipe(Effect.orDie)
      const notEnabled = yield* signUpAnswer({ email: "c@example.com", password }, closed)
      expect(notEnabled.json.code).toBe("SIGN_UP_NOT_ENABLED")
      const localhost = yield* signUpAnswer({ email: "c@example.com", password, verification_callback_url: "http://localhost:3000/v" }, closed)
      expect(localhost.json.code).toBe("REDIRECT_URL_NOT_WHITELISTED")
      const trustedDomain = yield* signUpAnswer({ email: "c@example.com", password, verification_callback_url: "https://app.example.com/v" }, closed)
      expect(trustedDomain.json.code).toBe("SIGN_UP_NOT_ENABLED")

      const noPasswords = yield* emulator.createProject({ config: { credentialEnabled: false } }).pipe(Effect.orDie)
      const disabled = yield* signUpAnswer({ email: "d@example.com", password }, noPasswords)
      expect(disabled.json.code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED")
      const disabledSignIn = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(noPasswords),
        body: { email: "d@example.com", password }
      })
      expect(disabledSignIn.json.code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED")
    }))

  it.effect("sign-up with a callback URL sends a verification e-mail to the outbox (code + link)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "verify@example.com", password, {
        verification_callback_url: "http://localhost:3000/handler/email-verification?after_auth_return_to=%2F"
      })
      yield* signUp(emulator, emulator.demo, "silent@example.com", password)
      const entries = emulator.outbox({ email: "verify@example.com" })
      expect(entries).toHaveLength(1)
      const entry = entries[0]!
      expect(entry.code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/)
      expect(entry.link).toBe(`http://localhost:3000/handler/email-verification?after_auth_return_to=%2F&code=${entry.code}`)
      expect(entry.text).toContain(entry.link)
      expect(entry.projectId).toBe(emulator.demo.projectId)
      expect(emulator.outbox({ email: "silent@example.com" })).toHaveLength(0)

      const listed = yield* send(emulator, { path: `/api/v1/emulator/outbox?email=verify%40example.com&project_id=${emulator.demo.projectId}` })
      expect(listed.json).toEqual({
        items: [{ id: entry.id, to: "verify@example.com", subject: entry.subject, code: entry.code, link: entry.link, sent_at_millis: entry.sentAtMillis }]
      })
    }))

  it.effect("passwords are stored only as salted PBKDF2 hashes", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "one@example.com", password)
      yield* signUp(emulator, emulator.demo, "two@example.com", password)
      const users = [...emulator.state.projects.get(emulator.demo.projectId)!.users.values()]
      const hashes = users.map((user) => user.passwordHash!)
      for (const hash of hashes) {
        expect(hash).toMatch(/^pbkdf2-sha256\$1000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
        expect(hash).not.toContain(password)
      }
      expect(hashes[0]).not.toBe(hashes[1])
      expect(JSON.stringify([...emulator.state.projects.values()].map((p) => [...p.users.values()]))).not.toContain(password)
    }))

  it.effect("an anonymous user who signs up is upgraded in place (same id)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const anonymous = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      const upgraded = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-up",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": anonymous.json.access_token, "x-stack-allow-anonymous-user": "true" }),
        body: { email: "upgraded@example.com", password }
      })
      expect(upgraded.status).toBe(200)
      expect(upgraded.json.user_id).toBe(anonymous.json.user_id)
      expect(jose.decodeJwt(upgraded.json.access_token)).toMatchObject({ is_anonymous: false, email: "upgraded@example.com" })
      expect(emulator.state.projects.get(emulator.demo.projectId)!.users.size).toBe(1)
    }))

  it.effect("PATCH /users/me (client): profile images must be base64 images, a foreign team is refused", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "image@example.com")
      const headers = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      const url = yield* send(emulator, { method: "PATCH", path: "/api/v1/users/me", headers, body: { profile_image_url: "https://example.com/a.png" } })
      expect(url.status).toBe(400)
      expect(url.headers.get("content-type")).toBe("text/plain; charset=utf-8")
      expect(url.text).toBe("Invalid profile image URL")
      const image = "data:image/png;base64,iVBORw0KGgo="
      const ok = yield* send(emulator, { method: "PATCH", path: "/api/v1/users/me", headers, body: { profile_image_url: image } })
      expect(ok.json.profile_image_url).toBe(image)
      const cleared = yield* send(emulator, { method: "PATCH", path: "/api/v1/users/me", headers, body: { profile_image_url: null } })
      expect(cleared.json.profile_image_url).toBeNull()
      const team = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers,
        body: { selected_team_id: "00000000-0000-4000-8000-000000000000" }
      })
      expect(team.json.code).toBe("TEAM_MEMBERSHIP_NOT_FOUND")
    }))

  it.effect("a user with TOTP gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "mfa@example.com", password)
      const headers = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      const enabled = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers,
        body: { totp_secret_base64: "AAECAwQFBgcICQoLDA0ODxAREhM=" }
      })
      expect(enabled.json.requires_totp_mfa).toBe(true)
      const signIn = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(emulator.demo),
        body: { email: "mfa@example.com", password }
      })
      expect(signIn.json.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED")
      expect(signIn.json.details.attempt_code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/)
    }))
})

describe("refresh (PROTOCOL.md §2.1, §2.2)", () => {
  it.effect("the token endpoint refreshes from a form or JSON body, never returns a refresh token, sends no-store", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "refresh@example.com")
      const grant = {
        refresh_token: tokens.refresh_token,
        grant_type: "refresh_token",
        client_id: emulator.demo.projectId,
        client_secret: emulator.demo.publishableClientKey,
        extra_key: "tolerated"
      }
      const form = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/oauth/token",
        headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
        raw: new URLSearchParams(grant).toString()
      })
      expect(form.status).toBe(200)
      expect(form.json).toEqual({
        access_token: expect.any(String),
        token_type: "Bearer",
        expires_in: 3600,
        scope: "legacy",
        after_callback_redirect_url: null,
        afterCallbackRedirectUrl: null
      })
      expect(form.headers.get("cache-control")).toBe("no-store")
      expect(form.headers.get("pragma")).toBe("no-cache")
      expect(jose.decodeJwt(form.json.access_token).sub).toBe(tokens.user_id)
      const json = yield* send(emulator, { method: "POST", path: "/api/v1/auth/oauth/token", body: grant })
      expect(json.status).toBe(200)
    }))

  it.effect("client rules: sentinel only for keyless projects, wrong secret or unknown client → INVALID_OAUTH_CLIENT_ID_OR_SECRET", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const strict = yield* emulator.createProject({ requiresPublishableClientKey: true }).pipe(Effect.orDie)
      const demoTokens = yield* signUp(emulator, emulator.demo, "sentinel@example.com")
      const strictTokens = yield* signUp(emulator, strict, "strict@example.com")
      const token = (body: Record<string, string>) =>
        send(emulator, { method: "POST", path: "/api/v1/auth/oauth/token", body: { grant_type: "refresh_token", ...body } })
      const sentinel = yield* token({ refresh_token: demoTokens.refresh_token, client_id: emulator.demo.projectId, client_secret: "__stack_public_client__" })
      expect(sentinel.status).toBe(200)
      const branch = yield* token({
        refresh_token: demoTokens.refresh_token,
        client_id: `${emulator.demo.projectId}#main`,
        client_secret: "__stack_public_client__"
      })
      expect(branch.status).toBe(200)
      const required = yield* token({ refresh_token: strictTokens.refresh_token, client_id: strict.projectId, client_secret: "__stack_public_client__" })
      expect([required.status, required.json.code]).toEqual([401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"])
      const omitted = yield* token({ refresh_token: strictTokens.refresh_token, client_id: strict.projectId })
      expect([omitted.status, omitted.json.code]).toEqual([401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT"])
      const wrong = yield* token({ refresh_token: strictTokens.refresh_token, client_id: strict.projectId, client_secret: "pck_wrong" })
      expect([wrong.status, wrong.json.code, wrong.json.details]).toEqual([400, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: strict.projectId }])
      const unknown = yield* token({ refresh_token: "x", client_id: "00000000-0000-4000-8000-000000000000", client_secret: "pck_x" })
      expect(unknown.json.code).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET")
      const otherProject = yield* token({ refresh_token: demoTokens.refresh_token, client_id: strict.projectId, client_secret: strict.publishableClientKey })
      expect(otherProject.json.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")
      const scope = yield* token({
        refresh_token: demoTokens.refresh_token,
        client_id: emulator.demo.projectId,
        client_secret: emulator.demo.publishableClientKey,
        scope: "openid"
      })
      expect(scope.json.code).toBe("INVALID_SCOPE")
      const grant = yield* send(emulator, { method: "POST", path: "/api/v1/auth/oauth/token", body: { grant_type: "password" } })
      expect(grant.json.code).toBe("SCHEMA_ERROR")
      const missing = yield* token({ client_id: emulator.demo.projectId, client_secret: emulator.demo.publishableClientKey })
      expect([missing.status, missing.headers.get("x-stack-known-error"), missing.json.error]).toEqual([400, null, "invalid_request"])
    }))

  it.effect("POST /auth/sessions/current/refresh answers {access_token} for the refresh-token header", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "current@example.com")
      const ok = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(emulator.demo, { "x-stack-refresh-token": tokens.refresh_token })
      })
      expect(Object.keys(ok.json)).toEqual(["access_token"])
      const bad = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(emulator.demo, { "x-stack-refresh-token": "nope" })
      })
      expect([bad.status, bad.json.code]).toEqual([401, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"])
    }))
})

describe("users (server reads)", () => {
  it.effect("GET /users paginates by signed_up_at with next_cursor; search and desc work", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      for (const name of ["a", "b", "c"]) yield* signUp(emulator, emulator.demo, `${name}@example.com`)
      yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      const page1 = yield* send(emulator, { path: "/api/v1/users?limit=2", headers: serverHeaders(emulator.demo) })
      expect(page1.json.items).toHaveLength(2)
      expect(page1.json.is_paginated).toBe(true)
      const cursor = page1.json.pagination.next_cursor as string
      const page2 = yield* send(emulator, { path: `/api/v1/users?limit=2&cursor=${cursor}`, headers: serverHeaders(emulator.demo) })
      expect(page2.json.items.map((u: any) => u.id)).toEqual([cursor])
      expect(page2.json.pagination.next_cursor).toBeNull()
      const search = yield* send(emulator, { path: "/api/v1/users?query=b%40example&desc=true", headers: serverHeaders(emulator.demo) })
      expect(search.json.items.map((u: any) => u.primary_email)).toEqual(["b@example.com"])
      const withAnonymous = yield* send(emulator, { path: "/api/v1/users?include_anonymous=true", headers: serverHeaders(emulator.demo) })
      expect(withAnonymous.json.items).toHaveLength(4)
    }))
})
