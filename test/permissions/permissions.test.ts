/**
 * Team and project permissions through the SDK against the in-process emulator: recursive and
 * direct lists (`recursive` always sent, default true), has-permission checks, grants and revokes
 * with every error of the catalogue, ids rejected before sending, the cache (one request for
 * repeated reads, a fresh one after a grant), user default permissions applied at sign-up, and
 * the wire rules of the list route (client: own only; server default `recursive=false`).
 * Teams are created through the emulator state (see support.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, send, serverHeaders, signUp } from "../emulator/helpers.js"
import { foreignUserText } from "../../src/emulator/routes/permissions.js"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as Permissions from "../../src/permissions/Permissions.js"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import { ids, makeApp } from "./support.js"
import { left, right } from "../support/results.js"

const systemIds = ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"]

describe("team permissions", () => {
  it.live("the creator holds team_admin directly and the six system permissions through it", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("creator@example.com")
      const teamId = app.createTeam(userId)

      const recursive = right(yield* app.run(Permissions.listTeamPermissions(teamId)))
      expect(ids(recursive)).toEqual([...systemIds, "team_admin"])
      expect(recursive.every((p) => p.teamId === teamId && p.userId === userId)).toBe(true)
      expect(app.sent.at(-1)).toBe(`GET /team-permissions?team_id=${teamId}&user_id=me&recursive=true`)

      const direct = right(yield* app.run(Permissions.listTeamPermissions(teamId, { recursive: false })))
      expect(ids(direct)).toEqual(["team_admin"])
      expect(app.sent.at(-1)).toBe(`GET /team-permissions?team_id=${teamId}&user_id=me&recursive=false`)

      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "$delete_team")))).toBe(true)
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "nothing_like_it")))).toBe(false)

      const server = right(yield* app.run(ServerPermissions.listTeamPermissions(teamId, userId, { recursive: false })))
      expect(ids(server)).toEqual(["team_admin"])
      expect(right(yield* app.run(ServerPermissions.hasTeamPermission(teamId, userId, "$update_team")))).toBe(true)
    }))

  it.live("a member holds team_member; a team the user is not in lists nothing", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const creator = yield* app.signUp("owner@example.com")
      const member = yield* app.signUp("member@example.com")
      const teamId = app.createTeam(creator, member)
      expect(ids(right(yield* app.run(Permissions.listTeamPermissions(teamId))))).toEqual(["$invite_members", "$read_members", "team_member"])
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "$delete_team")))).toBe(false)
      const other = app.createTeam(creator)
      expect(right(yield* app.run(Permissions.listTeamPermissions(other)))).toEqual([])
    }))

  it.live("grant → recursive vs direct → has → revoke; the cache serves repeats and refetches after each change", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const creator = yield* app.signUp("lead@example.com")
      const member = yield* app.signUp("dev@example.com")
      const teamId = app.createTeam(creator, member)
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "deploy", containedPermissionIds: ["$manage_api_keys"] })))

      const listsBefore = app.sent.filter((r) => r.startsWith("GET /team-permissions")).length
      right(yield* app.run(Permissions.listTeamPermissions(teamId)))
      right(yield* app.run(Permissions.hasTeamPermission(teamId, "deploy")))
      expect(app.sent.filter((r) => r.startsWith("GET /team-permissions")).length).toBe(listsBefore + 1)

      const granted = right(yield* app.run(ServerPermissions.grantTeamPermission(teamId, member, "deploy")))
      expect(granted).toEqual({ id: "deploy", userId: member, teamId })
      // idempotent
      expect(right(yield* app.run(ServerPermissions.grantTeamPermission(teamId, member, "deploy")))).toEqual(granted)

      expect(ids(right(yield* app.run(Permissions.listTeamPermissions(teamId))))).toEqual([
        "$invite_members",
        "$manage_api_keys",
        "$read_members",
        "deploy",
        "team_member"
      ])
      expect(ids(right(yield* app.run(Permissions.listTeamPermissions(teamId, { recursive: false }))))).toEqual(["deploy", "team_member"])
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "$manage_api_keys")))).toBe(true)
      expect(app.sent.filter((r) => r.startsWith("GET /team-permissions")).length).toBe(listsBefore + 3)

      right(yield* app.run(ServerPermissions.revokeTeamPermission(teamId, member, "deploy")))
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "deploy")))).toBe(false)
      expect(right(yield* app.run(Permissions.hasTeamPermission(teamId, "$manage_api_keys")))).toBe(false)

      const again = left(yield* app.run(ServerPermissions.revokeTeamPermission(teamId, member, "deploy")))
      expect(again._tag).toBe("TeamPermissionNotFound")
      // held only through team_member: not a direct grant
      const contained = left(yield* app.run(ServerPermissions.revokeTeamPermission(teamId, member, "$read_members")))
      expect(contained._tag === "TeamPermissionNotFound" && contained.status).toBe(401)
    }))

  it.live("grant errors: not a member, unknown user, unknown permission, project permission; bad ids send nothing", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const creator = yield* app.signUp("a@example.com")
      const outsider = yield* app.signUp("b@example.com")
      const teamId = app.createTeam(creator)
      right(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "billing" })))

      const notMember = left(yield* app.run(ServerPermissions.grantTeamPermission(teamId, outsider, "team_member")))
      expect(notMember._tag === "TeamMembershipNotFound" && notMember.details).toEqual({ team_id: teamId, user_id: outsider })
      const unknownTeam = left(yield* app.run(ServerPermissions.grantTeamPermission("00000000-0000-4000-8000-000000000000", creator, "team_member")))
      expect(unknownTeam._tag).toBe("TeamMembershipNotFound")
      const unknownUser = left(yield* app.run(ServerPermissions.grantTeamPermission(teamId, "00000000-0000-4000-8000-000000000001", "team_member")))
      expect(unknownUser._tag).toBe("UserNotFound")
      const unknown = left(yield* app.run(ServerPermissions.grantTeamPermission(teamId, creator, "no_such_permission")))
      expect(unknown._tag === "PermissionNotFound" && unknown.message).toBe(
        "Permission \"no_such_permission\" not found. Make sure you created it on the dashboard."
      )
      const scope = left(yield* app.run(ServerPermissions.grantTeamPermission(teamId, creator, "billing")))
      expect(scope._tag === "WrongPermissionScope" && scope.details).toEqual({ permission_id: "billing", expected_scope: "team", actual_scope: "project" })

      const before = app.sent.length
      for (const bad of ["Has-Caps", "$not_a_system_permission", ""]) {
        const error = left(yield* app.run(ServerPermissions.grantTeamPermission(teamId, creator, bad)))
        expect(error._tag).toBe("InvalidArgument")
      }
      expect(left(yield* app.run(ServerPermissions.grantTeamPermission("not-a-uuid", creator, "team_member")))._tag).toBe("InvalidArgument")
      expect(left(yield* app.run(Permissions.listTeamPermissions("not-a-uuid")))._tag).toBe("InvalidArgument")
      expect(app.sent.length).toBe(before)
    }))

  it.live("reading my permissions needs a signed-in user (nothing sent)", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const before = app.sent.length
      expect(left(yield* app.run(Permissions.listTeamPermissions("00000000-0000-4000-8000-000000000000")))._tag).toBe("UserNotSignedIn")
      expect(left(yield* app.run(Permissions.hasProjectPermission("x")))._tag).toBe("UserNotSignedIn")
      expect(app.sent.length).toBe(before)
    }))
})

describe("project permissions", () => {
  it.live("grant, recursive containment, revoke, and the catalogue's errors", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("p@example.com")
      right(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "read" })))
      right(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "write", containedPermissionIds: ["read"] })))
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "team_only" })))

      expect(right(yield* app.run(Permissions.listProjectPermissions()))).toEqual([])
      expect(right(yield* app.run(ServerPermissions.grantProjectPermission(userId, "write")))).toEqual({ id: "write", userId })
      expect(app.sent.at(-1)).toBe(`POST /project-permissions/${userId}/write`)

      expect(right(yield* app.run(Permissions.listProjectPermissions()))).toEqual([
        { id: "read", userId },
        { id: "write", userId }
      ])
      expect(app.sent.at(-1)).toBe("GET /project-permissions?user_id=me&recursive=true")
      expect(ids(right(yield* app.run(Permissions.listProjectPermissions({ recursive: false }))))).toEqual(["write"])
      expect(right(yield* app.run(Permissions.hasProjectPermission("read")))).toBe(true)
      expect(ids(right(yield* app.run(ServerPermissions.listProjectPermissions(userId))))).toEqual(["read", "write"])
      expect(right(yield* app.run(ServerPermissions.hasProjectPermission(userId, "write")))).toBe(true)

      expect(left(yield* app.run(ServerPermissions.revokeProjectPermission(userId, "read")))._tag).toBe("PermissionNotFound")
      right(yield* app.run(ServerPermissions.revokeProjectPermission(userId, "write")))
      expect(right(yield* app.run(Permissions.hasProjectPermission("read")))).toBe(false)

      const scope = left(yield* app.run(ServerPermissions.grantProjectPermission(userId, "team_only")))
      expect(scope._tag === "WrongPermissionScope" && scope.message).toBe(
        "Permission \"team_only\" not found. (It was found for a different scope \"team\", but scope \"project\" was expected.)"
      )
      expect(left(yield* app.run(ServerPermissions.grantProjectPermission(userId, "$read_members")))._tag).toBe("PermissionNotFound")
      expect(left(yield* app.run(ServerPermissions.grantProjectPermission(userId, "nope")))._tag).toBe("PermissionNotFound")
      expect(left(yield* app.run(ServerPermissions.grantProjectPermission("00000000-0000-4000-8000-000000000000", "read")))._tag).toBe(
        "UserNotFound"
      )
    }))

  it.live("the project's user default permissions are granted when a user is created", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      right(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "member_area", containedPermissionIds: [] })))
      app.project.config = { ...app.project.config, userDefaultPermissions: ["member_area", "deleted_meanwhile"] }
      yield* app.signUp("newcomer@example.com")
      expect(ids(right(yield* app.run(Permissions.listProjectPermissions())))).toEqual(["member_area"])
    }))
})

describe("the list routes on the wire", () => {
  it.live("client: other users get the 403 text, no user gets CANNOT_GET_OWN_USER_WITHOUT_USER; server: recursive defaults to false", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("wire@example.com")
      const teamId = app.createTeam(userId)
      const demo = app.emulator.demo

      const other = yield* signUp(app.emulator, demo, "other@example.com")
      const signedIn = clientHeaders(demo, { "x-stack-access-token": other.access_token })
      const foreign = yield* send(app.emulator, { path: `/api/v1/team-permissions?team_id=${teamId}&user_id=${userId}`, headers: signedIn })
      expect([foreign.status, foreign.text]).toEqual([403, foreignUserText])
      const omitted = yield* send(app.emulator, { path: `/api/v1/project-permissions`, headers: signedIn })
      expect([omitted.status, omitted.text]).toEqual([403, foreignUserText])
      const ownById = yield* send(app.emulator, { path: `/api/v1/team-permissions?user_id=${other.user_id}`, headers: signedIn })
      expect([ownById.status, ownById.json.items]).toEqual([200, []])

      const anonymous = yield* send(app.emulator, { path: `/api/v1/project-permissions?user_id=me`, headers: clientHeaders(demo) })
      expect([anonymous.status, anonymous.headers.get("x-stack-known-error")]).toEqual([400, "CANNOT_GET_OWN_USER_WITHOUT_USER"])

      const server = yield* send(app.emulator, { path: `/api/v1/team-permissions?team_id=${teamId}&user_id=${userId}`, headers: serverHeaders(demo) })
      expect(server.json.items.map((item: { id: string }) => item.id)).toEqual(["team_admin"])
      const filtered = yield* send(app.emulator, {
        path: `/api/v1/team-permissions?user_id=${userId}&permission_id=%24read_members&recursive=true`,
        headers: serverHeaders(demo)
      })
      expect(filtered.json.items).toEqual([{ id: "$read_members", team_id: teamId, user_id: userId }])

      const clientGrant = yield* send(app.emulator, {
        method: "POST",
        path: `/api/v1/team-permissions/${teamId}/${userId}/team_member`,
        headers: clientHeaders(demo),
        body: {}
      })
      expect([clientGrant.status, clientGrant.headers.get("x-stack-known-error")]).toEqual([401, "INSUFFICIENT_ACCESS_TYPE"])

      const badId = yield* send(app.emulator, {
        method: "POST",
        path: `/api/v1/team-permissions/${teamId}/${userId}/Bad-Id`,
        headers: serverHeaders(demo),
        body: {}
      })
      expect([badId.status, badId.headers.get("x-stack-known-error")]).toEqual([400, "SCHEMA_ERROR"])
    }))
})
