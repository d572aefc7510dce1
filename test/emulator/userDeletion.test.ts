/**
 * Issue 11 (H): deleting a user removes everything that belongs to it — one cascade
 * (`Store.deleteUser`), through `DELETE /users/{id}` and called directly. Afterwards the
 * user's id appears nowhere in the emulator's state, and nothing it held still works: API keys,
 * refresh tokens, codes, CLI logins, pending OAuth codes, memberships, grants, project ownership.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults } from "../../src/emulator/Defaults.js"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { deleteUser } from "../../src/emulator/Store.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"
import { exchange, runFlow } from "./oauthFlow.js"
import { userReferences } from "./userReferences.js"

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

/** A user holding one of everything: sessions, an API key, a team (membership, profile, grants), a project grant, a channel with a pending code, a CLI login, an OAuth link and a pending OAuth code. */
const richUser = (emulator: Emulator.Emulator) =>
  Effect.gen(function* () {
    const demo = emulator.demo
    const server = serverHeaders(demo)
    const tokens = yield* signUp(emulator, demo, "doomed@example.com")
    const userId = tokens.user_id
    const asUser = clientHeaders(demo, { "x-stack-access-token": tokens.access_token })
    const ok = (answer: { readonly status: number; readonly text: string }, what: string) => {
      if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text}`)
    }

    const key = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/user-api-keys",
      headers: server,
      body: { user_id: userId, description: "ci", expires_at_millis: null }
    })
    ok(key, "api key")
    const team = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/teams",
      headers: server,
      body: { display_name: "Doomed's team", creator_user_id: userId }
    })
    ok(team, "team")
    ok(
      yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/team-member-profiles/${team.json.id}/${userId}`,
        headers: server,
        body: { display_name: "Doomed here" }
      }),
      "member profile"
    )
    ok(
      yield* send(emulator, { method: "POST", path: "/api/v1/project-permission-definitions", headers: adminHeaders(demo), body: { id: "read_reports" } }),
      "definition"
    )
    ok(yield* send(emulator, { method: "POST", path: `/api/v1/project-permissions/${userId}/read_reports`, headers: server, body: {} }), "project grant")
    const channel = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/contact-channels",
      headers: server,
      body: { user_id: userId, type: "email", value: "doomed-2@example.com", used_for_auth: false }
    })
    ok(channel, "channel")
    ok(
      yield* send(emulator, {
        method: "POST",
        path: `/api/v1/contact-channels/${userId}/${channel.json.id}/send-verification-code`,
        headers: server,
        body: { callback_url: "http://localhost:3000/handler/email-verification" }
      }),
      "verification code"
    )
    const verificationCode = emulator.latestEmail({ email: "doomed-2@example.com" })!.code!
    const cli = yield* send(emulator, { method: "POST", path: "/api/v1/auth/cli", headers: clientHeaders(demo), body: {} })
    ok(cli, "cli")
    ok(
      yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/cli/complete",
        headers: asUser,
        body: { login_code: cli.json.login_code, refresh_token: tokens.refresh_token }
      }),
      "cli complete"
    )
    // an OAuth link: the github account joins the user, and its authorization code is left unexchanged
    const flow = yield* runFlow(emulator, { project: demo, email: "doomed-gh@example.com", type: "link", token: tokens.access_token })
    expect(flow.code).toMatch(/^[0-9a-f]{64}$/)

    const project = emulator.state.projects.get(demo.projectId)!
    const user = project.users.get(userId)!
    expect(user.oauthAccounts).toHaveLength(1)
    expect(userReferences(emulator.state, userId).length).toBeGreaterThan(8)
    return {
      userId,
      tokens,
      apiKey: key.json.value as string,
      teamId: team.json.id as string,
      verificationCode,
      pollingCode: cli.json.polling_code as string,
      flow
    }
  })

describe("deleting a user removes everything that belongs to it", () => {
  it.effect("after DELETE /users/{id} nothing the user held works, and its id appears nowhere in the state", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { allowUserApiKeys: true } } })
      const demo = emulator.demo
      const server = serverHeaders(demo)
      const held = yield* richUser(emulator)

      const checkBefore = yield* send(emulator, { method: "POST", path: "/api/v1/user-api-keys/check", headers: server, body: { api_key: held.apiKey } })
      expect(checkBefore.status).toBe(200)

      const deleted = yield* send(emulator, { method: "DELETE", path: `/api/v1/users/${held.userId}`, headers: server })
      expect(deleted.status).toBe(200)

      // its user API key no longer passes the check
      const check = yield* send(emulator, { method: "POST", path: "/api/v1/user-api-keys/check", headers: server, body: { api_key: held.apiKey } })
      expect(check.headers.get("x-stack-known-error")).toBe("API_KEY_NOT_FOUND")
      // its refresh token is dead
      const refresh = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(demo, { "x-stack-refresh-token": held.tokens.refresh_token })
      })
      expect(refresh.headers.get("x-stack-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")
      // the CLI login it completed hands out nothing
      const poll = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/cli/poll",
        headers: clientHeaders(demo),
        body: { polling_code: held.pollingCode }
      })
      expect(poll.headers.get("x-stack-known-error")).toBe("INVALID_POLLING_CODE")
      // its verification code is gone
      const verify = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/contact-channels/verify",
        headers: clientHeaders(demo),
        body: { code: held.verificationCode }
      })
      expect(verify.status).toBeGreaterThanOrEqual(400)
      expect(verify.status).toBeLessThan(500)
      // its pending OAuth authorization code is gone
      const exchanged = yield* exchange(emulator, demo, held.flow)
      expect(exchanged.headers.get("x-stack-known-error")).toBe("INVALID_AUTHORIZATION_CODE")
      // its membership and team profile are gone, the team stays
      const profiles = yield* send(emulator, { path: `/api/v1/team-member-profiles?team_id=${held.teamId}`, headers: server })
      expect(profiles.status).toBe(200)
      expect(profiles.json.items).toEqual([])
      // and nothing in the state names it any more
      expect(userReferences(emulator.state, held.userId)).toEqual([])
    }))

  it.effect("the cascade called directly leaves no reference, also for a user of the internal project who owned projects", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { allowUserApiKeys: true } } })
      const held = yield* richUser(emulator)
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      deleteUser(emulator.state, project, held.userId)
      expect(userReferences(emulator.state, held.userId)).toEqual([])

      const ownerId = defaults.internalOwner.userId
      const owned = yield* emulator.createProject({ ownerUserIds: [ownerId] })
      expect(emulator.state.projects.get(owned.projectId)!.ownerUserIds.has(ownerId)).toBe(true)
      deleteUser(emulator.state, emulator.state.projects.get("internal")!, ownerId)
      expect(userReferences(emulator.state, ownerId)).toEqual([])
    }))
})
