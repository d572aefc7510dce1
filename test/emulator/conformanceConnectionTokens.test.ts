/**
 * The access-token routes of connected accounts answer in the service's order (backend
 * `apps/backend/src/app/api/latest/connected-accounts/[user_id]/[provider_id]/[provider_account_id]/access-token/crud.tsx`
 * and `…/[provider_id]/access-token/crud.tsx` at 2f719903): a client addressing another user is
 * refused first (403 text); then the provider (`OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED`) and its
 * keys (`isSharedAccessTokenBlocked`, access-token-helpers.tsx: shared keys give no token); only
 * then the user is read (`USER_NOT_FOUND`); then the connection (`OAUTH_CONNECTION_NOT_CONNECTED_TO_USER`
 * when the account is not the user's or does not allow connected-account use). The 403 texts are
 * the service's ("Client can only access its own connected accounts", and for the list,
 * `connected-accounts/[user_id]/crud.tsx`: "Client can only list connected accounts for their own user.").
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const unknownUser = "8d0b3a4e-3c1e-4f7a-9a57-0d3f5c0e6a11"

describe("connected-account access tokens: the service's order of checks", () => {
  it.effect("server access: an unknown provider wins over an unknown user; a known provider with an unknown user is USER_NOT_FOUND", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const server = serverHeaders(emulator.demo)
      const both = yield* send(emulator, { method: "POST", path: `/api/v1/connected-accounts/${unknownUser}/gitlab/access-token`, headers: server, body: {} })
      const byAccount = yield* send(emulator, {
        method: "POST",
        path: `/api/v1/connected-accounts/${unknownUser}/gitlab/someone/access-token`,
        headers: server,
        body: {}
      })
      const userOnly = yield* send(emulator, {
        method: "POST",
        path: `/api/v1/connected-accounts/${unknownUser}/github/access-token`,
        headers: server,
        body: {}
      })
      expect(both.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED")
      expect(byAccount.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED")
      expect(userOnly.headers.get("x-stack-known-error")).toBe("USER_NOT_FOUND")
    }))

  it.effect("client access: another user's id is refused before the provider is checked; a connection that does not allow connected-account use gives no token", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const ada = yield* signUp(emulator, demo, "ada.tokens@example.com")
      const bob = yield* signUp(emulator, demo, "bob.tokens@example.com")
      const asAda = clientHeaders(demo, { "x-stack-access-token": ada.access_token })
      const foreign = yield* send(emulator, { method: "POST", path: `/api/v1/connected-accounts/${bob.user_id}/gitlab/access-token`, headers: asAda, body: {} })
      expect([foreign.status, foreign.text]).toEqual([403, "Client can only access its own connected accounts"])
      const foreignList = yield* send(emulator, { path: `/api/v1/connected-accounts/${bob.user_id}`, headers: asAda })
      expect([foreignList.status, foreignList.text]).toEqual([403, "Client can only list connected accounts for their own user."])
      yield* send(emulator, {
        method: "POST",
        path: "/api/v1/oauth-providers",
        headers: serverHeaders(demo),
        body: { user_id: ada.user_id, provider_config_id: "github", account_id: "gh-ada", allow_sign_in: false, allow_connected_accounts: false }
      })
      const notAllowed = yield* send(emulator, { method: "POST", path: "/api/v1/connected-accounts/me/github/gh-ada/access-token", headers: asAda, body: {} })
      expect(notAllowed.headers.get("x-stack-known-error")).toBe("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER")
    }))
})
