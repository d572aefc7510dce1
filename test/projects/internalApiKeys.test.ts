/** Internal (project) API keys through the SDK against the in-process emulator, and the pure validity check. */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Redacted } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as Emulator from "../../src/emulator/index.js"
import { Stack } from "../../src/index.js"
import * as InternalApiKeys from "../../src/projects/InternalApiKeys.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import { makeEmulator, send } from "../emulator/helpers.js"

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const httpClient = Emulator.layerHttpClient(emulator)
  const admin = Stack.layerAdmin({ projectId: emulator.demo.projectId, httpClient, superSecretAdminKey: emulator.demo.superSecretAdminKey })
  /** Status and known error of a server request with this secret key. */
  const useServerKey = (key: string) =>
    Effect.map(
      send(emulator, {
        path: "/api/v1/projects/current",
        headers: { "x-stack-project-id": emulator.demo.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": key }
      }),
      (answer) => [answer.status, answer.headers.get("x-stack-known-error")] as const
    )
  return { emulator, httpClient, admin, useServerKey }
})

const hour = 3_600_000

describe("InternalApiKeys", () => {
  it.effect("create: full values once (Redacted), obfuscated afterwards; the new keys authenticate", () =>
    Effect.gen(function* () {
      const { emulator, httpClient, admin, useServerKey } = yield* setup
      const now = yield* Clock.currentTimeMillis
      const created = yield* InternalApiKeys.create({
        description: "ci",
        expiresAt: new Date(now + 24 * hour),
        hasPublishableClientKey: true,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: true
      }).pipe(Effect.provide(admin))
      expect(created.expiresAt.getTime()).toBe(now + 24 * hour)
      expect(String(created.secretServerKey)).not.toContain("ssk_")
      const ssk = Redacted.value(created.secretServerKey!)
      const sak = Redacted.value(created.superSecretAdminKey!)
      expect(ssk).toMatch(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/)
      expect(Redacted.value(created.publishableClientKey!)).toMatch(/^pck_/)

      const read = yield* InternalApiKeys.get(created.id).pipe(Effect.provide(admin))
      expect(read.secretServerKey).toEqual({ lastFour: ssk.slice(-4) })
      expect(read.manuallyRevokedAt).toBeUndefined()
      const listed = yield* InternalApiKeys.list().pipe(Effect.provide(admin))
      expect(listed.map((key) => key.id)).toContain(created.id)
      expect(listed.length).toBe(2)

      expect(yield* useServerKey(ssk)).toEqual([200, null])
      const withNewAdminKey = Stack.layerAdmin({ projectId: emulator.demo.projectId, httpClient, superSecretAdminKey: sak })
      expect((yield* AdminProjects.getCurrent().pipe(Effect.provide(withNewAdminKey))).id).toBe(emulator.demo.projectId)
    }))

  it.effect("revoke: the key stops authenticating at once; revoking twice keeps the first time", () =>
    Effect.gen(function* () {
      const { admin, useServerKey } = yield* setup
      const now = yield* Clock.currentTimeMillis
      const created = yield* InternalApiKeys.create({
        description: "short-lived",
        expiresAt: new Date(now + hour),
        hasPublishableClientKey: false,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false
      }).pipe(Effect.provide(admin))
      expect(created.publishableClientKey).toBeUndefined()
      const revoked = yield* InternalApiKeys.revoke(created.id).pipe(Effect.provide(admin))
      expect(revoked.manuallyRevokedAt?.getTime()).toBe(now)
      expect(InternalApiKeys.validity(revoked, new Date(now))).toBe("manually-revoked")
      expect(yield* useServerKey(Redacted.value(created.secretServerKey!))).toEqual([401, "INVALID_SECRET_SERVER_KEY"])
      yield* TestClock.adjust("1 minute")
      const again = yield* InternalApiKeys.revoke(created.id).pipe(Effect.provide(admin))
      expect(again.manuallyRevokedAt?.getTime()).toBe(now)
    }))

  it.effect("expiry: past expiresAt the key stops authenticating and validity is expired", () =>
    Effect.gen(function* () {
      const { admin, useServerKey } = yield* setup
      const now = yield* Clock.currentTimeMillis
      const created = yield* InternalApiKeys.create({
        description: "one hour",
        expiresAt: new Date(now + hour),
        hasPublishableClientKey: false,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false
      }).pipe(Effect.provide(admin))
      const ssk = Redacted.value(created.secretServerKey!)
      expect(yield* useServerKey(ssk)).toEqual([200, null])
      yield* TestClock.adjust("2 hours")
      expect(yield* useServerKey(ssk)).toEqual([401, "INVALID_SECRET_SERVER_KEY"])
      const read = yield* InternalApiKeys.get(created.id).pipe(Effect.provide(admin))
      expect(InternalApiKeys.validity(read, new Date(now + 2 * hour))).toBe("expired")
    }))

  it.effect("get / revoke an unknown id: ApiKeyNotFound", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup
      const id = "00000000-0000-4000-8000-000000000000"
      expect((yield* InternalApiKeys.get(id).pipe(Effect.provide(admin), Effect.flip))._tag).toBe("ApiKeyNotFound")
      expect((yield* InternalApiKeys.revoke(id).pipe(Effect.provide(admin), Effect.flip))._tag).toBe("ApiKeyNotFound")
    }))

  it.effect("a malformed id is an InvalidArgument before sending", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup
      expect((yield* InternalApiKeys.get("not-a-uuid").pipe(Effect.provide(admin), Effect.flip))._tag).toBe("InvalidArgument")
    }))
})

describe("InternalApiKeys.validity (expiry first, then revocation)", () => {
  const now = new Date(1_800_000_000_000)
  const cases = [
    { name: "valid", expiresAt: new Date(now.getTime() + 1), revokedAt: undefined, expected: "valid" },
    { name: "expires exactly now: still valid", expiresAt: now, revokedAt: undefined, expected: "valid" },
    { name: "expired", expiresAt: new Date(now.getTime() - 1), revokedAt: undefined, expected: "expired" },
    { name: "revoked", expiresAt: new Date(now.getTime() + 1), revokedAt: new Date(now.getTime() - 5), expected: "manually-revoked" },
    { name: "expired and revoked: expired wins", expiresAt: new Date(now.getTime() - 1), revokedAt: new Date(now.getTime() - 5), expected: "expired" }
  ] as const
  for (const c of cases) {
    it(c.name, () => {
      const key = c.revokedAt === undefined ? { expiresAt: c.expiresAt } : { expiresAt: c.expiresAt, manuallyRevokedAt: c.revokedAt }
      expect(InternalApiKeys.validity(key, now)).toBe(c.expected)
    })
  }
})
