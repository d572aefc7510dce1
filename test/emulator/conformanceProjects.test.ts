/**
 * Conformance of the project and internal API key routes with the recorded wire samples
 * (projects/*, internal-api-keys/*): each sample is replayed against a fresh emulator seeded with
 * the samples' project (owned by the seeded owner's team, trusted domain as recorded), with
 * placeholders, the recorded team id, the recorded new project's id and the recorded key
 * replaced by live values. Compared (conformanceSupport.ts): status, `x-stack-known-error`,
 * content type, the body's shape.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Emulator } from "../../src/emulator/Emulator.js"
import { defaults } from "../../src/emulator/Defaults.js"
import type { Answer } from "./helpers.js"
import { clientHeaders, makeEmulator, send } from "./helpers.js"
import type { Substitutions } from "./conformanceSupport.js"
import { compare, load, passwordSession, placeholderKeys, projectId, publishableClientKey, replaySample, sampleInstant } from "./conformanceSupport.js"

const owner = defaults.internalOwner
const recordedTeamId = (load("projects/10-internal-projects-create").request.body as { owner_team_id: string }).owner_team_id
const recordedNewProjectId = load("projects/12-new-project-admin-access-token").request.headers["X-Stack-Project-Id"]!
const recordedKeyId = (load("internal-api-keys/02-create").response.body as { id: string }).id
const recordedKeyValue = (load("internal-api-keys/02-create").response.body as { secret_server_key: string }).secret_server_key

interface Bench {
  readonly emulator: Emulator
  /** Replays a sample; samples addressed to `internal` get the internal project's key. */
  readonly replay: (name: string, substitutions?: Substitutions) => Effect.Effect<Answer>
  readonly ownerToken: string
}

const bench: Effect.Effect<Bench> = Effect.gen(function* () {
  yield* TestClock.setTime(sampleInstant)
  const emulator = yield* makeEmulator({
    // the seeded owner administers only the samples' project here (the demo project has another owner team)
    demo: { ownerTeamId: "00000000-0000-4000-8000-0000000000aa" },
    projects: [
      {
        id: projectId,
        displayName: "SDK Test Project",
        publishableClientKey,
        requiresPublishableClientKey: true,
        ownerTeamId: owner.teamId,
        config: {
          domains: [{ domain: "https://wire-check.example.com", handlerPath: "/handler" }],
          allowUserApiKeys: true,
          allowTeamApiKeys: true
        }
      }
    ]
  })
  const tokens = yield* passwordSession(emulator, emulator.internal, "sign-in", { email: owner.email, password: owner.password })
  const keys = placeholderKeys(emulator.credentials(projectId)!)
  const replay = (name: string, substitutions: Substitutions = {}) => {
    const sample = load(name)
    const internal = sample.request.headers["X-Stack-Project-Id"] === "internal"
    return replaySample(emulator, sample, {
      ...keys,
      ...(internal ? { "<publishable-client-key>": emulator.internal.publishableClientKey } : {}),
      "<access-token>": tokens.access_token,
      "<admin-access-token>": tokens.access_token,
      [recordedTeamId]: owner.teamId,
      ...substitutions
    })
  }
  return { emulator, replay, ownerToken: tokens.access_token }
})

const conforms = (name: string, answer: Answer) => expect(compare(load(name).response, answer), name).toEqual([])

describe("projects/* conformance", () => {
  for (
    const name of [
      "projects/01-current-client",
      "projects/02-internal-current-admin",
      "projects/05-internal-current-as-client",
      "projects/06-internal-current-wrong-admin-key",
      "projects/07-internal-current-admin-access-token",
      "projects/08-internal-projects-list"
    ]
  ) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        const { replay } = yield* bench
        conforms(name, yield* replay(name))
      }))
  }

  it.effect("projects/03–04: the config change answers the admin view, and the client view shows it", () =>
    Effect.gen(function* () {
      const { replay } = yield* bench
      const patched = yield* replay("projects/03-internal-current-patch-config")
      conforms("projects/03-internal-current-patch-config", patched)
      expect((patched.json as { config: { magic_link_enabled: boolean } }).config.magic_link_enabled).toBe(true)
      const client = yield* replay("projects/04-current-client-after-patch")
      conforms("projects/04-current-client-after-patch", client)
      expect(client.json).toMatchObject({ config: { magic_link_enabled: true, client_team_creation_enabled: true } })
    }))

  it.effect("projects/09: the owned-projects list on a normal project is EXPECTED_INTERNAL_PROJECT", () =>
    Effect.gen(function* () {
      const { emulator, replay } = yield* bench
      const user = yield* passwordSession(emulator, { projectId, publishableClientKey }, "sign-up", {
        email: "normal@example.com",
        password: "correct horse battery"
      })
      conforms(
        "projects/09-internal-projects-on-normal-project",
        yield* replay("projects/09-internal-projects-on-normal-project", { "<access-token>": user.access_token })
      )
    }))

  it.effect("projects/10–15: create, administer with the owner's token, list, delete, then the project is gone", () =>
    Effect.gen(function* () {
      const { emulator, replay } = yield* bench
      const created = yield* replay("projects/10-internal-projects-create")
      conforms("projects/10-internal-projects-create", created)
      const newId = (created.json as { id: string }).id
      expect(emulator.credentials(newId)).toBeDefined()
      conforms("projects/11-internal-projects-create-foreign-team", yield* replay("projects/11-internal-projects-create-foreign-team"))
      const renamed = { [recordedNewProjectId]: newId }
      conforms("projects/12-new-project-admin-access-token", yield* replay("projects/12-new-project-admin-access-token", renamed))
      const listed = yield* replay("projects/13-internal-projects-list-after-create")
      conforms("projects/13-internal-projects-list-after-create", listed)
      expect((listed.json as { items: Array<{ id: string }> }).items.map((item) => item.id)).toEqual([projectId, newId])
      conforms("projects/14-new-project-delete", yield* replay("projects/14-new-project-delete", renamed))
      conforms("projects/15-deleted-project-admin-access-token", yield* replay("projects/15-deleted-project-admin-access-token", renamed))
    }))

  it.effect("projects/16: an internal user who owns nothing is ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", () =>
    Effect.gen(function* () {
      const { emulator, replay } = yield* bench
      const stranger = yield* passwordSession(emulator, emulator.internal, "sign-up", { email: "stranger@example.com", password: "correct horse battery" })
      conforms(
        "projects/16-admin-access-token-not-owner",
        yield* replay("projects/16-admin-access-token-not-owner", { "<admin-access-token>": stranger.access_token })
      )
    }))
})

describe("internal-api-keys/* conformance", () => {
  it.effect("01–05: list, create, get, revoke, and the revoked key no longer authenticates", () =>
    Effect.gen(function* () {
      const { emulator, replay } = yield* bench
      const admin = emulator.credentials(projectId)!
      const adminHeaders = {
        "x-stack-project-id": projectId,
        "x-stack-access-type": "admin",
        "x-stack-super-secret-admin-key": admin.superSecretAdminKey
      }
      // the recorded list: the setup key set (oldest) and four revoked keys, as recorded
      for (const kinds of [{ pck: false }, { pck: true }, { pck: false }, { pck: false }]) {
        yield* TestClock.adjust("1 second")
        const answer = yield* send(emulator, {
          method: "POST",
          path: "/api/v1/internal/api-keys",
          headers: adminHeaders,
          body: {
            description: "Wire sample key (revoked)",
            expires_at_millis: sampleInstant + 3_600_000,
            has_publishable_client_key: kinds.pck,
            has_secret_server_key: true,
            has_super_secret_admin_key: false
          }
        })
        const id = (answer.json as { id: string }).id
        yield* send(emulator, { method: "PATCH", path: `/api/v1/internal/api-keys/${id}`, headers: adminHeaders, body: { revoked: true } })
      }
      conforms("internal-api-keys/01-list", yield* replay("internal-api-keys/01-list"))

      const created = yield* replay("internal-api-keys/02-create")
      conforms("internal-api-keys/02-create", created)
      const live = created.json as { id: string; secret_server_key: string }
      expect(live.secret_server_key).toMatch(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/)
      const ids = { [recordedKeyId]: live.id, [recordedKeyValue]: live.secret_server_key }

      const read = yield* replay("internal-api-keys/03-get", ids)
      conforms("internal-api-keys/03-get", read)
      expect(read.json).toMatchObject({ secret_server_key: { last_four: live.secret_server_key.slice(-4) } })
      const revoked = yield* replay("internal-api-keys/04-revoke", ids)
      conforms("internal-api-keys/04-revoke", revoked)
      conforms("internal-api-keys/05-use-revoked-secret-key", yield* replay("internal-api-keys/05-use-revoked-secret-key", ids))
    }))

  it.effect("an unknown key id is API_KEY_NOT_FOUND; the seeded client key keeps working", () =>
    Effect.gen(function* () {
      const { emulator } = yield* bench
      const admin = emulator.credentials(projectId)!
      const answer = yield* send(emulator, {
        method: "GET",
        path: "/api/v1/internal/api-keys/00000000-0000-4000-8000-000000000000",
        headers: { "x-stack-project-id": projectId, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": admin.superSecretAdminKey }
      })
      expect(answer.status).toBe(404)
      expect(answer.headers.get("x-stack-known-error")).toBe("API_KEY_NOT_FOUND")
      const client = yield* send(emulator, { method: "GET", path: "/api/v1/projects/current", headers: clientHeaders(admin) })
      expect(client.status).toBe(200)
    }))
})
