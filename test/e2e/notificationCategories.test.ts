/**
 * End to end over real HTTP against the emulator server: a signed-in user's e-mail notification
 * categories (`NotificationCategories`) and any user's with server access
 * (`ServerNotificationCategories`): both categories on by default; turning Marketing off is seen
 * by the user's next list and by the server; one request per call.
 */
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as NotificationCategories from "../../src/emails/NotificationCategories.js"
import * as ServerNotificationCategories from "../../src/emails/ServerNotificationCategories.js"
import * as Stack from "../../src/Stack.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer()

const marketingId = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c"

describe("notification categories over HTTP against the emulator", () => {
  it("lists both categories on, turns Marketing off for the user, and the user and the server both see it off", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const client = yield* Layer.build(Stack.layerClient({ ...options, tokenStore: "memory" }))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          const user = yield* Password.signUpWithPassword({
            email: `e2e-categories-${Date.now()}@example.com`,
            password: "correct horse",
            noVerificationCallback: true
          }).pipe(
            Effect.provide(client)
          )
          const before = yield* NotificationCategories.list().pipe(Effect.provide(client))
          const changed = yield* NotificationCategories.setEnabled(marketingId, false).pipe(Effect.provide(client))
          const after = yield* NotificationCategories.list().pipe(Effect.provide(client))
          const seenByServer = yield* ServerNotificationCategories.list(user.userId).pipe(Effect.provide(server))
          return { userId: user.userId, before, changed, after, seenByServer }
        })
      )
    )
    expect(outcome.before.map((category) => [category.name, category.enabled, category.canDisable])).toEqual([
      ["Transactional", true, false],
      ["Marketing", true, true]
    ])
    expect(outcome.changed).toEqual({ id: marketingId, name: "Marketing", enabled: false, canDisable: true })
    expect(outcome.after.map((category) => category.enabled)).toEqual([true, false])
    expect(outcome.seenByServer.map((category) => category.enabled)).toEqual([true, false])
    expect(fetch.count("GET /emails/notification-preference/me")).toBe(2)
    expect(fetch.count(`PATCH /emails/notification-preference/me/${marketingId}`)).toBe(1)
    expect(fetch.count(`GET /emails/notification-preference/${outcome.userId}`)).toBe(1)
  })
})
