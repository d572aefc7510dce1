/**
 * Any user's API keys by user id with server access (the official `serverUser.listApiKeys()` /
 * `createApiKey(…)`), against the in-process emulator: create for a user, list (newest first,
 * last four), get, rename, revoke; the user sees the same keys with client access; an unknown
 * user is `UserNotFound`; the project switch still applies.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { ServerUserApiKeys, UserApiKeys } from "../../src/index.js"
import { setup, within } from "../teams/support.js"

describe("ServerUserApiKeys (a user's keys by id)", () => {
  it.effect("create → list → get → update → revoke for a user by id; the user lists the same keys", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ allowUserApiKeys: true })
      const ada = yield* signUp("ada@example.com")
      const run = within(server)
      const first = yield* run(ServerUserApiKeys.create(ada.userId, { description: "first", expiresAt: null }))
      yield* TestClock.adjust(1000)
      const created = yield* run(ServerUserApiKeys.create(ada.userId, { description: "ci", expiresAt: null }))
      expect(created.userId).toBe(ada.userId)
      expect(Redacted.value(created.value)).toMatch(/^sk_/)

      const listed = yield* run(ServerUserApiKeys.list(ada.userId))
      expect(listed.map((key) => key.id)).toEqual([created.id, first.id])
      expect(listed[0]!.value).toEqual({ lastFour: Redacted.value(created.value).slice(-4) })
      expect((yield* within(ada.client)(UserApiKeys.list())).map((key) => key.id)).toEqual([created.id, first.id])

      expect((yield* run(ServerUserApiKeys.update(ada.userId, created.id, { description: "renamed" }))).description).toBe("renamed")
      expect((yield* run(ServerUserApiKeys.get(ada.userId, created.id))).description).toBe("renamed")
      const revoked = yield* run(ServerUserApiKeys.revoke(ada.userId, created.id))
      expect(revoked.manuallyRevokedAt).toBeInstanceOf(Date)
      expect((yield* Effect.flip(run(ServerUserApiKeys.check(created.value))))._tag).toBe("ApiKeyRevoked")
    }))

  it.effect("an unknown user is UserNotFound; a key of another user is ApiKeyNotFound", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ allowUserApiKeys: true })
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const run = within(server)
      const unknown = yield* Effect.flip(run(ServerUserApiKeys.list("8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11")))
      expect(unknown._tag).toBe("UserNotFound")
      const key = yield* run(ServerUserApiKeys.create(ada.userId, { description: "ada's", expiresAt: null }))
      const other = yield* Effect.flip(run(ServerUserApiKeys.get(bob.userId, key.id)))
      expect(other._tag).toBe("ApiKeyNotFound")
    }))

  it.effect("with user API keys off, server access fails with UserApiKeysNotEnabled too", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ allowUserApiKeys: false })
      const ada = yield* signUp("ada@example.com")
      const error = yield* Effect.flip(within(server)(ServerUserApiKeys.list(ada.userId)))
      expect(error._tag).toBe("UserApiKeysNotEnabled")
    }))
})
