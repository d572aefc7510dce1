/**
 * Team API keys through the SDK against the in-process emulator: create/list/get/update/revoke
 * with `$manage_api_keys`, the server check (and a team key on the user endpoint), owner
 * exclusivity before sending, the project switch, and keys dying with their team.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Option, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { ServerTeamApiKeys, ServerTeams, ServerUserApiKeys, TeamApiKeys, Teams, UserApiKeys } from "../../src/index.js"
import { setup, within } from "./support.js"

describe("TeamApiKeys", () => {
  it.effect("create → list (newest first, last four) → get → update → check → revoke → check fails", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ clientTeamCreationEnabled: true, allowTeamApiKeys: true, allowUserApiKeys: true })
      const ada = yield* signUp("ada@example.com")
      const run = within(ada.client)
      const team = yield* run(Teams.create({ displayName: "Ada's Team" }))
      const first = yield* run(TeamApiKeys.create({ owner: { teamId: team.id }, description: "first", expiresAt: null }))
      yield* TestClock.adjust(1000)
      const created = yield* run(TeamApiKeys.create({ owner: { teamId: team.id }, description: "ci", expiresAt: null, isPublic: true }))
      const value = Redacted.value(created.value)
      // public: scanner flag 3 (packages/stack-shared/src/utils/api-keys.tsx at 2f719903)
      expect(value).toMatch(new RegExp(`^pk_[0-9a-z]{45}${created.id.replace(/-/g, "")}team3574ck4u7h[0-9a-f]{8}$`))
      expect(created.type).toBe("team")
      expect(created.teamId).toBe(team.id)

      const listed = yield* run(TeamApiKeys.list(team.id))
      expect(listed.map((key) => key.id)).toEqual([created.id, first.id])
      expect(listed[0]!.value).toEqual({ lastFour: value.slice(-4) })
      expect((yield* run(TeamApiKeys.update(team.id, created.id, { description: "renamed" }))).description).toBe("renamed")
      expect((yield* run(TeamApiKeys.get(team.id, created.id))).description).toBe("renamed")

      expect((yield* within(server)(ServerTeamApiKeys.check(value))).id).toBe(created.id)
      const wrongType = yield* Effect.flip(within(server)(ServerUserApiKeys.check(value)))
      expect(wrongType._tag).toBe("WrongApiKeyType")
      expect(wrongType.message).toBe("This endpoint is for user API keys, but a team API key was provided.")

      const revoked = yield* run(TeamApiKeys.revoke(team.id, created.id))
      expect(TeamApiKeys.validity(revoked, new Date())).toBe("manually-revoked")
      expect((yield* Effect.flip(within(server)(ServerTeamApiKeys.check(value))))._tag).toBe("ApiKeyRevoked")
      expect(yield* within(server)(ServerTeamApiKeys.checkOrNone(value))).toEqual(Option.none())
      expect(Option.isSome(yield* within(server)(ServerTeamApiKeys.checkOrNone(first.value)))).toBe(true)
    }))

  it.effect("an owner naming a user, or both, is refused before any request", () =>
    Effect.gen(function* () {
      const { signUp, requests } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const before = requests()
      const teamId = "39d6e7c8-7f54-482e-92f5-79bb7706ba55"
      const both = yield* Effect.flip(
        within(ada.client)(TeamApiKeys.create({ owner: { userId: "me", teamId }, description: "both", expiresAt: null }))
      )
      expect(both._tag).toBe("InvalidArgument")
      const user = yield* Effect.flip(within(ada.client)(TeamApiKeys.create({ owner: { userId: "me" }, description: "u", expiresAt: null })))
      expect(user._tag).toBe("InvalidArgument")
      const asUserKey = yield* Effect.flip(within(ada.client)(UserApiKeys.create({ owner: { teamId }, description: "t", expiresAt: null })))
      expect(asUserKey._tag).toBe("InvalidArgument")
      expect(requests()).toBe(before)
    }))

  it.effect("without $manage_api_keys (or outside the team) every call is ApiKeyNotFound; the switch off is TeamApiKeysNotEnabled", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const key = yield* within(ada.client)(TeamApiKeys.create({ owner: { teamId: team.id }, description: "k", expiresAt: null }))
      expect((yield* Effect.flip(within(bob.client)(TeamApiKeys.list(team.id))))._tag).toBe("ApiKeyNotFound")
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))
      expect((yield* Effect.flip(within(bob.client)(TeamApiKeys.get(team.id, key.id))))._tag).toBe("ApiKeyNotFound")
      expect(
        (yield* Effect.flip(within(bob.client)(TeamApiKeys.create({ owner: { teamId: team.id }, description: "x", expiresAt: null }))))._tag
      ).toBe("ApiKeyNotFound")

      const off = yield* setup({ clientTeamCreationEnabled: true })
      const carol = yield* off.signUp("carol@example.com")
      const other = yield* within(carol.client)(Teams.create({ displayName: "Carol's Team" }))
      const disabled = yield* Effect.flip(within(carol.client)(TeamApiKeys.list(other.id)))
      expect(disabled._tag).toBe("TeamApiKeysNotEnabled")
    }))

  it.effect("an expired key checks as ApiKeyExpired; deleting the team deletes its keys", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const now = yield* Clock.currentTimeMillis
      const short = yield* within(ada.client)(
        TeamApiKeys.create({ owner: { teamId: team.id }, description: "short", expiresAt: new Date(now + 60_000) })
      )
      const lasting = yield* within(ada.client)(TeamApiKeys.create({ owner: { teamId: team.id }, description: "long", expiresAt: null }))
      yield* TestClock.adjust(120_000)
      expect((yield* Effect.flip(within(server)(ServerTeamApiKeys.check(short.value))))._tag).toBe("ApiKeyExpired")
      yield* within(server)(ServerTeams.delete(team.id))
      expect((yield* Effect.flip(within(server)(ServerTeamApiKeys.check(lasting.value))))._tag).toBe("ApiKeyNotFound")
    }))
})
