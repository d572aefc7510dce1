/**
 * End to end over real HTTP against the emulator server: every member's permissions in a team
 * with server access (the official `listTeamMemberPermissions`): the creator's direct
 * `team_admin`, and what it contains with `recursive: true`; one request per list.
 */
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import * as Stack from "../../src/Stack.js"
import * as Teams from "../../src/teams/Teams.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: true } } })

describe("listTeamMemberPermissions over HTTP against the emulator", () => {
  it("lists the creator's direct team_admin, and $delete_team with recursive: true; one GET /team-permissions each", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient({ ...options, tokenStore: "memory" }))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          const user = yield* Password.signUpWithPassword({
            email: `e2e-members-perm-${Date.now()}@example.com`,
            password: "correct horse",
            noVerificationCallback: true
          }).pipe(
            Effect.provide(client)
          )
          const team = yield* Teams.create({ displayName: "Members' permissions" }).pipe(Effect.provide(client))
          const direct = yield* ServerPermissions.listTeamMemberPermissions(team.id).pipe(Effect.provide(server))
          const recursive = yield* ServerPermissions.listTeamMemberPermissions(team.id, { recursive: true }).pipe(Effect.provide(server))
          return { userId: user.userId, direct, recursive }
        })
      )
    )
    expect(outcome.direct).toContainEqual({ userId: outcome.userId, permissionId: "team_admin" })
    expect(outcome.direct).not.toContainEqual({ userId: outcome.userId, permissionId: "$delete_team" })
    expect(outcome.recursive).toContainEqual({ userId: outcome.userId, permissionId: "$delete_team" })
    expect(fetch.count("GET /team-permissions")).toBe(2)
  })
})
