/**
 * The user or team behind an API key with server access (the official `getUser({ apiKey })` and
 * `getTeam({ apiKey })`), against the in-process emulator: a valid key gives its owner; a value
 * that is not a valid key of that kind (unknown, the other kind, revoked) gives none.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ServerTeams, ServerUsers, TeamApiKeys, Teams, UserApiKeys } from "../../src/index.js"
import { setup, within } from "../teams/support.js"

describe("getByApiKey", () => {
  it.effect("ServerUsers.getByApiKey gives the key's user; a team key, an unknown or a revoked key gives none", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ clientTeamCreationEnabled: true, allowTeamApiKeys: true, allowUserApiKeys: true })
      const ada = yield* signUp("ada@example.com")
      const key = yield* within(ada.client)(UserApiKeys.create({ owner: { userId: "me" }, description: "cli", expiresAt: null }))
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const teamKey = yield* within(ada.client)(TeamApiKeys.create({ owner: { teamId: team.id }, description: "ci", expiresAt: null }))

      const user = yield* within(server)(ServerUsers.getByApiKey(key.value))
      expect(Option.getOrThrow(user)).toMatchObject({ id: ada.userId, primaryEmail: "ada@example.com" })
      expect(yield* within(server)(ServerUsers.getByApiKey(teamKey.value))).toEqual(Option.none())
      expect(yield* within(server)(ServerUsers.getByApiKey("sk_not_a_key"))).toEqual(Option.none())
      yield* within(ada.client)(UserApiKeys.revoke(key.id))
      expect(yield* within(server)(ServerUsers.getByApiKey(key.value))).toEqual(Option.none())
    }))

  it.effect("ServerTeams.getByApiKey gives the key's team; a user key gives none", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ clientTeamCreationEnabled: true, allowTeamApiKeys: true, allowUserApiKeys: true })
      const ada = yield* signUp("ada@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const teamKey = yield* within(ada.client)(TeamApiKeys.create({ owner: { teamId: team.id }, description: "ci", expiresAt: null }))
      const userKey = yield* within(ada.client)(UserApiKeys.create({ owner: { userId: "me" }, description: "cli", expiresAt: null }))

      const found = yield* within(server)(ServerTeams.getByApiKey(teamKey.value))
      expect(Option.getOrThrow(found)).toMatchObject({ id: team.id, displayName: "Ada's Team" })
      expect(yield* within(server)(ServerTeams.getByApiKey(userKey.value))).toEqual(Option.none())
    }))

  it.effect("with user API keys off, getByApiKey fails with UserApiKeysNotEnabled", () =>
    Effect.gen(function* () {
      const { server } = yield* setup({ allowUserApiKeys: false })
      const error = yield* Effect.flip(within(server)(ServerUsers.getByApiKey("sk_anything")))
      expect(error._tag).toBe("UserApiKeysNotEnabled")
    }))
})
