/**
 * Permission definitions through the SDK (admin access) against the in-process emulator: the
 * seeded team definitions, CRUD at both scopes, ids unique across scopes, contained ids checked
 * per scope, renames carrying grants and containments, deletes dropping them, system permissions
 * untouchable, containment chains and cycles, and ids rejected before sending (the emulator's own
 * answer for a bad id is a SCHEMA_ERROR).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { send } from "../emulator/helpers.js"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as Permissions from "../../src/permissions/Permissions.js"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import { ids, makeApp, seededTeamPermissionIds } from "./support.js"
import { left, right } from "../support/results.js"

describe("permission definitions", () => {
  it.live("a new project lists the six system permissions and the seeded team_admin / team_member; no project definitions", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const team = right(yield* app.run(PermissionDefinitions.listTeamDefinitions()))
      expect(ids(team)).toEqual(seededTeamPermissionIds)
      expect(team.find((d) => d.id === "$read_members")).toEqual({
        id: "$read_members",
        description: "Read and list the other members of the team",
        containedPermissionIds: []
      })
      expect(team.find((d) => d.id === "team_member")?.containedPermissionIds).toEqual(["$invite_members", "$read_members"])
      expect(right(yield* app.run(PermissionDefinitions.listProjectDefinitions()))).toEqual([])
    }))

  it.live("team scope: create, update (description, contained ids sorted), rename carries grants, delete drops them", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("admin-test@example.com")
      const teamId = app.createTeam(userId)

      const created = right(
        yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "editor", description: "Edits", containedPermissionIds: ["$update_team"] }))
      )
      expect(created).toEqual({ id: "editor", description: "Edits", containedPermissionIds: ["$update_team"] })
      expect(app.sent.at(-1)).toBe("POST /team-permission-definitions")
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "reviewer" })))
      expect(right(yield* app.run(PermissionDefinitions.listTeamDefinitions())).find((d) => d.id === "reviewer")).toEqual({
        id: "reviewer",
        containedPermissionIds: []
      })

      const updated = right(
        yield* app.run(
          PermissionDefinitions.updateTeamDefinition("editor", {
            description: "Edits things",
            containedPermissionIds: ["reviewer", "$read_members", "reviewer"]
          })
        )
      )
      expect(updated).toEqual({ id: "editor", description: "Edits things", containedPermissionIds: ["$read_members", "reviewer"] })
      // fields not named stay as they are
      expect(right(yield* app.run(PermissionDefinitions.updateTeamDefinition("editor", {})))).toEqual(updated)

      right(yield* app.run(ServerPermissions.grantTeamPermission(teamId, userId, "reviewer")))
      right(yield* app.run(PermissionDefinitions.updateTeamDefinition("reviewer", { id: "checker" })))
      expect(ids(right(yield* app.run(Permissions.listTeamPermissions(teamId, { recursive: false }))))).toEqual(["checker", "team_admin"])
      const editor = right(yield* app.run(PermissionDefinitions.listTeamDefinitions())).find((d) => d.id === "editor")
      expect(editor?.containedPermissionIds).toEqual(["$read_members", "checker"])

      right(yield* app.run(PermissionDefinitions.deleteTeamDefinition("checker")))
      expect(ids(right(yield* app.run(Permissions.listTeamPermissions(teamId, { recursive: false }))))).toEqual(["team_admin"])
      const afterDelete = right(yield* app.run(PermissionDefinitions.listTeamDefinitions()))
      expect(afterDelete.find((d) => d.id === "editor")?.containedPermissionIds).toEqual(["$read_members"])
      expect(ids(afterDelete)).not.toContain("checker")
    }))

  it.live("errors: already exists (either scope), contained not found (per scope), not found (other scope, system, gone)", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "shared_name" })))
      right(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "project_one" })))

      const duplicate = left(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "shared_name" })))
      expect(duplicate._tag === "PermissionIdAlreadyExists" && duplicate.message).toBe(
        "Permission with ID \"shared_name\" already exists. Choose a different ID."
      )
      expect(left(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "shared_name" })))._tag).toBe("PermissionIdAlreadyExists")
      expect(left(yield* app.run(PermissionDefinitions.updateProjectDefinition("project_one", { id: "shared_name" })))._tag).toBe(
        "PermissionIdAlreadyExists"
      )

      const missing = left(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "x", containedPermissionIds: ["project_one"] })))
      expect(missing._tag === "ContainedPermissionNotFound" && missing.details).toEqual({ permission_id: "project_one" })
      expect(
        left(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "y", containedPermissionIds: ["$read_members"] })))._tag
      ).toBe("ContainedPermissionNotFound")
      expect(
        left(yield* app.run(PermissionDefinitions.updateTeamDefinition("shared_name", { containedPermissionIds: ["nope"] })))._tag
      ).toBe("ContainedPermissionNotFound")

      expect(left(yield* app.run(PermissionDefinitions.updateTeamDefinition("project_one", { description: "d" })))._tag).toBe("PermissionNotFound")
      expect(left(yield* app.run(PermissionDefinitions.deleteProjectDefinition("shared_name")))._tag).toBe("PermissionNotFound")
      expect(left(yield* app.run(PermissionDefinitions.deleteTeamDefinition("$read_members")))._tag).toBe("PermissionNotFound")
      expect(left(yield* app.run(PermissionDefinitions.updateTeamDefinition("$update_team", { description: "d" })))._tag).toBe(
        "PermissionNotFound"
      )
      right(yield* app.run(PermissionDefinitions.deleteProjectDefinition("project_one")))
      expect(left(yield* app.run(PermissionDefinitions.deleteProjectDefinition("project_one")))._tag).toBe("PermissionNotFound")
      expect(ids(right(yield* app.run(PermissionDefinitions.listProjectDefinitions())))).toEqual([])
    }))

  it.live("a contains b contains c: holding a means holding c; cycles are harmless", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("chain@example.com")
      const teamId = app.createTeam(userId)
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "c" })))
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "b", containedPermissionIds: ["c"] })))
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "a", containedPermissionIds: ["b"] })))
      right(yield* app.run(ServerPermissions.grantTeamPermission(teamId, userId, "a")))
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "c")))).toBe(true)

      // c now contains a: a cycle
      right(yield* app.run(PermissionDefinitions.updateTeamDefinition("c", { containedPermissionIds: ["a"] })))
      const held = ids(right(yield* app.run(Permissions.listTeamPermissions(teamId))))
      expect(held).toEqual([
        "$delete_team",
        "$invite_members",
        "$manage_api_keys",
        "$read_members",
        "$remove_members",
        "$update_team",
        "a",
        "b",
        "c",
        "team_admin"
      ])

      // cutting the chain in the middle: a no longer reaches c
      right(yield* app.run(PermissionDefinitions.updateTeamDefinition("b", { containedPermissionIds: [] })))
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "c")))).toBe(false)
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "b")))).toBe(true)
    }))

  it.live("malformed ids fail with InvalidArgument before sending; sent raw, the emulator answers SCHEMA_ERROR", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const before = app.sent.length
      const bad = left(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "Has Caps" })))
      expect(bad._tag === "InvalidArgument" && bad.argument).toBe("id")
      expect(left(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "$system_like" })))._tag).toBe("InvalidArgument")
      expect(
        left(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "fine", containedPermissionIds: ["$unknown_system"] })))._tag
      ).toBe("InvalidArgument")
      expect(left(yield* app.run(PermissionDefinitions.updateTeamDefinition("fine", { id: "not fine" })))._tag).toBe("InvalidArgument")
      expect(left(yield* app.run(PermissionDefinitions.deleteProjectDefinition("UPPER")))._tag).toBe("InvalidArgument")
      expect(app.sent.length).toBe(before)

      const raw = yield* send(app.emulator, {
        method: "POST",
        path: "/api/v1/team-permission-definitions",
        headers: {
          "x-stack-project-id": app.emulator.demo.projectId,
          "x-stack-access-type": "admin",
          "x-stack-super-secret-admin-key": app.emulator.demo.superSecretAdminKey
        },
        body: { id: "Has Caps" }
      })
      expect([raw.status, raw.headers.get("x-stack-known-error")]).toEqual([400, "SCHEMA_ERROR"])
      expect(raw.json.error).toContain("Only lowercase letters, numbers, \":\", \"_\" are allowed")
    }))
})
