// @vitest-environment happy-dom
/**
 * End to end over real HTTP (the emulator's Node server on 127.0.0.1, a counting `fetch`): the
 * hooks of issue 29 item 6 through `makeStackHooks(runtime)` — `usePartialUser` (no request of its
 * own), `useTeamProfile`, `useOwnedProjects` on the `internal` project, and over a runtime with
 * admin access `useMetrics`, `useSvixToken`, `useInternalApiKeys`, `useTeamPermissionDefinitions`
 * and `useProjectPermissionDefinitions`.
 */
import { cleanup, configure, render, waitFor } from "@testing-library/react"
import { ManagedRuntime } from "effect"
import { Suspense, version as reactVersion } from "react"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import { defaults } from "../../src/emulator/Defaults.js"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as InternalApiKeys from "../../src/projects/InternalApiKeys.js"
import * as Stack from "../../src/Stack.js"
import * as TeamMemberProfiles from "../../src/teams/TeamMemberProfiles.js"
import * as Teams from "../../src/teams/Teams.js"
import { makeStackHooks, StackProvider } from "../../react/index.js"
import { countingFetch } from "../e2e/support.js"
import { emulatorServerForFile, text, unique } from "./overHttp.js"
import { password } from "./support.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })

const { server: running, clientRuntime } = emulatorServerForFile()

describe(`React ${reactVersion} over HTTP: the issue 29 hooks`, () => {
  it("usePartialUser shows the token's user after sign-up and nobody after sign-out, reading no user", async () => {
    const fetch = countingFetch()
    const runtime = clientRuntime(fetch)
    const { usePartialUser } = makeStackHooks(runtime)
    const email = unique("partial")
    try {
      const View = () => {
        const user = usePartialUser()
        return (
          <span data-testid="partial">
            {user.status === "success" ? (user.data === null ? "nobody" : `${user.data.primaryEmail} ${user.data.isAnonymous}`) : user.status}
          </span>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <View />
        </StackProvider>
      )
      await waitFor(() => expect(text("partial")).toBe("nobody"))
      await runtime.runPromise(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))
      await waitFor(() => expect(text("partial")).toBe(`${email} false`))
      await runtime.runPromise(Sessions.signOut())
      await waitFor(() => expect(text("partial")).toBe("nobody"))
      expect(fetch.count("GET /users/me")).toBe(0)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })

  it("useTeamProfile shows the member's profile in a team and follows updateMine (one read per change)", async () => {
    const fetch = countingFetch()
    const runtime = clientRuntime(fetch)
    const { useTeamProfile } = makeStackHooks(runtime)
    try {
      await runtime.runPromise(Password.signUpWithPassword({ email: unique("profile"), password, noVerificationCallback: true }))
      const team = await runtime.runPromise(Teams.create({ displayName: "Over HTTP" }))
      const View = () => {
        const profile = useTeamProfile(team.id)
        return <span data-testid="profile">{profile.status === "success" ? String(profile.data.displayName) : profile.status}</span>
      }
      render(
        <StackProvider runtime={runtime}>
          <View />
        </StackProvider>
      )
      await waitFor(() => expect(text("profile")).toBe("null"))
      await runtime.runPromise(TeamMemberProfiles.updateMine(team.id, { displayName: "Member name" }))
      await waitFor(() => expect(text("profile")).toBe("Member name"))
      expect(fetch.count(`GET /team-member-profiles/${team.id}/me`)).toBe(2)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })

  it("useOwnedProjects: the seeded owner signed in on the internal project sees the demo project", async () => {
    const fetch = countingFetch()
    const runtime = clientRuntime(fetch, "internal")
    const { useSuspenseOwnedProjects } = makeStackHooks(runtime)
    try {
      await runtime.runPromise(Password.signInWithPassword({ email: defaults.internalOwner.email, password: defaults.internalOwner.password }))
      const View = () => <span data-testid="owned">{useSuspenseOwnedProjects().map((project) => project.id).join(",")}</span>
      render(
        <StackProvider runtime={runtime}>
          <Suspense fallback={<span data-testid="owned">loading</span>}>
            <View />
          </Suspense>
        </StackProvider>
      )
      await waitFor(() => expect(text("owned")).toContain(running().emulator.demo.projectId))
      expect(fetch.count("GET /internal/projects")).toBe(1)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })

  it("the admin hooks over a runtime with the super secret admin key", async () => {
    const fetch = countingFetch()
    const demo = running().emulator.demo
    const runtime = ManagedRuntime.make(
      Stack.layerAdmin({
        projectId: demo.projectId,
        publishableClientKey: demo.publishableClientKey,
        superSecretAdminKey: demo.superSecretAdminKey,
        baseUrl: running().baseUrl,
        httpClient: fetch.layer,
        tokenStore: "memory"
      })
    )
    const hooks = makeStackHooks(runtime)
    try {
      const key = await runtime.runPromise(
        InternalApiKeys.create({
          description: "over http",
          expiresAt: new Date(Date.now() + 86_400_000),
          hasPublishableClientKey: false,
          hasSecretServerKey: true,
          hasSuperSecretAdminKey: false
        })
      )
      const View = () => {
        const metrics = hooks.useMetrics()
        const svix = hooks.useSvixToken()
        const keys = hooks.useInternalApiKeys()
        const team = hooks.useTeamPermissionDefinitions()
        const project = hooks.useProjectPermissionDefinitions()
        if (
          metrics.status !== "success" || svix.status !== "success" || keys.status !== "success" || team.status !== "success" || project.status !== "success"
        ) {
          return <span data-testid="admin">loading</span>
        }
        return (
          <span data-testid="admin">
            {`${typeof metrics.data.totalUsers} ${svix.data.token.length > 0} ${keys.data.some((k) => k.id === key.id)} ${
              team.data.map((d) => d.id).join(",")
            } | ${project.data.map((d) => d.id).join(",")}`}
          </span>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <View />
        </StackProvider>
      )
      await waitFor(() => expect(text("admin")).toMatch(/^number true true .*\$read_members.* \| /))
      await runtime.runPromise(PermissionDefinitions.createProjectDefinition({ id: "over_http_reader" }))
      await waitFor(() => expect(text("admin")).toMatch(/\| .*over_http_reader/))
      expect(fetch.count("GET /internal/metrics")).toBe(1)
      expect(fetch.count("POST /webhooks/svix-token")).toBe(1)
      expect(fetch.count("GET /internal/api-keys")).toBe(1)
      expect(fetch.count("GET /project-permission-definitions")).toBe(2)
    } finally {
      cleanup()
      await runtime.dispose()
    }
  })
})
