// @vitest-environment happy-dom
/**
 * End to end over real HTTP (the emulator's Node server on 127.0.0.1, a counting `fetch`): the
 * hooks added for issue 15 through `makeStackHooks(runtime)` — the token hooks, `useMfaSignIn`,
 * `useCliAuthConfirmation`, `useUser({ or: "anonymous" })` and, over a runtime with server access,
 * the server hooks.
 */
import { cleanup, configure, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Effect, ManagedRuntime, Option, Redacted } from "effect"
import { version as reactVersion } from "react"
import { describe, expect, it } from "vitest"
import * as Cli from "../../src/auth/Cli.js"
import * as Mfa from "../../src/auth/Mfa.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import * as Stack from "../../src/Stack.js"
import * as TeamInvitations from "../../src/teams/TeamInvitations.js"
import * as Teams from "../../src/teams/Teams.js"
import * as Users from "../../src/users/Users.js"
import { makeStackHooks, StackProvider } from "../../react/index.js"
import { countingFetch } from "../e2e/support.js"
import { emulatorServerForFile, text, unique } from "./overHttp.js"
import { password } from "./support.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })

const { server: running, clientRuntime } = emulatorServerForFile()

describe(`React ${reactVersion} over HTTP: the issue 15 hooks`, () => {
  it("token hooks show the session's tokens and follow sign-in and sign-out", async () => {
    const runtime = clientRuntime()
    const { useAccessToken, useAuthHeaders } = makeStackHooks(runtime)
    try {
      const View = () => {
        const access = useAccessToken()
        const headers = useAuthHeaders()
        if (access.status !== "success" || headers.status !== "success") return <span data-testid="tokens">loading</span>
        const forwarded = JSON.parse(headers.data["x-stack-auth"]!) as { accessToken: string | null }
        return <span data-testid="tokens">{access.data === null ? "signed-out" : forwarded.accessToken === access.data ? "same" : "different"}</span>
      }
      render(
        <StackProvider runtime={runtime}>
          <View />
        </StackProvider>
      )
      await waitFor(() => expect(text("tokens")).toBe("signed-out"))
      await runtime.runPromise(Password.signUpWithPassword({ email: unique("tokens"), password, noVerificationCallback: true }))
      await waitFor(() => expect(text("tokens")).toBe("same"))
      await runtime.runPromise(Sessions.signOut())
      await waitFor(() => expect(text("tokens")).toBe("signed-out"))
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })

  it("useMfaSignIn: a TOTP user enters a wrong then the right code and is signed in (one password and two MFA requests)", async () => {
    const fetch = countingFetch()
    const runtime = clientRuntime(fetch)
    const { useMfaSignIn } = makeStackHooks(runtime)
    const email = unique("mfa")
    try {
      await runtime.runPromise(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
      const secret = Redacted.value((await runtime.runPromise(Mfa.enableTotp())).secret)
      await runtime.runPromise(Sessions.signOut())
      let submit: (code: string) => Promise<void> = async () => {}
      const Form = () => {
        const mfa = useMfaSignIn(() => Password.signInWithPassword({ email, password }))
        submit = mfa.submit
        return (
          <>
            <span data-testid="step">{mfa.state.step}</span>
            <button type="button" onClick={() => void mfa.signIn()}>
              sign in
            </button>
          </>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <Form />
        </StackProvider>
      )
      fireEvent.click(screen.getByRole("button"))
      await waitFor(() => expect(text("step")).toBe("needs-code"))
      const right = await Effect.runPromise(Totp.generate(secret))
      await submit(String((Number(right) + 500000) % 1000000).padStart(6, "0"))
      await waitFor(() => expect(text("step")).toBe("wrong-code"))
      await submit(right)
      await waitFor(() => expect(text("step")).toBe("signed-in"))
      expect(Option.getOrThrow(await runtime.runPromise(Users.getCurrent())).primaryEmail).toBe(email)
      expect(fetch.count("POST /auth/password/sign-in")).toBe(1)
      expect(fetch.count("POST /auth/mfa/sign-in")).toBe(2)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })

  it("useCliAuthConfirmation: the browser confirms and the CLI's poll succeeds", async () => {
    const browserRuntime = clientRuntime()
    const cliRuntime = clientRuntime()
    const { useCliAuthConfirmation } = makeStackHooks(browserRuntime)
    try {
      await browserRuntime.runPromise(Password.signUpWithPassword({ email: unique("cli"), password, noVerificationCallback: true }))
      const attempt = await cliRuntime.runPromise(Cli.initiate())
      const Confirm = () => {
        const page = useCliAuthConfirmation(attempt.loginCode)
        return (
          <>
            <span data-testid="state">{page.sessionState.status === "success" ? page.sessionState.data : page.sessionState.status}</span>
            <span data-testid="done">{page.confirm.data === true ? "done" : "idle"}</span>
            <button type="button" onClick={() => void page.confirm.run()}>
              authorize
            </button>
          </>
        )
      }
      render(
        <StackProvider runtime={browserRuntime}>
          <Confirm />
        </StackProvider>
      )
      await waitFor(() => expect(text("state")).toBe("none"))
      fireEvent.click(screen.getByRole("button"))
      await waitFor(() => expect(text("done")).toBe("done"))
      expect((await cliRuntime.runPromise(Cli.poll(attempt.pollingCode))).status).toBe("success")
    } finally {
      cleanup()
      await browserRuntime.dispose()
      await cliRuntime.dispose()
    }
  })

  it("useUser({ or: 'anonymous' }) in two components signs one anonymous user up", async () => {
    const fetch = countingFetch()
    const runtime = clientRuntime(fetch)
    const { useUser } = makeStackHooks(runtime)
    try {
      const Who = (props: { readonly id: number }) => {
        const user = useUser({ or: "anonymous" })
        return <span data-testid={`who-${props.id}`}>{user.status === "success" ? String(user.data.isAnonymous) : user.status}</span>
      }
      render(
        <StackProvider runtime={runtime}>
          <Who id={0} />
          <Who id={1} />
        </StackProvider>
      )
      await waitFor(() => {
        expect(text("who-0")).toBe("true")
        expect(text("who-1")).toBe("true")
      })
      expect(fetch.count("POST /auth/anonymous/sign-up")).toBe(1)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })

  it("server hooks over a runtime with the secret server key read any user and team", async () => {
    const client = clientRuntime()
    const fetch = countingFetch()
    const server = ManagedRuntime.make(
      Stack.layerServer({
        projectId: running().emulator.demo.projectId,
        publishableClientKey: running().emulator.demo.publishableClientKey,
        secretServerKey: running().emulator.demo.secretServerKey,
        baseUrl: running().baseUrl,
        httpClient: fetch.layer,
        tokenStore: "memory"
      })
    )
    const {
      useServerUser,
      useServerTeam,
      useServerTeams,
      useTeamMemberPermissions,
      useServerTeamInvitations,
      useServerConnectedAccounts,
      useServerReceivedInvitations
    } = makeStackHooks(server)
    try {
      const email = unique("server")
      await client.runPromise(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
      const me = Option.getOrThrow(await client.runPromise(Users.getCurrent()))
      const team = await client.runPromise(Teams.create({ displayName: "HTTP team" }))
      await client.runPromise(TeamInvitations.send({ teamId: team.id, email: unique("guest"), callbackUrl: "http://localhost:3000/handler/team-invitation" }))
      const View = () => {
        const user = useServerUser(me.id)
        const oneTeam = useServerTeam(team.id)
        const teams = useServerTeams({ userId: me.id })
        const permissions = useTeamMemberPermissions(team.id, me.id)
        const invitations = useServerTeamInvitations(team.id)
        const accounts = useServerConnectedAccounts(me.id)
        const received = useServerReceivedInvitations(me.id)
        const all = [user, oneTeam, teams, permissions, invitations, accounts, received]
        if (!all.every((result) => result.status === "success")) return <span data-testid="server">loading</span>
        return (
          <span data-testid="server">
            {`${user.data?.primaryEmail}|${oneTeam.data?.displayName}|${teams.data?.length}|${
              permissions.data?.some((permission) => permission.id === "team_admin")
            }|${invitations.data?.length}|${accounts.data?.length}|${received.data?.length}`}
          </span>
        )
      }
      render(
        <StackProvider runtime={server}>
          <View />
        </StackProvider>
      )
      await waitFor(() => expect(text("server")).toBe(`${email}|HTTP team|1|true|1|0|0`))
      expect(fetch.count(`GET /users/${me.id}`)).toBe(1)
      expect(fetch.count(`GET /teams/${team.id}`)).toBe(1)
    } finally {
      cleanup()
      await client.dispose()
      await server.dispose()
    }
  })
})
