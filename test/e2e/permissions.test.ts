/**
 * End to end over real HTTP against the emulator server: permission definitions CRUD at team and
 * project scope (admin key), a containment chain (a contains b contains c: holding a → has c),
 * grant → list recursive vs direct → has-permission → revoke (server key grants, the signed-in
 * user reads its own), the requests the cache saves, and the project's user default permissions
 * (admin config) granted at sign-up.
 *
 * The app is one layer with client, server and admin access (one session, one query cache), so a
 * grant invalidates the signed-in user's cached lists. The team is created in the server's
 * emulator state (members in `memberUserIds`, the creator's default permissions granted), the way
 * the team routes do, so this file does not depend on the team module.
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Access from "../../src/core/Access.js"
import { grantTeamDefaults } from "../../src/emulator/Permissions.js"
import { randomUuid } from "../../src/emulator/Random.js"
import { teamsOf } from "../../src/emulator/State.js"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as Permissions from "../../src/permissions/Permissions.js"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const appRuntime = () => {
  const demo = main.server.emulator.demo
  const fetch = countingFetch()
  const runtime = ManagedRuntime.make(
    Layer.merge(
      Stack.layerServer({
        projectId: demo.projectId,
        publishableClientKey: demo.publishableClientKey,
        secretServerKey: demo.secretServerKey,
        baseUrl: main.server.baseUrl,
        httpClient: fetch.layer
      }),
      Access.layerAdminKey(demo.superSecretAdminKey)
    )
  )
  return { runtime, count: fetch.count }
}

const stamp = () => `${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`

/** A team in the server's state with `userId` as its creator (creator defaults granted). */
const createTeam = (userId: string) => {
  const project = main.server.emulator.state.projects.get(main.server.emulator.demo.projectId)!
  const id = randomUuid()
  teamsOf(project).set(id, { id, displayName: "E2E team", createdAtMillis: Date.now(), memberUserIds: new Set([userId]) })
  grantTeamDefaults(project, id, userId, "creator")
  return id
}

describe("permissions over HTTP", () => {
  it("definitions CRUD at team and project scope", async () => {
    const { runtime, count } = appRuntime()
    try {
      const suffix = stamp()
      const teamId = `e2e_team_${suffix}`
      const projectId = `e2e_project_${suffix}`
      const created = await runtime.runPromise(
        PermissionDefinitions.createTeamDefinition({ id: teamId, description: "E2E", containedPermissionIds: ["$read_members"] })
      )
      expect(created).toEqual({ id: teamId, description: "E2E", containedPermissionIds: ["$read_members"] })
      expect(count("POST /team-permission-definitions")).toBe(1)
      const duplicate = await runtime.runPromise(Effect.flip(PermissionDefinitions.createProjectDefinition({ id: teamId })))
      expect(duplicate._tag).toBe("PermissionIdAlreadyExists")

      const updated = await runtime.runPromise(
        PermissionDefinitions.updateTeamDefinition(teamId, { description: "E2E edited", containedPermissionIds: ["$read_members", "$invite_members"] })
      )
      expect(updated).toEqual({ id: teamId, description: "E2E edited", containedPermissionIds: ["$invite_members", "$read_members"] })
      const teamList = await runtime.runPromise(PermissionDefinitions.listTeamDefinitions())
      expect(teamList.find((d) => d.id === teamId)).toEqual(updated)
      expect(teamList.map((d) => d.id)).toEqual([...teamList.map((d) => d.id)].sort())
      expect(teamList.filter((d) => d.id.startsWith("$")).length).toBe(6)

      const project = await runtime.runPromise(PermissionDefinitions.createProjectDefinition({ id: projectId }))
      expect(project).toEqual({ id: projectId, containedPermissionIds: [] })
      const renamed = await runtime.runPromise(PermissionDefinitions.updateProjectDefinition(projectId, { id: `${projectId}_v2` }))
      expect(renamed.id).toBe(`${projectId}_v2`)
      expect((await runtime.runPromise(PermissionDefinitions.listProjectDefinitions())).map((d) => d.id)).toContain(`${projectId}_v2`)
      const wrongScope = await runtime.runPromise(
        Effect.flip(PermissionDefinitions.createProjectDefinition({ id: `x_${suffix}`, containedPermissionIds: [teamId] }))
      )
      expect(wrongScope._tag).toBe("ContainedPermissionNotFound")

      await runtime.runPromise(PermissionDefinitions.deleteProjectDefinition(`${projectId}_v2`))
      await runtime.runPromise(PermissionDefinitions.deleteTeamDefinition(teamId))
      const gone = await runtime.runPromise(Effect.flip(PermissionDefinitions.deleteTeamDefinition(teamId)))
      expect(gone._tag).toBe("PermissionNotFound")
      expect((await runtime.runPromise(PermissionDefinitions.listTeamDefinitions())).map((d) => d.id)).not.toContain(teamId)

      const before = count("POST /team-permission-definitions")
      const invalid = await runtime.runPromise(Effect.flip(PermissionDefinitions.createTeamDefinition({ id: "Not Valid" })))
      expect(invalid._tag).toBe("InvalidArgument")
      expect(count("POST /team-permission-definitions")).toBe(before)
    } finally {
      await runtime.dispose()
    }
  })

  it("grant → list recursive vs direct → has → revoke, with a containment chain a ⊃ b ⊃ c", async () => {
    const { runtime, count } = appRuntime()
    try {
      const suffix = stamp()
      const [a, b, c] = [`chain_a_${suffix}`, `chain_b_${suffix}`, `chain_c_${suffix}`]
      await runtime.runPromise(PermissionDefinitions.createTeamDefinition({ id: c }))
      await runtime.runPromise(PermissionDefinitions.createTeamDefinition({ id: b, containedPermissionIds: [c] }))
      await runtime.runPromise(PermissionDefinitions.createTeamDefinition({ id: a, containedPermissionIds: [b] }))
      await runtime.runPromise(PermissionDefinitions.createProjectDefinition({ id: `p_${c}` }))
      await runtime.runPromise(PermissionDefinitions.createProjectDefinition({ id: `p_${a}`, containedPermissionIds: [`p_${c}`] }))

      await runtime.runPromise(
        Password.signUpWithPassword({ email: `e2e-perms-${suffix}@example.com`, password: "correct horse battery", noVerificationCallback: true })
      )
      const userId = Option.getOrThrow(await runtime.runPromise(Users.getCurrent())).id
      const teamId = createTeam(userId)

      expect(await runtime.runPromise(Permissions.hasTeamPermission(teamId, c))).toBe(false)
      const granted = await runtime.runPromise(ServerPermissions.grantTeamPermission(teamId, userId, a))
      expect(granted).toEqual({ id: a, userId, teamId })
      expect(count(`POST /team-permissions/${teamId}/${userId}/${a}`)).toBe(1)

      const recursive = await runtime.runPromise(Permissions.listTeamPermissions(teamId))
      expect(recursive.map((p) => p.id)).toEqual([
        "$delete_team",
        "$invite_members",
        "$manage_api_keys",
        "$read_members",
        "$remove_members",
        "$update_team",
        a,
        b,
        c,
        "team_admin"
      ])
      const direct = await runtime.runPromise(Permissions.listTeamPermissions(teamId, { recursive: false }))
      expect(direct.map((p) => p.id)).toEqual([a, "team_admin"])
      expect(await runtime.runPromise(Permissions.hasTeamPermission(teamId, c))).toBe(true)
      expect(await runtime.runPromise(ServerPermissions.hasTeamPermission(teamId, userId, b))).toBe(true)
      // 4 reads: has c before the grant; after it (invalidated) the recursive and direct lists; the server's read for the
      // user id (its own entry). `has c` after the grant was served from the recursive list's cache entry.
      expect(count("GET /team-permissions")).toBe(4)

      const notDirect = await runtime.runPromise(Effect.flip(ServerPermissions.revokeTeamPermission(teamId, userId, c)))
      expect(notDirect._tag).toBe("TeamPermissionNotFound")
      await runtime.runPromise(ServerPermissions.revokeTeamPermission(teamId, userId, a))
      expect(await runtime.runPromise(Permissions.hasTeamPermission(teamId, c))).toBe(false)
      expect((await runtime.runPromise(Permissions.listTeamPermissions(teamId, { recursive: false }))).map((p) => p.id)).toEqual(["team_admin"])
      const again = await runtime.runPromise(Effect.flip(ServerPermissions.revokeTeamPermission(teamId, userId, a)))
      expect(again._tag).toBe("TeamPermissionNotFound")

      // project scope: the same story
      await runtime.runPromise(ServerPermissions.grantProjectPermission(userId, `p_${a}`))
      expect((await runtime.runPromise(Permissions.listProjectPermissions())).map((p) => p.id)).toEqual([`p_${a}`, `p_${c}`])
      expect((await runtime.runPromise(Permissions.listProjectPermissions({ recursive: false }))).map((p) => p.id)).toEqual([`p_${a}`])
      expect(await runtime.runPromise(Permissions.hasProjectPermission(`p_${c}`))).toBe(true)
      await runtime.runPromise(ServerPermissions.revokeProjectPermission(userId, `p_${a}`))
      expect(await runtime.runPromise(Permissions.hasProjectPermission(`p_${c}`))).toBe(false)
      const wrongScope = await runtime.runPromise(Effect.flip(ServerPermissions.grantProjectPermission(userId, a)))
      expect(wrongScope._tag).toBe("WrongPermissionScope")
    } finally {
      await runtime.dispose()
    }
  })

  // runs last: it changes the demo project's config (restored at the end)
  it("the project's user default permissions (admin config) are granted to a user who signs up", async () => {
    const { runtime } = appRuntime()
    const id = `signup_default_${stamp()}`
    try {
      await runtime.runPromise(PermissionDefinitions.createProjectDefinition({ id, description: "Everybody" }))
      await runtime.runPromise(AdminProjects.updateCurrent({ config: { userDefaultPermissions: [{ id }] } }))
      await runtime.runPromise(
        Password.signUpWithPassword({ email: `e2e-default-${stamp()}@example.com`, password: "correct horse battery", noVerificationCallback: true })
      )
      expect(await runtime.runPromise(Permissions.listProjectPermissions({ recursive: false }))).toEqual([
        { id, userId: Option.getOrThrow(await runtime.runPromise(Users.getCurrent())).id }
      ])
    } finally {
      await runtime.runPromise(AdminProjects.updateCurrent({ config: { userDefaultPermissions: [] } }))
      await runtime.dispose()
    }
  })
})
