/**
 * One permission of a user (the official `user.getPermission(…)`, client and server), against the
 * in-process emulator: a held permission (directly or, by default, through containment) is
 * returned with its ids; one not held is none; `recursive: false` counts direct grants only.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as Permissions from "../../src/permissions/Permissions.js"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import { makeApp } from "./support.js"
import { right } from "../support/results.js"

describe("getTeamPermission / getProjectPermission", () => {
  it.live("a team permission held through containment is found by default, not with recursive: false; one not held is none", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("creator@example.com")
      const teamId = app.createTeam(userId)

      const contained = right(yield* app.run(Permissions.getTeamPermission(teamId, "$delete_team")))
      expect(Option.getOrThrow(contained)).toMatchObject({ id: "$delete_team", teamId, userId })
      expect(right(yield* app.run(Permissions.getTeamPermission(teamId, "$delete_team", { recursive: false })))).toEqual(Option.none())
      expect(Option.isSome(right(yield* app.run(Permissions.getTeamPermission(teamId, "team_admin", { recursive: false }))))).toBe(true)
      expect(right(yield* app.run(Permissions.getTeamPermission(teamId, "nothing_like_it")))).toEqual(Option.none())

      const server = right(yield* app.run(ServerPermissions.getTeamPermission(teamId, userId, "$update_team")))
      expect(Option.getOrThrow(server)).toMatchObject({ id: "$update_team", teamId, userId })
      expect(right(yield* app.run(ServerPermissions.getTeamPermission(teamId, userId, "nothing_like_it")))).toEqual(Option.none())
    }))

  it.live("a granted project permission is found on the client and the server; before the grant it is none", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("reader@example.com")
      right(yield* app.run(PermissionDefinitions.createProjectDefinition({ id: "read_reports" })))
      expect(right(yield* app.run(ServerPermissions.getProjectPermission(userId, "read_reports")))).toEqual(Option.none())
      right(yield* app.run(ServerPermissions.grantProjectPermission(userId, "read_reports")))
      expect(Option.getOrThrow(right(yield* app.run(ServerPermissions.getProjectPermission(userId, "read_reports"))))).toMatchObject({
        id: "read_reports",
        userId
      })
      expect(Option.getOrThrow(right(yield* app.run(Permissions.getProjectPermission("read_reports"))))).toMatchObject({ id: "read_reports", userId })
    }))
})
