/**
 * Where the service checks the OAuth flow's `redirect_uri` (issue 27, item 2), read from the
 * backend's source at stack-auth/stack-auth commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 *
 * - `apps/backend/src/app/api/latest/auth/oauth/authorize/[provider_id]/route.tsx`: the authorize
 *   request checks only `after_callback_redirect_url` (`validateRedirectUrl` →
 *   `RedirectUrlNotWhitelisted`); `redirect_uri` and `error_redirect_uri` are stored as they are and
 *   the answer is the redirect to the provider (307, or `{location}` in JSON mode).
 * - `apps/backend/src/app/api/latest/auth/oauth/callback/[provider_id]/route.tsx`: after the
 *   provider's code is exchanged, the outer request goes to the OAuth server, whose client check
 *   (`OAuthModel.validateRedirectUri`, `apps/backend/src/oauth/model.tsx`) refuses the untrusted
 *   `redirect_uri` before the user is resolved (`InvalidClientError` →
 *   `KnownErrors.RedirectUrlNotWhitelisted`); `redirectOrThrowError` then sends the browser to
 *   `redirect_uri` if trusted, else to the error redirect URL if trusted, else throws the error.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { makeEmulator, send, serverHeaders } from "./helpers.js"
import { authorize, runFlow } from "./oauthFlow.js"

const untrusted = "https://evil.example.com/handler/oauth-callback"

const userCount = (emulator: Emulator.Emulator) =>
  send(emulator, { path: "/api/v1/users", headers: serverHeaders(emulator.demo) }).pipe(Effect.map((answer) => answer.json.items.length as number))

describe("OAuth authorize with an untrusted redirect_uri (authorize/[provider_id]/route.tsx)", () => {
  it.effect("is answered with the redirect to the provider: 307 in redirect mode, 200 {location} in JSON mode", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const redirectMode = yield* authorize(emulator, { project: emulator.demo, redirectUri: untrusted, mode: "redirect" })
      expect(redirectMode.status).toBe(307)
      expect(redirectMode.headers.get("location")).toContain("/emulator/oauth-provider/github/authorize")
      const jsonMode = yield* authorize(emulator, { project: emulator.demo, redirectUri: untrusted, mode: "json" })
      expect(jsonMode.status).toBe(200)
      expect(typeof jsonMode.json.location).toBe("string")
    }))

  it.effect("an untrusted after_callback_redirect_url is still REDIRECT_URL_NOT_WHITELISTED at authorize", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* authorize(emulator, { project: emulator.demo, afterCallbackRedirectUrl: "https://evil.example.com/after" })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED")
    }))
})

describe("the callback refuses it (callback/[provider_id]/route.tsx, oauth/model.tsx validateRedirectUri)", () => {
  it.effect("with a trusted error redirect URL: redirected there with errorCode REDIRECT_URL_NOT_WHITELISTED, no code, no user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const before = yield* userCount(emulator)
      // runFlow's error_redirect_url is http://localhost:3000/handler/error (trusted: allow_localhost)
      const flow = yield* runFlow(emulator, { project: emulator.demo, redirectUri: untrusted, email: "mallory@example.com" })
      expect(flow.callback.status).toBe(303)
      expect(`${flow.location.origin}${flow.location.pathname}`).toBe("http://localhost:3000/handler/error")
      expect(flow.location.searchParams.get("errorCode")).toBe("REDIRECT_URL_NOT_WHITELISTED")
      expect(flow.location.searchParams.get("error")).toBe("server_error")
      expect(flow.location.searchParams.get("code")).toBeNull()
      expect(yield* userCount(emulator)).toBe(before)
    }))

  it.effect("with no trusted URL to redirect to: the callback answers 400 REDIRECT_URL_NOT_WHITELISTED, no user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { allowLocalhost: false } } })
      const before = yield* userCount(emulator)
      const flow = yield* runFlow(emulator, { project: emulator.demo, redirectUri: untrusted, email: "mallory@example.com" })
      expect(flow.callback.status).toBe(400)
      expect(flow.callback.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED")
      expect(flow.callback.json.code).toBe("REDIRECT_URL_NOT_WHITELISTED")
      expect(yield* userCount(emulator)).toBe(before)
    }))
})
