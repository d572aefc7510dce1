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

  it("a public key carries the service's public marker (pk_, scanner flag 3) and reads back isPublic", async () => {
    const { demo, options } = countedConnection(main)
    const { created, checked } = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          yield* Password.signUpWithPassword({ email: `e2e-pubkeys-${Date.now()}@example.com`, password: "correct horse", noVerificationCallback: true }).pipe(
            Effect.provide(client)
          )
          const created = yield* UserApiKeys.create({ description: "public", expiresAt: null, isPublic: true }).pipe(Effect.provide(client))
          const checked = yield* ServerUserApiKeys.check(created.value).pipe(Effect.provide(server))
          return { created, checked }
        })
      )
    )
    // packages/stack-shared/src/utils/api-keys.tsx at stack-auth/stack-auth 2f719903
    expect(Redacted.value(created.value)).toMatch(/^pk_[0-9a-z]{45}[0-9a-f]{32}user3574ck4u7h[0-9a-f]{8}$/)
    expect([created.isPublic, checked.isPublic]).toEqual([true, true])
  })
})
