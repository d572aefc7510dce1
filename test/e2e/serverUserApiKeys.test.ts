/**
 * End to end over real HTTP against the emulator server: a server creates an API key for a user by
 * id, lists and revokes it; the user sees the key with client access; a server check of the
 * revoked value fails with ApiKeyRevoked.
 */
import { Effect, Layer, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as ServerUserApiKeys from "../../src/api-keys/ServerUserApiKeys.js"
import * as UserApiKeys from "../../src/api-keys/UserApiKeys.js"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { allowUserApiKeys: true } } })

describe("a user's API keys with server access over HTTP", () => {
  it("create for a user by id → list → the user sees it → revoke → check fails with ApiKeyRevoked", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          const user = yield* Password.signUpWithPassword({
            email: `e2e-server-keys-${Date.now()}@example.com`,
            password: "correct horse",
            noVerificationCallback: true
          }).pipe(
            Effect.provide(client)
          )
          const created = yield* ServerUserApiKeys.create(user.userId, { description: "issued by the server", expiresAt: null }).pipe(Effect.provide(server))
          const listed = yield* ServerUserApiKeys.list(user.userId).pipe(Effect.provide(server))
          const seenByUser = yield* UserApiKeys.list().pipe(Effect.provide(client))
          yield* ServerUserApiKeys.revoke(user.userId, created.id).pipe(Effect.provide(server))
          const error = yield* Effect.flip(ServerUserApiKeys.check(created.value).pipe(Effect.provide(server)))
          return { userId: user.userId, created, listed, seenByUser, error }
        })
      )
    )
    expect(outcome.created.userId).toBe(outcome.userId)
    expect(outcome.listed.map((key) => key.value)).toEqual([{ lastFour: Redacted.value(outcome.created.value).slice(-4) }])
    expect(outcome.seenByUser.map((key) => key.description)).toEqual(["issued by the server"])
    expect(outcome.error._tag).toBe("ApiKeyRevoked")
    expect(fetch.count("POST /user-api-keys")).toBe(1)
    expect(fetch.count(`PATCH /user-api-keys/${outcome.created.id}`)).toBe(1)
  })
})
