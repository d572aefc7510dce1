/**
 * Issue 29 item 3: a user's OAuth connections against the in-process emulator — the
 * `OAuthConnection` values of `ConnectedAccounts.list` (each with its own `getAccessToken`),
 * `get` by account and by provider (`or: "return-null" | "throw" | "redirect"`), `getOrLink`,
 * `updateOAuthProvider` / `deleteOAuthProvider` (client and server) and the server's
 * `createOAuthProvider`, as the service answers them (backend
 * `apps/backend/src/app/api/latest/oauth-providers/crud.tsx` and
 * `apps/backend/src/app/api/latest/connected-accounts/[user_id]/[provider_id]/[provider_account_id]/access-token/crud.tsx`
 * at 2f719903; the official semantics from `packages/template/src/lib/stack-app/apps/implementations/client-app-impl.ts`
 * at 2f719903: `getConnectedAccount`, `getOrLinkConnectedAccount`, `_createOAuthConnectionFromCrudItem`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Option, Redacted } from "effect"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as ServerConnectedAccounts from "../../src/connected-accounts/ServerConnectedAccounts.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

const appUrl = "http://localhost:3000"

/** A client app on a memory page whose navigations to the mock provider are approved as `email`. */
const clientApp = (emulator: Emulator.Emulator, email: string, navigated?: Deferred.Deferred<string>) => {
  const page = OAuthBrowser.makeMemory({
    url: `${appUrl}/settings`,
    onNavigate: (url) =>
      Effect.gen(function* () {
        if (navigated !== undefined) yield* Deferred.succeed(navigated, url)
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
  return { page, layer: Layer.merge(client, page.layer) }
}

const serverLayer = (emulator: Emulator.Emulator) =>
  Stack.layerServer({
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    secretServerKey: emulator.demo.secretServerKey,
    httpClient: Emulator.layerHttpClient(emulator)
  })

const signInWithGithub = Effect.gen(function* () {
  yield* OAuth.signInWithOAuth({ provider: "github" })
  yield* OAuth.handleCallback()
  return Option.getOrThrow(yield* Users.getCurrent())
})

describe("OAuthConnection values", () => {
  it.effect("ConnectedAccounts.list gives connections whose getAccessToken asks the account's route; a missing scope is OauthAccessTokenNotAvailable", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { layer } = clientApp(emulator, "octo@example.com")
      const outcome = yield* Effect.gen(function* () {
        const user = yield* signInWithGithub
        const connections = yield* ConnectedAccounts.list()
        const token = yield* connections[0]!.getAccessToken()
        const scoped = yield* Effect.flip(connections[0]!.getAccessToken({ scopes: ["admin:org"] }))
        return { user, connections, token, scoped }
      }).pipe(Effect.provide(layer))
      expect(outcome.connections).toMatchObject([{ userId: outcome.user.id, provider: "github", providerAccountId: "octo@example.com" }])
      expect(Redacted.value(outcome.token.accessToken)).toHaveLength(43)
      // the official SDK's Result.error: OAuthAccessTokenNotAvailable(provider, details)
      expect(outcome.scoped._tag).toBe("OauthAccessTokenNotAvailable")
      if (outcome.scoped._tag === "OauthAccessTokenNotAvailable") {
        expect(outcome.scoped.details.provider).toBe("github")
        expect(outcome.scoped.details.details).toContain("The requested scopes [admin:org] are not available on the existing token.")
      }
    }))

  it.effect("get by { provider, providerAccountId }: the connection or none", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { layer } = clientApp(emulator, "octo@example.com")
      const outcome = yield* Effect.gen(function* () {
        yield* signInWithGithub
        const found = yield* ConnectedAccounts.get({ provider: "github", providerAccountId: "octo@example.com" })
        const other = yield* ConnectedAccounts.get({ provider: "github", providerAccountId: "someone@example.com" })
        return { found, other }
      }).pipe(Effect.provide(layer))
      expect(Option.map(outcome.found, (connection) => connection.providerAccountId)).toEqual(Option.some("octo@example.com"))
      expect(outcome.other).toEqual(Option.none())
    }))

  it.effect("get by provider: a usable connection; none (return-null); OauthAccessTokenNotAvailable (throw)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { page, layer } = clientApp(emulator, "octo@example.com")
      const outcome = yield* Effect.gen(function* () {
        yield* signInWithGithub
        const github = yield* ConnectedAccounts.get("github")
        const thrown = yield* ConnectedAccounts.get("github", { or: "throw" })
        const missingScope = yield* ConnectedAccounts.get("github", { scopes: ["admin:org"] })
        const google = yield* ConnectedAccounts.get("google", { or: "return-null" })
        const refused = yield* Effect.flip(ConnectedAccounts.get("google", { or: "throw", scopes: ["calendar"] }))
        return { github, thrown, missingScope, google, refused }
      }).pipe(Effect.provide(layer))
      expect(Option.map(outcome.github, (connection) => connection.provider)).toEqual(Option.some("github"))
      expect(outcome.thrown.providerAccountId).toBe("octo@example.com")
      expect(outcome.missingScope).toEqual(Option.none())
      expect(outcome.google).toEqual(Option.none())
      expect(outcome.refused._tag).toBe("OauthAccessTokenNotAvailable")
      // only the sign-in navigated: none of these starts a link flow
      expect(page.navigations).toHaveLength(1)
    }))

  it.effect("get by provider with or: 'redirect' (and getOrLink) starts the link flow with the scopes and never completes; after the callback it answers", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const navigated = yield* Deferred.make<string>()
      const { layer } = clientApp(emulator, "octo@example.com", navigated)
      const outcome = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* OAuth.handleCallback()
        const signInNavigation = yield* Deferred.await(navigated)
        const linkNavigated = yield* Deferred.make<string>()
        // a second page that reports its navigation: the link flow of `get(…, { or: "redirect" })`
        const fiber = yield* Effect.forkChild(
          ConnectedAccounts.get("google", { or: "redirect", scopes: ["calendar"] }).pipe(
            Effect.provideService(OAuthBrowser.OAuthBrowser, {
              ...(yield* OAuthBrowser.OAuthBrowser),
              navigate: (url) => Effect.andThen(Deferred.succeed(linkNavigated, url), Effect.void)
            })
          )
        )
        const linkUrl = yield* Deferred.await(linkNavigated)
        yield* Fiber.interrupt(fiber)
        const exit = yield* Fiber.await(fiber)
        return { signInNavigation, linkUrl, exit }
      }).pipe(Effect.provide(layer))
      expect(new URL(outcome.signInNavigation).pathname).toBe("/api/v1/emulator/oauth-provider/github/authorize")
      const link = new URL(outcome.linkUrl)
      expect(link.pathname).toBe("/api/v1/emulator/oauth-provider/google/authorize")
      expect(link.searchParams.get("scope")?.split(" ")).toContain("calendar")
      // it never completed: only the interruption ended it
      expect(Exit.hasInterrupts(outcome.exit)).toBe(true)
    }))

  it.effect("getOrLink answers an existing usable connection without navigating, and links one that is missing", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { page, layer } = clientApp(emulator, "octo@example.com")
      const outcome = yield* Effect.gen(function* () {
        const user = yield* signInWithGithub
        const existing = yield* ConnectedAccounts.getOrLink("github")
        // the page approves at once: the link flow's callback lands on the page, the fiber waits forever
        const fiber = yield* Effect.forkChild(ConnectedAccounts.getOrLink("google", { scopes: ["calendar"] }))
        // wait until the page has landed on the link flow's callback (or the fiber ended early)
        while (!(page.navigations.length >= 2 && page.url().includes("code=")) && fiber.pollUnsafe() === undefined) yield* Effect.yieldNow
        expect(fiber.pollUnsafe()).toBeUndefined()
        yield* Fiber.interrupt(fiber)
        yield* OAuth.handleCallback()
        const linked = yield* ConnectedAccounts.getOrLink("google", { scopes: ["calendar"] })
        const after = Option.getOrThrow(yield* Users.getCurrent())
        return { user, existing, linked, after }
      }).pipe(Effect.provide(layer))
      expect(outcome.existing.provider).toBe("github")
      expect(outcome.linked).toMatchObject({ provider: "google", providerAccountId: "octo@example.com", userId: outcome.user.id })
      expect(outcome.after.id).toBe(outcome.user.id)
      expect(page.navigations).toHaveLength(2)
    }))
})

describe("a user's OAuth provider connections: update and delete", () => {
  it.effect("client: switching connected-account use off removes it from the list (the cached lists refresh); delete removes the connection", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { layer } = clientApp(emulator, "octo@example.com")
      const outcome = yield* Effect.gen(function* () {
        yield* signInWithGithub
        const [connection] = yield* ConnectedAccounts.listOAuthProviders()
        const before = yield* ConnectedAccounts.list()
        const updated = yield* ConnectedAccounts.updateOAuthProvider(connection!.id, { allowConnectedAccounts: false })
        const accountsAfter = yield* ConnectedAccounts.list()
        const read = yield* ConnectedAccounts.getOAuthProvider(connection!.id)
        yield* ConnectedAccounts.deleteOAuthProvider(connection!.id)
        const gone = yield* ConnectedAccounts.getOAuthProvider(connection!.id)
        const again = yield* Effect.flip(ConnectedAccounts.deleteOAuthProvider(connection!.id))
        return { connection: connection!, before, updated, accountsAfter, read, gone, again }
      }).pipe(Effect.provide(layer))
      expect(outcome.before).toHaveLength(1)
      expect(outcome.updated).toMatchObject({ id: outcome.connection.id, allowSignIn: true, allowConnectedAccounts: false })
      // client views carry no account id (oauthProviderClientReadSchema)
      expect(outcome.updated.accountId).toBeUndefined()
      expect(outcome.accountsAfter).toEqual([])
      expect(Option.map(outcome.read, (connection) => connection.allowConnectedAccounts)).toEqual(Option.some(false))
      expect(outcome.gone).toEqual(Option.none())
      // the service's 404 text "OAuth provider {id} for user {user_id} not found" (ensureProviderExists)
      expect(outcome.again._tag).toBe("OAuthProviderNotFound")
      if (outcome.again._tag === "OAuthProviderNotFound") {
        expect(outcome.again.message).toBe(`OAuth provider ${outcome.connection.id} for user ${outcome.connection.userId} not found`)
      }
    }))

  it.effect("client: an id that is not a uuid is InvalidArgument; turning sign-in on while another connection of the project signs in is OauthProviderAccountIdAlreadyUsedForSignIn", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      // a second user who signs in with GitHub: the service's check on PATCH has no account filter
      yield* Effect.gen(function* () {
        yield* signInWithGithub
      }).pipe(Effect.provide(clientApp(emulator, "someone@example.com").layer))
      const { layer } = clientApp(emulator, "octo@example.com")
      const outcome = yield* Effect.gen(function* () {
        yield* signInWithGithub
        const [connection] = yield* ConnectedAccounts.listOAuthProviders()
        yield* ConnectedAccounts.updateOAuthProvider(connection!.id, { allowSignIn: false })
        const refused = yield* Effect.flip(ConnectedAccounts.updateOAuthProvider(connection!.id, { allowSignIn: true }))
        const malformed = yield* Effect.flip(ConnectedAccounts.updateOAuthProvider("not-a-uuid", { allowSignIn: false }))
        return { refused, malformed }
      }).pipe(Effect.provide(layer))
      expect(outcome.refused._tag).toBe("OauthProviderAccountIdAlreadyUsedForSignIn")
      expect(outcome.malformed._tag).toBe("InvalidArgument")
    }))

  it.effect("server: createOAuthProvider (201, with accountId), the service's refusals in its order, update of email and account id, delete", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* signInWithGithub.pipe(Effect.provide(clientApp(emulator, "octo@example.com").layer))
      const outcome = yield* Effect.gen(function* () {
        const created = yield* ServerConnectedAccounts.createOAuthProvider({
          userId: user.id,
          providerConfigId: "google",
          accountId: "google-octo",
          email: "octo@gmail.example",
          allowSignIn: false,
          allowConnectedAccounts: true
        })
        const unconfigured = yield* Effect.flip(ServerConnectedAccounts.createOAuthProvider({
          userId: "8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11",
          providerConfigId: "gitlab",
          accountId: "x",
          allowSignIn: false,
          allowConnectedAccounts: true
        }))
        const unknownUser = yield* Effect.flip(ServerConnectedAccounts.createOAuthProvider({
          userId: "8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11",
          providerConfigId: "google",
          accountId: "x",
          allowSignIn: false,
          allowConnectedAccounts: true
        }))
        const secondSignIn = yield* Effect.flip(ServerConnectedAccounts.createOAuthProvider({
          userId: user.id,
          providerConfigId: "github",
          accountId: "another-github",
          allowSignIn: true,
          allowConnectedAccounts: false
        }))
        const sameAccount = yield* Effect.flip(ServerConnectedAccounts.createOAuthProvider({
          userId: user.id,
          providerConfigId: "google",
          accountId: "google-octo",
          allowSignIn: false,
          allowConnectedAccounts: false
        }))
        const updated = yield* ServerConnectedAccounts.updateOAuthProvider(user.id, created.id, { email: "new@gmail.example", accountId: "google-octo-2" })
        const viaGet = yield* ServerConnectedAccounts.get(user.id, { provider: "google", providerAccountId: "google-octo-2" })
        yield* ServerConnectedAccounts.deleteOAuthProvider(user.id, created.id)
        const afterDelete = yield* ServerConnectedAccounts.getOAuthProvider(user.id, created.id)
        return { created, unconfigured, unknownUser, secondSignIn, sameAccount, updated, viaGet, afterDelete }
      }).pipe(Effect.provide(serverLayer(emulator)))
      expect(outcome.created).toMatchObject({
        userId: user.id,
        providerConfigId: "google",
        type: "google",
        accountId: "google-octo",
        email: "octo@gmail.example",
        allowSignIn: false,
        allowConnectedAccounts: true
      })
      // getProviderConfig runs before ensureUserExists: an unconfigured provider wins over an unknown user
      expect(outcome.unconfigured._tag).toBe("OAuthProviderNotConfigured")
      expect(outcome.unknownUser._tag).toBe("UserNotFound")
      expect(outcome.secondSignIn).toMatchObject({ _tag: "OAuthProviderConflict", reason: "sign-in" })
      expect(outcome.sameAccount).toMatchObject({ _tag: "OAuthProviderConflict", reason: "account" })
      expect(outcome.updated).toMatchObject({ email: "new@gmail.example", accountId: "google-octo-2" })
      expect(Option.isSome(outcome.viaGet)).toBe(true)
      expect(outcome.afterDelete).toEqual(Option.none())
    }))

  it.effect("server: get by provider with or: 'throw' gives the connection or OauthAccessTokenNotAvailable; the connection's token uses the user's route", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* signInWithGithub.pipe(Effect.provide(clientApp(emulator, "octo@example.com").layer))
      const outcome = yield* Effect.gen(function* () {
        const github = yield* ServerConnectedAccounts.get(user.id, "github", { or: "throw" })
        const token = yield* github.getAccessToken()
        const none = yield* ServerConnectedAccounts.get(user.id, "google")
        const thrown = yield* Effect.flip(ServerConnectedAccounts.get(user.id, "google", { or: "throw" }))
        return { github, token, none, thrown }
      }).pipe(Effect.provide(serverLayer(emulator)))
      expect(outcome.github).toMatchObject({ userId: user.id, provider: "github", providerAccountId: "octo@example.com" })
      expect(Redacted.value(outcome.token.accessToken)).toHaveLength(43)
      expect(outcome.none).toEqual(Option.none())
      expect(outcome.thrown._tag).toBe("OauthAccessTokenNotAvailable")
    }))
})
