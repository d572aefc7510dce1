/**
 * The config override API's answers as the service gives them (backend
 * `apps/backend/src/app/api/latest/internal/config/override/[level]/route.tsx` and
 * `.../[level]/reset-keys/route.tsx` at stack-auth commit ca89fd8b, the smart response's
 * `bodyType: "success"`, and `getConfigOverrideErrors` of stack-shared's `config/schema`): writes
 * answer `{ success: true }`; a bad config string is a 400 text saying what is wrong; a branch-level
 * PUT needs `source`; reset-keys takes the branch and environment levels only.
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

const path = "/api/v1/internal/config/override/environment"

describe("config override answers", () => {
  it.effect("PATCH, PUT and reset-keys answer 200 { success: true }", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const patched = yield* send(emulator, { method: "PATCH", path, headers, body: { config_override_string: JSON.stringify({ "auth.allowSignUp": false }) } })
      expect([patched.status, patched.json]).toEqual([200, { success: true }])
      const replaced = yield* send(emulator, { method: "PUT", path, headers, body: { config_string: JSON.stringify({ "auth.allowSignUp": true }) } })
      expect([replaced.status, replaced.json]).toEqual([200, { success: true }])
      const reset = yield* send(emulator, { method: "POST", path: `${path}/reset-keys`, headers, body: { keys: ["auth"] } })
      expect([reset.status, reset.json]).toEqual([200, { success: true }])
    }))

  it.effect("a config string that is not JSON, not an object, an array, a dotted nested key, a malformed key or a wrong value type is refused with the service's 400 text, and nothing changes", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const patch = (config: string) => send(emulator, { method: "PATCH", path, headers, body: { config_override_string: config } })
      const before = yield* send(emulator, { path, headers })
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["{not json", "Invalid config JSON"],
        ["5", "Config override must be a non-null object."],
        ["null", "Config override must be a non-null object."],
        ["[1, 2]", "Config override must be plain old JavaScript object."],
        [JSON.stringify({ auth: { "password.allowSignIn": false } }), "Key password.allowSignIn contains a dot, which is not allowed in config override."],
        [
          JSON.stringify({ "-auth": true }),
          "Invalid config format: All keys of override must consist of only alphanumeric characters, dots, underscores, colons, dollar signs, or hyphens and start with a character other than a hyphen (found: -auth)"
        ],
        [JSON.stringify({ "auth.allowSignUp": "yes" }), "auth.allowSignUp must be a `boolean` type, but the final value was: `\"yes\"`."],
        [
          JSON.stringify({ "auth.oauth.accountMergeStrategy": "merge" }),
          "auth.oauth.accountMergeStrategy must be one of the following values: link_method, raise_error, allow_duplicates"
        ]
      ]
      for (const [config, text] of cases) {
        const answer = yield* patch(config)
        expect([answer.status, answer.text]).toEqual([400, text])
        expect(answer.headers.get("x-stack-known-error")).toBeNull()
      }
      const override = yield* send(emulator, { path, headers })
      expect(override.json.config_string).toBe(before.json.config_string)
    }))

  it.effect("a branch-level PUT without source is refused with 'source is required for branch level config'; reset-keys at the project level is a SCHEMA_ERROR", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const branchPath = "/api/v1/internal/config/override/branch"
      const noSource = yield* send(emulator, {
        method: "PUT",
        path: branchPath,
        headers,
        body: { config_string: JSON.stringify({ "auth.allowSignUp": false }) }
      })
      expect([noSource.status, noSource.text]).toEqual([400, "source is required for branch level config"])
      const withSource = yield* send(emulator, {
        method: "PUT",
        path: branchPath,
        headers,
        body: { config_string: JSON.stringify({ "auth.allowSignUp": false }), source: { type: "unlinked" } }
      })
      expect([withSource.status, withSource.json]).toEqual([200, { success: true }])
      const projectReset = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/internal/config/override/project/reset-keys",
        headers,
        body: { keys: ["auth"] }
      })
      expect(projectReset.status).toBe(400)
      expect(projectReset.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))
})
