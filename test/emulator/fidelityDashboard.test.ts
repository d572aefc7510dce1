/**
 * Issue 16 item 12: the `internal` (dashboard) project is seeded like the service's —
 * create-team-on-sign-up, OTP/magic link, sign-up, localhost and client team creation on, the
 * shared GitHub/Google/Microsoft/Spotify providers — so a dashboard-style "sign up, create a
 * project" works: the new user's personal team is the `owner_team_id` of `POST /internal/projects`
 * (answered 201 with a new project's admin view, wire sample projects/10). Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { defaults } from "../../src/emulator/Defaults.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"

let server: RunningServer
let stop: () => Promise<void>

beforeAll(async () => {
  const started = await startServer({ passwordHashIterations: 1000 })
  server = started.server
  stop = started.stop
})
afterAll(() => stop())

const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, knownError: response.headers.get("x-stack-known-error"), json: JSON.parse(text || "null") as any }
}

const internalClient = (extra: Record<string, string> = {}) => ({
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": defaults.internal.publishableClientKey,
  ...extra
})

const internalAdmin = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": defaults.internal.superSecretAdminKey
}

describe("the internal project is seeded like the service's dashboard project", () => {
  it("its config has sign-up, OTP/magic link, localhost, client team creation and create-team-on-sign-up on, and the shared GitHub/Google/Microsoft/Spotify providers", async () => {
    const current = await call("GET", "/internal/projects/current", internalAdmin)
    expect(current.status).toBe(200)
    expect(current.json.config).toMatchObject({
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: true,
      allow_localhost: true,
      client_team_creation_enabled: true,
      create_team_on_sign_up: true
    })
    const providers = (current.json.config.oauth_providers as Array<{ id: string; type: string }>).map((provider) => `${provider.id}:${provider.type}`)
    expect(providers).toEqual(["github:shared", "google:shared", "microsoft:shared", "spotify:shared"])
  })

  it("a dashboard user signs up, gets a personal team, and creates a project owned by it (201), which is then listed as theirs", async () => {
    const signedUp = await call("POST", "/auth/password/sign-up", internalClient(), { email: "dashboard.user@example.com", password: "correct horse battery" })
    expect(signedUp.status).toBe(200)
    const asUser = internalClient({ "x-stack-access-token": signedUp.json.access_token })
    const me = await call("GET", "/users/me", asUser)
    expect(me.json.selected_team_id).toEqual(expect.any(String))
    const teams = await call("GET", "/teams?user_id=me", asUser)
    expect(teams.json.items.map((team: { id: string }) => team.id)).toEqual([me.json.selected_team_id])

    const created = await call("POST", "/internal/projects", asUser, { display_name: "My First Project", owner_team_id: me.json.selected_team_id })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      display_name: "My First Project",
      owner_team_id: me.json.selected_team_id,
      is_production_mode: false,
      onboarding_status: "completed"
    })
    // a new project is created as the service creates one (wire sample projects/10), not with the dashboard's switches
    expect(created.json.config).toMatchObject({
      create_team_on_sign_up: false,
      magic_link_enabled: false,
      client_team_creation_enabled: false,
      oauth_providers: []
    })

    const listed = await call("GET", "/internal/projects", asUser)
    expect(listed.json.items.map((project: { id: string }) => project.id)).toEqual([created.json.id])
  })

  it("OTP sign-in on the internal project sends a code (magic link on)", async () => {
    const sent = await call("POST", "/auth/otp/send-sign-in-code", internalClient(), {
      email: "otp.dashboard@example.com",
      callback_url: "http://localhost:8101/handler/magic-link-callback"
    })
    expect(sent.status).toBe(200)
    expect(server.emulator.latestEmail({ email: "otp.dashboard@example.com" })?.kind).toBe("magic_link")
  })
})
