/**
 * Any user's e-mail notification categories, by user id, with server access (the official SDK's
 * `serverUser.listNotificationCategories()` / `category.setEnabled`): the same calls as
 * `NotificationCategories` (the signed-in user's, client access), each taking the user's id first.
 * `GET|PATCH /emails/notification-preference/{user_id}[/{id}]`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { listForUserEndpoint, setEnabledForUserEndpoint } from "./internal/notificationCategories.js"
import { mapNotFound } from "./NotificationCategories.js"

/**
 * A user's notification categories, in the service's order.
 * `GET /emails/notification-preference/{user_id}`; needs server access. Fails with `UserNotFound`.
 */
export const list = Effect.fn("ServerNotificationCategories.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(listForUserEndpoint, { params: { userId } })
  return answer.items
})

/**
 * Turns a notification category on or off for a user; answers the category as it is now.
 * `PATCH /emails/notification-preference/{user_id}/{id}` `{ enabled }`; needs server access.
 * Fails with `NotificationCategories.NotificationCategoryNotFound` or `UserNotFound`.
 */
export const setEnabled = Effect.fn("ServerNotificationCategories.setEnabled")(function* (
  userId: string,
  categoryId: string,
  enabled: boolean
) {
  return yield* mapNotFound(Endpoint.call(setEnabledForUserEndpoint, { params: { userId, categoryId }, payload: { enabled } }))
})
