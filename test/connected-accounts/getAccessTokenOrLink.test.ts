/**
 * A provider access token, or the link flow that gets one (the official
 * `getConnectedAccount(provider, { or: "redirect", scopes })`), against the in-process emulator: a
 * connection with the scopes answers the token without navigating; one lacking a scope starts
 * `OAuth.linkAccount` with the provider and the scopes and answers none; after the callback the
 * same call answers the token.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

const appUrl = "http://localhost:3000"

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const navigations: Array<string> = []
  const page = OAuthBrowser.makeMemory({
    url: `${appUrl}/settings`,
    onNavigate: (url) =>
      Effect.gen(function* () {
        navigations.push(url)
        const approve = yield* emulator.handle(new Request(`${url}&auto=1&email=octo%40example.com`))
        const callback = yield* emulator.handle(new Request(approve.headers.get("location")!))
        return callback.headers.get("location") ?? url
      })
  })
  const client = Stack.layerClient({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })
  return { navigations, layer: Layer.merge(client, page.layer) }
})

describe("ConnectedAccounts.getAccessTokenOrLink", () => {
  it.effect("a connection with the scopes answers the token without navigating", () =>
    Effect.gen(function* () {
      const { navigations, layer } = yield* setup
      const token = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        return yield* ConnectedAccounts.getAccessTokenOrLink({ provider: "github" })
      }).pipe(Effect.provide(layer))
      expect(Redacted.value(Option.getOrThrow(token))).toHaveLength(43)
      expect(navigations).toHaveLength(1)
    }))

  it.effect("a missing connection starts the link flow with the scopes and answers none; after the callback the token comes", () =>
    Effect.gen(function* () {
      const { navigations, layer } = yield* setup
      const outcome = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        const before = Option.map(yield* Users.getCurrent(), (user) => user.id)
        const first = yield* ConnectedAccounts.getAccessTokenOrLink({ provider: "google", scope: ["calendar"] })
        yield* OAuth.handleCallback()
        const second = yield* ConnectedAccounts.getAccessTokenOrLink({ provider: "google", scope: ["calendar"] })
        const after = Option.map(yield* Users.getCurrent(), (user) => user.id)
        return { first, second, before, after }
      }).pipe(Effect.provide(layer))
      expect(outcome.first).toEqual(Option.none())
      expect(navigations).toHaveLength(2)
      // the page went to the provider with the requested scope added to the provider's defaults
      const provider = new URL(navigations[1]!)
      expect(provider.pathname).toBe("/api/v1/emulator/oauth-provider/google/authorize")
      expect(provider.searchParams.get("scope")?.split(" ")).toContain("calendar")
      // linked to the signed-in user, not a sign-in as another one
      expect(outcome.after).toEqual(outcome.before)
      expect(Option.isSome(outcome.second)).toBe(true)
    }))
})
