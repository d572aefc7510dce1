/**
 * End to end over real HTTP against the emulator server: a team admin creates a team API key,
 * sees its last four characters in the list, reads and renames it; a server checks it (and the
 * user-key check refuses it as the wrong type); the admin revokes it and the check then fails
 * with ApiKeyRevoked (checkOrNone: none). An owner naming both a user and a team never leaves
 * the process.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as TeamApiKeys from "../../src/api-keys/TeamApiKeys.js"
import * as ServerTeamApiKeys from "../../src/api-keys/ServerTeamApiKeys.js"
import * as ServerUserApiKeys from "../../src/api-keys/ServerUserApiKeys.js"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as Teams from "../../src/teams/Teams.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: true, allowTeamApiKeys: true, allowUserApiKeys: true } } })

describe("team API keys over HTTP against the emulator", () => {
  it("create → list shows the last four → get → update → server check → wrong type on the user check → revoke → ApiKeyRevoked / none", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          yield* Password.signUpWithPassword({ email: `e2e-team-keys-${Date.now()}@example.com`, password: "correct horse", noVerificationCallback: true })
            .pipe(
              Effect.provide(client)
            )
          const team = yield* Teams.create({ displayName: "Keys Team" }).pipe(Effect.provide(client))
          const sentBefore = fetch.count("POST /team-api-keys") + fetch.count("POST /user-api-keys")
          const both = yield* Effect.flip(
            TeamApiKeys.create({ owner: { userId: "me", teamId: team.id }, description: "both", expiresAt: null }).pipe(Effect.provide(client))
          )
          const sentAfter = fetch.count("POST /team-api-keys") + fetch.count("POST /user-api-keys")
          const created = yield* TeamApiKeys.create({ owner: { teamId: team.id }, description: "e2e", expiresAt: null }).pipe(Effect.provide(client))
          const listed = yield* TeamApiKeys.list(team.id).pipe(Effect.provide(client))
          const read = yield* TeamApiKeys.get(team.id, created.id).pipe(Effect.provide(client))
          const renamed = yield* TeamApiKeys.update(team.id, created.id, { description: "renamed" }).pipe(Effect.provide(client))
          const checked = yield* ServerTeamApiKeys.check(created.value).pipe(Effect.provide(server))
          const wrongType = yield* Effect.flip(ServerUserApiKeys.check(created.value).pipe(Effect.provide(server)))
          const revoked = yield* TeamApiKeys.revoke(team.id, created.id).pipe(Effect.provide(client))
          const error = yield* Effect.flip(ServerTeamApiKeys.check(created.value).pipe(Effect.provide(server)))
          const none = yield* ServerTeamApiKeys.checkOrNone(created.value).pipe(Effect.provide(server))
          return { team, both, sent: sentAfter - sentBefore, created, listed, read, renamed, checked, wrongType, revoked, error, none }
        })
      )
    )
    const value = Redacted.value(outcome.created.value)
    expect(outcome.both._tag).toBe("InvalidArgument")
    expect(outcome.sent).toBe(0)
    expect(value).toMatch(/^sk_[0-9a-z]{45}[0-9a-f]{32}team1574ck4u7h[0-9a-f]{8}$/)
    expect(outcome.listed.map((key) => key.value)).toEqual([{ lastFour: value.slice(-4) }])
    expect(outcome.read.teamId).toBe(outcome.team.id)
    expect(outcome.renamed.description).toBe("renamed")
    expect(outcome.checked.id).toBe(outcome.created.id)
    expect(outcome.wrongType._tag).toBe("WrongApiKeyType")
    expect(outcome.revoked.manuallyRevokedAt).toBeInstanceOf(Date)
    expect(outcome.error._tag).toBe("ApiKeyRevoked")
    expect(outcome.none).toEqual(Option.none())
    expect(fetch.count("POST /team-api-keys/check")).toBe(3)
  })
})
