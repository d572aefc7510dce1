/**
 * Issue 16 item 11: `POST /auth/oauth/cross-domain/authorize` answers as the service does (backend
 * `apps/backend/src/app/api/latest/auth/oauth/cross-domain/authorize/route.tsx`, the OAuth model's
 * `grantedRefreshTokenId` in `apps/backend/src/oauth/model.tsx`, and the service's own end-to-end
 * expectations for this route): a one-time code for `redirect_uri` with the app's state, exchanged
 * with PKCE for the SAME refresh token; each refusal with its code or text.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, signUp } from "./helpers.js"
import { exchange } from "./oauthFlow.js"

// an RFC 7636 pair (the verifier's S256 challenge)
const verifier = "W2LPAD4M4ES-3wBjzU6J5ApykmuxQy5VTs3oSmtboDM"
const challenge = "xf6HY7PIgoaCf_eMniSt-45brYE2J_05C9BnfIbueik"
const redirectUri = "http://localhost:3001/handler/oauth-callback"
const afterCallback = "http://localhost:3001/after-sign-in"

const body = (overrides: Record<string, unknown> = {}) => ({
  redirect_uri: redirectUri,
  state: "cross-domain-state",
  code_challenge: challenge,
  code_challenge_method: "S256",
  after_callback_redirect_url: afterCallback,
  ...overrides
})

describe("item 11: POST /auth/oauth/cross-domain/authorize", () => {
  it.effect("answers redirect_uri with a one-time code and the state; the PKCE exchange gives the same refresh token and the after-callback URL; a second exchange or a wrong verifier is INVALID_AUTHORIZATION_CODE", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const tokens = yield* signUp(emulator, demo, "cross-domain@example.com")
      const headers = clientHeaders(demo, { "x-stack-access-token": tokens.access_token, "x-stack-refresh-token": tokens.refresh_token })
      const answer = yield* send(emulator, { method: "POST", path: "/api/v1/auth/oauth/cross-domain/authorize", headers, body: body() })
      expect(answer.status).toBe(200)
      expect(Object.keys(answer.json)).toEqual(["redirect_url"])
      const target = new URL(answer.json.redirect_url)
      expect(`${target.origin}${target.pathname}`).toBe(redirectUri)
      expect(target.searchParams.get("state")).toBe("cross-domain-state")
      const code = target.searchParams.get("code") ?? ""

      const wrongVerifier = yield* exchange(emulator, demo, { code, verifier: "this-is-an-invalid-pkce-verifier", redirectUri })
      expect(wrongVerifier.status).toBe(400)
      expect(wrongVerifier.json).toEqual({ code: "INVALID_AUTHORIZATION_CODE", error: "The given authorization code is invalid." })

      const exchanged = yield* exchange(emulator, demo, { code, verifier, redirectUri })
      expect(exchanged.status).toBe(200)
      expect(exchanged.json).toMatchObject({
        refresh_token: tokens.refresh_token,
        after_callback_redirect_url: afterCallback,
        afterCallbackRedirectUrl: afterCallback,
        is_new_user: false
      })
      expect(typeof exchanged.json.access_token).toBe("string")

      const again = yield* exchange(emulator, demo, { code, verifier, redirectUri })
      expect(again.status).toBe(400)
      expect(again.headers.get("x-stack-known-error")).toBe("INVALID_AUTHORIZATION_CODE")
    }))

  it.effect("refusals: untrusted redirect_uri or after-callback URL, no user, no refresh token, another session's refresh token, a refresh token alone", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const ada = yield* signUp(emulator, demo, "ada.cross@example.com")
      const bob = yield* signUp(emulator, demo, "bob.cross@example.com")
      const asAda = clientHeaders(demo, { "x-stack-access-token": ada.access_token, "x-stack-refresh-token": ada.refresh_token })
      const post = (headers: Record<string, string>, overrides: Record<string, unknown> = {}) =>
        send(emulator, { method: "POST", path: "/api/v1/auth/oauth/cross-domain/authorize", headers, body: body(overrides) })
      const notWhitelisted = {
        code: "REDIRECT_URL_NOT_WHITELISTED",
        error: "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?"
      }

      const evilRedirect = yield* post(asAda, { redirect_uri: "https://evil.example.com/oauth/callback" })
      expect(evilRedirect.status).toBe(400)
      expect(evilRedirect.json).toEqual(notWhitelisted)
      const evilAfter = yield* post(asAda, { after_callback_redirect_url: "https://evil.example.com/post-auth" })
      expect(evilAfter.status).toBe(400)
      expect(evilAfter.json).toEqual(notWhitelisted)

      const noUser = yield* post(clientHeaders(demo))
      expect(noUser.status).toBe(401)
      expect(noUser.headers.get("x-stack-known-error")).toBe("USER_AUTHENTICATION_REQUIRED")

      const noRefresh = yield* post(clientHeaders(demo, { "x-stack-access-token": ada.access_token }))
      expect(noRefresh.status).toBe(400)
      expect(noRefresh.text).toBe("Cross-domain auth handoff requires passing the current refresh token.")

      for (const refreshToken of ["this-refresh-token-does-not-match-the-current-session", bob.refresh_token]) {
        const mismatch = yield* post(clientHeaders(demo, { "x-stack-access-token": ada.access_token, "x-stack-refresh-token": refreshToken }))
        expect(mismatch.status).toBe(401)
        expect(mismatch.text).toBe("Cross-domain auth handoff refresh token does not match the authenticated session.")
      }

      const refreshOnly = yield* post(clientHeaders(demo, { "x-stack-refresh-token": ada.refresh_token }))
      expect(refreshOnly.status).toBe(401)
      expect(refreshOnly.headers.get("x-stack-known-error")).toBe("USER_AUTHENTICATION_REQUIRED")

      const badChallenge = yield* post(asAda, { code_challenge: "short" })
      expect(badChallenge.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))
})
