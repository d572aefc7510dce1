/**
 * The signed-in user's e-mail notification categories (the official SDK's
 * `user.listNotificationCategories()` / `category.setEnabled`): the service's categories
 * (`Transactional`, which cannot be disabled, and `Marketing`), each with whether the user receives
 * it. Client access, `GET|PATCH /emails/notification-preference/me[/{id}]`; with server access any
 * user's are read and changed by user id in `ServerNotificationCategories`.
 *
 * The service answers an unknown category id with the plain text "Notification category not
 * found" (404); this module turns it into {@link NotificationCategoryNotFound}.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { categoryNotFoundText, listEndpoint, setEnabledEndpoint } from "./internal/notificationCategories.js"

/** The domain's schema, defined with its wire definitions (`internal/notificationCategories.ts`). */
export { NotificationCategory } from "./internal/notificationCategories.js"

/** The category id is not one of the service's categories: its 404 text "Notification category not found". */
export class NotificationCategoryNotFound extends Data.TaggedError("NotificationCategoryNotFound")<{
  readonly message: string
}> {}

/**
 * Turns the service's 404 "Notification category not found" into {@link NotificationCategoryNotFound};
 * any other error stays as it is.
 */
export const mapNotFound = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | NotificationCategoryNotFound, R> =>
  Effect.mapError(
    effect,
    (error): E | NotificationCategoryNotFound =>
      error instanceof HttpError && error.status === 404 && error.body.trim() === categoryNotFoundText
        ? new NotificationCategoryNotFound({ message: categoryNotFoundText })
        : error
  )

/** The cache key of the signed-in user's categories (see `QueryCache`). */
export const cacheKey: QueryCache.Key = ["notification-categories", "me"]

const invalidatesCategories = QueryCache.invalidating(["notification-categories"])

/**
 * The signed-in user's notification categories, in the service's order.
 * `GET /emails/notification-preference/me`, through the query cache (key {@link cacheKey}).
 * Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const list = Effect.fn("NotificationCategories.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, {}))
  return answer.items
})

/**
 * Turns a notification category on or off for the signed-in user; answers the category as it is
 * now. `PATCH /emails/notification-preference/me/{id}` `{ enabled }`. Fails with
 * {@link NotificationCategoryNotFound} or `UserNotSignedIn`; a malformed id is an `InvalidArgument`
 * and nothing is sent.
 */
export const setEnabled = Effect.fn("NotificationCategories.setEnabled")(function* (categoryId: string, enabled: boolean) {
  return yield* mapNotFound(Endpoint.call(setEnabledEndpoint, { params: { categoryId }, payload: { enabled } })).pipe(
    invalidatesCategories
  )
})
