/**
 * Attacker's review of the emulator's new routes: it refuses what the service refuses. The
 * rendered config, the test e-mail and the metrics are admin-only, so client and server keys get
 * `INSUFFICIENT_ACCESS_TYPE` and change nothing; the config override API takes server access for
 * the branch level only (backend `internal/config/override/[level]/route.tsx` at 2f719903,
 * `assertServerAccessAllowed`; `reset-keys` is admin-only): a server key on the environment or
 * project level gets the service's 403 text, a client key `INSUFFICIENT_ACCESS_TYPE`; `POST
 * /oauth-providers` needs server access; a client reads and edits only its own connections.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "../emulator/helpers.js"

describe("emulator admin-only routes refuse client and server keys", () => {
  it.effect("config, send-test-email and metrics refuse client and server access; server access cannot touch the environment or project override; the config is unchanged", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const user = yield* signUp(emulator, demo, "ada@example.com")
      const before = yield* send(emulator, {
        path: "/api/v1/internal/config/override/environment",
        headers: { "x-stack-project-id": demo.projectId, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": demo.superSecretAdminKey }
      })
      expect(before.status).toBe(200)
      const requests = [
        { method: "GET", path: "/api/v1/internal/config" },
        {
          method: "PATCH",
          path: "/api/v1/internal/config/override/environment",
          body: { config_override_string: JSON.stringify({ "auth.allowSignUp": false }) }
        },
        { method: "PUT", path: "/api/v1/internal/config/override/project", body: { config_string: "{}" } },
        { method: "POST", path: "/api/v1/internal/config/override/environment/reset-keys", body: { keys: ["auth.allowSignUp"] } },
        {
          method: "POST",
          path: "/api/v1/internal/send-test-email",
          body: {
            recipient_email: "ada@example.com",
            email_config: { host: "127.0.0.1", port: 25, username: "u", password: "p", sender_name: "S", sender_email: "s@example.com" }
          }
        },
        { method: "GET", path: "/api/v1/internal/metrics" }
      ]
      for (
        const [access, headers] of [
          ["client", clientHeaders(demo, { "x-stack-access-token": user.access_token })],
          ["server", serverHeaders(demo)],
          ["server", serverHeaders(demo, { "x-stack-access-token": user.access_token })]
        ] as const
      ) {
        for (const request of requests) {
          const answer = yield* send(emulator, { ...request, headers })
          if (access === "server" && request.path.includes("/config/override/") && !request.path.endsWith("/reset-keys")) {
            expect([request.path, answer.status, answer.headers.get("x-stack-known-error"), answer.text]).toEqual([
              request.path,
              403,
              null,
              "Server access can only manage branch config overrides."
            ])
          } else {
            expect([request.path, answer.headers.get("x-stack-known-error")]).toEqual([request.path, "INSUFFICIENT_ACCESS_TYPE"])
          }
        }
      }
      const after = yield* send(emulator, {
        path: "/api/v1/internal/config/override/environment",
        headers: { "x-stack-project-id": demo.projectId, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": demo.superSecretAdminKey }
      })
      expect(after.json).toEqual(before.json)
    }))

  it.effect("POST /oauth-providers with client access is INSUFFICIENT_ACCESS_TYPE; a client can neither list nor edit another user's connections (403)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const ada = yield* signUp(emulator, demo, "ada@example.com")
      const bob = yield* signUp(emulator, demo, "bob@example.com")
      const create = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/oauth-providers",
        headers: clientHeaders(demo, { "x-stack-access-token": ada.access_token }),
        body: {
          user_id: ada.user_id,
          provider_config_id: "github",
          account_id: "1",
          email: "ada@example.com",
          allow_sign_in: true,
          allow_connected_accounts: true
        }
      })
      expect(create.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE")
      const others = yield* send(emulator, {
        path: `/api/v1/oauth-providers?user_id=${bob.user_id}`,
        headers: clientHeaders(demo, { "x-stack-access-token": ada.access_token })
      })
      expect([others.status, others.headers.get("x-stack-known-error")]).toEqual([403, null])
      const otherOne = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/oauth-providers/${bob.user_id}/00000000-0000-4000-8000-000000000000`, // a uuid: a malformed id is refused as SCHEMA_ERROR before any access check
        headers: clientHeaders(demo, { "x-stack-access-token": ada.access_token }),
        body: { allow_sign_in: false }
      })
      expect([otherOne.status, otherOne.headers.get("x-stack-known-error")]).toEqual([403, null])
    }))
})
