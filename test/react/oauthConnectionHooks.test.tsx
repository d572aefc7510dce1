// @vitest-environment happy-dom
/**
 * Issue 29 item 6: the hooks `useOAuthProvider`, `useOrLinkConnectedAccount` and the connection's
 * `useConnectionAccessToken` (the official `user.useOAuthProvider(id)`,
 * `user.useOrLinkConnectedAccount(provider, { scopes })`, `connection.useAccessToken({ scopes })`,
 * `packages/template/src/lib/stack-app/users/index.ts` at 2f719903), their Suspense twins, and
 * the server's `useServerOAuthProvider`, against the in-process emulator: a password user gets a
 * GitHub connection from the server (`POST /oauth-providers`, backend
 * `apps/backend/src/app/api/latest/oauth-providers/crud.tsx` at 2f719903).
 */
import { configure, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Layer, ManagedRuntime, Redacted } from "effect"
import { Suspense, version as reactVersion } from "react"
import { describe, expect, it } from "vitest"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as ServerConnectedAccounts from "../../src/connected-accounts/ServerConnectedAccounts.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import type { ConnectedAccount } from "../../src/connected-accounts/internal/connectedAccounts.js"
import {
  makeStackHooks,
  StackProvider,
  useConnectedAccount,
  useConnectionAccessToken,
  useOAuthProvider,
  useOrLinkConnectedAccount,
  useStackMutation,
  useSuspenseOAuthProvider
} from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"
import { password } from "./support.js"

configure({ asyncUtilTimeout: 10_000 })

let app: App

useFreshApp((made) => (app = made))

const text = (id: string) => screen.getByTestId(id).textContent

const serverRuntime = () =>
  ManagedRuntime.make(
    Stack.layerServer({
      projectId: app.emulator.demo.projectId,
      publishableClientKey: app.emulator.demo.publishableClientKey,
      secretServerKey: app.emulator.demo.secretServerKey,
      httpClient: Emulator.layerHttpClient(app.emulator),
      tokenStore: "memory"
    })
  )

/** Signs a password user up in the app and gives it a GitHub connection (server access). */
const userWithGithub = async (email: string) => {
  const user = await app.signUp(email)
  const server = serverRuntime()
  try {
    const connection = await server.runPromise(ServerConnectedAccounts.createOAuthProvider({
      userId: user.userId,
      providerConfigId: "github",
      accountId: `gh-${email}`,
      allowSignIn: true,
      allowConnectedAccounts: true
    }))
    return { userId: user.userId, connection }
  } finally {
    await server.dispose()
  }
}

describe(`React ${reactVersion}: useOAuthProvider`, () => {
  it("shows one connection by id and follows a change made through the SDK; null for an unknown id", async () => {
    const { connection } = await userWithGithub("hook-provider@example.com")
    const Connection = () => {
      const found = useOAuthProvider(connection.id)
      const unknown = useOAuthProvider("00000000-0000-4000-8000-000000000000")
      const switchOff = useStackMutation(() => ConnectedAccounts.updateOAuthProvider(connection.id, { allowConnectedAccounts: false }))
      if (found.status !== "success" || unknown.status !== "success") return <span data-testid="provider">loading</span>
      return (
        <>
          <span data-testid="provider">
            {found.data === null ? "none" : `${found.data.providerConfigId}:${found.data.allowConnectedAccounts}`}|{unknown.data === null ? "null" : "found"}
          </span>
          <button onClick={() => void switchOff.run()}>off</button>
        </>
      )
    }
    render(
      <StackProvider runtime={app.runtime}>
        <Connection />
      </StackProvider>
    )
    await waitFor(() => expect(text("provider")).toBe("github:true|null"))
    fireEvent.click(screen.getByText("off"))
    await waitFor(() => expect(text("provider")).toBe("github:false|null"))
  })

  it("useSuspenseOAuthProvider suspends, then shows the connection", async () => {
    const { connection } = await userWithGithub("hook-suspense-provider@example.com")
    const Connection = () => {
      const found = useSuspenseOAuthProvider(connection.id)
      return <span data-testid="suspense-provider">{found?.allowSignIn === true ? "signs in" : "no"}</span>
    }
    render(
      <StackProvider runtime={app.runtime}>
        <Suspense fallback={<span data-testid="suspense-provider">suspended</span>}>
          <Connection />
        </Suspense>
      </StackProvider>
    )
    await waitFor(() => expect(text("suspense-provider")).toBe("signs in"))
  })
})

describe(`React ${reactVersion}: useOrLinkConnectedAccount and the connection's token hook`, () => {
  it("an existing connection is answered without navigating; its token comes from useConnectionAccessToken", async () => {
    const email = "hook-orlink@example.com"
    await userWithGithub(email)
    const Token = (props: { readonly connection: ConnectedAccount }) => {
      const token = useConnectionAccessToken(props.connection)
      const scoped = useConnectionAccessToken(props.connection, { scopes: ["admin:org"] })
      if (token.status !== "success" || scoped.status === "loading") return <span data-testid="token">loading</span>
      return <span data-testid="token">{Redacted.value(token.data.accessToken).length}|{scoped.error?._tag ?? "ok"}</span>
    }
    const GitHub = () => {
      const github = useOrLinkConnectedAccount("github")
      return github.status === "success" ? <Token connection={github.data} /> : <span data-testid="token">{github.status}</span>
    }
    render(
      <StackProvider runtime={app.runtime}>
        <GitHub />
      </StackProvider>
    )
    await waitFor(() => expect(text("token")).toBe("43|OauthAccessTokenNotAvailable"))
    expect(app.count("POST /connected-accounts/me/github/gh-hook-orlink%40example.com/access-token")).toBeGreaterThanOrEqual(2)
  })

  it("no connection: the page goes to the provider with the scopes (the runtime's OAuthBrowser) and the Suspense twin stays suspended", async () => {
    const page = OAuthBrowser.makeMemory({ url: "http://localhost:3000/settings" })
    const runtime = ManagedRuntime.make(
      Layer.merge(
        Stack.layerClient({
          projectId: app.emulator.demo.projectId,
          publishableClientKey: app.emulator.demo.publishableClientKey,
          httpClient: Emulator.layerHttpClient(app.emulator),
          tokenStore: "memory"
        }),
        page.layer
      )
    )
    try {
      await runtime.runPromise(Password.signUpWithPassword({ email: "hook-link@example.com", password, noVerificationCallback: true }))
      const hooks = makeStackHooks(runtime)
      const Google = () => {
        const google = hooks.useSuspenseOrLinkConnectedAccount("google", { scopes: ["calendar"] })
        return <span data-testid="google">{google.provider}</span>
      }
      const Plain = () => {
        const google = useOrLinkConnectedAccount("google", { scopes: ["calendar"] })
        return <span data-testid="plain">{google.status}</span>
      }
      render(
        <StackProvider runtime={runtime}>
          <Plain />
          <Suspense fallback={<span data-testid="google">suspended</span>}>
            <Google />
          </Suspense>
        </StackProvider>
      )
      await waitFor(() => expect(page.navigations.length).toBeGreaterThanOrEqual(1))
      const provider = new URL(page.navigations[0]!)
      expect(provider.pathname).toBe("/api/v1/emulator/oauth-provider/google/authorize")
      expect(provider.searchParams.get("scope")?.split(" ")).toContain("calendar")
      expect(text("google")).toBe("suspended")
      expect(text("plain")).toBe("loading")
    } finally {
      await runtime.dispose()
    }
  })
})

describe(`React ${reactVersion}: useConnectedAccount({ provider, providerAccountId })`, () => {
  it("finds the account by provider and account id, null for another account id", async () => {
    const email = "hook-account-ref@example.com"
    await userWithGithub(email)
    const Account = () => {
      const found = useConnectedAccount({ provider: "github", providerAccountId: `gh-${email}` })
      const other = useConnectedAccount({ provider: "github", providerAccountId: "someone-else" })
      if (found.status !== "success" || other.status !== "success") return <span data-testid="account">loading</span>
      return <span data-testid="account">{found.data?.providerAccountId ?? "none"}|{other.data === null ? "null" : "found"}</span>
    }
    render(
      <StackProvider runtime={app.runtime}>
        <Account />
      </StackProvider>
    )
    await waitFor(() => expect(text("account")).toBe(`gh-${email}|null`))
  })
})

describe(`React ${reactVersion}: useServerOAuthProvider`, () => {
  it("a server runtime's hook reads any user's connection by id, with its account id", async () => {
    const { userId, connection } = await userWithGithub("hook-server-provider@example.com")
    const server = serverRuntime()
    try {
      const hooks = makeStackHooks(server)
      const Connection = () => {
        const found = hooks.useServerOAuthProvider(userId, connection.id)
        return <span data-testid="server-provider">{found.status === "success" ? found.data?.accountId ?? "null" : "loading"}</span>
      }
      render(
        <StackProvider runtime={server}>
          <Connection />
        </StackProvider>
      )
      await waitFor(() => expect(text("server-provider")).toBe("gh-hook-server-provider@example.com"))
    } finally {
      await server.dispose()
    }
  })
})
