/**
 * End to end over real HTTP against the emulator server: `ConnectedAccounts.getAccessTokenOrLink`
 * for a provider the signed-in user has not connected starts the link flow (the page goes to the
 * mock provider with the requested scope) and answers none; after the callback the same call
 * answers a provider access token.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as Stack from "../../src/Stack.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const appUrl = "http://localhost:3000"

/** Follows redirects by hand until the page leaves the API: where the browser lands. */
const followToApp = async (start: string): Promise<string> => {
  let url = start
  while (url.startsWith(main.server.baseUrl)) {
    const response = await fetch(url, { redirect: "manual" })
    const location = response.headers.get("location")
    if (location === null) throw new Error(`no redirect from ${url}: ${response.status}`)
    url = new URL(location, url).href
  }
  return url
}

describe("getAccessTokenOrLink over HTTP", () => {
  it("no connection: the link flow starts (none); after the callback the token comes", async () => {
    const email = `e2e-getorlink-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
    const navigations: Array<string> = []
    const page = OAuthBrowser.makeMemory({
      url: `${appUrl}/settings`,
      onNavigate: (url) =>
        Effect.promise(() => {
          navigations.push(url)
          return followToApp(`${url}&auto=1&email=${encodeURIComponent(email)}`)
        })
    })
    const fetchLayer = countingFetch()
    const stack = Stack.layerClient({
      projectId: main.server.emulator.demo.projectId,
      publishableClientKey: main.server.emulator.demo.publishableClientKey,
      baseUrl: main.server.baseUrl,
      httpClient: fetchLayer.layer
    })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        const first = yield* ConnectedAccounts.getAccessTokenOrLink({ provider: "google", scope: "calendar" })
        yield* OAuth.handleCallback()
        const second = yield* ConnectedAccounts.getAccessTokenOrLink({ provider: "google", scope: "calendar" })
        return { first, second }
      }).pipe(Effect.provide(Layer.merge(stack, page.layer)))
    )
    expect(outcome.first).toEqual(Option.none())
    expect(Redacted.value(Option.getOrThrow(outcome.second))).toHaveLength(43)
    expect(navigations).toHaveLength(2)
    expect(new URL(navigations[1]!).searchParams.get("scope")?.split(" ")).toContain("calendar")
    expect(fetchLayer.count("GET /auth/oauth/authorize/google")).toBe(1)
    expect(fetchLayer.count("POST /connected-accounts/me/google/access-token")).toBe(2)
  })
})
