/**
 * Issue 16 item 11: `/oauth-providers` CRUD as PROTOCOL.md §3.8 lists it — `GET|PATCH|DELETE
 * /oauth-providers/{user_id}/{id}` (client+; items `{ user_id, id, email?, provider_config_id,
 * type, allow_sign_in, allow_connected_accounts }`, `account_id` in server views; PATCH
 * `allow_sign_in?`, `allow_connected_accounts?`, plus `email?`, `account_id?` for server access)
 * and `POST /oauth-providers` (server).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"
import { runFlow } from "./oauthFlow.js"

describe("item 11: /oauth-providers", () => {
  it.effect("a user reads, updates and deletes its own connection; client access may not set email or account_id", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const tokens = yield* signUp(emulator, demo, "links@example.com")
      yield* runFlow(emulator, { project: demo, email: "links-gh@example.com", type: "link", token: tokens.access_token })
      const asUser = clientHeaders(demo, { "x-stack-access-token": tokens.access_token })
      const listed = yield* send(emulator, { path: "/api/v1/oauth-providers?user_id=me", headers: asUser })
      const id = listed.json.items[0].id as string

      const one = yield* send(emulator, { path: `/api/v1/oauth-providers/me/${id}`, headers: asUser })
      expect(one.status).toBe(200)
      expect(one.json).toMatchObject({
        id,
        user_id: tokens.user_id,
        provider_config_id: "github",
        type: "github",
        allow_sign_in: true,
        allow_connected_accounts: true
      })
      expect(one.json.account_id).toBeUndefined()

      const updated = yield* send(emulator, { method: "PATCH", path: `/api/v1/oauth-providers/me/${id}`, headers: asUser, body: { allow_sign_in: false } })
      expect(updated.json).toMatchObject({ id, allow_sign_in: false, allow_connected_accounts: true })
      const refused = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/oauth-providers/me/${id}`,
        headers: asUser,
        body: { account_id: "someone-else" }
      })
      expect(refused.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")

      const deleted = yield* send(emulator, { method: "DELETE", path: `/api/v1/oauth-providers/me/${id}`, headers: asUser })
      expect(deleted.status).toBe(200)
      const after = yield* send(emulator, { path: "/api/v1/oauth-providers?user_id=me", headers: asUser })
      expect(after.json.items).toEqual([])
    }))

  it.effect("server access creates a connection (201, with account_id), edits any user's, and refuses an account another connection signs in with", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const server = serverHeaders(demo)
      const ada = yield* signUp(emulator, demo, "ada.links@example.com")
      const bob = yield* signUp(emulator, demo, "bob.links@example.com")
      const body = {
        user_id: ada.user_id,
        provider_config_id: "github",
        account_id: "gh-42",
        email: "ada@github.example",
        allow_sign_in: true,
        allow_connected_accounts: false
      }
      const created = yield* send(emulator, { method: "POST", path: "/api/v1/oauth-providers", headers: server, body })
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({
        user_id: ada.user_id,
        provider_config_id: "github",
        type: "github",
        account_id: "gh-42",
        allow_connected_accounts: false
      })

      const edited = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/oauth-providers/${ada.user_id}/${created.json.id}`,
        headers: server,
        body: { email: "ada2@github.example" }
      })
      expect(edited.json).toMatchObject({ email: "ada2@github.example", account_id: "gh-42" })

      const taken = yield* send(emulator, { method: "POST", path: "/api/v1/oauth-providers", headers: server, body: { ...body, user_id: bob.user_id } })
      expect(taken.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN")
      const unknownProvider = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/oauth-providers",
        headers: server,
        body: { ...body, provider_config_id: "nope" }
      })
      expect([unknownProvider.status, unknownProvider.text]).toEqual([404, "OAuth provider nope not found or not configured"])
      const unknownUser = yield* send(emulator, { path: `/api/v1/oauth-providers/00000000-0000-4000-8000-000000000000/${created.json.id}`, headers: server })
      expect(unknownUser.headers.get("x-stack-known-error")).toBe("USER_NOT_FOUND")
      const client = yield* send(emulator, { method: "POST", path: "/api/v1/oauth-providers", headers: clientHeaders(demo), body })
      expect(client.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE")
    }))
})
