/**
 * Issue 16 item 11, the project config override API (`/internal/config/override/{level}`, admin),
 * as the official SDK 2.8.108 uses it (`stack-shared`'s admin interface): PATCH merges
 * `config_override_string`'s keys into the level's override, PUT replaces it with `config_string`,
 * GET answers `{ config_string }`, `reset-keys` removes keys; `GET /internal/config` answers the
 * rendered config as `{ config_string }`. Keys are the service's dotted config keys; the ones the
 * emulator knows change what it serves.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { makeEmulator, send } from "./helpers.js"

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const overrideOf = (emulator: Emulator.Emulator, level: string) =>
  Effect.map(send(emulator, { path: `/api/v1/internal/config/override/${level}`, headers: adminHeaders(emulator.demo) }), (answer) => {
    expect(answer.status).toBe(200)
    return JSON.parse(answer.json.config_string) as Record<string, unknown>
  })

describe("item 11: config override API", () => {
  it.effect("PATCH merges keys as given (dotted or nested), PUT replaces, reset-keys removes keys and their descendants; the keys change the project's switches", () =>
    Effect.gen(function* () {
      // stack-auth 2f719903: `override` and `removeKeysFromConfig` of packages/stack-shared/src/config/format.ts keep the
      // keys a writer gave (a nested object stays one key); apps/backend/src/lib/projects.tsx writes a new project's
      // config as environment override keys, so the environment level of a new project is not empty
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const path = "/api/v1/internal/config/override/environment"
      expect(yield* overrideOf(emulator, "branch")).toEqual({})
      expect(yield* overrideOf(emulator, "environment")).toMatchObject({
        "auth.allowSignUp": true,
        "rbac.defaultPermissions.teamCreator": { team_admin: true }
      })

      const patched = yield* send(emulator, {
        method: "PATCH",
        path,
        headers,
        body: { config_override_string: JSON.stringify({ "auth.allowSignUp": false, teams: { allowClientTeamCreation: false } }) }
      })
      expect(patched.status).toBe(200)
      yield* send(emulator, { method: "PATCH", path, headers, body: { config_override_string: JSON.stringify({ "users.allowClientUserDeletion": false }) } })
      const written = yield* overrideOf(emulator, "environment")
      expect(written).toMatchObject({ "auth.allowSignUp": false, teams: { allowClientTeamCreation: false }, "users.allowClientUserDeletion": false })
      // `teams` replaced the keys below it
      expect(written).not.toHaveProperty("teams.createPersonalTeamOnSignUp")
      const current = yield* send(emulator, { path: "/api/v1/internal/projects/current", headers })
      expect(current.json.config).toMatchObject({ sign_up_enabled: false, client_team_creation_enabled: false, client_user_deletion_enabled: false })
      const rendered = yield* send(emulator, { path: "/api/v1/internal/config", headers })
      expect(JSON.parse(rendered.json.config_string)).toMatchObject({ auth: { allowSignUp: false }, teams: { allowClientTeamCreation: false } })

      yield* send(emulator, { method: "POST", path: `${path}/reset-keys`, headers, body: { keys: ["teams", "auth.allowSignUp"] } })
      const reset = yield* overrideOf(emulator, "environment")
      expect(reset).not.toHaveProperty(["teams"])
      expect(reset).not.toHaveProperty(["auth.allowSignUp"])
      expect(reset).toMatchObject({ "users.allowClientUserDeletion": false })

      const replaced = yield* send(emulator, { method: "PUT", path, headers, body: { config_string: JSON.stringify({ "auth.allowSignUp": true }) } })
      expect(replaced.status).toBe(200)
      expect(yield* overrideOf(emulator, "environment")).toEqual({ "auth.allowSignUp": true })
      expect(yield* overrideOf(emulator, "branch")).toEqual({})
    }))

  it.effect("a config string that is not a JSON object is the service's 400 text; client access is INSUFFICIENT_ACCESS_TYPE", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const bad = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/internal/config/override/environment",
        headers: adminHeaders(emulator.demo),
        body: { config_override_string: "[1, 2]" }
      })
      expect(bad.status).toBe(400)
      expect(bad.text).toBe("Config override must be plain old JavaScript object.")
      const client = yield* send(emulator, {
        path: "/api/v1/internal/config/override/environment",
        headers: {
          "x-stack-project-id": emulator.demo.projectId,
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": emulator.demo.publishableClientKey
        }
      })
      expect(client.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE")
    }))
})
