/**
 * The service's `STACK_OAUTH_MOCK_URL` (issue 27, item 11a), over real HTTP: an emulator started
 * with `oauthMockUrl` sends every OAuth provider's authorize, token and userinfo calls to an
 * external OpenID Connect server (here a tiny one on 127.0.0.1, `test/support/oidcServer.ts`), as
 * the service's `MockProvider` does. Read from the service's source at stack-auth/stack-auth
 * commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f: `apps/backend/src/oauth/providers/mock.tsx`
 * (`discoverFromUrl: STACK_OAUTH_MOCK_URL`, `clientId: providerId`, `clientSecret:
 * "MOCK-SERVER-SECRET"`, `baseScope: "openid offline_access"`, `openid: true`, userinfo `sub` as
 * account id and e-mail, `name`, `picture`), `apps/backend/src/oauth/providers/base.tsx`
 * (`client_secret_basic`; `getAuthorizationUrl`: PKCE S256, `state`, `response_type=code`,
 * `access_type=offline`, `prompt=consent`; `getCallback`: `invalid_grant` → 400 "Inner OAuth
 * callback failed due to invalid grant. Please try again.", `invalid_client` → 400 text,
 * `access_denied` → OAUTH_PROVIDER_ACCESS_DENIED, retryable failures →
 * OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE, both redirected by the callback route) and
 * `apps/backend/src/oauth/index.tsx` (the mock provider created with the provider's type).
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect, Exit, Scope } from "effect"
import * as jose from "jose"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { RunningServer } from "../../src/emulator/server.js"
import { serve } from "../../src/emulator/server.js"
import type { OidcServer } from "../support/oidcServer.js"
import { startOidcServer } from "../support/oidcServer.js"

let oidc: OidcServer
let emulator: RunningServer
let scope: Scope.Closeable

beforeAll(async () => {
  oidc = await startOidcServer()
  scope = await Effect.runPromise(Scope.make())
  emulator = await Effect.runPromise(Scope.provide(serve({ emulatorOptions: { oauthMockUrl: oidc.url, passwordHashIterations: 1000 } }), scope))
})

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await oidc.close()
})

beforeEach(() => {
  oidc.requests.length = 0
  oidc.tokenAnswer = undefined
  oidc.userinfoAnswer = undefined
  oidc.idTokenKey = undefined
  oidc.discoveryAnswer = undefined
  oidc.nextProfile = {}
})

const appRedirectUri = "http://localhost:3000/handler/oauth-callback"

/** Authorize (JSON mode) → the external server → the emulator's callback; the callback's answer. */
const flow = async (options: { readonly sub: string; readonly provider?: string; readonly providerScope?: string }) => {
  oidc.nextSub = options.sub
  const verifier = randomBytes(32).toString("base64url")
  const demo = emulator.emulator.demo
  const query = new URLSearchParams({
    client_id: demo.projectId,
    client_secret: demo.publishableClientKey,
    redirect_uri: appRedirectUri,
    scope: "legacy",
    state: "app-state",
    grant_type: "authorization_code",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    response_type: "code",
    type: "authenticate",
    stack_response_mode: "json"
  })
  if (options.providerScope !== undefined) query.set("provider_scope", options.providerScope)
  const provider = options.provider ?? "github"
  const authorize = await fetch(`${emulator.baseUrl}/api/v1/auth/oauth/authorize/${provider}?${query}`)
  expect(authorize.status, await authorize.clone().text()).toBe(200)
  const location = new URL(((await authorize.json()) as { location: string }).location)
  const approved = await fetch(location, { redirect: "manual" })
  expect(approved.status).toBe(303)
  const callback = await fetch(approved.headers.get("location")!, { redirect: "manual" })
  return { verifier, location, callback }
}

const signIn = async (code: string, verifier: string) => {
  const demo = emulator.emulator.demo
  const tokens = await fetch(`${emulator.baseUrl}/api/v1/auth/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: appRedirectUri,
      client_id: demo.projectId,
      client_secret: demo.publishableClientKey
    })
  })
  expect(tokens.status, await tokens.clone().text()).toBe(200)
  const { access_token } = (await tokens.json()) as { access_token: string }
  const me = await fetch(`${emulator.baseUrl}/api/v1/users/me`, {
    headers: {
      "x-stack-project-id": demo.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": demo.publishableClientKey,
      "x-stack-access-token": access_token
    }
  })
  return (await me.json()) as Record<string, unknown>
}

describe("oauthMockUrl: every provider's calls go to the external OpenID Connect server (oauth/providers/mock.tsx at 2f719903)", () => {
  it("authorize redirects to the discovered authorization endpoint with the MockProvider's client and scope", async () => {
    const { location } = await flow({ sub: "ada.oidc@example.com" })
    expect(`${location.origin}${location.pathname}`).toBe(`${oidc.url}/auth`)
    const parameters = Object.fromEntries(location.searchParams)
    expect(parameters).toMatchObject({
      client_id: "github",
      scope: "openid offline_access",
      response_type: "code",
      redirect_uri: `${emulator.baseUrl}/api/v1/auth/oauth/callback/github`,
      code_challenge_method: "S256",
      access_type: "offline",
      prompt: "consent"
    })
    expect(parameters["state"]!.length).toBeGreaterThan(20)
    expect(oidc.requests.filter((request) => request.path === "/.well-known/openid-configuration").length).toBeGreaterThanOrEqual(1)
  })

  it("the callback exchanges the code over HTTP (Basic client auth, PKCE) and reads the account from userinfo", async () => {
    oidc.nextProfile = { name: "Ada Lovelace", picture: "https://example.com/ada.png" }
    const { verifier, callback } = await flow({ sub: "ada.exchange@example.com" })
    expect(callback.status).toBe(303)
    const back = new URL(callback.headers.get("location")!)
    expect(`${back.origin}${back.pathname}`).toBe(appRedirectUri)
    expect(back.searchParams.get("state")).toBe("app-state")

    const token = oidc.requests.find((request) => request.path === "/token")!
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from("github:MOCK-SERVER-SECRET").toString("base64")}`)
    expect(token.form).toMatchObject({ grant_type: "authorization_code", redirect_uri: `${emulator.baseUrl}/api/v1/auth/oauth/callback/github` })
    const userinfo = oidc.requests.find((request) => request.path === "/me")!
    expect(userinfo.headers.authorization).toMatch(/^Bearer .+/)

    const me = await signIn(back.searchParams.get("code")!, verifier)
    // validateUserInfo({ accountId: sub, displayName: name, email: sub, profileImageUrl: picture, emailVerified: true })
    expect(me).toMatchObject({
      primary_email: "ada.exchange@example.com",
      primary_email_verified: true,
      display_name: "Ada Lovelace",
      profile_image_url: "https://example.com/ada.png"
    })
    expect(me["oauth_providers"]).toEqual([{ id: "github", account_id: "ada.exchange@example.com", email: "ada.exchange@example.com" }])
  })

  it("the client id is the provider's kind, for each provider; extra scopes are added to the base scope", async () => {
    const { location } = await flow({ sub: "ada.google@example.com", provider: "google", providerScope: "drive.readonly" })
    expect(location.searchParams.get("client_id")).toBe("google")
    expect(location.searchParams.get("scope")).toBe("openid offline_access drive.readonly")
  })

  it("invalid_grant at the token endpoint is the service's 400 text", async () => {
    oidc.tokenAnswer = { status: 400, json: { error: "invalid_grant", error_description: "grant request is invalid" } }
    const { callback } = await flow({ sub: "ada.grant@example.com" })
    expect(callback.status).toBe(400)
    expect(await callback.text()).toBe("Inner OAuth callback failed due to invalid grant. Please try again.")
  })

  it("invalid_client is the service's 400 text", async () => {
    oidc.tokenAnswer = { status: 401, json: { error: "invalid_client" } }
    const { callback } = await flow({ sub: "ada.client@example.com" })
    expect(callback.status).toBe(400)
    expect(await callback.text()).toBe(
      "Invalid client credentials for this OAuth provider. Please ensure the configuration in the Stack Auth dashboard is correct."
    )
  })

  it("a temporarily unavailable server is OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE, redirected to the app", async () => {
    oidc.tokenAnswer = { status: 503, json: { error: "temporarily_unavailable" } }
    const { callback } = await flow({ sub: "ada.down@example.com" })
    expect(callback.status).toBe(303)
    const back = new URL(callback.headers.get("location")!)
    expect(back.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE")
  })

  it("an id_token not signed by the server's published key is refused; no user is created", async () => {
    oidc.idTokenKey = (await jose.generateKeyPair("RS256")).privateKey
    const before = emulator.emulator.state.projects.get(emulator.emulator.demo.projectId)!.users.size
    const { callback } = await flow({ sub: "ada.forged@example.com" })
    expect(callback.status).toBe(500)
    expect(await callback.text()).toContain("id_token was refused")
    expect(emulator.emulator.state.projects.get(emulator.emulator.demo.projectId)!.users.size).toBe(before)
  })

  it("a userinfo sub that is not an e-mail address is refused (the MockProvider validates sub as the e-mail)", async () => {
    oidc.userinfoAnswer = { status: 200, json: { sub: "not-an-email" } }
    const { callback } = await flow({ sub: "ignored@example.com" })
    expect(callback.status).toBe(500)
    expect(await callback.text()).toContain("is not an e-mail address")
  })

  it("a discovery document that cannot be used fails the authorize request with a 500 text (Issuer.discover throws on the service)", async () => {
    const demo = emulator.emulator.demo
    const query = new URLSearchParams({
      client_id: demo.projectId,
      client_secret: demo.publishableClientKey,
      redirect_uri: appRedirectUri,
      scope: "legacy",
      state: "s",
      grant_type: "authorization_code",
      code_challenge: createHash("sha256").update("verifier").digest("base64url"),
      code_challenge_method: "S256",
      response_type: "code",
      stack_response_mode: "json"
    })
    for (
      const answer of [
        { status: 404, json: { error: "not_found" } },
        { status: 200, json: { issuer: oidc.url, authorization_endpoint: "not a url", token_endpoint: `${oidc.url}/token` } }
      ]
    ) {
      oidc.discoveryAnswer = answer
      const authorize = await fetch(`${emulator.baseUrl}/api/v1/auth/oauth/authorize/github?${query}`)
      expect(authorize.status).toBe(500)
      expect(await authorize.text()).toContain("discovery document")
    }
  })
})
