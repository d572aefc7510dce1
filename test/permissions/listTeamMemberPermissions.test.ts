/**
 * Every member's permissions in a team (the official server `listTeamMemberPermissions(teamId,
 * { recursive })`), against the in-process emulator: `GET /team-permissions?team_id=` without
 * `user_id`, with server access; `recursive` defaults to `false` as the official SDK's does; the
 * cached list follows a grant and a revoke in the team.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import { makeApp } from "./support.js"
import { right } from "../support/results.js"

const pairs = (items: ReadonlyArray<ServerPermissions.TeamMemberPermission>, userId: string) =>
  items.filter((item) => item.userId === userId).map((item) => item.permissionId).sort()

describe("ServerPermissions.listTeamMemberPermissions", () => {
  it.live("lists each member's direct grants by default, and what they contain with recursive: true; no user_id is sent", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const member = yield* app.signUp("member@example.com")
      const creator = yield* app.signUp("creator@example.com")
      const teamId = app.createTeam(creator, member)

      const direct = right(yield* app.run(ServerPermissions.listTeamMemberPermissions(teamId)))
      expect(pairs(direct, creator)).toContain("team_admin")
      expect(pairs(direct, creator)).not.toContain("$delete_team")
      expect(pairs(direct, member).length).toBeGreaterThan(0)
      expect(pairs(direct, member)).not.toContain("team_admin")

      const recursive = right(yield* app.run(ServerPermissions.listTeamMemberPermissions(teamId, { recursive: true })))
      expect(pairs(recursive, creator)).toContain("$delete_team")

      const lists = app.sent.filter((sent) => sent.startsWith("GET /team-permissions"))
      expect(lists).toHaveLength(2)
      for (const sent of lists) {
        expect(sent).toContain(`team_id=${teamId}`)
        expect(sent).not.toContain("user_id")
      }
    }))

  it.live("the cached list follows a grant and a revoke in the team (one new request after each)", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const member = yield* app.signUp("member2@example.com")
      const creator = yield* app.signUp("creator2@example.com")
      const teamId = app.createTeam(creator, member)
      const countLists = () => app.sent.filter((sent) => sent.startsWith("GET /team-permissions")).length

      expect(pairs(right(yield* app.run(ServerPermissions.listTeamMemberPermissions(teamId))), member)).not.toContain("team_admin")
      right(yield* app.run(ServerPermissions.listTeamMemberPermissions(teamId)))
      expect(countLists()).toBe(1)

      right(yield* app.run(ServerPermissions.grantTeamPermission(teamId, member, "team_admin")))
      expect(pairs(right(yield* app.run(ServerPermissions.listTeamMemberPermissions(teamId))), member)).toContain("team_admin")
      expect(countLists()).toBe(2)

      right(yield* app.run(ServerPermissions.revokeTeamPermission(teamId, member, "team_admin")))
      expect(pairs(right(yield* app.run(ServerPermissions.listTeamMemberPermissions(teamId))), member)).not.toContain("team_admin")
      expect(countLists()).toBe(3)
    }))

  it.live("a malformed team id is InvalidArgument, and nothing is sent", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const result = yield* app.run(ServerPermissions.listTeamMemberPermissions("not-a-uuid"))
      expect(result._tag === "Failure" ? result.failure._tag : "Success").toBe("InvalidArgument")
      expect(app.sent.filter((sent) => sent.startsWith("GET /team-permissions"))).toHaveLength(0)
    }))
})
