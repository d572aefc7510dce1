/**
 * `/oauth-providers` answers as the service gives them (backend
 * `apps/backend/src/app/api/latest/oauth-providers/crud.tsx` @1694a094): the 403 texts of a client
 * addressing another user (one per operation), `CANNOT_GET_OWN_USER_WITHOUT_USER` for a client
 * without a user, the 404 texts of an unknown connection and of an unconfigured provider, the
 * sign-in uniqueness refusals, `email` left out when a connection has none, and DELETE's
 * `{ success: true }`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const unknownId = "00000000-0000-4000-8000-000000000000"

describe("/oauth-providers answers", () => {
  it.effect("client refusals: without a user CANNOT_GET_OWN_USER_WITHOUT_USER; another user's connection a 403 text per operation; an unknown connection the 404 text naming it and the user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const server = serverHeaders(demo)
      const ada = yield* signUp(emulator, demo, "ada.providers@example.com")
      const bob = yield* signUp(emulator, demo, "bob.providers@example.com")
      const created = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/oauth-providers",
        headers: server,
        body: { user_id: bob.user_id, provider_config_id: "github", account_id: "gh-bob", allow_sign_in: true, allow_connected_accounts: true }
      })
      expect(created.status).toBe(201)
      const bobPath = `/api/v1/oauth-providers/${bob.user_id}/${created.json.id}`
      const asAda = clientHeaders(demo, { "x-stack-access-token": ada.access_token })

      const read = yield* send(emulator, { path: bobPath, headers: asAda })
      expect([read.status, read.text]).toEqual([403, "Client can only read OAuth providers for their own user."])
      const update = yield* send(emulator, { method: "PATCH", path: bobPath, headers: asAda, body: { allow_sign_in: false } })
      expect([update.status, update.text]).toEqual([403, "Client can only update OAuth providers for their own user."])
      const remove = yield* send(emulator, { method: "DELETE", path: bobPath, headers: asAda })
      expect([remove.status, remove.text]).toEqual([403, "Client can only delete OAuth providers for their own user."])
      const list = yield* send(emulator, { path: `/api/v1/oauth-providers?user_id=${bob.user_id}`, headers: asAda })
      expect([list.status, list.text]).toEqual([403, "Client can only list OAuth providers for their own user."])

      const noUser = yield* send(emulator, { path: bobPath, headers: clientHeaders(demo) })
      expect(noUser.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER")

      const missing = yield* send(emulator, { path: `/api/v1/oauth-providers/me/${unknownId}`, headers: asAda })
      expect([missing.status, missing.text]).toEqual([404, `OAuth provider ${unknownId} for user ${ada.user_id} not found`])
      const missingServer = yield* send(emulator, { method: "DELETE", path: `/api/v1/oauth-providers/${bob.user_id}/${unknownId}`, headers: server })
      expect([missingServer.status, missingServer.text]).toEqual([404, `OAuth provider ${unknownId} for user ${bob.user_id} not found`])
      const malformed = yield* send(emulator, { path: "/api/v1/oauth-providers/me/not-a-uuid", headers: asAda })
      expect(malformed.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")

      const deleted = yield* send(emulator, { method: "DELETE", path: bobPath, headers: server })
      expect([deleted.status, deleted.json]).toEqual([200, { success: true }])
    }))

  it.effect("POST: an unconfigured provider is a 404 text before the user is checked; the sign-in uniqueness refusals; no email means no email key", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const server = serverHeaders(demo)
      const ada = yield* signUp(emulator, demo, "ada.create@example.com")
      const bob = yield* signUp(emulator, demo, "bob.create@example.com")
      const create = (body: Record<string, unknown>) => send(emulator, { method: "POST", path: "/api/v1/oauth-providers", headers: server, body })
      const base = { user_id: ada.user_id, provider_config_id: "github", account_id: "gh-1", allow_sign_in: true, allow_connected_accounts: false }

      const unconfigured = yield* create({ ...base, user_id: unknownId, provider_config_id: "nope" })
      expect([unconfigured.status, unconfigured.text]).toEqual([404, "OAuth provider nope not found or not configured"])
      const unknownUser = yield* create({ ...base, user_id: unknownId })
      expect(unknownUser.headers.get("x-stack-known-error")).toBe("USER_NOT_FOUND")

      const first = yield* create(base)
      expect(first.status).toBe(201)
      expect("email" in first.json).toBe(false)
      const secondSignIn = yield* create({ ...base, account_id: "gh-2" })
      expect([secondSignIn.status, secondSignIn.text]).toEqual([400, "The same provider type with sign-in enabled already exists for this user."])
      const sameAccount = yield* create({ ...base, allow_sign_in: false })
      expect([sameAccount.status, sameAccount.text]).toEqual([400, "The same provider type with the same account ID already exists for this user."])
      const usedForSignIn = yield* create({ ...base, user_id: bob.user_id })
      expect(usedForSignIn.status).toBe(400)
      expect(usedForSignIn.json).toEqual({
        code: "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
        error: "A provider with the same account ID is already used for signing in."
      })

      // PATCH allow_sign_in without account_id: the service compares with every other sign-in connection
      const bobsOwn = yield* create({ ...base, user_id: bob.user_id, account_id: "gh-bob", allow_sign_in: false })
      expect(bobsOwn.status).toBe(201)
      const enable = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/oauth-providers/${bob.user_id}/${bobsOwn.json.id}`,
        headers: server,
        body: { allow_sign_in: true }
      })
      expect(enable.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN")
    }))

  it.effect("GET /oauth-providers without user_id: server access lists every user's connections; a client is refused as for another user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const server = serverHeaders(demo)
      const ada = yield* signUp(emulator, demo, "ada.all@example.com")
      const bob = yield* signUp(emulator, demo, "bob.all@example.com")
      for (const [user, account] of [[ada.user_id, "gh-ada"], [bob.user_id, "gh-bob"]] as const) {
        const created = yield* send(emulator, {
          method: "POST",
          path: "/api/v1/oauth-providers",
          headers: server,
          body: { user_id: user, provider_config_id: "github", account_id: account, allow_sign_in: false, allow_connected_accounts: true }
        })
        expect(created.status).toBe(201)
      }
      const all = yield* send(emulator, { path: "/api/v1/oauth-providers", headers: server })
      expect(all.status).toBe(200)
      expect(all.json.items.map((item: { user_id: string; account_id: string }) => [item.user_id, item.account_id])).toEqual([
        [ada.user_id, "gh-ada"],
        [bob.user_id, "gh-bob"]
      ])
      const asClient = yield* send(emulator, { path: "/api/v1/oauth-providers", headers: clientHeaders(demo, { "x-stack-access-token": ada.access_token }) })
      expect([asClient.status, asClient.text]).toEqual([403, "Client can only list OAuth providers for their own user."])
      const noUser = yield* send(emulator, { path: "/api/v1/oauth-providers", headers: clientHeaders(demo) })
      expect(noUser.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER")
      const malformed = yield* send(emulator, { path: "/api/v1/oauth-providers?user_id=abc", headers: server })
      expect(malformed.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))
})

/**
 * `user_id: "me"` in the body of `POST /oauth-providers` (issue 27 item 5), from stack-auth/stack-auth
 * commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f: the server create schema's `user_id` is
 * `userIdOrMeSchema` (`packages/stack-shared/src/interface/crud/oauth-providers.ts`), which
 * `yupValidate` (`packages/stack-shared/src/schema-fields.ts`) replaces with the request's user id
 * (`apps/backend/src/route-handlers/smart-request.tsx` passes `currentUserId`), or refuses with
 * `CANNOT_GET_OWN_USER_WITHOUT_USER` when the request has no user, before `onCreate` runs.
 */
describe("POST /oauth-providers with user_id \"me\"", () => {
  it.effect("server access with a user's access token links the account to that user (201)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const ada = yield* signUp(emulator, demo, "ada.me@example.com")
      const created = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/oauth-providers",
        headers: serverHeaders(demo, { "x-stack-access-token": ada.access_token }),
        body: { user_id: "me", provider_config_id: "github", account_id: "gh-me", allow_sign_in: false, allow_connected_accounts: true }
      })
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({ user_id: ada.user_id, account_id: "gh-me" })
      const listed = yield* send(emulator, { path: `/api/v1/oauth-providers?user_id=${ada.user_id}`, headers: serverHeaders(demo) })
      expect(listed.json.items.map((item: { account_id: string }) => item.account_id)).toEqual(["gh-me"])
    }))

  it.effect("without a user in the request: CANNOT_GET_OWN_USER_WITHOUT_USER (not USER_NOT_FOUND)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/oauth-providers",
        headers: serverHeaders(emulator.demo),
        body: { user_id: "me", provider_config_id: "github", account_id: "gh-nobody", allow_sign_in: false, allow_connected_accounts: true }
      })
      expect(answer.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER")
    }))
})
