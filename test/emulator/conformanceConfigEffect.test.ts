/**
 * Issue 27 item 3: the config override API as the service serves it, and its values taking effect
 * wherever the project's config is read. Written from stack-auth/stack-auth at commit 2f719903
 * (2f719903b181c20940159e9f3aaaa99bc3ec3b0f):
 *
 * - `apps/backend/src/app/api/latest/internal/config/override/[level]/route.tsx`: `levelSchema`
 *   (project, branch, environment), `assertServerAccessAllowed` (server access: branch only, 403
 *   "Server access can only manage branch config overrides."), `parseAndValidateConfig` →
 *   `getConfigOverrideErrors` of `packages/stack-shared/src/config/schema.ts` against the level's
 *   schema (`The key "…" is not valid (nested object not found in schema: "…").`, yup's
 *   `… contains unknown properties: …` of `yupObject` in `schema-fields.ts`);
 * - `apps/backend/src/lib/config.tsx`: the tenancy's config is the levels rendered
 *   (`override` then `normalize`), read by every route; `renderedOrganizationConfigToProjectCrud`
 *   is the project view (`apps/backend/src/app/api/latest/projects/current/crud.tsx`);
 * - `apps/backend/src/app/api/latest/internal/config/source/route.tsx`: GET answers 200
 *   `{ source }` (`unlinked` when never pushed: `getBranchConfigOverrideSource`), DELETE unlinks;
 *   a branch `PUT` with `source` sets it (`setBranchConfigOverrideSource`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const overridePath = (level: string) => `/api/v1/internal/config/override/${level}`

const patch = (emulator: Emulator.Emulator, level: string, override: unknown, headers: Readonly<Record<string, string>> = adminHeaders(emulator.demo)) =>
  send(emulator, { method: "PATCH", path: overridePath(level), headers, body: { config_override_string: JSON.stringify(override) } })

describe("config override: keys and levels the service refuses", () => {
  it.effect("a key outside the level's schema, an unknown property of an object value and a wrong value type are 400 texts; nothing is written", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const cases: ReadonlyArray<readonly [string, unknown, string]> = [
        ["environment", { "foo.bar": 1 }, "The key \"foo.bar\" is not valid (nested object not found in schema: \"foo\")."],
        [
          "environment",
          { "auth.allowSignUpp": true },
          "The key \"auth.allowSignUpp\" is not valid (nested object not found in schema: \"auth.allowSignUpp\")."
        ],
        ["environment", { auth: { allowSignUpp: true } }, "auth contains unknown properties: allowSignUpp"],
        [
          "environment",
          { "auth.oauth.providers": { github: { type: "github", clientSecrett: "x" } } },
          "auth.oauth.providers.github contains unknown properties: clientSecrett"
        ],
        // the environment's secrets and domains are not branch keys; the project level holds only `sourceOfTruth` and `project`
        [
          "branch",
          { "domains.allowLocalhost": false },
          "The key \"domains.allowLocalhost\" is not valid (nested object not found in schema: \"domains.allowLocalhost\")."
        ],
        ["branch", { "emails.server": { isShared: true } }, "The key \"emails.server\" is not valid (nested object not found in schema: \"emails.server\")."],
        ["project", { "auth.allowSignUp": false }, "The key \"auth.allowSignUp\" is not valid (nested object not found in schema: \"auth\")."],
        [
          "environment",
          { "project.requirePublishableClientKey": true },
          "The key \"project.requirePublishableClientKey\" is not valid (nested object not found in schema: \"project\")."
        ],
        ["environment", { "emails.server.port": "587" }, "emails.server.port must be a `number` type, but the final value was: `\"587\"`."],
        [
          "environment",
          { "auth.oauth.providers.x": { type: "myspace" } },
          "auth.oauth.providers.x.type must be one of the following values: google, github, microsoft, spotify, facebook, discord, gitlab, bitbucket, linkedin, apple, x, twitch"
        ]
      ]
      for (const [level, override, text] of cases) {
        const before = yield* send(emulator, { path: overridePath(level), headers: adminHeaders(emulator.demo) })
        const answer = yield* patch(emulator, level, override)
        expect([level, answer.status, answer.text]).toEqual([level, 400, text])
        const after = yield* send(emulator, { path: overridePath(level), headers: adminHeaders(emulator.demo) })
        expect(after.json.config_string).toBe(before.json.config_string)
      }
      const accepted = yield* patch(emulator, "project", { "project.requirePublishableClientKey": false })
      expect(accepted.status).toBe(200)
    }))

  it.effect("an unknown level is a SCHEMA_ERROR on every method", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const answers = [
        yield* send(emulator, { path: overridePath("organization"), headers }),
        yield* patch(emulator, "staging", { "auth.allowSignUp": false }),
        yield* send(emulator, { method: "PUT", path: overridePath("staging"), headers, body: { config_string: "{}" } })
      ]
      for (const answer of answers) {
        expect(answer.status).toBe(400)
        expect(answer.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
      }
    }))

  it.effect("server access manages the branch level only: other levels answer 403 with the service's text", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = serverHeaders(emulator.demo)
      const branch = yield* patch(emulator, "branch", { "auth.otp.allowSignIn": true }, headers)
      expect([branch.status, branch.json]).toEqual([200, { success: true }])
      const read = yield* send(emulator, { path: overridePath("branch"), headers })
      expect(JSON.parse(read.json.config_string)).toEqual({ "auth.otp.allowSignIn": true })
      for (const level of ["environment", "project"]) {
        const refused = yield* send(emulator, { path: overridePath(level), headers })
        expect([refused.status, refused.text]).toEqual([403, "Server access can only manage branch config overrides."])
      }
      const client = yield* send(emulator, { path: overridePath("branch"), headers: clientHeaders(emulator.demo) })
      expect(client.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE")
    }))
})

describe("config override: the values take effect wherever the config is read", () => {
  it.effect("sign-up, password and OTP switches, personal teams and the project views follow the environment override", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = emulator.demo
      const signUpAnswer = (email: string) =>
        send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: clientHeaders(project),
          body: { email, password: "correct horse battery" }
        })

      expect((yield* patch(emulator, "environment", { "auth.allowSignUp": false })).status).toBe(200)
      expect((yield* signUpAnswer("closed@example.com")).json.code).toBe("SIGN_UP_NOT_ENABLED")
      const clientView = yield* send(emulator, { path: "/api/v1/projects/current", headers: clientHeaders(project) })
      expect(clientView.json.config.sign_up_enabled).toBe(false)

      yield* patch(emulator, "environment", { auth: { allowSignUp: true, password: { allowSignIn: false } } })
      expect((yield* signUpAnswer("nopassword@example.com")).json.code).toBe("PASSWORD_AUTHENTICATION_NOT_ENABLED")

      yield* patch(emulator, "environment", { "auth.password.allowSignIn": true, "teams.createPersonalTeamOnSignUp": true })
      const user = yield* signUp(emulator, project, "teamed@example.com")
      const teams = yield* send(emulator, { path: `/api/v1/teams?user_id=${user.user_id}`, headers: serverHeaders(project) })
      expect(teams.json.items).toHaveLength(1)

      const otp = () =>
        send(emulator, {
          method: "POST",
          path: "/api/v1/auth/otp/send-sign-in-code",
          headers: clientHeaders(project),
          body: { email: "otp@example.com", callback_url: "http://localhost:3000/handler/magic-link-callback" }
        })
      yield* patch(emulator, "environment", { "auth.otp.allowSignIn": false })
      expect((yield* otp()).status).toBe(403)
      yield* patch(emulator, "environment", { "auth.otp.allowSignIn": true })
      expect((yield* otp()).status).toBe(200)

      const admin = yield* send(emulator, { path: "/api/v1/internal/projects/current", headers: adminHeaders(project) })
      expect(admin.json.config).toMatchObject({ sign_up_enabled: true, credential_enabled: true, magic_link_enabled: true, create_team_on_sign_up: true })
    }))

  it.effect("reset-keys takes effect: the reset key falls back to the lower level, then to the schema's default", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const signUpEnabled = Effect.map(
        send(emulator, { path: "/api/v1/internal/projects/current", headers }),
        (answer) => answer.json.config.sign_up_enabled as boolean
      )
      yield* send(emulator, {
        method: "PUT",
        path: overridePath("branch"),
        headers,
        body: { config_string: JSON.stringify({ "auth.allowSignUp": false }), source: { type: "pushed-from-unknown" } }
      })
      // the environment level (written at the project's creation) takes precedence over the branch
      expect(yield* signUpEnabled).toBe(true)
      yield* send(emulator, { method: "POST", path: `${overridePath("environment")}/reset-keys`, headers, body: { keys: ["auth.allowSignUp"] } })
      expect(yield* signUpEnabled).toBe(false)
      yield* send(emulator, { method: "POST", path: `${overridePath("branch")}/reset-keys`, headers, body: { keys: ["auth"] } })
      expect(yield* signUpEnabled).toBe(true)
    }))

  it.effect("trusted domains and allowLocalhost decide which callback URLs are trusted", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = emulator.demo
      const signUpWith = (email: string, url: string) =>
        send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: clientHeaders(project),
          body: { email, password: "correct horse battery", verification_callback_url: url }
        })
      expect((yield* signUpWith("a@example.com", "https://app.example.com/handler/email-verification")).json.code).toBe("REDIRECT_URL_NOT_WHITELISTED")
      yield* patch(emulator, "environment", { "domains.trustedDomains.production": { baseUrl: "https://app.example.com", handlerPath: "/handler" } })
      expect((yield* signUpWith("a@example.com", "https://app.example.com/handler/email-verification")).status).toBe(200)
      // a dotted key into an entry that does not exist is dropped when rendering
      yield* patch(emulator, "environment", { "domains.trustedDomains.missing.baseUrl": "https://other.example.com" })
      expect((yield* signUpWith("b@example.com", "https://other.example.com/handler/email-verification")).json.code).toBe("REDIRECT_URL_NOT_WHITELISTED")
      yield* patch(emulator, "environment", { "domains.allowLocalhost": false })
      expect((yield* signUpWith("c@example.com", "http://localhost:3000/handler/email-verification")).json.code).toBe("REDIRECT_URL_NOT_WHITELISTED")
      const admin = yield* send(emulator, { path: "/api/v1/internal/projects/current", headers: adminHeaders(project) })
      expect(admin.json.config.allow_localhost).toBe(false)
      expect(admin.json.config.domains).toEqual([{ domain: "https://app.example.com", handler_path: "/handler" }])
    }))

  it.effect("an OAuth provider, the e-mail server and requirePublishableClientKey written as overrides are served", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = emulator.demo
      const authorize = () =>
        send(emulator, {
          path: `/api/v1/auth/oauth/authorize/discord?${
            new URLSearchParams({
              client_id: project.projectId,
              client_secret: project.publishableClientKey,
              redirect_uri: "http://localhost:3000/handler/oauth-callback",
              scope: "legacy",
              state: "s",
              grant_type: "authorization_code",
              code_challenge: "challenge",
              code_challenge_method: "S256",
              response_type: "code"
            }).toString()
          }`
        })
      expect((yield* authorize()).json.code).toBe("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED")
      yield* patch(emulator, "environment", {
        "auth.oauth.providers.discord": {
          type: "discord",
          isShared: false,
          clientId: "discord-id",
          clientSecret: "discord-secret",
          allowSignIn: true,
          allowConnectedAccounts: true
        },
        "emails.server": {
          isShared: false,
          provider: "smtp",
          host: "smtp.example.com",
          port: 587,
          username: "mailer",
          password: "secret",
          senderName: "App",
          senderEmail: "noreply@example.com"
        }
      })
      expect((yield* authorize()).status).toBe(307)
      const admin = yield* send(emulator, { path: "/api/v1/internal/projects/current", headers: adminHeaders(project) })
      const discord = (admin.json.config.oauth_providers as ReadonlyArray<{ readonly id: string }>).find((provider) => provider.id === "discord")
      expect(discord).toMatchObject({
        provider_config_id: "discord",
        id: "discord",
        type: "standard",
        client_id: "discord-id",
        client_secret: "discord-secret"
      })
      expect(admin.json.config.email_config).toMatchObject({ type: "standard", host: "smtp.example.com", port: 587, sender_email: "noreply@example.com" })
      const client = yield* send(emulator, { path: "/api/v1/projects/current", headers: clientHeaders(project) })
      expect(client.json.config.enabled_oauth_providers).toContainEqual({ id: "discord" })

      yield* patch(emulator, "project", { "project.requirePublishableClientKey": true })
      const keyless = yield* send(emulator, {
        path: "/api/v1/projects/current",
        headers: { "x-stack-project-id": project.projectId, "x-stack-access-type": "client" }
      })
      expect(keyless.headers.get("x-stack-known-error")).toBe("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT")
    }))

  it.effect("the admin project update writes environment override keys, as the service's legacy config", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/internal/projects/current",
        headers,
        body: { config: { magic_link_enabled: true, allow_team_api_keys: true } }
      })
      const override = yield* send(emulator, { path: overridePath("environment"), headers })
      expect(JSON.parse(override.json.config_string)).toMatchObject({ "auth.otp.allowSignIn": true, "apiKeys.enabled.team": true })
      const rendered = yield* send(emulator, { path: "/api/v1/internal/config", headers })
      expect(JSON.parse(rendered.json.config_string)).toMatchObject({ auth: { otp: { allowSignIn: true } }, apiKeys: { enabled: { team: true } } })
    }))
})

describe("branch config source", () => {
  it.effect("GET answers 200 unlinked at first; a branch PUT with a source sets it; DELETE unlinks", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const headers = adminHeaders(emulator.demo)
      const source = () => send(emulator, { path: "/api/v1/internal/config/source", headers })
      expect([(yield* source()).status, (yield* source()).json]).toEqual([200, { source: { type: "unlinked" } }])
      const github = { type: "pushed-from-github", owner: "acme", repo: "app", branch: "main", commit_hash: "abc123", config_file_path: "stack.config.ts" }
      const pushed = yield* send(emulator, { method: "PUT", path: overridePath("branch"), headers, body: { config_string: "{}", source: github } })
      expect(pushed.status).toBe(200)
      expect((yield* source()).json).toEqual({ source: github })
      const unlinked = yield* send(emulator, { method: "DELETE", path: "/api/v1/internal/config/source", headers })
      expect([unlinked.status, unlinked.json]).toEqual([200, { success: true }])
      expect((yield* source()).json).toEqual({ source: { type: "unlinked" } })
      const badSource = yield* send(emulator, {
        method: "PUT",
        path: overridePath("branch"),
        headers,
        body: { config_string: "{}", source: { type: "pushed-from-gitlab" } }
      })
      expect(badSource.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
      const server = yield* send(emulator, { path: "/api/v1/internal/config/source", headers: serverHeaders(emulator.demo) })
      expect(server.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE")
    }))
})
