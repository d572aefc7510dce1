/**
 * Any user's connected accounts with server access, end to end over real HTTP against the
 * emulator server (SPEC.md §7: the server variant of the access-token route includes the user
 * id): a user signs in with the mock GitHub provider in a "browser"; a server lists the user's
 * accounts and connections and gets a provider access token for the user by id.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ServerConnectedAccounts from "../../src/connected-accounts/ServerConnectedAccounts.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
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

const credentials = main.credentials

describe("server connected accounts over HTTP", () => {
  it("lists a user's accounts and connections by id and gets a provider access token for the user", async () => {
    const email = `e2e-connected-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
    const page = OAuthBrowser.makeMemory({
      url: `${appUrl}/sign-in`,
      onNavigate: (url) => Effect.promise(() => followToApp(`${url}&auto=1&email=${encodeURIComponent(email)}`))
    })
    const userId = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        return Option.getOrThrow(yield* Users.getCurrent()).id
      }).pipe(Effect.provide(Layer.merge(Stack.layerClient(credentials()), page.layer)))
    )
    const fetchLayer = countingFetch()
    const server = Stack.layerServer({ ...credentials(), secretServerKey: main.server.emulator.demo.secretServerKey, httpClient: fetchLayer.layer })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const accounts = yield* ServerConnectedAccounts.list(userId)
        const connections = yield* ServerConnectedAccounts.listOAuthProviders(userId)
        const token = yield* ServerConnectedAccounts.getAccessToken(userId, { provider: "github" })
        const none = yield* ServerConnectedAccounts.getAccessToken(userId, { provider: "google" })
        const unknown = yield* Effect.flip(ServerConnectedAccounts.list("8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11"))
        return { accounts, connections, token, none, unknown }
      }).pipe(Effect.provide(server))
    )
    expect(outcome.accounts).toMatchObject([{ userId, provider: "github", providerAccountId: email }])
    expect(outcome.connections.map((connection) => [connection.providerConfigId, connection.accountId])).toEqual([["github", email]])
    expect(Redacted.value(Option.getOrThrow(outcome.token))).toHaveLength(43)
    expect(outcome.none).toEqual(Option.none())
    expect(outcome.unknown._tag).toBe("UserNotFound")
    expect(fetchLayer.count(`POST /connected-accounts/${userId}/github/access-token`)).toBe(1)
    expect(fetchLayer.count(`GET /connected-accounts/${userId}`)).toBe(1)
  })
})
