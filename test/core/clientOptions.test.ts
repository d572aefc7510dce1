/**
 * Issue 29 item 7: the official client options `baseUrl: { browser, server }` and
 * `oauthScopesOnSignIn`. Which URL is used where follows the official `getBaseUrl`
 * (`packages/template/src/lib/stack-app/apps/implementations/common.ts` at 2f719903: the browser's
 * where `isBrowserLike()` — `window`, `document`, `document.createElement` — else the server's;
 * `NEXT_PUBLIC_STACK_API_URL_BROWSER` / `_SERVER` and their older names before the common
 * variables); the scopes follow `signInWithOAuth` / `linkConnectedAccount` of
 * `client-app-impl.ts` at 2f719903 (the provider's configured scopes; for a link merged with the
 * requested ones by `mergeScopeStrings`, each once). Against the in-process emulator.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { afterEach, vi } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import { makeEmulator } from "../emulator/helpers.js"

const projectId = "internal"

/** Pretends to be a browser as the official `isBrowserLike` sees one. */
const stubBrowser = () => {
  vi.stubGlobal("window", {})
  vi.stubGlobal("document", { createElement: () => ({}) })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("baseUrl: { browser, server }", () => {
  it("selectBaseUrl: a string as it is; of the pair, the browser's in a browser and the server's elsewhere", () => {
    const pair = { browser: "https://auth.example.com", server: "http://stack-api.internal:8102" }
    expect(StackConfig.selectBaseUrl("https://api.example.com", true)).toBe("https://api.example.com")
    expect(StackConfig.selectBaseUrl(pair, true)).toBe("https://auth.example.com")
    expect(StackConfig.selectBaseUrl(pair, false)).toBe("http://stack-api.internal:8102")
    expect(StackConfig.selectBaseUrl(undefined, false)).toBeUndefined()
  })

  it.effect("make: outside a browser the server's URL, in one the browser's (normalised as a string is)", () =>
    Effect.gen(function* () {
      const pair = { browser: "https://auth.example.com/api/v1/", server: "http://stack-api.internal:8102/" }
      const onServer = yield* StackConfig.make({ projectId, baseUrl: pair })
      stubBrowser()
      const inBrowser = yield* StackConfig.make({ projectId, baseUrl: pair })
      expect(onServer.baseUrl).toBe("http://stack-api.internal:8102")
      expect(inBrowser.baseUrl).toBe("https://auth.example.com")
    }))

  it.effect("make: a pair without the URL needed here, or with a malformed one, is a StackConfigError naming baseUrl", () =>
    Effect.gen(function* () {
      const missing = yield* Effect.flip(StackConfig.make({ projectId, baseUrl: { browser: "https://auth.example.com" } as unknown as StackConfig.BaseUrls }))
      const malformed = yield* Effect.flip(StackConfig.make({ projectId, baseUrl: { browser: "x", server: "not a url" } }))
      expect(missing.setting).toBe("baseUrl")
      expect(malformed.setting).toBe("baseUrl")
    }))

  it.effect("fromConfig: STACK_API_URL_SERVER outside a browser and NEXT_PUBLIC_STACK_API_URL_BROWSER in one come before STACK_API_URL", () =>
    Effect.gen(function* () {
      const env = {
        STACK_PROJECT_ID: projectId,
        STACK_API_URL: "https://common.example.com",
        STACK_API_URL_SERVER: "http://server.internal:8102",
        NEXT_PUBLIC_STACK_API_URL_BROWSER: "https://browser.example.com"
      }
      const read = StackConfig.fromConfig().pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))
      const onServer = yield* read
      stubBrowser()
      const inBrowser = yield* read
      const common = yield* StackConfig.fromConfig().pipe(
        Effect.provideService(
          ConfigProvider.ConfigProvider,
          ConfigProvider.fromEnv({ env: { STACK_PROJECT_ID: projectId, STACK_API_URL: "https://common.example.com" } })
        )
      )
      expect(onServer.baseUrl).toBe("http://server.internal:8102")
      expect(inBrowser.baseUrl).toBe("https://browser.example.com")
      expect(common.baseUrl).toBe("https://common.example.com")
    }))
})

describe("oauthScopesOnSignIn", () => {
  it("providerScopes: the call's scopes, then the provider's configured ones, each once, split on white space", () => {
    const onSignIn = { github: ["repo", "read:org"], google: ["calendar"] }
    expect(OAuth.providerScopes({ provider: "github" }, onSignIn)).toEqual(["repo", "read:org"])
    expect(OAuth.providerScopes({ provider: "GitHub", scopes: ["gist", "repo"] }, onSignIn)).toEqual(["gist", "repo", "read:org"])
    expect(OAuth.providerScopes({ provider: "google", scopes: ["drive  calendar"] }, onSignIn)).toEqual(["drive", "calendar"])
    expect(OAuth.providerScopes({ provider: "microsoft" }, onSignIn)).toEqual([])
    expect(OAuth.providerScopes({ provider: "github", scopes: ["x"] }, undefined)).toEqual(["x"])
  })

  it.effect("make: a value that is not lists of scopes is a StackConfigError naming oauthScopesOnSignIn", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(StackConfig.make({ projectId, oauthScopesOnSignIn: { github: "repo" } as unknown as Record<string, Array<string>> }))
      expect(error.setting).toBe("oauthScopesOnSignIn")
    }))

  it.effect("every sign-in and link of the provider asks for the configured scopes (provider_scope); the provider grants them", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const page = OAuthBrowser.makeMemory({
        url: "http://localhost:3000/sign-in",
        onNavigate: (url) =>
          Effect.gen(function* () {
            const approve = yield* emulator.handle(new Request(`${url}&auto=1&email=octo%40example.com`))
            const callback = yield* emulator.handle(new Request(approve.headers.get("location")!))
            return callback.headers.get("location") ?? url
          })
      })
      const client = Stack.layerClient({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: Emulator.layerHttpClient(emulator),
        oauthScopesOnSignIn: { github: ["repo"], google: ["calendar"] }
      })
      const token = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        yield* OAuth.linkAccount({ provider: "google", scopes: ["drive", "calendar"] })
        yield* OAuth.handleCallback()
        return yield* ConnectedAccounts.getAccessToken({ provider: "github", scope: "repo" })
      }).pipe(Effect.provide(Layer.merge(client, page.layer)))
      const signIn = new URL(page.navigations[0]!)
      const link = new URL(page.navigations[1]!)
      expect(signIn.searchParams.get("scope")?.split(" ")).toContain("repo")
      const linkScopes = link.searchParams.get("scope")?.split(" ") ?? []
      expect(linkScopes).toEqual(expect.arrayContaining(["drive", "calendar"]))
      expect(linkScopes.filter((scope) => scope === "calendar")).toHaveLength(1)
      // the configured scope was granted at sign-in: a token with it is available
      expect(Option.isSome(token)).toBe(true)
    }))
})
