/**
 * End to end over real HTTP against the emulator server (issue 29 items 3, 7, 8): a user signs
 * in with the mock GitHub provider (the app's `oauthScopesOnSignIn` asks for `repo`), reads its
 * connections with their own access tokens, finds one by account, links Google through
 * `getOrLink`, switches a connection's connected-account use off and removes it; a server creates,
 * changes and removes a user's connection and lists the user's teams; `baseUrl: { browser, server }`
 * picks the URL for where it runs. The service's behaviour: backend
 * `apps/backend/src/app/api/latest/oauth-providers/crud.tsx`, `…/connected-accounts/…/access-token/crud.tsx`,
 * `…/teams/crud.tsx` at 2f719903; which URL where: the official `getBaseUrl`
 * (`packages/template/src/lib/stack-app/apps/implementations/common.ts` at 2f719903).
 */
import { Effect, Fiber, Layer, Option, Redacted } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as ServerConnectedAccounts from "../../src/connected-accounts/ServerConnectedAccounts.js"
import * as Projects from "../../src/projects/Projects.js"
import * as Stack from "../../src/Stack.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const appUrl = "http://localhost:3000"

afterEach(() => {
  vi.unstubAllGlobals()
})

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

const uniqueEmail = (name: string) => `e2e-${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A memory page whose navigations to the mock provider are approved as `email`. */
const pageFor = (email: string) =>
  OAuthBrowser.makeMemory({
    url: `${appUrl}/settings`,
    onNavigate: (url) => Effect.promise(() => followToApp(`${url}&auto=1&email=${encodeURIComponent(email)}`))
  })

describe("OAuth connections over HTTP", () => {
  it("sign-in asks for the configured scopes; connections carry their own token reads; get by account; switch off and delete refresh the lists", async () => {
    const email = uniqueEmail("connections")
    const page = pageFor(email)
    const fetchLayer = countingFetch()
    const stack = Stack.layerClient({ ...main.credentials(), httpClient: fetchLayer.layer, oauthScopesOnSignIn: { github: ["repo"] } })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        const user = Option.getOrThrow(yield* Users.getCurrent())
        const connections = yield* ConnectedAccounts.list()
        const token = yield* connections[0]!.getAccessToken({ scopes: ["repo"] })
        const byAccount = yield* ConnectedAccounts.get({ provider: "github", providerAccountId: email })
        const [provider] = yield* ConnectedAccounts.listOAuthProviders()
        const switched = yield* ConnectedAccounts.updateOAuthProvider(provider!.id, { allowConnectedAccounts: false })
        const afterSwitch = yield* ConnectedAccounts.list()
        yield* ConnectedAccounts.deleteOAuthProvider(provider!.id)
        const afterDelete = yield* ConnectedAccounts.listOAuthProviders()
        const missing = yield* Effect.flip(ConnectedAccounts.deleteOAuthProvider(provider!.id))
        return { user, connections, token, byAccount, provider: provider!, switched, afterSwitch, afterDelete, missing }
      }).pipe(Effect.provide(Layer.merge(stack, page.layer)))
    )
    expect(new URL(page.navigations[0]!).searchParams.get("scope")?.split(" ")).toContain("repo")
    expect(outcome.connections).toMatchObject([{ userId: outcome.user.id, provider: "github", providerAccountId: email }])
    expect(Redacted.value(outcome.token.accessToken)).toHaveLength(43)
    expect(Option.isSome(outcome.byAccount)).toBe(true)
    expect(outcome.switched).toMatchObject({ id: outcome.provider.id, allowConnectedAccounts: false })
    expect(outcome.afterSwitch).toEqual([])
    expect(outcome.afterDelete).toEqual([])
    expect(outcome.missing._tag).toBe("OAuthProviderNotFound")
    expect(fetchLayer.count(`POST /connected-accounts/me/github/${encodeURIComponent(email)}/access-token`)).toBe(1)
    expect(fetchLayer.count(`PATCH /oauth-providers/me/${outcome.provider.id}`)).toBe(1)
    expect(fetchLayer.count(`DELETE /oauth-providers/me/${outcome.provider.id}`)).toBe(2)
    // the list after the change was read again (the cache entry was invalidated), not served stale
    expect(fetchLayer.count("GET /connected-accounts/me")).toBe(2)
  })

  it("getOrLink: no Google connection starts the link flow and does not complete; after the callback it answers the connection; or: 'throw' fails typed", async () => {
    const email = uniqueEmail("getorlink")
    const page = pageFor(email)
    const stack = Stack.layerClient(main.credentials())
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        const thrown = yield* Effect.flip(ConnectedAccounts.get("google", { or: "throw", scopes: ["calendar"] }))
        const fiber = yield* Effect.forkChild(ConnectedAccounts.getOrLink("google", { scopes: ["calendar"] }))
        while (!(page.navigations.length >= 2 && page.url().includes("code=")) && fiber.pollUnsafe() === undefined) yield* Effect.yieldNow
        const pending = fiber.pollUnsafe()
        yield* Fiber.interrupt(fiber)
        yield* OAuth.handleCallback()
        const linked = yield* ConnectedAccounts.getOrLink("google", { scopes: ["calendar"] })
        return { thrown, pending, linked }
      }).pipe(Effect.provide(Layer.merge(stack, page.layer)))
    )
    expect(outcome.thrown._tag).toBe("OauthAccessTokenNotAvailable")
    expect(outcome.pending).toBeUndefined()
    expect(new URL(page.navigations[1]!).searchParams.get("scope")?.split(" ")).toContain("calendar")
    expect(outcome.linked).toMatchObject({ provider: "google", providerAccountId: email })
  })

  it("server: createOAuthProvider, update, get by provider, delete; ServerTeams.list({ userId })", async () => {
    const email = uniqueEmail("server-connections")
    const page = pageFor(email)
    const userId = await Effect.runPromise(
      Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        return Option.getOrThrow(yield* Users.getCurrent()).id
      }).pipe(Effect.provide(Layer.merge(Stack.layerClient(main.credentials()), page.layer)))
    )
    const fetchLayer = countingFetch()
    const server = Stack.layerServer({ ...main.credentials(), secretServerKey: main.server.emulator.demo.secretServerKey, httpClient: fetchLayer.layer })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const created = yield* ServerConnectedAccounts.createOAuthProvider({
          userId,
          providerConfigId: "microsoft",
          accountId: `ms-${email}`,
          email,
          allowSignIn: false,
          allowConnectedAccounts: true
        })
        const unconfigured = yield* Effect.flip(ServerConnectedAccounts.createOAuthProvider({
          userId,
          providerConfigId: "gitlab",
          accountId: "x",
          allowSignIn: false,
          allowConnectedAccounts: true
        }))
        const updated = yield* ServerConnectedAccounts.updateOAuthProvider(userId, created.id, { allowConnectedAccounts: false })
        const none = yield* ServerConnectedAccounts.get(userId, "microsoft")
        const github = yield* ServerConnectedAccounts.get(userId, "github", { or: "throw" })
        yield* ServerConnectedAccounts.deleteOAuthProvider(userId, created.id)
        const remaining = yield* ServerConnectedAccounts.listOAuthProviders(userId)
        const team = yield* ServerTeams.create({ displayName: "Connections", creatorUserId: userId })
        const teams = yield* ServerTeams.list({ userId })
        return { created, unconfigured, updated, none, github, remaining, team, teams }
      }).pipe(Effect.provide(server))
    )
    expect(outcome.created).toMatchObject({ userId, providerConfigId: "microsoft", accountId: `ms-${email}`, allowSignIn: false })
    expect(outcome.unconfigured._tag).toBe("OAuthProviderNotConfigured")
    expect(outcome.updated.allowConnectedAccounts).toBe(false)
    expect(outcome.none).toEqual(Option.none())
    expect(outcome.github.providerAccountId).toBe(email)
    expect(outcome.remaining.map((connection) => connection.providerConfigId)).toEqual(["github"])
    expect(outcome.teams.map((team) => team.id)).toEqual([outcome.team.id])
    expect(fetchLayer.count("POST /oauth-providers")).toBe(2)
    expect(fetchLayer.count(`PATCH /oauth-providers/${userId}/${outcome.created.id}`)).toBe(1)
    expect(fetchLayer.count(`DELETE /oauth-providers/${userId}/${outcome.created.id}`)).toBe(1)
  })

  it("baseUrl { browser, server }: outside a browser the server's URL is asked, in a browser the browser's", async () => {
    const { projectId, publishableClientKey } = main.credentials()
    const read = (baseUrl: { readonly browser: string; readonly server: string }) =>
      Effect.runPromise(
        Effect.gen(function* () {
          const project = yield* Projects.getCurrent()
          return project.id
        }).pipe(Effect.provide(Stack.layerClient({ projectId, publishableClientKey, baseUrl, tokenStore: "memory" })))
      )
    // the other URL is a closed port: asking it would fail
    const unreachable = "http://127.0.0.1:9"
    expect(await read({ browser: unreachable, server: main.server.baseUrl })).toBe(projectId)
    vi.stubGlobal("window", {})
    vi.stubGlobal("document", { createElement: () => ({}) })
    expect(await read({ browser: main.server.baseUrl, server: unreachable })).toBe(projectId)
  })
})
