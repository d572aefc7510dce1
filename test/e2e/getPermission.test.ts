/**
 * End to end over real HTTP against the emulator server: one permission of a user (the official
 * `getPermission`), client and server: the team creator holds `$delete_team` through `team_admin`;
 * a permission not held is none. One list request each.
 */
import { Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Permissions from "../../src/permissions/Permissions.js"
import * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import * as Stack from "../../src/Stack.js"
import * as Teams from "../../src/teams/Teams.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: true } } })

describe("getPermission over HTTP against the emulator", () => {
  it("the creator's $delete_team (through team_admin) is found on the client and the server; an unheld one is none", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          const user = yield* Password.signUpWithPassword({
            email: `e2e-getperm-${Date.now()}@example.com`,
            password: "correct horse",
            noVerificationCallback: true
          }).pipe(
            Effect.provide(client)
          )
          const team = yield* Teams.create({ displayName: "Perm team" }).pipe(Effect.provide(client))
          const mine = yield* Permissions.getTeamPermission(team.id, "$delete_team").pipe(Effect.provide(client))
          const unheld = yield* Permissions.getTeamPermission(team.id, "not_granted").pipe(Effect.provide(client))
          const viaServer = yield* ServerPermissions.getTeamPermission(team.id, user.userId, "$delete_team").pipe(Effect.provide(server))
          return { userId: user.userId, teamId: team.id, mine, unheld, viaServer }
        })
      )
    )
    expect(Option.getOrThrow(outcome.mine)).toMatchObject({ id: "$delete_team", teamId: outcome.teamId, userId: outcome.userId })
    expect(outcome.unheld).toEqual(Option.none())
    expect(Option.getOrThrow(outcome.viaServer)).toMatchObject({ id: "$delete_team", userId: outcome.userId })
    // the client's two reads share one cached list; the server's read is its own request
    expect(fetch.count("GET /team-permissions")).toBe(2)
  })
})
