/**
 * The emulator's OAuth: authorize (both modes), the mock provider (consent page, auto-approve,
 * deny), the callback, the code grant (PKCE, one-time codes, redirect_uri), users created, found
 * and linked, connected accounts and `/oauth-providers`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"
import { authorize, defaultRedirectUri, exchange, localPath, pkce, runFlow } from "./oauthFlow.js"

const me = (emulator: Parameters<typeof send>[0], accessToken: string) =>
  send(emulator, {
    path: "/api/v1/users/me",
    headers: clientHeaders(emulator.demo, { "x-stack-access-token": accessToken })
  })

describe("emulator OAuth: authorize", () => {
  it.effect("JSON mode answers {location} of the mock provider, with the service's own PKCE and state", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* authorize(emulator, { project: emulator.demo, state: "app-state" })
      expect(answer.status).toBe(200)
      expect(answer.headers.get("set-cookie")).toBeNull()
      const location = new URL(answer.json.location)
      expect(location.pathname).toBe("/api/v1/emulator/oauth-provider/github/authorize")
      expect(location.searchParams.get("redirect_uri")).toBe("http://localhost:8102/api/v1/auth/oauth/callback/github")
      expect(location.searchParams.get("code_challenge_method")).toBe("S256")
      expect(location.searchParams.get("state")).not.toBe("app-state")
      expect(location.searchParams.get("state")).toHaveLength(43)
    }))

  it.effect("redirect mode is a 307 without body and sets the HttpOnly inner cookie for 600 s", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* authorize(emulator, { project: emulator.demo, mode: "redirect" })
      expect(answer.status).toBe(307)
      expect(answer.text).toBe("")
      const innerState = new URL(answer.headers.get("location")!).searchParams.get("state")
      const cookie = answer.headers.get("set-cookie")!
      expect(cookie).toContain(`stack-oauth-inner-${innerState}=true`)
      expect(cookie).toContain("Path=/")
      expect(cookie).toContain("Max-Age=600")
      expect(cookie).toContain("HttpOnly")
    }))

  it.effect("a missing code_challenge is a SCHEMA_ERROR naming it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* authorize(emulator, { project: emulator.demo, omit: ["code_challenge"] })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
      expect(answer.json.error).toBe(
        "Request validation failed on GET /api/v1/auth/oauth/authorize/github:\n  - query.code_challenge must be defined"
      )
    }))

  it.effect("a code_challenge_method other than S256 or plain is refused", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, {
        path: `/api/v1/auth/oauth/authorize/github?${
          new URLSearchParams({
            client_id: emulator.demo.projectId,
            client_secret: emulator.demo.publishableClientKey,
            redirect_uri: defaultRedirectUri,
            scope: "legacy",
            state: "s",
            grant_type: "authorization_code",
            code_challenge: "x",
            code_challenge_method: "S512",
            response_type: "code"
          }).toString()
        }`
      })
      expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))

  it.effect("an unknown provider is OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED; the demo enables github, google, microsoft", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      for (const provider of ["github", "google", "microsoft"]) {
        expect((yield* authorize(emulator, { project: emulator.demo, provider })).status).toBe(200)
      }
      const answer = yield* authorize(emulator, { project: emulator.demo, provider: "facebook" })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED")
    }))

  it.effect("untrusted after_callback_redirect_url is REDIRECT_URL_NOT_WHITELISTED at authorize, an untrusted redirect_uri at the callback; localhost and 127.0.0.1 are trusted", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const after = yield* authorize(emulator, { project: emulator.demo, afterCallbackRedirectUrl: "https://evil.example.com/after" })
      expect(after.status).toBe(400)
      expect(after.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED")
      // the service checks redirect_uri at the callback (conformanceOAuthRedirectUri.test.ts)
      expect((yield* authorize(emulator, { project: emulator.demo, redirectUri: "https://evil.example.com/cb" })).status).toBe(200)
      const local = yield* runFlow(emulator, { project: emulator.demo, redirectUri: "http://127.0.0.1:5173/cb", email: "local@example.com" })
      expect(local.location.origin).toBe("http://127.0.0.1:5173")
      expect(local.code).not.toBe("")
      const closed = yield* makeEmulator({ demo: { config: { allowLocalhost: false } } })
      const refused = yield* runFlow(closed, { project: closed.demo, email: "closed@example.com" })
      expect(refused.callback.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED")
    }))

  it.effect("client id and secret: unknown project, wrong key (401), sentinel when a key is required", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const unknown = yield* authorize(emulator, { project: { ...emulator.demo, projectId: "00000000-0000-4000-8000-000000000000" } })
      expect(unknown.headers.get("x-stack-known-error")).toBe("INVALID_OAUTH_CLIENT_ID_OR_SECRET")
      const wrong = yield* authorize(emulator, { project: emulator.demo, clientSecret: "pck_wrong" })
      expect(wrong.status).toBe(401)
      expect(wrong.headers.get("x-stack-known-error")).toBe("INVALID_PUBLISHABLE_CLIENT_KEY")
      const keyless = yield* authorize(emulator, { project: emulator.demo, clientSecret: "__stack_public_client__" })
      expect(keyless.status).toBe(200)
      const strict = yield* makeEmulator({ demo: { requiresPublishableClientKey: true } })
      const refused = yield* authorize(strict, { project: strict.demo, clientSecret: "__stack_public_client__" })
      expect(refused.headers.get("x-stack-known-error")).toBe("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT")
    }))

  it.effect("type=link without token is 400 text", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* authorize(emulator, { project: emulator.demo, type: "link" })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("content-type")).toContain("text/plain")
      expect(answer.text).toBe("?token= query parameter is required for link type")
    }))

  it.effect("extra provider scopes need the project's own keys", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { oauthProviders: [{ id: "github", provider: "github", type: "shared" }] } } })
      const answer = yield* authorize(emulator, { project: emulator.demo, providerScope: "repo" })
      expect(answer.headers.get("x-stack-known-error")).toBe("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS")
    }))
})

describe("emulator OAuth: mock provider and callback", () => {
  it.effect("the consent page is an HTML form with an e-mail field posting back; posting it approves", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const start = yield* authorize(emulator, { project: emulator.demo })
      const page = yield* send(emulator, { path: localPath(start.json.location) })
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toContain("text/html")
      expect(page.text).toContain("<form method=\"post\" action=\"/api/v1/emulator/oauth-provider/github/authorize\">")
      expect(page.text).toContain("type=\"email\" name=\"email\"")
      expect(page.text).toContain(">Authorize</button>")
      const form = new URLSearchParams(new URL(start.json.location).searchParams)
      form.set("email", "Form@Example.com")
      form.set("action", "authorize")
      const posted = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/emulator/oauth-provider/github/authorize",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        raw: form.toString()
      })
      expect(posted.status).toBe(303)
      const back = new URL(posted.headers.get("location")!)
      expect(back.pathname).toBe("/api/v1/auth/oauth/callback/github")
      expect(back.searchParams.get("code")).toHaveLength(43)
      const callback = yield* send(emulator, { path: localPath(back.href) })
      expect(callback.status).toBe(303)
      expect(callback.json).toEqual({})
      const final = new URL(callback.headers.get("location")!)
      expect(`${final.origin}${final.pathname}`).toBe(defaultRedirectUri)
      expect(final.searchParams.get("state")).toBe("app-state-1")
      expect(final.searchParams.get("code")).toMatch(/^[0-9a-f]{64}$/)
    }))

  it.effect("denying consent comes back as OAUTH_PROVIDER_ACCESS_DENIED on the redirect_uri", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const start = yield* authorize(emulator, { project: emulator.demo })
      const form = new URLSearchParams(new URL(start.json.location).searchParams)
      form.set("action", "deny")
      const denied = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/emulator/oauth-provider/github/authorize",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        raw: form.toString()
      })
      const callback = yield* send(emulator, { path: localPath(denied.headers.get("location")!) })
      const final = new URL(callback.headers.get("location")!)
      expect(final.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_ACCESS_DENIED")
      expect(final.searchParams.get("error")).toBe("server_error")
      expect(final.searchParams.get("message")).toBe("The OAuth provider denied access to the user.")
    }))

  it.effect("redirect mode: the callback needs the inner cookie (400 text), and the flow survives a failed attempt", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const start = yield* authorize(emulator, { project: emulator.demo, mode: "redirect" })
      const cookie = start.headers.get("set-cookie")!.split(";")[0]!
      const approved = yield* send(emulator, { path: `${localPath(start.headers.get("location")!)}&auto=1&email=r%40example.com` })
      const without = yield* send(emulator, { path: localPath(approved.headers.get("location")!) })
      expect(without.status).toBe(400)
      expect(without.text).toContain("Inner OAuth cookie not found.")
      const withCookie = yield* send(emulator, { path: localPath(approved.headers.get("location")!), headers: { cookie } })
      expect(withCookie.status).toBe(303)
    }))

  it.effect("a flow older than 10 minutes is OUTER_OAUTH_TIMEOUT", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const start = yield* authorize(emulator, { project: emulator.demo })
      const approved = yield* send(emulator, { path: `${localPath(start.json.location)}&auto=1&email=slow%40example.com` })
      yield* TestClock.adjust("11 minutes")
      const callback = yield* send(emulator, { path: localPath(approved.headers.get("location")!) })
      expect(callback.status).toBe(408)
      expect(callback.headers.get("x-stack-known-error")).toBe("OUTER_OAUTH_TIMEOUT")
    }))

  it.effect("sign-up disabled comes back as SIGN_UP_NOT_ENABLED on the redirect_uri", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { signUpEnabled: false } } })
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "new@example.com" })
      expect(flow.location.searchParams.get("errorCode")).toBe("SIGN_UP_NOT_ENABLED")
      expect(JSON.parse(flow.location.searchParams.get("details")!)).toEqual({})
    }))
})

describe("emulator OAuth: code grant", () => {
  it.effect("a new user: tokens, refresh token, is_new_user + deprecated duplicates; the OAuth user's shape", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const flow = yield* runFlow(emulator, {
        project: emulator.demo,
        email: "octo@example.com",
        afterCallbackRedirectUrl: "http://localhost:3000/dashboard"
      })
      const answer = yield* exchange(emulator, emulator.demo, flow)
      expect(answer.status).toBe(200)
      expect(answer.headers.get("cache-control")).toBe("no-store")
      expect(answer.headers.get("pragma")).toBe("no-cache")
      expect(answer.json).toMatchObject({
        token_type: "Bearer",
        scope: "legacy",
        is_new_user: true,
        newUser: true,
        after_callback_redirect_url: "http://localhost:3000/dashboard",
        afterCallbackRedirectUrl: "http://localhost:3000/dashboard"
      })
      expect(answer.json.refresh_token).toHaveLength(45)
      const user = yield* me(emulator, answer.json.access_token)
      expect(user.json).toMatchObject({
        primary_email: "octo@example.com",
        primary_email_verified: true,
        has_password: false,
        auth_with_email: false,
        oauth_providers: [{ id: "github", account_id: "octo@example.com", email: "octo@example.com" }]
      })
    }))

  it.effect("a wrong verifier is INVALID_AUTHORIZATION_CODE and does not consume the code; a second exchange fails", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "pkce@example.com" })
      const wrong = yield* exchange(emulator, emulator.demo, { code: flow.code, verifier: pkce().verifier })
      expect(wrong.status).toBe(400)
      expect(wrong.headers.get("x-stack-known-error")).toBe("INVALID_AUTHORIZATION_CODE")
      expect(wrong.json.error).toBe("The given authorization code is invalid.")
      expect((yield* exchange(emulator, emulator.demo, flow)).status).toBe(200)
      const reused = yield* exchange(emulator, emulator.demo, flow)
      expect(reused.status).toBe(400)
      expect(reused.headers.get("x-stack-known-error")).toBe("INVALID_AUTHORIZATION_CODE")
    }))

  it.effect("another redirect_uri is 400 text; an unknown or expired code is INVALID_AUTHORIZATION_CODE", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "uri@example.com" })
      const mismatch = yield* exchange(emulator, emulator.demo, { ...flow, redirectUri: "http://localhost:3000/other" })
      expect(mismatch.status).toBe(400)
      expect(mismatch.headers.get("x-stack-known-error")).toBeNull()
      expect(mismatch.text).toBe("Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.")
      const unknown = yield* exchange(emulator, emulator.demo, { code: "0".repeat(64), verifier: flow.verifier })
      expect(unknown.headers.get("x-stack-known-error")).toBe("INVALID_AUTHORIZATION_CODE")
      yield* TestClock.adjust("6 minutes")
      const expired = yield* exchange(emulator, emulator.demo, flow)
      expect(expired.headers.get("x-stack-known-error")).toBe("INVALID_AUTHORIZATION_CODE")
    }))

  it.effect("a returning user is found again (is_new_user false), in redirect mode too", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const first = yield* runFlow(emulator, { project: emulator.demo, email: "back@example.com" })
      const created = yield* exchange(emulator, emulator.demo, first)
      const again = yield* runFlow(emulator, { project: emulator.demo, email: "back@example.com", mode: "redirect" })
      const answer = yield* exchange(emulator, emulator.demo, again)
      expect(answer.json.is_new_user).toBe(false)
      expect(answer.json.after_callback_redirect_url).toBeNull()
      const createdUser = yield* me(emulator, created.json.access_token)
      const returning = yield* me(emulator, answer.json.access_token)
      expect(returning.json.id).toBe(createdUser.json.id)
    }))

  it.effect("link: the account joins the token's user; another user's account is refused", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const password = yield* signUp(emulator, emulator.demo, "linker@example.com")
      const flow = yield* runFlow(emulator, {
        project: emulator.demo,
        email: "gh-linker@example.com",
        type: "link",
        token: password.access_token
      })
      const answer = yield* exchange(emulator, emulator.demo, flow)
      expect(answer.json.is_new_user).toBe(false)
      const user = yield* me(emulator, answer.json.access_token)
      expect(user.json.id).toBe(password.user_id)
      expect(user.json).toMatchObject({ has_password: true, auth_with_email: true, primary_email: "linker@example.com" })
      expect(user.json.oauth_providers).toEqual([{ id: "github", account_id: "gh-linker@example.com", email: "gh-linker@example.com" }])

      const other = yield* signUp(emulator, emulator.demo, "other@example.com")
      const stolen = yield* runFlow(emulator, { project: emulator.demo, email: "gh-linker@example.com", type: "link", token: other.access_token })
      expect(stolen.location.searchParams.get("errorCode")).toBe("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER")
    }))

  it.effect("an e-mail that signs in a verified user joins that user; an unverified one is refused", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "unverified@example.com")
      const refused = yield* runFlow(emulator, { project: emulator.demo, email: "unverified@example.com" })
      expect(refused.location.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")
      expect(JSON.parse(refused.location.searchParams.get("details")!)).toMatchObject({ would_work_if_email_was_verified: true })

      const verified = yield* signUp(emulator, emulator.demo, "verified@example.com")
      yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: serverHeaders(emulator.demo, { "x-stack-access-token": verified.access_token }),
        body: { primary_email_verified: true }
      })
      const merged = yield* runFlow(emulator, { project: emulator.demo, email: "verified@example.com" })
      const answer = yield* exchange(emulator, emulator.demo, merged)
      expect(answer.json.is_new_user).toBe(false)
      expect((yield* me(emulator, answer.json.access_token)).json.id).toBe(verified.user_id)
    }))

  it.effect("an anonymous user's token upgrades that user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const anonymous = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "anon@example.com", token: anonymous.json.access_token })
      const answer = yield* exchange(emulator, emulator.demo, flow)
      expect(answer.json.is_new_user).toBe(true)
      const user = yield* me(emulator, answer.json.access_token)
      expect(user.json).toMatchObject({ id: anonymous.json.user_id, is_anonymous: false, primary_email: "anon@example.com" })
    }))

  it.effect("a TOTP user gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const first = yield* runFlow(emulator, { project: emulator.demo, email: "mfa@example.com" })
      const tokens = yield* exchange(emulator, emulator.demo, first)
      yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.json.access_token }),
        body: { totp_secret_base64: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=" }
      })
      const again = yield* runFlow(emulator, { project: emulator.demo, email: "mfa@example.com" })
      const answer = yield* exchange(emulator, emulator.demo, again)
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED")
      expect(answer.json.details.attempt_code).toHaveLength(45)
    }))
})

describe("emulator OAuth: connected accounts", () => {
  it.effect("list, provider access tokens (scopes granted at authorize), per account, unknown provider, not connected", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "ca@example.com", providerScope: "repo" })
      const tokens = yield* exchange(emulator, emulator.demo, flow)
      const headers = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.json.access_token })
      const list = yield* send(emulator, { path: "/api/v1/connected-accounts/me", headers })
      expect(list.json).toEqual({
        items: [{ user_id: expect.any(String), provider: "github", provider_account_id: "ca@example.com" }],
        is_paginated: false
      })
      const post = (path: string, body: unknown) => send(emulator, { method: "POST", path, headers, body })
      const token = yield* post("/api/v1/connected-accounts/me/github/access-token", { scope: "repo user:email" })
      expect(token.status).toBe(201)
      expect(token.json.access_token).toHaveLength(43)
      const byAccount = yield* post("/api/v1/connected-accounts/me/github/ca%40example.com/access-token", {})
      expect(byAccount.status).toBe(201)
      const missingScope = yield* post("/api/v1/connected-accounts/me/github/access-token", { scope: "admin:org" })
      expect(missingScope.headers.get("x-stack-known-error")).toBe("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE")
      const notConnected = yield* post("/api/v1/connected-accounts/me/google/access-token", {})
      expect(notConnected.headers.get("x-stack-known-error")).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER")
      const unknownAccount = yield* post("/api/v1/connected-accounts/me/github/nobody%40example.com/access-token", {})
      expect(unknownAccount.headers.get("x-stack-known-error")).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER")
      const disabled = yield* post("/api/v1/connected-accounts/me/facebook/access-token", {})
      expect(disabled.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED")
    }))

  it.effect("shared keys: provider access tokens are refused as by a production service", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { oauthProviders: [{ id: "github", provider: "github", type: "shared" }] } } })
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "shared@example.com" })
      const tokens = yield* exchange(emulator, emulator.demo, flow)
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/connected-accounts/me/github/access-token",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.json.access_token }),
        body: {}
      })
      expect(answer.headers.get("x-stack-known-error")).toBe("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS")
    }))

  it.effect("/oauth-providers?user_id=me lists connections (uuid id, type = provider); server access adds account_id", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: "op@example.com" })
      const tokens = yield* exchange(emulator, emulator.demo, flow)
      const client = yield* send(emulator, {
        path: "/api/v1/oauth-providers?user_id=me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.json.access_token })
      })
      expect(client.json.is_paginated).toBe(false)
      expect(client.json.items).toEqual([
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          user_id: expect.any(String),
          type: "github",
          provider_config_id: "github",
          email: "op@example.com",
          allow_sign_in: true,
          allow_connected_accounts: true
        }
      ])
      const userId = client.json.items[0].user_id as string
      const server = yield* send(emulator, { path: `/api/v1/oauth-providers?user_id=${userId}`, headers: serverHeaders(emulator.demo) })
      expect(server.json.items[0].account_id).toBe("op@example.com")
      const foreign = yield* send(emulator, {
        path: `/api/v1/oauth-providers?user_id=${userId}`,
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": (yield* signUp(emulator, emulator.demo, "x@example.com")).access_token })
      })
      expect(foreign.status).toBe(403)
    }))
})
