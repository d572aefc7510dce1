/**
 * Emulator fidelity (issue 16): each test states the service's behaviour (PROTOCOL.md, the
 * recorded wire samples, issue 16's observations of the service) and checks the in-process
 * emulator answers the same.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults } from "../../src/emulator/Defaults.js"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"
import { authorizeQuery, localPath, runFlow } from "./oauthFlow.js"
import type { Answer } from "./helpers.js"

const adminHeaders = (credentials: Emulator.ProjectCredentials, extra: Readonly<Record<string, string>> = {}) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey,
  ...extra
})

const refresh = (emulator: Emulator.Emulator, refreshToken: string): Effect.Effect<Answer> =>
  send(emulator, {
    method: "POST",
    path: "/api/v1/auth/sessions/current/refresh",
    headers: clientHeaders(emulator.demo, { "x-stack-refresh-token": refreshToken })
  })

const createUser = (emulator: Emulator.Emulator, body: Readonly<Record<string, unknown>>): Effect.Effect<Answer> =>
  send(emulator, { method: "POST", path: "/api/v1/users", headers: serverHeaders(emulator.demo), body })

const setConfig = (emulator: Emulator.Emulator, config: Readonly<Record<string, unknown>>): Effect.Effect<Answer> =>
  send(emulator, { method: "PATCH", path: "/api/v1/internal/projects/current", headers: adminHeaders(emulator.demo), body: { config } })

describe("item 1: /api/latest", () => {
  it.effect("serves /api/latest/* as an alias of /api/v1/*", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const latest = yield* send(emulator, { path: "/api/latest/users/me", headers: clientHeaders(emulator.demo) })
      const v1 = yield* send(emulator, { path: "/api/v1/users/me", headers: clientHeaders(emulator.demo) })
      expect(latest.status).toBe(v1.status)
      expect(latest.headers.get("x-stack-known-error")).toBe(v1.headers.get("x-stack-known-error"))
      const welcome = yield* send(emulator, { path: "/api/latest" })
      expect(welcome.status).toBe(200)
      expect(welcome.text).toMatch(/^Welcome to the Stack API endpoint!/)
      const projects = yield* send(emulator, { path: "/api/latest/projects/current", headers: clientHeaders(emulator.demo) })
      expect(projects.status).toBe(200)
      expect(projects.json.id).toBe(emulator.demo.projectId)
    }))

  it.effect("refuses the privileged /api/latest/emulator/* pages to a foreign origin as it does /api/v1/emulator/*", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/latest/emulator/outbox", headers: { origin: "https://evil.example.com" } })
      expect(answer.status).toBe(403)
      expect(answer.headers.get("access-control-allow-origin")).toBeNull()
    }))

  it.effect("still answers 404 text for /api/v2 and /api/latestx", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      for (const path of ["/api/v2/users/me", "/api/latestx/users/me"]) {
        const answer = yield* send(emulator, { path })
        expect(answer.status).toBe(404)
        expect(answer.text).toMatch(/^404 — this page does not exist/)
      }
    }))
})

describe("item 2: OAuth authorize", () => {
  const approve = (emulator: Emulator.Emulator, query: URLSearchParams) =>
    Effect.gen(function* () {
      const start = yield* send(emulator, { path: `/api/v1/auth/oauth/authorize/github?${query.toString()}` })
      if (start.status !== 200) return { start, code: "" }
      const approved = yield* send(emulator, { path: `${localPath(start.json.location as string)}&auto=1&email=pkce-plain@example.com` })
      const callback = yield* send(emulator, { path: localPath(approved.headers.get("location")!) })
      return { start, code: new URL(callback.headers.get("location")!).searchParams.get("code") ?? "" }
    })
  const exchange = (emulator: Emulator.Emulator, code: string, verifier: string, redirectUri = "http://localhost:3000/handler/oauth-callback") =>
    send(emulator, {
      method: "POST",
      path: "/api/v1/auth/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      raw: new URLSearchParams({
        redirect_uri: redirectUri,
        code_verifier: verifier,
        code,
        grant_type: "authorization_code",
        client_id: emulator.demo.projectId,
        client_secret: emulator.demo.publishableClientKey
      }).toString()
    })

  it.effect("accepts code_challenge_method=plain: the verifier is the challenge", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const verifier = "plain-verifier-0123456789-0123456789-0123456789"
      const query = authorizeQuery({ project: emulator.demo }, verifier)
      query.set("code_challenge_method", "plain")
      const { start, code } = yield* approve(emulator, query)
      expect(start.status).toBe(200)
      expect((yield* exchange(emulator, code, "wrong-verifier-0123456789-0123456789-012345")).status).toBe(400)
      const token = yield* exchange(emulator, code, verifier)
      expect(token.status).toBe(200)
      expect(typeof token.json.access_token).toBe("string")
    }))

  it.effect("accepts a missing code_challenge_method as plain", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const verifier = "missing-method-verifier-0123456789-0123456789"
      const query = authorizeQuery({ project: emulator.demo, omit: ["code_challenge_method"] }, verifier)
      const { start, code } = yield* approve(emulator, query)
      expect(start.status).toBe(200)
      expect((yield* exchange(emulator, code, verifier)).status).toBe(200)
    }))

  it.effect("still refuses another code_challenge_method (SCHEMA_ERROR)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const query = authorizeQuery({ project: emulator.demo }, "challenge")
      query.set("code_challenge_method", "S512")
      const start = yield* send(emulator, { path: `/api/v1/auth/oauth/authorize/github?${query.toString()}` })
      expect(start.status).toBe(400)
      expect(start.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))

  it.effect("trusts callback URLs on *.localhost and 127.x.x.x hosts when allow_localhost", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      for (const redirectUri of ["http://app.localhost:3000/handler/oauth-callback", "http://127.0.0.2:3000/handler/oauth-callback"]) {
        const flow = yield* runFlow(emulator, { project: emulator.demo, redirectUri, email: "app@example.com" })
        expect(flow.location.origin).toBe(new URL(redirectUri).origin)
        expect(flow.code).not.toBe("")
      }
      yield* setConfig(emulator, { allow_localhost: false })
      // the service checks redirect_uri at the callback (conformanceOAuthRedirectUri.test.ts)
      const refused = yield* runFlow(emulator, { project: emulator.demo, redirectUri: "http://app.localhost:3000/cb", email: "app@example.com" })
      expect(refused.callback.headers.get("x-stack-known-error")).toBe("REDIRECT_URL_NOT_WHITELISTED")
    }))
})

describe("item 3: e-mails normalised for sign-in", () => {
  it.effect("signs in with the lower-cased e-mail of a mixed-case sign-up", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "Repro.Case@Example.com", "correct horse battery")
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(emulator.demo),
        body: { email: "repro.case@example.com", password: "correct horse battery" }
      })
      expect(answer.status).toBe(200)
    }))

  it.effect("refuses a sign-up with the lower-cased e-mail of an existing user (409 USER_EMAIL_ALREADY_EXISTS)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* signUp(emulator, emulator.demo, "Repro.Case@Example.com")
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-up",
        headers: clientHeaders(emulator.demo),
        body: { email: "repro.case@example.com", password: "correct horse battery" }
      })
      expect(answer.status).toBe(409)
      expect(answer.headers.get("x-stack-known-error")).toBe("USER_EMAIL_ALREADY_EXISTS")
    }))
})

describe("item 4: users created with server access (the team revised by issue 27: conformanceServerUserCreation.test.ts)", () => {
  it.effect("answers selected_team_id null for POST /users {} on a project with create-team-on-sign-up; the personal team comes after the answer", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      expect((yield* setConfig(emulator, { create_team_on_sign_up: true })).status).toBe(200)
      const created = yield* createUser(emulator, {})
      expect(created.status).toBe(201)
      expect(created.json.selected_team_id).toBeNull()
      const teams = yield* send(emulator, { path: `/api/v1/teams?user_id=${created.json.id}`, headers: serverHeaders(emulator.demo) })
      expect(teams.json.items.map((team: { display_name: string }) => team.display_name)).toEqual(["Personal Team"])
      // a sign-up still gets its personal team
      const signedUp = yield* signUp(emulator, emulator.demo, "with-team@example.com")
      const user = yield* send(emulator, { path: `/api/v1/users/${signedUp.user_id}`, headers: serverHeaders(emulator.demo) })
      expect(user.json.selected_team_id).not.toBeNull()
    }))
})

describe("item 5: duplicate primary e-mail with server access", () => {
  it.effect("creates a user with another user's primary e-mail when primary_email_auth_enabled is off (201)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const first = yield* createUser(emulator, { primary_email: "shared@example.com", primary_email_auth_enabled: true })
      expect(first.status).toBe(201)
      const second = yield* createUser(emulator, { primary_email: "shared@example.com", primary_email_auth_enabled: false })
      expect(second.status).toBe(201)
      expect(second.json.primary_email).toBe("shared@example.com")
    }))

  it.effect("refuses the duplicate when both users would sign in with it (409)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      yield* createUser(emulator, { primary_email: "shared@example.com", primary_email_auth_enabled: true })
      const second = yield* createUser(emulator, { primary_email: "shared@example.com", primary_email_auth_enabled: true })
      expect(second.status).toBe(409)
      expect(second.headers.get("x-stack-known-error")).toBe("USER_EMAIL_ALREADY_EXISTS")
      // switching auth on later for the duplicate is refused the same way
      const third = yield* createUser(emulator, { primary_email: "shared@example.com", primary_email_auth_enabled: false })
      const enable = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/users/${third.json.id}`,
        headers: serverHeaders(emulator.demo),
        body: { primary_email_auth_enabled: true }
      })
      expect(enable.status).toBe(409)
    }))
})

describe("item 6: validation as the service does it", () => {
  it.effect("refuses primary_email_verified: true without primary_email (400 text)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* createUser(emulator, { primary_email_verified: true })
      expect(answer.status).toBe(400)
      expect(answer.text).toBe("primary_email_verified cannot be true without primary_email")
      expect(emulator.state.projects.get(emulator.demo.projectId)!.users.size).toBe(1) // the demo user only
      const user = yield* createUser(emulator, {})
      const patch = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/users/${user.json.id}`,
        headers: serverHeaders(emulator.demo),
        body: { primary_email_verified: true }
      })
      expect(patch.status).toBe(400)
      expect(patch.text).toBe("primary_email_verified cannot be true without primary_email")
    }))

  it.effect("answers display_name \"\" as null", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* createUser(emulator, { display_name: "" })
      expect(answer.status).toBe(201)
      expect(answer.json.display_name).toBeNull()
    }))

  it.effect("accepts password_hash (bcrypt import) on POST /users", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const hash = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"
      const answer = yield* createUser(emulator, { primary_email: "imported@example.com", primary_email_auth_enabled: true, password_hash: hash })
      expect(answer.status).toBe(201)
      expect(answer.json.has_password).toBe(true)
      // plain-text 400s of the service's getPasswordHashFromData (apps/backend/src/app/api/latest/users/crud.tsx:208, :216 at 2f719903)
      const both = yield* createUser(emulator, { password: "correct horse battery", password_hash: hash })
      expect([both.status, both.text]).toEqual([400, "Cannot set both password and password_hash at the same time."])
      const malformed = yield* createUser(emulator, { password_hash: "not-a-hash" })
      expect([malformed.status, malformed.headers.get("x-stack-known-error"), malformed.text]).toEqual([
        400,
        null,
        "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format."
      ])
    }))

  it.effect("accepts an e-mail without a top-level domain like invalid_email@gmai", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const created = yield* createUser(emulator, { primary_email: "invalid_email@gmai" })
      expect(created.status).toBe(201)
      const signedUp = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-up",
        headers: clientHeaders(emulator.demo),
        body: { email: "other_email@gmai", password: "correct horse battery" }
      })
      expect(signedUp.status).toBe(200)
      const refused = yield* createUser(emulator, { primary_email: "no-at-sign" })
      expect(refused.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))

  it.effect("refuses email_config.host \"\" on project update", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* setConfig(emulator, {
        email_config: { type: "standard", host: "", port: 587, username: "u", password: "p", sender_name: "S", sender_email: "s@example.com" }
      })
      expect(answer.status).toBe(400)
      expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
      expect(answer.json.error).toContain("body.config.email_config.host must not be empty")
    }))

  it.effect("answers GET /teams as a client without user_id with the 403 text \"Client can only list teams for their own user…\"", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "teams-lister@example.com")
      const answer = yield* send(emulator, {
        path: "/api/v1/teams",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      })
      expect(answer.status).toBe(403)
      expect(answer.headers.get("x-stack-known-error")).toBeNull()
      expect(answer.text).toBe("Client can only list teams for their own user. user_id must be either \"me\" or the ID of the current user")
      const own = yield* send(emulator, {
        path: "/api/v1/teams?user_id=me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      })
      expect(own.status).toBe(200)
    }))

  it.effect("accepts apple_bundle_ids in an OAuth provider config and shows them back", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* setConfig(emulator, {
        oauth_providers: [{ id: "apple", type: "standard", client_id: "com.example.web", client_secret: "secret", apple_bundle_ids: ["com.example.ios"] }]
      })
      expect(answer.status).toBe(200)
      const apple = (answer.json.config.oauth_providers as Array<Record<string, unknown>>).find((provider) => provider.id === "apple")
      expect(apple?.apple_bundle_ids).toEqual(["com.example.ios"])
    }))
})

describe("item 8: internal API keys of a new project", () => {
  it.effect("lists no keys for a project created with POST /internal/projects", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const owner = defaults.internalOwner
      const signIn = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(emulator.internal),
        body: { email: owner.email, password: owner.password }
      })
      expect(signIn.status).toBe(200)
      const created = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/internal/projects",
        headers: clientHeaders(emulator.internal, { "x-stack-access-token": signIn.json.access_token }),
        body: { display_name: "Fresh", owner_team_id: owner.teamId }
      })
      expect(created.status).toBe(201)
      const projectId = created.json.id as string
      const admin = { "x-stack-project-id": projectId, "x-stack-access-type": "admin", "x-stack-admin-access-token": signIn.json.access_token }
      const listed = yield* send(emulator, { path: "/api/v1/internal/api-keys", headers: admin })
      expect(listed.status).toBe(200)
      expect(listed.json.items).toEqual([])
      expect(emulator.credentials(projectId)?.secretServerKey).toBe("")
      // the owners create the first keys themselves
      const made = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/internal/api-keys",
        headers: admin,
        body: {
          description: "first",
          expires_at_millis: 4102444800000,
          has_publishable_client_key: true,
          has_secret_server_key: true,
          has_super_secret_admin_key: false
        }
      })
      expect(made.status).toBe(200)
      expect((yield* send(emulator, { path: "/api/v1/internal/api-keys", headers: admin })).json.items).toHaveLength(1)
    }))
})

describe("item 10: sessions after a server-side password change; anonymous upgrade through OTP", () => {
  it.effect("no longer refreshes the old session after a server-side password change", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "rotate@example.com")
      expect((yield* refresh(emulator, tokens.refresh_token)).status).toBe(200)
      const change = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: serverHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }),
        body: { password: "a brand new password" }
      })
      expect(change.status).toBe(200)
      const after = yield* refresh(emulator, tokens.refresh_token)
      expect(after.status).toBe(401)
      expect(after.headers.get("x-stack-known-error")).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED")
    }))

  it.effect("upgrades the signed-in anonymous user through an OTP sign-in (same user id)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const anonymous = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      expect(anonymous.status).toBe(200)
      const headers = clientHeaders(emulator.demo, {
        "x-stack-access-token": anonymous.json.access_token,
        "x-stack-allow-anonymous-user": "true"
      })
      const sent = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/otp/send-sign-in-code",
        headers,
        body: { email: "upgraded@example.com", callback_url: "http://localhost:3000/handler/magic-link-callback" }
      })
      expect(sent.status).toBe(200)
      const code = emulator.latestEmail({ email: "upgraded@example.com" })!.code!
      const usersBefore = emulator.state.projects.get(emulator.demo.projectId)!.users.size
      const signedIn = yield* send(emulator, { method: "POST", path: "/api/v1/auth/otp/sign-in", headers, body: { code } })
      expect(signedIn.status).toBe(200)
      expect(signedIn.json.user_id).toBe(anonymous.json.user_id)
      expect(emulator.state.projects.get(emulator.demo.projectId)!.users.size).toBe(usersBefore)
      const user = yield* send(emulator, { path: `/api/v1/users/${anonymous.json.user_id}`, headers: serverHeaders(emulator.demo) })
      expect(user.json.is_anonymous).toBe(false)
      expect(user.json.primary_email).toBe("upgraded@example.com")
    }))
})

describe("item 13: the service's texts", () => {
  it.effect("ends the welcome text's documentation link with '.'", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/v1" })
      expect(answer.text).toBe("Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: None")
    }))

  it.effect("says 'for this Stack project' in ACCESS_TYPE_REQUIRED (wire sample users/17)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const answer = yield* send(emulator, { path: "/api/v1/users/me" })
      expect(answer.headers.get("x-stack-known-error")).toBe("ACCESS_TYPE_REQUIRED")
      expect(answer.json.error).toBe(
        "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication"
      )
    }))

  it.effect("answers 'Client can only manage their own api keys' to a client naming another user's keys", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const me = yield* signUp(emulator, emulator.demo, "keys-me@example.com")
      const other = yield* signUp(emulator, emulator.demo, "keys-other@example.com")
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/user-api-keys",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": me.access_token }),
        body: { user_id: other.user_id, description: "x", expires_at_millis: null, is_public: false }
      })
      expect(answer.status).toBe(403)
      expect(answer.text).toBe("Client can only manage their own api keys")
    }))

  it.effect("answers 'body.email must not be empty' for an empty e-mail", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      for (
        const [path, body] of [
          ["/api/v1/auth/password/sign-up", { email: "", password: "correct horse battery" }],
          ["/api/v1/auth/password/sign-in", { email: "", password: "correct horse battery" }],
          ["/api/v1/auth/otp/send-sign-in-code", { email: "", callback_url: "http://localhost:3000/cb" }],
          ["/api/v1/auth/password/send-reset-code", { email: "", callback_url: "http://localhost:3000/cb" }]
        ] as const
      ) {
        const answer = yield* send(emulator, { method: "POST", path, headers: clientHeaders(emulator.demo), body })
        expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
        expect(answer.json.error).toBe(`Request validation failed on POST ${path}:\n  - body.email must not be empty`)
      }
    }))
})
