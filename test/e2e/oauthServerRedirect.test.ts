/**
 * OAuth with server-side redirects, over real HTTP against the emulator: an app server's route
 * starts the flow (302 to the provider + the verifier cookie), the browser follows the mock
 * provider back to the app's callback route, which completes the flow from the request's URL and
 * cookies and redirects onwards.
 */
import { Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import type { RunningServer } from "../../src/emulator/server.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import { startServer } from "./support.js"

let main: { server: RunningServer; stop: () => Promise<void> }
beforeAll(async () => {
  main = await startServer()
})
afterAll(async () => {
  await main?.stop()
})

const appUrl = "http://localhost:3000"

/** The app server's SDK for one request: its own session (here in memory). */
const requestStack = () =>
  Stack.layerClient({
    projectId: main.server.emulator.demo.projectId,
    publishableClientKey: main.server.emulator.demo.publishableClientKey,
    baseUrl: main.server.baseUrl,
    tokenStore: TokenStore.layerMemory()
  })

describe("OAuth with server-side redirects", () => {
  it("the start route redirects to the provider with the verifier cookie; the callback route signs the user in", async () => {
    const email = `e2e-oauth-server-${Date.now()}@example.com`
    // 1. GET /auth/github on the app server
    const start = OAuthBrowser.makeServerRequest({ url: `${appUrl}/auth/github` })
    await Effect.runPromise(
      OAuth.signInWithOAuth({ provider: "github", redirectUri: `${appUrl}/auth/callback` }).pipe(
        Effect.provide(Layer.merge(requestStack(), start.layer))
      )
    )
    const started = await Effect.runPromise(start.outcome)
    expect(started.redirect).toBeDefined()
    const verifierCookie = started.setCookies.find((cookie) => cookie.startsWith("stack-oauth-outer-"))!
    expect(verifierCookie).toContain("Max-Age=3600")

    // 2. the browser follows the provider (auto-approve) and the service back to the app
    let url = `${started.redirect!}&auto=1&email=${encodeURIComponent(email)}`
    while (url.startsWith(main.server.baseUrl)) {
      const response = await fetch(url, { redirect: "manual" })
      url = new URL(response.headers.get("location")!, url).href
    }
    expect(url.startsWith(`${appUrl}/auth/callback?`)).toBe(true)

    // 3. GET /auth/callback?code&state on the app server, with the browser's cookie
    const callback = OAuthBrowser.makeServerRequest({ url, cookieHeader: verifierCookie.split(";")[0]! })
    const stack = requestStack()
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const outcome = yield* OAuth.handleCallback({ url, afterSignIn: "/dashboard", afterSignUp: "/welcome" })
        const user = yield* Users.getCurrent()
        return { outcome, user }
      }).pipe(Effect.provide(Layer.merge(stack, callback.layer)))
    )
    expect(Option.getOrThrow(result.outcome)).toEqual({ redirectUrl: "/welcome", isNewUser: true })
    expect(Option.getOrThrow(result.user).primaryEmail).toBe(email)
    const finished = await Effect.runPromise(callback.outcome)
    expect(finished.setCookies.some((cookie) => cookie.startsWith("stack-oauth-outer-") && /Max-Age=0/.test(cookie))).toBe(true)
  })

  it("a callback request without the verifier cookie does nothing", async () => {
    const callback = OAuthBrowser.makeServerRequest({ url: `${appUrl}/auth/callback?code=abc&state=unknown` })
    const outcome = await Effect.runPromise(
      OAuth.handleCallback(`${appUrl}/auth/callback?code=abc&state=unknown`).pipe(Effect.provide(Layer.merge(requestStack(), callback.layer)))
    )
    expect(Option.isNone(outcome)).toBe(true)
  })
})
