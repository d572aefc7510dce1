/**
 * End to end over real HTTP against the emulator server: a user creates an API key, sees its last
 * four characters in the list, a server checks it, the user revokes it, and the server's check
 * then fails with ApiKeyRevoked (checkOrNone: none).
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as UserApiKeys from "../../src/api-keys/UserApiKeys.js"
import * as ServerUserApiKeys from "../../src/api-keys/ServerUserApiKeys.js"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { allowUserApiKeys: true } } })

describe("user API keys over HTTP against the emulator", () => {
  it("create → list shows the last four → server check → revoke → ApiKeyRevoked / none", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          yield* Password.signUpWithPassword({ email: `e2e-keys-${Date.now()}@example.com`, password: "correct horse", noVerificationCallback: true }).pipe(
            Effect.provide(client)
          )
          const created = yield* UserApiKeys.create({ description: "e2e", expiresAt: null }).pipe(Effect.provide(client))
          const listed = yield* UserApiKeys.list().pipe(Effect.provide(client))
          const checked = yield* ServerUserApiKeys.check(created.value).pipe(Effect.provide(server))
          const revoked = yield* UserApiKeys.revoke(created.id).pipe(Effect.provide(client))
          const error = yield* Effect.flip(ServerUserApiKeys.check(created.value).pipe(Effect.provide(server)))
          const none = yield* ServerUserApiKeys.checkOrNone(created.value).pipe(Effect.provide(server))
          return { created, listed, checked, revoked, error, none }
        })
      )
    )
    const value = Redacted.value(outcome.created.value)
    expect(value).toMatch(/^sk_/)
    expect(outcome.listed.map((key) => key.value)).toEqual([{ lastFour: value.slice(-4) }])
    expect(outcome.checked.id).toBe(outcome.created.id)
    expect(outcome.revoked.manuallyRevokedAt).toBeInstanceOf(Date)
    expect(outcome.error._tag).toBe("ApiKeyRevoked")
    expect(outcome.none).toEqual(Option.none())
    expect(fetch.count("POST /user-api-keys/check")).toBe(3)
  })
})
