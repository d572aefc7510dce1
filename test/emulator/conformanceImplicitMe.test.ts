/**
 * Reading or updating one user API key without `user_id` (issue 27, item 7), read from the
 * backend's source at stack-auth/stack-auth commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/(api-keys)/handlers.tsx`. For user keys the CRUD query schema
 * is `user_id: userIdOrMeSchema.optional()`; `onRead` and `onUpdate` find the key by
 * `params.api_key_id` (`KnownErrors.ApiKeyNotFound` when there is none) and then call
 * `ensureUserCanManageApiKeys` with the key's own owner: client access needs a user
 * (`UserAuthenticationRequired`) and may only reach its own keys (403 "Client can only manage their
 * own api keys"); server access is not checked.
 *
 * Lists of the same family, client access without `user_id`: `contact-channels/crud.tsx` has
 * `user_id: userIdOrMeSchema.optional()` and `onList` compares it with the signed-in user's id
 * (`CannotGetOwnUserWithoutUser` without one, else 403 "Client can only list contact channels for
 * their own user."); `project-permissions/crud.tsx` and `team-permissions/crud.tsx` do the same
 * with their own 403 text (which the emulator already answered).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const withUserKeys = makeEmulator({ demo: { config: { allowUserApiKeys: true } } })

const asClient = (emulator: Emulator.Emulator, accessToken?: string) =>
  clientHeaders(emulator.demo, accessToken === undefined ? {} : { "x-stack-access-token": accessToken })

const createKey = (emulator: Emulator.Emulator, accessToken: string): Effect.Effect<Answer> =>
  send(emulator, {
    method: "POST",
    path: "/api/v1/user-api-keys",
    headers: asClient(emulator, accessToken),
    body: { user_id: "me", description: "mine", expires_at_millis: null }
  })

describe("GET/PATCH /user-api-keys/{id} without user_id ((api-keys)/handlers.tsx onRead, onUpdate)", () => {
  it.effect("client access reads and updates its own key: 200", () =>
    Effect.gen(function* () {
      const emulator = yield* withUserKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada@example.com")
      const key = (yield* createKey(emulator, ada.access_token)).json
      const read = yield* send(emulator, { path: `/api/v1/user-api-keys/${key.id}`, headers: asClient(emulator, ada.access_token) })
      expect(read.status).toBe(200)
      expect(read.json).toMatchObject({ id: key.id, type: "user", user_id: ada.user_id, description: "mine" })
      const updated = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/user-api-keys/${key.id}`,
        headers: asClient(emulator, ada.access_token),
        body: { description: "renamed" }
      })
      expect(updated.status).toBe(200)
      expect(updated.json.description).toBe("renamed")
    }))

  it.effect("client access to another user's key: 403 \"Client can only manage their own api keys\"; no user: USER_AUTHENTICATION_REQUIRED", () =>
    Effect.gen(function* () {
      const emulator = yield* withUserKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada@example.com")
      const bob = yield* signUp(emulator, emulator.demo, "bob@example.com")
      const key = (yield* createKey(emulator, ada.access_token)).json
      const foreign = yield* send(emulator, { path: `/api/v1/user-api-keys/${key.id}`, headers: asClient(emulator, bob.access_token) })
      expect(foreign.status).toBe(403)
      expect(foreign.text).toBe("Client can only manage their own api keys")
      const anonymous = yield* send(emulator, { path: `/api/v1/user-api-keys/${key.id}`, headers: asClient(emulator) })
      expect(anonymous.headers.get("x-stack-known-error")).toBe("USER_AUTHENTICATION_REQUIRED")
    }))

  it.effect("an unknown key id: API_KEY_NOT_FOUND", () =>
    Effect.gen(function* () {
      const emulator = yield* withUserKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada@example.com")
      const missing = yield* send(emulator, {
        path: "/api/v1/user-api-keys/8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11",
        headers: asClient(emulator, ada.access_token)
      })
      expect(missing.status).toBe(404)
      expect(missing.headers.get("x-stack-known-error")).toBe("API_KEY_NOT_FOUND")
    }))

  it.effect("server access reads any user's key: 200", () =>
    Effect.gen(function* () {
      const emulator = yield* withUserKeys
      const ada = yield* signUp(emulator, emulator.demo, "ada@example.com")
      const key = (yield* createKey(emulator, ada.access_token)).json
      const read = yield* send(emulator, { path: `/api/v1/user-api-keys/${key.id}`, headers: serverHeaders(emulator.demo) })
      expect(read.status).toBe(200)
      expect(read.json.user_id).toBe(ada.user_id)
    }))
})

describe("GET /contact-channels without user_id, client access (contact-channels/crud.tsx onList)", () => {
  it.effect("signed in: 403 \"Client can only list contact channels for their own user.\"; signed out: CANNOT_GET_OWN_USER_WITHOUT_USER", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const ada = yield* signUp(emulator, emulator.demo, "ada@example.com")
      const listed = yield* send(emulator, { path: "/api/v1/contact-channels", headers: asClient(emulator, ada.access_token) })
      expect(listed.status).toBe(403)
      expect(listed.text).toBe("Client can only list contact channels for their own user.")
      const anonymous = yield* send(emulator, { path: "/api/v1/contact-channels", headers: asClient(emulator) })
      expect(anonymous.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER")
    }))

  it.effect("permissions lists answer their own 403 text (project-permissions/crud.tsx, team-permissions/crud.tsx onList)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const ada = yield* signUp(emulator, emulator.demo, "ada@example.com")
      for (const path of ["/api/v1/project-permissions", "/api/v1/team-permissions"]) {
        const listed = yield* send(emulator, { path, headers: asClient(emulator, ada.access_token) })
        expect(listed.status).toBe(403)
        expect(listed.text).toBe("Client can only list permissions for their own user. user_id must be either \"me\" or the ID of the current user")
      }
    }))
})
