/**
 * Any user's connected accounts with server access (SPEC.md §7: the server variant of the
 * access-token route includes the user id), against the in-process emulator: a user signs in with
 * the mock GitHub provider in a "browser"; the server lists that user's accounts and connections
 * (with the provider account id), gets a provider access token for it, and finds one connection
 * by id. Tokens that cannot be had are `Option.none()`, an unknown user is `UserNotFound`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as ServerConnectedAccounts from "../../src/connected-accounts/ServerConnectedAccounts.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

const appUrl = "http://localhost:3000"

/** Signs `email` in with the mock GitHub provider (auto-approve) and returns the user's id. */
const signInWithGithub = (emulator: Emulator.Emulator, email: string) => {
  const page = OAuthBrowser.makeMemory({
    url: `${appUrl}/sign-in`,
    onNavigate: (url) =>
      Effect.gen(function* () {
        const approve = yield* emulator.handle(new Request(`${url}&auto=1&email=${encodeURIComponent(email)}`))
        const callback = yield* emulator.handle(new Request(approve.headers.get("location")!))
        return callback.headers.get("location") ?? url
      })
  })
  const client = Stack.layerClient({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })
  return Effect.gen(function* () {
    yield* OAuth.signInWithOAuth({ provider: "github" })
    yield* OAuth.handleCallback()
    const user = Option.getOrThrow(yield* Users.getCurrent())
    const connections = yield* ConnectedAccounts.listOAuthProviders()
    return { userId: user.id, connections }
  }).pipe(Effect.provide(Layer.merge(client, page.layer)))
}

const serverLayer = (emulator: Emulator.Emulator) =>
  Stack.layerServer({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    secretServerKey: emulator.demo.secretServerKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })

describe("ServerConnectedAccounts", () => {
  it.effect("lists a user's connected accounts and connections by id, with the provider account id", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { userId } = yield* signInWithGithub(emulator, "octo@example.com")
      const accounts = yield* ServerConnectedAccounts.list(userId).pipe(Effect.provide(serverLayer(emulator)))
      expect(accounts).toMatchObject([{ userId, provider: "github", providerAccountId: "octo@example.com" }])
      const connections = yield* ServerConnectedAccounts.listOAuthProviders(userId).pipe(Effect.provide(serverLayer(emulator)))
      expect(connections).toHaveLength(1)
      expect(connections[0]).toMatchObject({ userId, providerConfigId: "github", accountId: "octo@example.com", allowConnectedAccounts: true })
    }))

  it.effect("a provider access token for a user by id; none for a provider the user has not connected", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { userId } = yield* signInWithGithub(emulator, "octo@example.com")
      const token = yield* ServerConnectedAccounts.getAccessToken(userId, { provider: "github" }).pipe(Effect.provide(serverLayer(emulator)))
      expect(Redacted.value(Option.getOrThrow(token))).toHaveLength(43)
      const oneAccount = yield* ServerConnectedAccounts.getAccessToken(userId, { provider: "github", accountId: "octo@example.com" }).pipe(
        Effect.provide(serverLayer(emulator))
      )
      expect(Option.isSome(oneAccount)).toBe(true)
      const otherProvider = yield* ServerConnectedAccounts.getAccessToken(userId, { provider: "google" }).pipe(Effect.provide(serverLayer(emulator)))
      expect(otherProvider).toEqual(Option.none())
    }))

  it.effect("getOAuthProvider finds one connection by its id, on the client and the server; an unknown id is none", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { userId, connections } = yield* signInWithGithub(emulator, "octo@example.com")
      const id = connections[0]!.id
      const found = yield* ServerConnectedAccounts.getOAuthProvider(userId, id).pipe(Effect.provide(serverLayer(emulator)))
      expect(Option.getOrThrow(found)).toMatchObject({ id, providerConfigId: "github", accountId: "octo@example.com" })
      const missing = yield* ServerConnectedAccounts.getOAuthProvider(userId, "00000000-0000-4000-8000-000000000000").pipe(
        Effect.provide(serverLayer(emulator))
      )
      expect(missing).toEqual(Option.none())
    }))

  it.effect("an unknown user is UserNotFound; a user id that is not a uuid is InvalidArgument", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const unknown = yield* Effect.flip(ServerConnectedAccounts.list("8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11").pipe(Effect.provide(serverLayer(emulator))))
      expect(unknown._tag).toBe("UserNotFound")
      const malformed = yield* Effect.flip(
        ServerConnectedAccounts.getAccessToken("not-a-uuid", { provider: "github" }).pipe(Effect.provide(serverLayer(emulator)))
      )
      expect(malformed._tag).toBe("InvalidArgument")
    }))
})
