/**
 * Public user and team API keys as the service makes them (issue 27, item 10), read from its
 * source at stack-auth/stack-auth commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/(api-keys)/handlers.tsx` (`create`: `isPublic = body.is_public
 * ?? false`, `isCloudVersion` only on `api.stack-auth.com`; `prismaToCrud`: `is_public` read back
 * on create, list, read and check) and `packages/stack-shared/src/utils/api-keys.tsx`
 * (`createApiKeyParts`: prefix `pk` / `sk`, then after the type the scanner flag
 * `getBase32CharacterFromIndex((isCloudVersion ? 0 : 1) + (isPublic ? 2 : 0)).toLowerCase()`,
 * the marker `574ck4u7h` and the CRC-32 of everything before, 8 hex digits;
 * `parseApiKeyParts` reads `isPublic` from bit 2 of the flag).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

/** CRC-32 (zlib), written here independently of the emulator's. */
const crc32 = (text: string): string => {
  let crc = ~0
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return ((~crc) >>> 0).toString(16).padStart(8, "0")
}

const parts = /^(pk|sk)_([0-9a-z]{45})([0-9a-f]{32})(user|team)([0-9a-z])574ck4u7h([0-9a-f]{8})$/

/** The service's reading of a key value (`parseApiKeyParts` + the checksum check of `parseProjectApiKey`). */
const parse = (value: string) => {
  const match = parts.exec(value)
  expect(match, value).not.toBeNull()
  const [, prefix, , idPart, type, flag, checksum] = match!
  expect(crc32(value.slice(0, -8))).toBe(checksum)
  return {
    prefix,
    idPart,
    type,
    flag,
    isPublic: (parseInt(flag!, 32) & 2) !== 0,
    isCloudVersion: parseInt(flag!, 32) % 2 === 0
  }
}

const withKeys = makeEmulator({ demo: { config: { allowUserApiKeys: true, allowTeamApiKeys: true, clientTeamCreationEnabled: true } } })

const client = (emulator: Emulator.Emulator, accessToken: string) => clientHeaders(emulator.demo, { "x-stack-access-token": accessToken })

describe("public API keys (api-keys handlers.tsx / stack-shared utils/api-keys.tsx at 2f719903)", () => {
  it.effect("a user key created with is_public: pk_ and scanner flag 3; a secret one: sk_ and flag 1; both self-hosted", () =>
    Effect.gen(function* () {
      const emulator = yield* withKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada.keys@example.com")
      const create = (body: Readonly<Record<string, unknown>>) =>
        send(emulator, {
          method: "POST",
          path: "/api/v1/user-api-keys",
          headers: client(emulator, ada.access_token),
          body: { user_id: "me", description: "k", expires_at_millis: null, ...body }
        })
      const publicKey = yield* create({ is_public: true })
      expect(publicKey.status, publicKey.text).toBe(200)
      expect(publicKey.json.is_public).toBe(true)
      expect(parse(publicKey.json.value)).toEqual({
        prefix: "pk",
        idPart: publicKey.json.id.replace(/-/g, ""),
        type: "user",
        flag: "3",
        isPublic: true,
        isCloudVersion: false
      })
      for (const body of [{ is_public: false }, {}]) {
        const secret = yield* create(body)
        expect(secret.status, secret.text).toBe(200)
        expect(secret.json.is_public).toBe(false)
        expect(parse(secret.json.value)).toMatchObject({ prefix: "sk", type: "user", flag: "1", isPublic: false, isCloudVersion: false })
      }
    }))

  it.effect("a public team key: pk_ … team3 …", () =>
    Effect.gen(function* () {
      const emulator = yield* withKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada.teamkeys@example.com")
      const team = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/teams",
        headers: client(emulator, ada.access_token),
        body: { display_name: "Keys", creator_user_id: "me" }
      })
      expect(team.status, team.text).toBe(201)
      const created = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/team-api-keys",
        headers: client(emulator, ada.access_token),
        body: { team_id: team.json.id, description: "t", expires_at_millis: null, is_public: true }
      })
      expect(created.status, created.text).toBe(200)
      expect(parse(created.json.value)).toMatchObject({ prefix: "pk", type: "team", flag: "3", isPublic: true })
    }))

  it.effect("is_public is read back by list, read and the server check (prismaToCrud)", () =>
    Effect.gen(function* () {
      const emulator = yield* withKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada.readback@example.com")
      const created = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/user-api-keys",
        headers: client(emulator, ada.access_token),
        body: { user_id: "me", description: "pub", expires_at_millis: null, is_public: true }
      })
      expect(created.status, created.text).toBe(200)
      const listed = yield* send(emulator, { path: "/api/v1/user-api-keys?user_id=me", headers: client(emulator, ada.access_token) })
      expect(listed.json.items.map((key: { id: string; is_public: boolean; value: unknown }) => [key.id, key.is_public, key.value])).toEqual([
        [created.json.id, true, { last_four: created.json.value.slice(-4) }]
      ])
      const read = yield* send(emulator, { path: `/api/v1/user-api-keys/${created.json.id}?user_id=me`, headers: client(emulator, ada.access_token) })
      expect(read.status, read.text).toBe(200)
      expect(read.json.is_public).toBe(true)
      const checked = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/user-api-keys/check",
        headers: serverHeaders(emulator.demo),
        body: { api_key: created.json.value }
      })
      expect(checked.status, checked.text).toBe(200)
      expect(checked.json).toMatchObject({ id: created.json.id, is_public: true, user_id: ada.user_id, type: "user" })
    }))
})
