import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const me = "/api/v1/users/me"

const expectKnownError = (
  answer: { readonly status: number; readonly headers: Headers; readonly json: any },
  status: number,
  code: string
) => {
  expect({ status: answer.status, header: answer.headers.get("x-stack-known-error"), code: answer.json?.code }).toEqual({
    status,
    header: code,
    code
  })
}

describe("project authentication (PROTOCOL.md §1.3, in order)", () => {
  it.effect("1. a key without x-stack-access-type → 400 PROJECT_KEY_WITHOUT_ACCESS_TYPE", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, {
        path: me,
        headers: { "x-stack-project-id": emulator.demo.projectId, "x-stack-publishable-client-key": "pck_whatever" }
      })
      expectKnownError(answer, 400, "PROJECT_KEY_WITHOUT_ACCESS_TYPE")
      expect(answer.json.details).toBeUndefined()
    }))

  it.effect("2. no access type on an endpoint that needs auth → 400 ACCESS_TYPE_REQUIRED", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: me, headers: { "x-stack-project-id": emulator.demo.projectId } })
      expectKnownError(answer, 400, "ACCESS_TYPE_REQUIRED")
    }))

  it.effect("3. an access type other than client/server/admin → 400 INVALID_ACCESS_TYPE naming it (before the project check)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: me, headers: { "x-stack-access-type": "superuser" } })
      expectKnownError(answer, 400, "INVALID_ACCESS_TYPE")
      expect(answer.json.error).toBe("The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'superuser'.")
    }))

  it.effect("4. an access type without a project id → 400 ACCESS_TYPE_WITHOUT_PROJECT_ID with request_type", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: me, headers: { "x-stack-access-type": "server" } })
      expectKnownError(answer, 400, "ACCESS_TYPE_WITHOUT_PROJECT_ID")
      expect(answer.json.details).toEqual({ request_type: "server" })
    }))

  it.effect("5. a garbage access token → 401 UNPARSABLE_ACCESS_TOKEN, checked before the project exists", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, {
        path: me,
        headers: {
          "x-stack-project-id": "00000000-0000-4000-8000-000000000000",
          "x-stack-access-type": "client",
          "x-stack-access-token": "not-a-jwt"
        }
      })
      expectKnownError(answer, 401, "UNPARSABLE_ACCESS_TOKEN")
    }))

  it.effect("5. a token of another project → 401 INVALID_PROJECT_FOR_ACCESS_TOKEN with both ids", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.internal, "owner@example.com")
      const answer = yield* send(emulator, {
        path: me,
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      })
      expectKnownError(answer, 401, "INVALID_PROJECT_FOR_ACCESS_TOKEN")
      expect(answer.json.details).toEqual({ expected_project_id: emulator.demo.projectId, actual_project_id: "internal" })
    }))

  it.effect("5. an anonymous user's token without X-Stack-Allow-Anonymous-User → 401 ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const anonymous = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/anonymous/sign-up",
        headers: clientHeaders(emulator.demo)
      })
      const token = anonymous.json.access_token as string
      const rejected = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo, { "x-stack-access-token": token }) })
      expectKnownError(rejected, 401, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED")
      const allowed = yield* send(emulator, {
        path: me,
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": token, "x-stack-allow-anonymous-user": "true" })
      })
      expect(allowed.status).toBe(200)
      expect(allowed.json).toMatchObject({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } })
    }))

  it.effect("5. a restricted user's token without allow-restricted/allow-anonymous → 403 RESTRICTED_USER_NOT_ALLOWED", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "restricted@example.com")
      const restrict = yield* send(emulator, {
        method: "PATCH",
        path: me,
        headers: serverHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }),
        body: { restricted_by_admin: true, restricted_by_admin_reason: "spam" }
      })
      expect(restrict.status).toBe(200)
      const refreshed = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(emulator.demo, { "x-stack-refresh-token": tokens.refresh_token })
      })
      const token = refreshed.json.access_token as string
      const rejected = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo, { "x-stack-access-token": token }) })
      expectKnownError(rejected, 403, "RESTRICTED_USER_NOT_ALLOWED")
      expect(rejected.json.details).toEqual({ restricted_reason: { type: "restricted_by_administrator" } })
      const allowed = yield* send(emulator, {
        path: me,
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": token, "x-stack-allow-restricted-user": "true" })
      })
      expect(allowed.json).toMatchObject({ is_restricted: true, restricted_by_admin: true, restricted_by_admin_reason: "spam" })
    }))

  it.effect("6. an unknown project → 400 CURRENT_PROJECT_NOT_FOUND (before the key check)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, {
        path: me,
        headers: {
          "x-stack-project-id": "00000000-0000-4000-8000-000000000000",
          "x-stack-access-type": "client",
          "x-stack-publishable-client-key": "pck_wrong"
        }
      })
      expectKnownError(answer, 400, "CURRENT_PROJECT_NOT_FOUND")
      expect(answer.json.details).toEqual({ project_id: "00000000-0000-4000-8000-000000000000" })
    }))

  it.effect("7. client without a key: allowed unless the project requires one (401 PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const strict = yield* emulator.createProject({ requiresPublishableClientKey: true }).pipe(Effect.orDie)
      const keyless = { "x-stack-access-type": "client" }
      const open = yield* send(emulator, { path: me, headers: { ...keyless, "x-stack-project-id": emulator.demo.projectId } })
      expectKnownError(open, 400, "CANNOT_GET_OWN_USER_WITHOUT_USER")
      const required = yield* send(emulator, { path: me, headers: { ...keyless, "x-stack-project-id": strict.projectId } })
      expectKnownError(required, 401, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT")
      expect(required.json.details).toEqual({ project_id: strict.projectId })
    }))

  it.effect("7. a wrong publishable key → 401 INVALID_PUBLISHABLE_CLIENT_KEY; a revoked key is wrong too", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const wrong = yield* send(emulator, {
        path: me,
        headers: clientHeaders({ ...emulator.demo, publishableClientKey: "pck_this-is-not-a-valid-client-key" })
      })
      expectKnownError(wrong, 401, "INVALID_PUBLISHABLE_CLIENT_KEY")
      expect(wrong.json.details).toEqual({ project_id: emulator.demo.projectId })
      emulator.state.projects.get(emulator.demo.projectId)!.keys[0]!.revokedAtMillis = 0
      const revoked = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo) })
      expectKnownError(revoked, 401, "INVALID_PUBLISHABLE_CLIENT_KEY")
    }))

  it.effect("7. server access: missing key → 401 SERVER_AUTHENTICATION_REQUIRED, wrong → 401 INVALID_SECRET_SERVER_KEY", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const base = { "x-stack-project-id": emulator.demo.projectId, "x-stack-access-type": "server" }
      const missing = yield* send(emulator, { path: "/api/v1/users", headers: { ...base, "x-stack-secret-server-key": "" } })
      expectKnownError(missing, 401, "SERVER_AUTHENTICATION_REQUIRED")
      const wrong = yield* send(emulator, { path: "/api/v1/users", headers: { ...base, "x-stack-secret-server-key": "ssk_nope" } })
      expectKnownError(wrong, 401, "INVALID_SECRET_SERVER_KEY")
      expect(wrong.json.details).toEqual({ project_id: emulator.demo.projectId })
    }))

  it.effect("7. admin access: missing key → 401 ADMIN_AUTHENTICATION_REQUIRED, wrong → 401 INVALID_SUPER_SECRET_ADMIN_KEY", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const base = { "x-stack-project-id": emulator.demo.projectId, "x-stack-access-type": "admin" }
      const missing = yield* send(emulator, { path: "/api/v1/users", headers: base })
      expectKnownError(missing, 401, "ADMIN_AUTHENTICATION_REQUIRED")
      const wrong = yield* send(emulator, { path: "/api/v1/users", headers: { ...base, "x-stack-super-secret-admin-key": "sak_nope" } })
      expectKnownError(wrong, 401, "INVALID_SUPER_SECRET_ADMIN_KEY")
      const right = yield* send(emulator, {
        path: "/api/v1/users",
        headers: { ...base, "x-stack-super-secret-admin-key": emulator.demo.superSecretAdminKey }
      })
      expect(right.status).toBe(200)
    }))

  it.effect("7. an admin access token works only for a user of `internal` who owns the project", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const owner = yield* signUp(emulator, emulator.internal, "owner@example.com")
      const stranger = yield* signUp(emulator, emulator.internal, "stranger@example.com")
      const owned = yield* emulator.createProject({ ownerUserIds: [owner.user_id] }).pipe(Effect.orDie)
      const headers = (token: string) => ({
        "x-stack-project-id": owned.projectId,
        "x-stack-access-type": "admin",
        "x-stack-admin-access-token": token
      })
      const ok = yield* send(emulator, { path: "/api/v1/users", headers: headers(owner.access_token) })
      expect(ok.status).toBe(200)
      const notAdmin = yield* send(emulator, { path: "/api/v1/users", headers: headers(stranger.access_token) })
      expectKnownError(notAdmin, 401, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN")
      const garbage = yield* send(emulator, { path: "/api/v1/users", headers: headers("garbage") })
      expectKnownError(garbage, 401, "UNPARSABLE_ADMIN_ACCESS_TOKEN")
    }))

  it.effect("8. a branch other than main → 400 BRANCH_DOES_NOT_EXIST", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo, { "x-stack-branch-id": "dev" }) })
      expectKnownError(answer, 400, "BRANCH_DOES_NOT_EXIST")
      expect(answer.json.details).toEqual({ branch_id: "dev" })
    }))

  it.effect("10. an access type below the endpoint's → 401 INSUFFICIENT_ACCESS_TYPE listing the allowed ones", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/v1/users?limit=2", headers: clientHeaders(emulator.demo) })
      expectKnownError(answer, 401, "INSUFFICIENT_ACCESS_TYPE")
      expect(answer.json.details).toEqual({ actual_access_type: "client", allowed_access_types: ["server", "admin"] })
      expect(answer.json.error).toBe("The x-stack-access-type header must be 'server' or 'admin', but was 'client'.")
    }))

  it.effect("10. `me` without a user → 400 CANNOT_GET_OWN_USER_WITHOUT_USER", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo) })
      expectKnownError(answer, 400, "CANNOT_GET_OWN_USER_WITHOUT_USER")
    }))

  it.effect("9. a token of a deleted user yields no user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "gone@example.com")
      emulator.state.projects.get(emulator.demo.projectId)!.users.delete(tokens.user_id)
      const answer = yield* send(emulator, { path: me, headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }) })
      expectKnownError(answer, 400, "CANNOT_GET_OWN_USER_WITHOUT_USER")
    }))

  it.effect("accepts every request header with the x-hexclave- prefix as well, in any case", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "hex@example.com")
      const answer = yield* send(emulator, {
        path: me,
        headers: {
          "X-Hexclave-Project-Id": emulator.demo.projectId,
          "X-HEXCLAVE-ACCESS-TYPE": "client",
          "x-hexclave-publishable-client-key": emulator.demo.publishableClientKey,
          "X-Hexclave-Access-Token": tokens.access_token
        }
      })
      expect(answer.status).toBe(200)
      expect(answer.json.primary_email).toBe("hex@example.com")
      const overridden = yield* send(emulator, {
        path: me,
        headers: { ...clientHeaders(emulator.demo), "x-hexclave-override-error-status": "true" }
      })
      expect(overridden.status).toBe(200)
      expect(overridden.headers.get("x-stack-actual-status")).toBe("400")
    }))
})
