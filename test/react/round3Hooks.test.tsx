// @vitest-environment happy-dom
/**
 * The hooks of issue 29 item 6 against the in-process emulator: `usePartialUser` (from the access
 * token's claims, no request), `useTeamProfile`, `useOwnedProjects`, and the admin hooks
 * (`useMetrics`, `useSvixToken`, `useInternalApiKeys`, `useTeamPermissionDefinitions`,
 * `useProjectPermissionDefinitions`) from `makeStackHooks` over a runtime with admin access; each
 * with its Suspense twin. The partial user is read as the official SDK reads it
 * (`_getTokenPartialUserFromSession`, packages/template/src/lib/stack-app/apps/implementations/client-app-impl.ts
 * at 2f719903).
 */
import { configure, render, screen, waitFor } from "@testing-library/react"
import { ManagedRuntime, Option } from "effect"
import { Suspense, version as reactVersion } from "react"
import type { ReactNode } from "react"
import { describe, expect, it } from "vitest"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Password from "../../src/auth/Password.js"
import { defaults } from "../../src/emulator/Defaults.js"
import * as Emulator from "../../src/emulator/index.js"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as InternalApiKeys from "../../src/projects/InternalApiKeys.js"
import * as Stack from "../../src/Stack.js"
import * as TeamMemberProfiles from "../../src/teams/TeamMemberProfiles.js"
import * as Teams from "../../src/teams/Teams.js"
import * as Users from "../../src/users/Users.js"
import {
  makeStackHooks,
  StackProvider,
  useOwnedProjects,
  usePartialUser,
  useSuspensePartialUser,
  useSuspenseTeamProfile,
  useTeamProfile
} from "../../react/index.js"
import { partialUserOf } from "../../react/tokens.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })

let app: App

useFreshApp((made) => (app = made))

const Provider = (props: { readonly children: ReactNode }) => <StackProvider runtime={app.runtime}>{props.children}</StackProvider>

const text = (id: string) => screen.getByTestId(id).textContent

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
const jwt = (claims: object) => `${base64url({ alg: "ES256" })}.${base64url(claims)}.signature`

describe("partialUserOf: the official reading of the token's claims", () => {
  const now = Date.UTC(2026, 0, 1)
  const claims = {
    sub: "user-1",
    name: "Ada",
    email: "ada@example.com",
    email_verified: true,
    is_anonymous: false,
    requires_totp_mfa: false,
    is_restricted: true,
    restricted_reason: { type: "email_not_verified" },
    exp: now / 1000 + 600
  }

  it("maps the claims the official TokenPartialUser reads", () => {
    expect(partialUserOf(jwt(claims), {}, now)).toEqual({
      id: "user-1",
      displayName: "Ada",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      isAnonymous: false,
      isMultiFactorRequired: false,
      isRestricted: true,
      restrictedReason: { type: "email_not_verified" }
    })
  })

  it("null without a token, for an expired one, and for an anonymous user unless anonymous-if-exists", () => {
    expect(partialUserOf(null, {}, now)).toBeNull()
    expect(partialUserOf(jwt({ ...claims, exp: now / 1000 }), {}, now)).toBeNull()
    const anonymous = jwt({ ...claims, is_anonymous: true, restricted_reason: { type: "anonymous" } })
    expect(partialUserOf(anonymous, {}, now)).toBeNull()
    expect(partialUserOf(anonymous, { or: "return-null" }, now)).toBeNull()
    expect(partialUserOf(anonymous, { or: "anonymous-if-exists" }, now)?.isAnonymous).toBe(true)
  })

  it("a token that is not a readable JWT, or has no sub, is null, never a throw", () => {
    for (const token of ["", "not-a-jwt", "a.b.c", `${base64url({})}.${btoa("[1]")}.x`, jwt({ name: "no sub" }), jwt({ sub: 42 })]) {
      expect(partialUserOf(token, {}, now)).toBeNull()
    }
    expect(partialUserOf(jwt({ sub: "u", name: 7, restricted_reason: { type: "other" } }), {}, now)).toMatchObject({
      id: "u",
      displayName: null,
      restrictedReason: null,
      primaryEmailVerified: false
    })
  })
})

describe(`React ${reactVersion}: usePartialUser`, () => {
  const Partial = (props: { readonly or?: "anonymous-if-exists" }) => {
    const user = usePartialUser(props.or === undefined ? {} : { or: props.or })
    return (
      <span data-testid={`partial-${props.or ?? "default"}`}>
        {user.status === "success" ? (user.data === null ? "nobody" : `${user.data.id} ${user.data.primaryEmail} ${user.data.isAnonymous}`) : user.status}
      </span>
    )
  }
  const SuspensePartial = () => {
    const user = useSuspensePartialUser()
    return <span data-testid="suspense-partial">{user === null ? "nobody" : user.primaryEmail}</span>
  }

  it("shows the signed-in user from the token's claims, without reading the user", async () => {
    render(
      <Provider>
        <Partial />
        <Suspense fallback={<span data-testid="suspense-partial">loading</span>}>
          <SuspensePartial />
        </Suspense>
      </Provider>
    )
    await waitFor(() => expect(text("partial-default")).toBe("nobody"))
    await waitFor(() => expect(text("suspense-partial")).toBe("nobody"))
    await app.signUp("partial@example.com")
    const user = Option.getOrThrow(await app.runtime.runPromise(Users.getCurrent()))
    await waitFor(() => expect(text("partial-default")).toBe(`${user.id} partial@example.com false`))
    await waitFor(() => expect(text("suspense-partial")).toBe("partial@example.com"))
    const reads = app.count("GET /users/me")
    await app.signOut()
    await waitFor(() => expect(text("partial-default")).toBe("nobody"))
    await waitFor(() => expect(text("suspense-partial")).toBe("nobody"))
    expect(app.count("GET /users/me")).toBe(reads)
  })

  it("an anonymous user is null unless or: anonymous-if-exists", async () => {
    const { userId: id } = await app.runtime.runPromise(Anonymous.signUp())
    render(
      <Provider>
        <Partial />
        <Partial or="anonymous-if-exists" />
      </Provider>
    )
    await waitFor(() => expect(text("partial-anonymous-if-exists")).toBe(`${id} null true`))
    expect(text("partial-default")).toBe("nobody")
  })
})

describe(`React ${reactVersion}: useTeamProfile and useOwnedProjects`, () => {
  it("useTeamProfile shows the signed-in member's profile and follows updateMine; the Suspense twin too", async () => {
    await app.signUp("member@example.com")
    const team = await app.runtime.runPromise(Teams.create({ displayName: "Profiles" }))
    const Profile = () => {
      const profile = useTeamProfile(team.id)
      return <span data-testid="profile">{profile.status === "success" ? String(profile.data.displayName) : profile.status}</span>
    }
    const SuspenseProfile = () => <span data-testid="suspense-profile">{String(useSuspenseTeamProfile(team.id).displayName)}</span>
    render(
      <Provider>
        <Profile />
        <Suspense fallback={<span data-testid="suspense-profile">loading</span>}>
          <SuspenseProfile />
        </Suspense>
      </Provider>
    )
    await waitFor(() => expect(text("profile")).toBe("null"))
    await waitFor(() => expect(text("suspense-profile")).toBe("null"))
    await app.runtime.runPromise(TeamMemberProfiles.updateMine(team.id, { displayName: "Ada in Profiles" }))
    await waitFor(() => expect(text("profile")).toBe("Ada in Profiles"))
    await waitFor(() => expect(text("suspense-profile")).toBe("Ada in Profiles"))
  })

  it("useOwnedProjects lists the owner's projects on the internal project, with its Suspense twin", async () => {
    const internal = ManagedRuntime.make(
      Stack.layerClient({ projectId: "internal", httpClient: Emulator.layerHttpClient(app.emulator), tokenStore: "memory" })
    )
    try {
      await internal.runPromise(Password.signInWithPassword({ email: defaults.internalOwner.email, password: defaults.internalOwner.password }))
      const hooks = makeStackHooks(internal)
      const Owned = () => {
        const projects = hooks.useOwnedProjects()
        return <span data-testid="owned">{projects.status === "success" ? projects.data.map((project) => project.id).join(",") : projects.status}</span>
      }
      const SuspenseOwned = () => <span data-testid="suspense-owned">{hooks.useSuspenseOwnedProjects().length}</span>
      render(
        <StackProvider runtime={internal}>
          <Owned />
          <Suspense fallback={<span data-testid="suspense-owned">loading</span>}>
            <SuspenseOwned />
          </Suspense>
        </StackProvider>
      )
      await waitFor(() => expect(text("owned")).toContain(app.emulator.demo.projectId))
      await waitFor(() => expect(text("suspense-owned")).not.toBe("loading"))
      expect(Number(text("suspense-owned"))).toBeGreaterThanOrEqual(1)
    } finally {
      await internal.dispose()
    }
  })

  it("useOwnedProjects on another project shows the typed configuration error, nothing sent", async () => {
    await app.signUp("owner@example.com")
    const before = app.count("GET /internal/projects")
    const Owned = () => {
      const projects = useOwnedProjects()
      return <span data-testid="owned">{projects.status === "error" ? projects.error?._tag : projects.status}</span>
    }
    render(
      <Provider>
        <Owned />
      </Provider>
    )
    await waitFor(() => expect(text("owned")).toBe("ConfigurationError"))
    expect(app.count("GET /internal/projects")).toBe(before)
  })
})

describe(`React ${reactVersion}: admin hooks from makeStackHooks over admin access`, () => {
  const adminRuntime = () =>
    ManagedRuntime.make(
      Stack.layerAdmin({
        projectId: app.emulator.demo.projectId,
        publishableClientKey: app.emulator.demo.publishableClientKey,
        superSecretAdminKey: app.emulator.demo.superSecretAdminKey,
        httpClient: Emulator.layerHttpClient(app.emulator),
        tokenStore: "memory"
      })
    )

  it("useMetrics, useSvixToken, useInternalApiKeys and the permission definitions show the project's, with Suspense twins", async () => {
    const admin = adminRuntime()
    try {
      const key = await admin.runPromise(
        InternalApiKeys.create({
          description: "hooks",
          expiresAt: new Date(Date.now() + 86_400_000),
          hasPublishableClientKey: true,
          hasSecretServerKey: false,
          hasSuperSecretAdminKey: false
        })
      )
      const hooks = makeStackHooks(admin)
      const Admin = () => {
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
            {[
              `users:${metrics.data.totalUsers}`,
              `svix:${svix.data.token.length > 0}`,
              `keys:${keys.data.map((k) => k.id).join(",")}`,
              `team:${team.data.map((d) => d.id).join(",")}`,
              `project:${project.data.map((d) => d.id).join(",")}`
            ].join(" ")}
          </span>
        )
      }
      const SuspenseAdmin = () => {
        const metrics = hooks.useSuspenseMetrics({ includeAnonymous: true })
        const svix = hooks.useSuspenseSvixToken()
        const keys = hooks.useSuspenseInternalApiKeys()
        const team = hooks.useSuspenseTeamPermissionDefinitions()
        const project = hooks.useSuspenseProjectPermissionDefinitions()
        return (
          <span data-testid="suspense-admin">
            {`${typeof metrics.totalUsers} ${svix.token.length > 0} ${keys.length} ${team.some((d) => d.id === "$read_members")} ${project.length}`}
          </span>
        )
      }
      render(
        <StackProvider runtime={admin}>
          <Admin />
          <Suspense fallback={<span data-testid="suspense-admin">loading</span>}>
            <SuspenseAdmin />
          </Suspense>
        </StackProvider>
      )
      await waitFor(() => expect(text("admin")).not.toBe("loading"))
      const shown = text("admin")!
      expect(shown).toMatch(/^users:\d+ svix:true /)
      expect(shown).toContain(`keys:${key.id}`)
      expect(shown).toContain("$read_members")
      await waitFor(() => expect(text("suspense-admin")).toMatch(/^number true \d+ true \d+$/))

      // a definition created through the SDK refreshes the cached definitions the hooks show
      await admin.runPromise(PermissionDefinitions.createTeamDefinition({ id: "hooks_reader" }))
      await waitFor(() => expect(text("admin")).toContain("hooks_reader"))
      await admin.runPromise(PermissionDefinitions.createProjectDefinition({ id: "hooks_project" }))
      await waitFor(() => expect(text("admin")).toContain("project:hooks_project"))
    } finally {
      await admin.dispose()
    }
  })

  it("a failure of an admin read is the hook's typed error", async () => {
    const wrong = ManagedRuntime.make(
      Stack.layerAdmin({
        projectId: app.emulator.demo.projectId,
        publishableClientKey: app.emulator.demo.publishableClientKey,
        superSecretAdminKey: "sak_wrong",
        httpClient: Emulator.layerHttpClient(app.emulator),
        tokenStore: "memory"
      })
    )
    try {
      const hooks = makeStackHooks(wrong)
      const Keys = () => {
        const keys = hooks.useInternalApiKeys()
        return <span data-testid="keys">{keys.status === "error" ? keys.error?._tag : keys.status}</span>
      }
      render(
        <StackProvider runtime={wrong} onError={() => {}}>
          <Keys />
        </StackProvider>
      )
      await waitFor(() => expect(text("keys")).toBe("ConfigurationError"))
    } finally {
      await wrong.dispose()
    }
  })
})
