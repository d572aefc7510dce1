// @vitest-environment happy-dom
/**
 * The hooks of the official React SDK that had no equivalent (issue 15): token hooks, server hooks
 * (from `makeStackHooks` over a runtime with server access), the signed-in user's team and project
 * permissions, received invitations, connected accounts, the CLI confirmation page, and
 * `useUser({ or: "anonymous" })`. Against the in-process emulator.
 */
import { configure, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Effect, ManagedRuntime, Option, Redacted } from "effect"
import { version as reactVersion } from "react"
import type { ReactNode } from "react"
import { describe, expect, it } from "vitest"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Cli from "../../src/auth/Cli.js"
import { Session } from "../../src/core/Session.js"
import * as Emulator from "../../src/emulator/index.js"
import * as TeamInvitations from "../../src/teams/TeamInvitations.js"
import * as Teams from "../../src/teams/Teams.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import {
  makeStackHooks,
  StackProvider,
  useAccessToken,
  useAuthHeaders,
  useAuthJson,
  useAuthorizationHeader,
  useCliAuthConfirmation,
  useConnectedAccount,
  useConnectedAccounts,
  usePermissions,
  useProjectPermissions,
  useReceivedInvitations,
  useRefreshToken,
  useUser
} from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })
import type { App } from "./support.js"
import { makeApp } from "./support.js"

let app: App

useFreshApp((made) => (app = made))

const Provider = (props: { readonly children: ReactNode }) => <StackProvider runtime={app.runtime}>{props.children}</StackProvider>

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

describe(`React ${reactVersion}: token hooks`, () => {
  const Tokens = () => {
    const access = useAccessToken()
    const refresh = useRefreshToken()
    const json = useAuthJson()
    const headers = useAuthHeaders()
    const authorization = useAuthorizationHeader()
    if (
      access.status !== "success" || refresh.status !== "success" || json.status !== "success" || headers.status !== "success" ||
      authorization.status !== "success"
    ) {
      return <span data-testid="tokens">loading</span>
    }
    const consistent = json.data.accessToken === access.data &&
      json.data.refreshToken === refresh.data &&
      headers.data["x-stack-auth"] === JSON.stringify(json.data) &&
      (access.data === null
        ? authorization.data === null
        : authorization.data === `Bearer stackauth_${btoa(JSON.stringify(json.data))}`)
    return (
      <span data-testid="tokens">
        {access.data === null ? "signed-out" : `${access.data.split(".").length}-part access token`}
        {consistent ? "" : " (inconsistent)"}
      </span>
    )
  }

  it("useAccessToken, useRefreshToken, useAuthJson, useAuthHeaders and useAuthorizationHeader follow sign-in and sign-out, and agree", async () => {
    render(
      <Provider>
        <Tokens />
      </Provider>
    )
    await waitFor(() => expect(text("tokens")).toBe("signed-out"))
    await app.signUp("tokens@example.com")
    await waitFor(() => expect(text("tokens")).toBe("3-part access token"))
    await app.signOut()
    await waitFor(() => expect(text("tokens")).toBe("signed-out"))
  })

  it("the access token shown is the session's own (the one the SDK sends)", async () => {
    await app.signUp("same@example.com")
    let shown: string | null | undefined
    const Access = () => {
      const access = useAccessToken()
      shown = access.data
      return <span data-testid="access">{access.status}</span>
    }
    render(
      <Provider>
        <Access />
      </Provider>
    )
    await waitFor(() => expect(text("access")).toBe("success"))
    const tokens = await app.runtime.runPromise(Effect.flatMap(Session, (session) => session.current))
    expect(shown).toBe(Redacted.value(Option.getOrThrow(tokens.accessToken)))
  })
})

describe(`React ${reactVersion}: useUser({ or: "anonymous" })`, () => {
  const Who = (props: { readonly id: number; readonly or: "anonymous" | "anonymous-if-exists" | "return-null" }) => {
    const user = useUser({ or: props.or })
    return (
      <span data-testid={`who-${props.id}`}>
        {user.status === "success" ? (user.data === null ? "nobody" : user.data.isAnonymous ? "anonymous" : "signed-in") : user.status}
      </span>
    )
  }

  it("three components asking for an anonymous user make one (one sign-up request), and all show it", async () => {
    render(
      <Provider>
        <Who id={0} or="anonymous" />
        <Who id={1} or="anonymous" />
        <Who id={2} or="anonymous" />
      </Provider>
    )
    await waitFor(() => {
      for (const id of [0, 1, 2]) expect(text(`who-${id}`)).toBe("anonymous")
    })
    expect(app.count("POST /auth/anonymous/sign-up")).toBe(1)
  })

  it("an anonymous session: 'return-null' shows nobody, 'anonymous-if-exists' shows the anonymous user; neither signs up", async () => {
    await app.runtime.runPromise(Anonymous.signUp())
    render(
      <Provider>
        <Who id={0} or="return-null" />
        <Who id={1} or="anonymous-if-exists" />
      </Provider>
    )
    await waitFor(() => {
      expect(text("who-0")).toBe("nobody")
      expect(text("who-1")).toBe("anonymous")
    })
    expect(app.count("POST /auth/anonymous/sign-up")).toBe(1)
  })

  it("nobody signed in: 'anonymous-if-exists' shows nobody and sends no sign-up", async () => {
    render(
      <Provider>
        <Who id={0} or="anonymous-if-exists" />
      </Provider>
    )
    await waitFor(() => expect(text("who-0")).toBe("nobody"))
    expect(app.count("POST /auth/anonymous/sign-up")).toBe(0)
  })
})

describe(`React ${reactVersion}: permissions, invitations and connected accounts of the signed-in user`, () => {
  it("usePermissions lists the team-creator's permissions (contained ones included) and useProjectPermissions the project's", async () => {
    await app.signUp("perm@example.com")
    const team = await app.runtime.runPromise(Teams.create({ displayName: "Perm team" }))
    const Lists = () => {
      const team_ = usePermissions(team.id)
      const project = useProjectPermissions()
      return (
        <>
          <span data-testid="team">{team_.status === "success" ? team_.data.map((permission) => permission.id).join(",") : team_.status}</span>
          <span data-testid="project">{project.status === "success" ? String(project.data.length) : project.status}</span>
        </>
      )
    }
    render(
      <Provider>
        <Lists />
      </Provider>
    )
    await waitFor(() => expect(text("team")).toContain("team_admin"))
    expect(text("team")!.split(",").length).toBeGreaterThan(1)
    await waitFor(() => expect(text("project")).toBe("0"))
  })

  it("useReceivedInvitations shows an invitation sent to the user's verified e-mail", async () => {
    const server = serverRuntime()
    try {
      const email = "invited@example.com"
      await app.signUp(email)
      const me = Option.getOrThrow(await app.runtime.runPromise(Users.getCurrent()))
      await server.runPromise(ServerUsers.update(me.id, { primaryEmailVerified: true }))
      const other = await makeApp(app.emulator, undefined, { tokenStore: "memory" })
      try {
        await other.signUp("inviter@example.com")
        const otherTeam = await other.runtime.runPromise(Teams.create({ displayName: "Other team" }))
        await other.runtime.runPromise(TeamInvitations.send({ teamId: otherTeam.id, email, callbackUrl: "http://localhost:3000/handler/team-invitation" }))
        const Received = () => {
          const invitations = useReceivedInvitations()
          return (
            <span data-testid="received">
              {invitations.status === "success" ? invitations.data.map((item) => item.teamDisplayName).join(",") : invitations.status}
            </span>
          )
        }
        render(
          <Provider>
            <Received />
          </Provider>
        )
        await waitFor(() => expect(text("received")).toBe("Other team"))
      } finally {
        await other.dispose()
      }
    } finally {
      await server.dispose()
    }
  })

  it("useConnectedAccounts is empty and useConnectedAccount(provider) null for a password user", async () => {
    await app.signUp("accounts@example.com")
    const Accounts = () => {
      const all = useConnectedAccounts()
      const github = useConnectedAccount("github")
      return (
        <span data-testid="accounts">
          {all.status === "success" && github.status === "success" ? `${all.data.length}:${github.data === null ? "none" : github.data.provider}` : "loading"}
        </span>
      )
    }
    render(
      <Provider>
        <Accounts />
      </Provider>
    )
    await waitFor(() => expect(text("accounts")).toBe("0:none"))
  })
})

describe(`React ${reactVersion}: useCliAuthConfirmation`, () => {
  it("the page shows the CLI has no anonymous session; confirming hands the session to the CLI, whose poll then succeeds", async () => {
    await app.signUp("cli@example.com")
    const cli = await makeApp(app.emulator, undefined, { tokenStore: "memory" })
    try {
      const attempt = await cli.runtime.runPromise(Cli.initiate())
      const Confirm = () => {
        const page = useCliAuthConfirmation(attempt.loginCode)
        return (
          <>
            <span data-testid="state">{page.sessionState.status === "success" ? page.sessionState.data : page.sessionState.status}</span>
            <span data-testid="done">{page.confirm.data === true ? "done" : page.confirm.pending ? "pending" : "idle"}</span>
            <button type="button" onClick={() => void page.confirm.run()}>
              authorize
            </button>
          </>
        )
      }
      render(
        <Provider>
          <Confirm />
        </Provider>
      )
      await waitFor(() => expect(text("state")).toBe("none"))
      fireEvent.click(screen.getByRole("button"))
      await waitFor(() => expect(text("done")).toBe("done"))
      const answer = await cli.runtime.runPromise(Cli.poll(attempt.pollingCode))
      expect(answer.status).toBe("success")
    } finally {
      await cli.dispose()
    }
  })

  it("an unknown login code: confirm shows CliInvalidLoginCode and the provider's onError is not called", async () => {
    await app.signUp("cli-bad@example.com")
    const reported: Array<unknown> = []
    const Confirm = () => {
      const page = useCliAuthConfirmation("not-a-login-code")
      return (
        <>
          <span data-testid="error">{page.confirm.error === undefined ? "none" : page.confirm.error._tag}</span>
          <button type="button" onClick={() => void page.confirm.run()}>
            authorize
          </button>
        </>
      )
    }
    render(
      <StackProvider runtime={app.runtime} onError={(error) => reported.push(error)}>
        <Confirm />
      </StackProvider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(text("error")).toBe("CliInvalidLoginCode"))
    expect(reported.filter((error) => (error as { readonly _tag?: string })._tag === "CliInvalidLoginCode")).toEqual([])
  })
})

describe(`React ${reactVersion}: server hooks from makeStackHooks over a runtime with server access`, () => {
  it("useServerUser(id), useServerUsers, useServerTeam(id), useServerTeams and useTeamMemberPermissions read with server access", async () => {
    const server = serverRuntime()
    try {
      await app.signUp("server-hooks@example.com")
      const me = Option.getOrThrow(await app.runtime.runPromise(Users.getCurrent()))
      const team = await app.runtime.runPromise(Teams.create({ displayName: "Server hooks team" }))
      const hooks = makeStackHooks(server)
      const View = () => {
        const user = hooks.useServerUser(me.id)
        const missing = hooks.useServerUser("00000000-0000-4000-8000-000000000000")
        const users = hooks.useServerUsers({ limit: 10 })
        const oneTeam = hooks.useServerTeam(team.id)
        const teams = hooks.useServerTeams({ userId: me.id })
        const permissions = hooks.useTeamMemberPermissions(team.id, me.id)
        const ready = [user, missing, users, oneTeam, teams, permissions].every((result) => result.status === "success")
        if (!ready) return <span data-testid="server">loading</span>
        return (
          <span data-testid="server">
            {[
              user.data?.primaryEmail,
              missing.data === null ? "missing:null" : "missing:?",
              `users:${users.data?.items.length}`,
              oneTeam.data?.displayName,
              `teams:${teams.data?.map((item) => item.displayName).join("+")}`,
              permissions.data?.some((permission) => permission.id === "team_admin") ? "admin" : "not-admin"
            ].join("|")}
          </span>
        )
      }
      render(
        <StackProvider runtime={server}>
          <View />
        </StackProvider>
      )
      await waitFor(() =>
        expect(text("server")).toBe(
          "server-hooks@example.com|missing:null|users:2|Server hooks team|teams:Server hooks team|admin"
        )
      )
    } finally {
      await server.dispose()
    }
  })
})
