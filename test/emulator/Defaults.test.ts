import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults } from "../../src/emulator/Defaults.js"
import * as Emulator from "../../src/emulator/Emulator.js"
import { isCrockford, isUuid, randomUuid } from "../../src/emulator/Random.js"
import { clientHeaders, send, signUp } from "./helpers.js"

describe("seeds and defaults", () => {
  it("the fixed development keys are the service's prefix + 45 lowercase Crockford base32 characters", () => {
    for (const project of [defaults.demo, defaults.internal]) {
      for (
        const [prefix, key] of [
          ["pck_", project.publishableClientKey],
          ["ssk_", project.secretServerKey],
          ["sak_", project.superSecretAdminKey]
        ] as const
      ) {
        expect(key.startsWith(prefix)).toBe(true)
        expect(isCrockford(key.slice(4), 45)).toBe(true)
      }
    }
    expect(defaults.demo.projectId).toBe("3f6a1a52-8d1e-4c7e-9b8f-2d5c1e0a7b91")
    expect(isUuid(randomUuid())).toBe(true)
  })

  it.effect("seeds `internal` (Stack Dashboard) and the demo project; options override them", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.make()
      expect(emulator.internal).toEqual({
        projectId: "internal",
        publishableClientKey: defaults.internal.publishableClientKey,
        secretServerKey: defaults.internal.secretServerKey,
        superSecretAdminKey: defaults.internal.superSecretAdminKey
      })
      expect(emulator.state.projects.get("internal")!.displayName).toBe("Stack Dashboard")
      const demo = emulator.state.projects.get(defaults.demo.projectId)!
      expect(demo.config).toMatchObject({ signUpEnabled: true, credentialEnabled: true, allowLocalhost: true, domains: [] })

      const custom = yield* Emulator.make({
        demo: { id: "11111111-2222-4333-8444-555555555555", publishableClientKey: "pck_custom" },
        projects: [{ id: "66666666-7777-4888-9999-000000000000" }]
      })
      expect(custom.demo.projectId).toBe("11111111-2222-4333-8444-555555555555")
      expect(custom.demo.publishableClientKey).toBe("pck_custom")
      expect(custom.credentials("66666666-7777-4888-9999-000000000000")?.secretServerKey).toMatch(/^ssk_[0-9a-z]{45}$/)
      const duplicate = yield* Effect.flip(custom.createProject({ id: "internal" }))
      expect(duplicate._tag).toBe("EmulatorError")
      const malformed = yield* Effect.flip(custom.createProject({ id: "not-a-uuid" }))
      expect(malformed.message).toContain("uuid")
    }))

  it.effect("hashes passwords with 10 000 PBKDF2-SHA256 iterations by default", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.make().pipe(Effect.orDie)
      const tokens = yield* signUp(emulator, emulator.demo, "default@example.com", "correct horse battery")
      const user = emulator.state.projects.get(emulator.demo.projectId)!.users.get(tokens.user_id)!
      expect(user.passwordHash).toMatch(/^pbkdf2-sha256\$10000\$/)
      const signIn = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(emulator.demo),
        body: { email: "default@example.com", password: "correct horse battery" }
      })
      expect(signIn.status).toBe(200)
    }))
})
