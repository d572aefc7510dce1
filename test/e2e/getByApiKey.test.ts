/**
 * End to end over real HTTP against the emulator server: the user and the team behind an API key
 * with server access (the official `getUser({ apiKey })` / `getTeam({ apiKey })`): one check and
 * one read each; a key of the other kind gives none.
 */
import { Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as TeamApiKeys from "../../src/api-keys/TeamApiKeys.js"
import * as UserApiKeys from "../../src/api-keys/UserApiKeys.js"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import * as Teams from "../../src/teams/Teams.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { allowUserApiKeys: true, allowTeamApiKeys: true, clientTeamCreationEnabled: true } } })

describe("getByApiKey over HTTP against the emulator", () => {
  it("ServerUsers.getByApiKey and ServerTeams.getByApiKey find the key's owner; the other kind of key gives none", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const email = `e2e-bykey-${Date.now()}@example.com`
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          const signedUp = yield* Password.signUpWithPassword({ email, password: "correct horse", noVerificationCallback: true }).pipe(Effect.provide(client))
          const userKey = yield* UserApiKeys.create({ description: "e2e", expiresAt: null }).pipe(Effect.provide(client))
          const team = yield* Teams.create({ displayName: "E2E team" }).pipe(Effect.provide(client))
          const teamKey = yield* TeamApiKeys.create({ owner: { teamId: team.id }, description: "e2e", expiresAt: null }).pipe(Effect.provide(client))
          const user = yield* ServerUsers.getByApiKey(userKey.value).pipe(Effect.provide(server))
          const foundTeam = yield* ServerTeams.getByApiKey(teamKey.value).pipe(Effect.provide(server))
          const wrongKind = yield* ServerUsers.getByApiKey(teamKey.value).pipe(Effect.provide(server))
          return { userId: signedUp.userId, teamId: team.id, user, foundTeam, wrongKind }
        })
      )
    )
    expect(Option.getOrThrow(outcome.user)).toMatchObject({ id: outcome.userId, primaryEmail: email })
    expect(Option.getOrThrow(outcome.foundTeam).id).toBe(outcome.teamId)
    expect(outcome.wrongKind).toEqual(Option.none())
    expect(fetch.count("POST /user-api-keys/check")).toBe(2)
    expect(fetch.count("POST /team-api-keys/check")).toBe(1)
    expect(fetch.count(`GET /users/${outcome.userId}`)).toBe(1)
    expect(fetch.count(`GET /teams/${outcome.teamId}`)).toBe(1)
  })
})
