/**
 * Type tests of issue 29 items 3, 6, 7, 8: the unions of `ConnectedAccounts.get` per `or`, the
 * errors of a connection's own `getAccessToken` and of the connection changes, the server's
 * `createOAuthProvider`, the `baseUrl` option, `ServerTeams.ListOptions`, and the new hooks typed
 * by the runtime (client hooks with a client runtime, server hooks only with server access).
 * Checked by `tsc`; a no-op at run time.
 */
import { ManagedRuntime, type Option } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { OAuthBrowser, OAuthBrowserUnavailable } from "../../src/auth/OAuthBrowser.js"
import type { ServerAccess } from "../../src/core/Access.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as ServerConnectedAccounts from "../../src/connected-accounts/ServerConnectedAccounts.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type * as StackConfig from "../../src/core/StackConfig.js"
import type { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import { makeStackHooks } from "../../react/index.js"
import type { ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, Transport } from "./support.js"

type TokenErrors =
  | KnownErrors.OauthProviderNotFoundOrNotEnabled
  | KnownErrors.OauthAccessTokenNotAvailableWithSharedOauthKeys
  | KnownErrors.CannotGetOwnUserWithoutUser
  | ClientCommon
  | SessionCommon
  | UserNotSignedIn
  | Transport
  | InvalidArgument

describe("ConnectedAccounts: OAuthConnection and get", () => {
  it("a connection's getAccessToken answers { accessToken } and fails with OauthAccessTokenNotAvailable, not the service's two codes", () => {
    type Token = ReturnType<ConnectedAccounts.OAuthConnection["getAccessToken"]>
    expectTypeOf<ErrorOf<Token>>().toEqualTypeOf<TokenErrors | KnownErrors.OauthAccessTokenNotAvailable>()
    expectTypeOf<Extract<ErrorOf<Token>, KnownErrors.OauthConnectionDoesNotHaveRequiredScope>>().toEqualTypeOf<never>()
    expectTypeOf<Extract<ErrorOf<Token>, KnownErrors.OauthConnectionNotConnectedToUser>>().toEqualTypeOf<never>()
    expectTypeOf<SuccessOf<ReturnType<typeof ConnectedAccounts.list>>>().toEqualTypeOf<Array<ConnectedAccounts.OAuthConnection>>()
  })

  it("get: by account or with return-null an Option; with throw the connection and OauthAccessTokenNotAvailable; with redirect the page's service and the link errors", () => {
    const byAccount = ConnectedAccounts.get({ provider: "github", providerAccountId: "octo" })
    const orNull = ConnectedAccounts.get("github")
    const orThrow = ConnectedAccounts.get("github", { or: "throw", scopes: ["repo"] })
    const orRedirect = ConnectedAccounts.get("github", { or: "redirect" })
    expectTypeOf<SuccessOf<typeof byAccount>>().toEqualTypeOf<Option.Option<ConnectedAccounts.OAuthConnection>>()
    expectTypeOf<SuccessOf<typeof orNull>>().toEqualTypeOf<Option.Option<ConnectedAccounts.OAuthConnection>>()
    expectTypeOf<SuccessOf<typeof orThrow>>().toEqualTypeOf<ConnectedAccounts.OAuthConnection>()
    expectTypeOf<SuccessOf<typeof orRedirect>>().toEqualTypeOf<ConnectedAccounts.OAuthConnection>()
    expectTypeOf<ErrorOf<typeof orNull>>().toEqualTypeOf<TokenErrors>()
    expectTypeOf<ErrorOf<typeof orThrow>>().toEqualTypeOf<TokenErrors | KnownErrors.OauthAccessTokenNotAvailable>()
    expectTypeOf<Extract<ErrorOf<typeof orRedirect>, KnownErrors.RedirectUrlNotWhitelisted>>().toEqualTypeOf<KnownErrors.RedirectUrlNotWhitelisted>()
    expectTypeOf<RequirementsOf<typeof orNull>>().toEqualTypeOf<StackClient | Session>()
    expectTypeOf<RequirementsOf<typeof orRedirect>>().toEqualTypeOf<StackClient | Session | OAuthBrowser>()
    expectTypeOf<typeof ConnectedAccounts.getOrLink>().returns.toEqualTypeOf<typeof orRedirect>()
  })

  it("updateOAuthProvider / deleteOAuthProvider: the typed plain-text refusals", () => {
    type Update = ErrorOf<ReturnType<typeof ConnectedAccounts.updateOAuthProvider>>
    expectTypeOf<Extract<Update, { readonly _tag: "OAuthProviderNotFound" | "OAuthProviderConflict" | "OauthProviderAccountIdAlreadyUsedForSignIn" }>>()
      .toEqualTypeOf<
        ConnectedAccounts.OAuthProviderNotFound | ConnectedAccounts.OAuthProviderConflict | KnownErrors.OauthProviderAccountIdAlreadyUsedForSignIn
      >()
    expectTypeOf<ConnectedAccounts.OAuthProviderConflict["reason"]>().toEqualTypeOf<"sign-in" | "account">()
    expectTypeOf<Extract<ErrorOf<ReturnType<typeof ConnectedAccounts.deleteOAuthProvider>>, ConnectedAccounts.OAuthProviderNotFound>>()
      .toEqualTypeOf<ConnectedAccounts.OAuthProviderNotFound>()
    // a client may change only the two switches (the service's client update schema)
    expectTypeOf<keyof ConnectedAccounts.OAuthProviderClientUpdate>().toEqualTypeOf<"allowSignIn" | "allowConnectedAccounts">()
  })
})

describe("ServerConnectedAccounts", () => {
  it("createOAuthProvider needs server access and fails with the typed refusals in the service's order", () => {
    type Create = ReturnType<typeof ServerConnectedAccounts.createOAuthProvider>
    expectTypeOf<RequirementsOf<Create>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<ErrorOf<Create>>().toEqualTypeOf<
      | ServerConnectedAccounts.OAuthProviderNotConfigured
      | KnownErrors.UserNotFound
      | ConnectedAccounts.OAuthProviderNotFound
      | ConnectedAccounts.OAuthProviderConflict
      | KnownErrors.OauthProviderAccountIdAlreadyUsedForSignIn
      | ServerCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("get by provider: no redirect policy with server access", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof ServerConnectedAccounts.get<"throw">>>>().toEqualTypeOf<ServerConnectedAccounts.ServerOAuthConnection>()
    // @ts-expect-error the link flow is a client's (the official server user refuses it)
    ServerConnectedAccounts.get("u", "github", { or: "redirect" })
  })
})

describe("client options and list options", () => {
  it("baseUrl is a URL or { browser, server }; oauthScopesOnSignIn maps provider ids to scope lists", () => {
    expectTypeOf<StackConfig.StackConfigOptions["baseUrl"]>().toEqualTypeOf<string | StackConfig.BaseUrls | undefined>()
    expectTypeOf<StackConfig.StackConfigOptions["oauthScopesOnSignIn"]>().toEqualTypeOf<
      Readonly<Record<string, ReadonlyArray<string>>> | undefined
    >()
    Stack.layerClient({ projectId: "p", baseUrl: { browser: "https://a", server: "http://b" }, oauthScopesOnSignIn: { github: ["repo"] } })
  })

  it("ServerTeams.list takes exactly the service's list option, userId", () => {
    expectTypeOf<keyof ServerTeams.ListOptions>().toEqualTypeOf<"userId">()
    // @ts-expect-error the service's team list has no paging
    ServerTeams.list({ limit: 10 })
  })
})

const keys = { projectId: "p", publishableClientKey: "pck_x" }
const client = makeStackHooks(ManagedRuntime.make(Stack.layerClient(keys)))
const server = makeStackHooks(ManagedRuntime.make(Stack.layerServer({ ...keys, secretServerKey: "ssk_x" })))

/** Never called: hooks only run inside a component. */
const typeOnly = (_body: () => void): void => {}

describe("the new hooks, typed by the runtime", () => {
  it("a client runtime has useOAuthProvider, useOrLinkConnectedAccount, useConnectionAccessToken (and their Suspense twins), not the server's", () => {
    typeOnly(() => {
      const provider = client.useOAuthProvider("id")
      expectTypeOf(provider.data).toEqualTypeOf<ConnectedAccounts.OAuthProviderConnection | null | undefined>()
      const linked = client.useOrLinkConnectedAccount("github", { scopes: ["repo"] })
      expectTypeOf(linked.data).toEqualTypeOf<ConnectedAccounts.OAuthConnection | undefined>()
      // the page: the runtime's OAuthBrowser, else the browser's own (unavailable outside a browser); the link flow's errors
      expectTypeOf<Extract<NonNullable<typeof linked.error>, OAuthBrowserUnavailable | KnownErrors.RedirectUrlNotWhitelisted>>().toEqualTypeOf<
        OAuthBrowserUnavailable | KnownErrors.RedirectUrlNotWhitelisted
      >()
      const suspended: ConnectedAccounts.OAuthConnection = client.useSuspenseOrLinkConnectedAccount("github")
      const token = client.useSuspenseConnectionAccessToken(suspended, { scopes: ["repo"] })
      expectTypeOf(token.accessToken).toEqualTypeOf<SuccessOf<ReturnType<typeof ConnectedAccounts.getConnectionAccessToken>>["accessToken"]>()
      expectTypeOf(client.useConnectionAccessToken(suspended).error).toEqualTypeOf<
        ErrorOf<ReturnType<typeof ConnectedAccounts.getConnectionAccessToken>> | undefined
      >()
      expectTypeOf(client.useSuspenseOAuthProvider("id")).toEqualTypeOf<ConnectedAccounts.OAuthProviderConnection | null>()
      expectTypeOf(client.useConnectedAccount({ provider: "github", providerAccountId: "octo" }).data).toEqualTypeOf<
        ConnectedAccounts.OAuthConnection | null | undefined
      >()
      // @ts-expect-error the server hooks need a runtime with ServerAccess
      client.useServerOAuthProvider("user", "id")
    })
  })

  it("a server runtime adds the server hooks of a user's connections", () => {
    typeOnly(() => {
      expectTypeOf(server.useSuspenseServerOAuthProvider("user", "id")).toEqualTypeOf<ConnectedAccounts.OAuthProviderConnection | null>()
      expectTypeOf(server.useSuspenseServerOAuthProviders("user")).toEqualTypeOf<
        SuccessOf<ReturnType<typeof ServerConnectedAccounts.listOAuthProviders>>
      >()
      const connection = { userId: "u", provider: "github", providerAccountId: "octo" }
      expectTypeOf(server.useSuspenseServerConnectionAccessToken(connection)).toEqualTypeOf<
        SuccessOf<ReturnType<typeof ServerConnectedAccounts.getConnectionAccessToken>>
      >()
    })
  })
})
