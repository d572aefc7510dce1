/**
 * E-mail notification categories (the official SDK's `user.listNotificationCategories()` and
 * `category.setEnabled`), against the in-process emulator: the signed-in user's with client access
 * (`NotificationCategories`, cached), any user's by id with server access
 * (`ServerNotificationCategories`). The service's categories are `Transactional` (cannot be
 * disabled) and `Marketing`, both on until the user turns them off.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as NotificationCategories from "../../src/emails/NotificationCategories.js"
import * as ServerNotificationCategories from "../../src/emails/ServerNotificationCategories.js"
import { makeApp } from "../permissions/support.js"
import { right } from "../support/results.js"

const marketingId = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c"
const transactionalId = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef"

const tagOf = <A, E>(result: Result.Result<A, E>) => Result.isFailure(result) ? (result.failure as { _tag: string })._tag : "Success"

describe("NotificationCategories", () => {
  it.live("a new user receives both of the service's categories; Transactional cannot be disabled; a second list is served from the cache", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      yield* app.signUp("categories@example.com")
      const listed = right(yield* app.run(NotificationCategories.list()))
      expect(listed).toEqual([
        { id: transactionalId, name: "Transactional", enabled: true, canDisable: false },
        { id: marketingId, name: "Marketing", enabled: true, canDisable: true }
      ])
      right(yield* app.run(NotificationCategories.list()))
      expect(app.sent.filter((sent) => sent === "GET /emails/notification-preference/me")).toHaveLength(1)
    }))

  it.live("turning a category off answers it off, and the next list shows it off (one new list request)", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      yield* app.signUp("marketing-off@example.com")
      right(yield* app.run(NotificationCategories.list()))
      const changed = right(yield* app.run(NotificationCategories.setEnabled(marketingId, false)))
      expect(changed).toEqual({ id: marketingId, name: "Marketing", enabled: false, canDisable: true })
      const listed = right(yield* app.run(NotificationCategories.list()))
      expect(listed.map((category) => [category.name, category.enabled])).toEqual([["Transactional", true], ["Marketing", false]])
      expect(app.sent.filter((sent) => sent === "GET /emails/notification-preference/me")).toHaveLength(2)
      expect(app.sent).toContain(`PATCH /emails/notification-preference/me/${marketingId}`)
    }))

  it.live("an id that is no category is NotificationCategoryNotFound; a malformed id is InvalidArgument and nothing is sent", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      yield* app.signUp("unknown-category@example.com")
      const unknown = yield* app.run(NotificationCategories.setEnabled("00000000-0000-4000-8000-000000000000", false))
      expect(tagOf(unknown)).toBe("NotificationCategoryNotFound")
      const before = app.sent.length
      const malformed = yield* app.run(NotificationCategories.setEnabled("marketing", false))
      expect(tagOf(malformed)).toBe("InvalidArgument")
      expect(app.sent.length).toBe(before)
    }))

  it.live("without a signed-in user, listing is UserNotSignedIn", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const result = yield* app.run(NotificationCategories.list())
      expect(tagOf(result)).toBe("UserNotSignedIn")
    }))
})

describe("ServerNotificationCategories", () => {
  it.live("server access reads and changes any user's categories by id; the user's own list follows; an unknown user is UserNotFound", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("server-categories@example.com")
      const changed = right(yield* app.run(ServerNotificationCategories.setEnabled(userId, marketingId, false)))
      expect(changed.enabled).toBe(false)
      const listed = right(yield* app.run(ServerNotificationCategories.list(userId)))
      expect(listed.map((category) => [category.id, category.enabled])).toEqual([[transactionalId, true], [marketingId, false]])
      expect(right(yield* app.run(NotificationCategories.list())).find((category) => category.id === marketingId)?.enabled).toBe(false)
      expect(app.sent).toContain(`GET /emails/notification-preference/${userId}`)

      const unknown = yield* app.run(ServerNotificationCategories.list("00000000-0000-4000-8000-000000000000"))
      expect(tagOf(unknown)).toBe("UserNotFound")
      const unknownCategory = yield* app.run(ServerNotificationCategories.setEnabled(userId, "00000000-0000-4000-8000-000000000000", true))
      expect(tagOf(unknownCategory)).toBe("NotificationCategoryNotFound")
    }))
})
