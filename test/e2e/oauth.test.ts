/**
 * OAuth end to end over real HTTP against the emulator server: the SDK fetches the authorize URL,
 * the page (an in-memory OAuthBrowser) follows the mock provider with auto-approve and the
 * service's callback with `fetch(…, { redirect: "manual" })`, the callback page exchanges the code,
 * and the OAuth user is the current user. Also: the consent page over HTTP, and the redirect-mode
 * inner cookie round trip.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const appUrl = "http://localhost:3000"
const uniqueEmail = (label: string) => `e2e-oauth-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** Follows redirects by hand (`redirect: "manual"`) until the page leaves the API: where the browser lands. */
const followToApp = async (start: string, cookie?: string): Promise<{ readonly url: string; readonly hops: ReadonlyArray<number> }> => {
  let url = start
  const hops: Array<number> = []
  while (url.startsWith(main.server.baseUrl)) {
    const response = await fetch(url, { redirect: "manual", ...(cookie !== undefined ? { headers: { cookie } } : {}) })
    hops.push(response.status)
    const location = response.headers.get("location")
    if (location === null) throw new Error(`no redirect from ${url}: ${response.status} ${await response.text()}`)
    url = new URL(location, url).href
  }
  return { url, hops }
}

const setup = (email: string) => {
  const fetchLayer = countingFetch()
  const hops: Array<number> = []
  const page = OAuthBrowser.makeMemory({
    url: `${appUrl}/sign-in`,
    onNavigate: (url) =>
      Effect.promise(async () => {
        const landed = await followToApp(`${url}&auto=1&email=${encodeURIComponent(email)}`)
        hops.push(...landed.hops)
        return landed.url
      })
  })
  const stack = Stack.layerClient({
    projectId: main.server.emulator.demo.projectId,
    publishableClientKey: main.server.emulator.demo.publishableClientKey,
    baseUrl: main.server.baseUrl,
    httpClient: fetchLayer.layer
  })
  return { page, hops, count: fetchLayer.count, layer: Layer.merge(stack, page.layer) }
}

describe("OAuth over HTTP against the emulator", () => {
  it("signs in with the mock provider (auto-approve), handles the callback, and the OAuth user is current", async () => {
    const email = uniqueEmail("signin")
    const { page, hops, count, layer } = setup(email)
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const started = yield* OAuth.signInWithOAuth({ provider: "github", afterCallbackRedirectUrl: "/dashboard" })
        const landed = page.url()
        const result = yield* OAuth.handleCallback(landed)
        const user = yield* Users.getCurrent()
        const token = yield* ConnectedAccounts.getAccessToken({ provider: "github" })
        return { started, landed, result, user, token }
      }).pipe(Effect.provide(layer))
    )
    expect(hops).toEqual([303, 303])
    expect(outcome.landed).toMatch(/^http:\/\/localhost:3000\/handler\/oauth-callback\?code=[0-9a-f]{64}&state=/)
    expect(new URL(outcome.landed).searchParams.get("state")).toBe(outcome.started.state)
    expect(outcome.result).toEqual(Option.some({ redirectUrl: `${appUrl}/dashboard`, isNewUser: true }))
    const user = Option.getOrThrow(outcome.user)
    expect(user).toMatchObject({ primaryEmail: email, primaryEmailVerified: true, hasPassword: false, emailAuthEnabled: false })
    expect(user.oauthProviders).toEqual([{ id: "github", accountId: email, email }])
    expect(Redacted.value(Option.getOrThrow(outcome.token))).toHaveLength(43)
    expect(count("GET /auth/oauth/authorize/github")).toBe(1)
    expect(count("POST /auth/oauth/token")).toBe(1)
    expect(page.jar.size).toBe(0)
    expect(page.url()).toBe(`${appUrl}/handler/oauth-callback`)
  })

  it("a returning user lands on after-sign-in; linking attaches a second account to a password user", async () => {
    const email = uniqueEmail("again")
    const first = setup(email)
    await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "google" })
        yield* OAuth.handleCallback()
      }).pipe(Effect.provide(first.layer))
    )
    const second = setup(email)
    const again = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "google" })
        return yield* OAuth.handleCallback({ afterSignIn: "/home", afterSignUp: "/welcome" })
      }).pipe(Effect.provide(second.layer))
    )
    expect(again).toEqual(Option.some({ redirectUrl: "/home", isNewUser: false }))

    const linked = setup(uniqueEmail("ms"))
    const user = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: uniqueEmail("pw"), password: "correct horse battery", noVerificationCallback: true })
        yield* OAuth.linkAccount({ provider: "microsoft" })
        yield* OAuth.handleCallback()
        return yield* Users.getCurrent()
      }).pipe(Effect.provide(linked.layer))
    )
    expect(Option.getOrThrow(user)).toMatchObject({ hasPassword: true, oauthProviders: [{ id: "microsoft" }] })
  })

  it("with HandlerUrls handler \"/auth\" and afterSignUp \"/welcome\": the callback is /auth/oauth-callback, a new user goes to /welcome, a returning one to after-sign-in", async () => {
    const email = uniqueEmail("handler")
    const urls = HandlerUrls.layer({ handler: "/auth", afterSignUp: "/welcome" })
    const first = setup(email)
    const signUp = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const landed = first.page.url()
        const result = yield* OAuth.handleCallback()
        return { landed, result }
      }).pipe(Effect.provide(Layer.merge(first.layer, urls)))
    )
    expect(signUp.landed).toMatch(/^http:\/\/localhost:3000\/auth\/oauth-callback\?code=[0-9a-f]{64}&state=/)
    expect(signUp.result).toEqual(Option.some({ redirectUrl: "/welcome", isNewUser: true }))
    expect(first.page.url()).toBe(`${appUrl}/auth/oauth-callback`)
    expect(first.count("GET /auth/oauth/authorize/github")).toBe(1)
    expect(first.count("POST /auth/oauth/token")).toBe(1)

    const second = setup(email)
    const signIn = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        return yield* OAuth.handleCallback()
      }).pipe(Effect.provide(Layer.merge(second.layer, urls)))
    )
    expect(signIn).toEqual(Option.some({ redirectUrl: "/", isNewUser: false }))
  })

  it("serves the consent page, and redirect mode needs the inner cookie the authorize answer set", async () => {
    const demo = main.server.emulator.demo
    const query = new URLSearchParams({
      client_id: demo.projectId,
      client_secret: demo.publishableClientKey,
      redirect_uri: `${appUrl}/handler/oauth-callback`,
      scope: "legacy",
      state: "e2e-state",
      grant_type: "authorization_code",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGUSVw_1cM",
      code_challenge_method: "S256",
      response_type: "code"
    })
    const authorize = await fetch(`${main.server.baseUrl}/api/v1/auth/oauth/authorize/github?${query}`, { redirect: "manual" })
    expect(authorize.status).toBe(307)
    const cookie = authorize.headers.get("set-cookie")!.split(";")[0]!
    const provider = authorize.headers.get("location")!
    const consent = await fetch(provider)
    expect(consent.headers.get("content-type")).toContain("text/html")
    expect(await consent.text()).toContain("Authorize</button>")

    const approved = await fetch(`${provider}&auto=1&email=${encodeURIComponent(uniqueEmail("redirect"))}`, { redirect: "manual" })
    const callback = approved.headers.get("location")!
    const refused = await fetch(callback, { redirect: "manual" })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain("Inner OAuth cookie not found")
    const landed = await followToApp(callback, cookie)
    expect(landed.hops).toEqual([303])
    expect(new URL(landed.url).searchParams.get("state")).toBe("e2e-state")
  })
})
