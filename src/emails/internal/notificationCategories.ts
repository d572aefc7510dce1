/**
 * The wire definitions of `NotificationCategories` and `ServerNotificationCategories`
 * (docs/ARCHITECTURE.md): the endpoint descriptors of `/emails/notification-preference`, the wire
 * schema of a category and the service's texts; used by the two modules, the emulator and tests;
 * not part of the public surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser, UserNotFound } from "../../core/KnownErrors.js"
import { field, Uuid, wireStruct } from "../../core/Wire.js"

/**
 * A notification category with a user's choice: `notification_category_id`,
 * `notification_category_name`, `enabled` (the user's choice, else the category's default) and
 * `can_disable` (same shape for client and server access).
 */
export const NotificationCategory = wireStruct({
  id: field("notification_category_id", Schema.String),
  name: field("notification_category_name", Schema.String),
  enabled: Schema.Boolean,
  canDisable: field("can_disable", Schema.Boolean)
})

/** A notification category with a user's choice. */
export type NotificationCategory = typeof NotificationCategory.Type

/** The list answer `{ items, is_paginated: false }`. */
export const NotificationCategoryList = wireStruct({
  items: Schema.Array(NotificationCategory),
  isPaginated: field("is_paginated", Schema.Literal(false))
})

/** Payload of the PATCH routes: `{ enabled }`. */
export const SetEnabledPayload = Schema.Struct({ enabled: Schema.Boolean })

/** The service's 404 text for a category id it does not have (a uuid that is not one of its categories). */
export const categoryNotFoundText = "Notification category not found"

/** The service's 403 text of a client listing another user's preferences. */
export const listOtherUserText = "You can only view your own notification preferences"

/** The service's 403 text of a client changing another user's preferences. */
export const updateOtherUserText = "You can only manage your own notification preferences"

// ---------------------------------------------------------------------------------------------
// Client access (the signed-in user)
// ---------------------------------------------------------------------------------------------

/** `GET /emails/notification-preference/me`. */
export const listEndpoint = Endpoint.make({
  name: "NotificationCategories.list",
  method: "GET",
  path: "/emails/notification-preference/me",
  access: "client",
  session: "required",
  success: NotificationCategoryList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `PATCH /emails/notification-preference/me/{notification_category_id}` `{ enabled }`. */
export const setEnabledEndpoint = Endpoint.make({
  name: "NotificationCategories.setEnabled",
  method: "PATCH",
  path: "/emails/notification-preference/me/:notification_category_id",
  access: "client",
  session: "required",
  params: wireStruct({ categoryId: field("notification_category_id", Uuid) }),
  payload: SetEnabledPayload,
  success: NotificationCategory,
  errors: [CannotGetOwnUserWithoutUser]
})

// ---------------------------------------------------------------------------------------------
// Server access (any user)
// ---------------------------------------------------------------------------------------------

/** `GET /emails/notification-preference/{user_id}` (server access). */
export const listForUserEndpoint = Endpoint.make({
  name: "ServerNotificationCategories.list",
  method: "GET",
  path: "/emails/notification-preference/:user_id",
  access: "server",
  session: "none",
  params: wireStruct({ userId: field("user_id", Uuid) }),
  success: NotificationCategoryList,
  errors: [UserNotFound]
})

/** `PATCH /emails/notification-preference/{user_id}/{notification_category_id}` (server access) `{ enabled }`. */
export const setEnabledForUserEndpoint = Endpoint.make({
  name: "ServerNotificationCategories.setEnabled",
  method: "PATCH",
  path: "/emails/notification-preference/:user_id/:notification_category_id",
  access: "server",
  session: "none",
  params: wireStruct({ userId: field("user_id", Uuid), categoryId: field("notification_category_id", Uuid) }),
  payload: SetEnabledPayload,
  success: NotificationCategory,
  errors: [UserNotFound]
})
