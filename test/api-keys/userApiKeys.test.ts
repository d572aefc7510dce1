/** User API keys through the SDK against the in-process emulator; the key format; the pure validity check. */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Layer, Option, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as ApiKey from "../../src/api-keys/ApiKey.js"
import * as UserApiKeys from "../../src/api-keys/UserApiKeys.js"
import * as ServerUserApiKeys from "../../src/api-keys/ServerUserApiKeys.js"
import { crc32Hex, formatKey, issueKey, parseKey } from "../../src/emulator/ApiKeys.js"
import * as Emulator from "../../src/emulator/index.js"
import { Password, Stack } from "../../src/index.js"
import { load } from "../emulator/conformanceSupport.js"
import { countingClient } from "../projects/support.js"

const hour = 3_600_000

/** A project allowing user API keys (unless `enabled` is false), a signed-in client and server access. */
const setup = (enabled = true) =>
  Effect.gen(function* () {
    const emulator = yield* Emulator.make({ demo: { config: { allowUserApiKeys: false } } })
    const project = enabled ? yield* emulator.createProject({ config: { allowUserApiKeys: true } }) : emulator.demo
    const counting = countingClient(emulator)
    const options = { projectId: project.projectId, publishableClientKey: project.publishableClientKey, httpClient: counting.layer }
    const client = yield* Layer.build(Stack.layerClient(options))
    const user = yield* Password.signUpWithPassword({ email: "keys@example.com", password: "correct horse", noVerificationCallback: true }).pipe(
      Effect.provide(client)
    )
    const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: project.secretServerKey }))
    return { emulator, project, client, server, user, requests: counting.count }
  })

describe("UserApiKeys", () => {
  it.effect("create → list (last four, newest first) → get → update → check → revoke → check fails", () =>
    Effect.gen(function* () {
      const { client, server } = yield* setup()
      const first = yield* UserApiKeys.create({ description: "first", expiresAt: null }).pipe(Effect.provide(client))
      yield* TestClock.adjust(1000)
      const created = yield* UserApiKeys.create({ description: "ci", expiresAt: null }).pipe(Effect.provide(client))
      const value = Redacted.value(created.value)
      expect(String(created.value)).not.toContain("sk_")
      expect(value).toMatch(new RegExp(`^sk_[0-9a-z]{45}${created.id.replace(/-/g, "")}user1574ck4u7h[0-9a-f]{8}$`))
      expect(created.expiresAt).toBeUndefined()
      expect(created.isPublic).toBe(false)

      const listed = yield* UserApiKeys.list().pipe(Effect.provide(client))
      expect(listed.map((key) => key.id)).toEqual([created.id, first.id])
      expect(listed[0]!.value).toEqual({ lastFour: value.slice(-4) })

      const renamed = yield* UserApiKeys.update(created.id, { description: "renamed" }).pipe(Effect.provide(client))
      expect(renamed.description).toBe("renamed")
      expect((yield* UserApiKeys.get(created.id).pipe(Effect.provide(client))).description).toBe("renamed")

      const checked = yield* ServerUserApiKeys.check(value).pipe(Effect.provide(server))
      expect(checked.id).toBe(created.id)
      expect(checked.value).toEqual({ lastFour: value.slice(-4) })
      expect(UserApiKeys.validity(checked, new Date())).toBe("valid")

      const revoked = yield* UserApiKeys.revoke(created.id).pipe(Effect.provide(client))
      expect(revoked.manuallyRevokedAt).toBeInstanceOf(Date)
      yield* TestClock.adjust(5000)
      const again = yield* UserApiKeys.revoke(created.id).pipe(Effect.provide(client))
      expect(again.manuallyRevokedAt).toEqual(revoked.manuallyRevokedAt)
      expect(UserApiKeys.validity(again, new Date(0))).toBe("manually-revoked")

      const error = yield* Effect.flip(ServerUserApiKeys.check(value).pipe(Effect.provide(server)))
      expect(error._tag).toBe("ApiKeyRevoked")
      expect(yield* ServerUserApiKeys.checkOrNone(Redacted.make(value)).pipe(Effect.provide(server))).toEqual(Option.none())
      expect(Option.isSome(yield* ServerUserApiKeys.checkOrNone(Redacted.value(first.value)).pipe(Effect.provide(server)))).toBe(true)
    }))

  it.effect("a key with an expiry checks until then, ApiKeyExpired afterwards; a public key is pk_", () =>
    Effect.gen(function* () {
      const { client, server } = yield* setup()
      const now = yield* Clock.currentTimeMillis
      const created = yield* UserApiKeys.create({ description: "short", expiresAt: new Date(now + hour), isPublic: true }).pipe(
        Effect.provide(client)
      )
      expect(created.expiresAt?.getTime()).toBe(now + hour)
      expect(created.isPublic).toBe(true)
      expect(Redacted.value(created.value)).toMatch(/^pk_/)
      expect((yield* ServerUserApiKeys.check(created.value).pipe(Effect.provide(server))).id).toBe(created.id)
      yield* TestClock.adjust(2 * hour)
      const error = yield* Effect.flip(ServerUserApiKeys.check(created.value).pipe(Effect.provide(server)))
      expect(error._tag).toBe("ApiKeyExpired")
      expect(yield* ServerUserApiKeys.checkOrNone(created.value).pipe(Effect.provide(server))).toEqual(Option.none())
      expect(UserApiKeys.validity(created, new Date(now + 2 * hour))).toBe("expired")
    }))

  it.effect("check: unknown or malformed values are ApiKeyNotFound; a team key is WrongApiKeyType", () =>
    Effect.gen(function* () {
      const { emulator, project, server, user } = yield* setup()
      // a malformed value, and a well-formed one (the recorded key) this emulator never issued
      const recordedValue = (load("api-keys/02-user-key-create").response.body as { value: string }).value
      for (const value of ["sk_this-key-does-not-exist", recordedValue]) {
        const error = yield* Effect.flip(ServerUserApiKeys.check(value).pipe(Effect.provide(server)))
        expect(error._tag).toBe("ApiKeyNotFound")
      }
      const record = emulator.state.projects.get(project.projectId)!
      const team = yield* issueKey(record, { type: "team", ownerId: user.userId, description: "t", isPublic: false, expiresAtMillis: undefined, nowMillis: 0 })
      const error = yield* Effect.flip(ServerUserApiKeys.check(team.value).pipe(Effect.provide(server)))
      expect(error._tag).toBe("WrongApiKeyType")
      expect(error.message).toBe("This endpoint is for user API keys, but a team API key was provided.")
      expect(yield* ServerUserApiKeys.checkOrNone(team.value).pipe(Effect.provide(server))).toEqual(Option.none())
    }))

  it.effect("another user's key is ApiKeyNotFound; the stored record keeps only a hash and the last four", () =>
    Effect.gen(function* () {
      const { emulator, project, client } = yield* setup()
      const created = yield* UserApiKeys.create({ description: "mine", expiresAt: null }).pipe(Effect.provide(client))
      const other = yield* Layer.build(
        Stack.layerClient({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, httpClient: Emulator.layerHttpClient(emulator) })
      )
      yield* Password.signUpWithPassword({ email: "other@example.com", password: "correct horse", noVerificationCallback: true }).pipe(Effect.provide(other))
      const error = yield* Effect.flip(UserApiKeys.get(created.id).pipe(Effect.provide(other)))
      expect(error._tag).toBe("ApiKeyNotFound")
      expect(yield* UserApiKeys.list().pipe(Effect.provide(other))).toEqual([])
      const stored = JSON.stringify([...emulator.state.projects.get(project.projectId)!.apiKeys!.values()])
      expect(stored).not.toContain(Redacted.value(created.value))
      expect(stored).toContain(Redacted.value(created.value).slice(-4))
    }))

  it.effect("a project without user API keys: UserApiKeysNotEnabled with the service's text", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(false)
      const error = yield* Effect.flip(UserApiKeys.create({ description: "no", expiresAt: null }).pipe(Effect.provide(client)))
      expect(error).toEqual(UserApiKeys.UserApiKeysNotEnabled.make())
      expect(error.message).toBe("User API keys are not enabled for this project.")
      expect((yield* Effect.flip(UserApiKeys.list().pipe(Effect.provide(client))))._tag).toBe("UserApiKeysNotEnabled")
    }))

  it.effect("an owner naming a team (or a user and a team) is InvalidArgument before anything is sent", () =>
    Effect.gen(function* () {
      const { client, requests } = yield* setup()
      const before = requests()
      const teamId = "39d6e7c8-7f54-482e-92f5-79bb7706ba55"
      for (const owner of [{ userId: "me", teamId }, { teamId }, { userId: "not-a-uuid" }, {}]) {
        const error = yield* Effect.flip(UserApiKeys.create({ description: "x", expiresAt: null, owner }).pipe(Effect.provide(client)))
        expect(error._tag).toBe("InvalidArgument")
      }
      expect(requests()).toBe(before)
      expect(yield* Effect.flip(ApiKey.resolveOwner({ userId: "me", teamId }))).toMatchObject({ argument: "owner" })
      expect(yield* ApiKey.resolveOwner({ teamId })).toEqual({ type: "team", teamId })
    }))
})

describe("API key validity (SPEC.md §4, user/team keys)", () => {
  const now = new Date(10_000)
  it("revocation is checked first, then expiry", () => {
    expect(ApiKey.validity({ manuallyRevokedAt: new Date(1), expiresAt: new Date(2) }, now)).toBe("manually-revoked")
    expect(ApiKey.validity({ expiresAt: new Date(9_999) }, now)).toBe("expired")
    expect(ApiKey.validity({ expiresAt: new Date(10_001) }, now)).toBe("valid")
    expect(ApiKey.validity({}, now)).toBe("valid")
  })
})

describe("the emulator's key format", () => {
  it("CRC-32 matches the standard check value and the recorded key", () => {
    expect(crc32Hex("123456789")).toBe("cbf43926")
    const recorded = load("api-keys/02-user-key-create").response.body as { id: string; value: string }
    expect(parseKey(recorded.value)).toEqual({ isPublic: false, id: recorded.id, type: "user" })
    expect(parseKey(recorded.value.replace(/.$/, (c) => (c === "0" ? "1" : "0")))).toBeUndefined()
    expect(parseKey(recorded.value.replace("user1", "team1"))).toBeUndefined()
  })

  it("the scanner flag marks public keys (3) and secret keys (1); parsing reads it as the service does", () => {
    const id = "0f8c4a52-3d1e-4b6f-9a7c-2e5d8b1f4c30"
    const publicKey = formatKey({ id, type: "team", isPublic: true })
    const secretKey = formatKey({ id, type: "user", isPublic: false })
    expect(publicKey).toMatch(/^pk_[0-9a-z]{45}0f8c4a523d1e4b6f9a7c2e5d8b1f4c30team3574ck4u7h[0-9a-f]{8}$/)
    expect(secretKey).toMatch(/^sk_[0-9a-z]{45}0f8c4a523d1e4b6f9a7c2e5d8b1f4c30user1574ck4u7h[0-9a-f]{8}$/)
    expect(parseKey(publicKey)).toEqual({ isPublic: true, id, type: "team" })
    expect(parseKey(secretKey)).toEqual({ isPublic: false, id, type: "user" })
    // a cloud public key (flag 2) is public too (parseApiKeyParts: bit 2 of the flag)
    const cloud = publicKey.slice(0, -8).replace("team3574ck4u7h", "team2574ck4u7h")
    expect(parseKey(cloud + crc32Hex(cloud))).toEqual({ isPublic: true, id, type: "team" })
  })
})
