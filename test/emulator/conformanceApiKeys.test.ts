/**
 * Conformance of the user API key routes with the recorded wire samples (api-keys/01–10, 15):
 * each sample is replayed against a fresh emulator seeded with the samples' project (user API keys
 * allowed, except for 01), a signed-up user, and — where the sample needs one — a key created by
 * replaying api-keys/02, with the recorded key id and value replaced by live ones. Compared
 * (conformanceSupport.ts): status, `x-stack-known-error`, content type, the body's shape.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Answer } from "./helpers.js"
import type { Substitutions } from "./conformanceSupport.js"
import { compare, load, makeSampleBench, passwordSession, sampleInstant, samplePassword, tokenSubstitutions } from "./conformanceSupport.js"

const recorded = load("api-keys/02-user-key-create").response.body as { id: string; value: string }

const conforms = (name: string, answer: Answer) => expect(compare(load(name).response, answer), name).toEqual([])

/** A bench with a signed-up user; `withKey` also replays api-keys/02 and maps the recorded key to the live one. */
const setup = (options: { readonly enabled: boolean; readonly withKey: boolean }) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(sampleInstant)
    const bench = yield* makeSampleBench(options.enabled ? { allowUserApiKeys: true } : undefined)
    const tokens = yield* passwordSession(bench.emulator, bench.project, "sign-up", { email: "keys@example.com", password: samplePassword })
    let substitutions: Substitutions = tokenSubstitutions(tokens)
    if (options.withKey) {
      const created = yield* bench.replay("api-keys/02-user-key-create", substitutions)
      conforms("api-keys/02-user-key-create", created)
      const key = created.json as { id: string; value: string }
      substitutions = { ...substitutions, [recorded.value]: key.value, [recorded.id]: key.id }
    }
    return { replay: (name: string) => bench.replay(name, substitutions) }
  })

describe("api-keys/* conformance", () => {
  it.effect("api-keys/01: creating while allow_user_api_keys is off answers the 400 text", () =>
    Effect.gen(function* () {
      const { replay } = yield* setup({ enabled: false, withKey: false })
      const answer = yield* replay("api-keys/01-user-key-create-disabled")
      conforms("api-keys/01-user-key-create-disabled", answer)
      expect(answer.text).toBe("User API keys are not enabled for this project.")
    }))

  it.effect("api-keys/02: create answers 200 with the full value in the service's format", () =>
    Effect.gen(function* () {
      const { replay } = yield* setup({ enabled: true, withKey: false })
      const answer = yield* replay("api-keys/02-user-key-create")
      conforms("api-keys/02-user-key-create", answer)
      const body = answer.json as { id: string; value: string; expires_at_millis?: number }
      expect(body.value).toMatch(new RegExp(`^sk_[0-9a-z]{45}${body.id.replace(/-/g, "")}user1574ck4u7h[0-9a-f]{8}$`))
      expect(body.expires_at_millis).toBeUndefined()
    }))

  for (
    const name of [
      "api-keys/03-user-keys-list",
      "api-keys/04-user-key-get",
      "api-keys/05-user-key-check",
      "api-keys/06-user-key-check-as-client",
      "api-keys/07-user-key-revoke",
      "api-keys/09-user-key-check-unknown"
    ]
  ) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        const { replay } = yield* setup({ enabled: true, withKey: true })
        conforms(name, yield* replay(name))
      }))
  }

  it.effect("api-keys/03: the list shows the last four characters of the value", () =>
    Effect.gen(function* () {
      const { replay } = yield* setup({ enabled: true, withKey: true })
      const created = yield* replay("api-keys/02-user-key-create")
      const value = (created.json as { value: string }).value
      const list = (yield* replay("api-keys/03-user-keys-list")).json as { items: Array<{ value: { last_four: string } }> }
      expect(list.items.length).toBe(2)
      expect(list.items[0]!.value.last_four).toBe(value.slice(-4))
    }))

  it.effect("api-keys/08: checking after the revoke (07) answers API_KEY_REVOKED", () =>
    Effect.gen(function* () {
      const { replay } = yield* setup({ enabled: true, withKey: true })
      conforms("api-keys/07-user-key-revoke", yield* replay("api-keys/07-user-key-revoke"))
      conforms("api-keys/08-user-key-check-revoked", yield* replay("api-keys/08-user-key-check-revoked"))
    }))

  for (const name of ["api-keys/10-user-key-create-missing-expires", "api-keys/15-create-with-user-and-team"]) {
    it.effect(`${name}: ${load(name).title} (same SCHEMA_ERROR message)`, () =>
      Effect.gen(function* () {
        const { replay } = yield* setup({ enabled: true, withKey: false })
        const answer = yield* replay(name)
        conforms(name, answer)
        expect((answer.json as { error: string }).error).toBe((load(name).response.body as { error: string }).error)
      }))
  }
})
