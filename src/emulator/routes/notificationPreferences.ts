/**
 * A user's e-mail notification preferences, as the service answers them (backend
 * `apps/backend/src/app/api/latest/emails/notification-preference/crud.tsx` and its categories
 * `apps/backend/src/lib/notification-categories.ts`):
 *
 * - `GET /emails/notification-preference/{user_id|me}` → `{ items, is_paginated: false }`: every
 *   category of the service (`Transactional`, `Marketing`), in that order, `enabled` being the
 *   user's choice or else the category's default (both on), with `can_disable`;
 * - `PATCH /emails/notification-preference/{user_id|me}/{category_id}` `{ enabled }` → the category
 *   as it is now (a category that `can_disable: false` is changed too: the service does not check).
 *
 * Checked in the service's order. List: `me` without a user (`CANNOT_GET_OWN_USER_WITHOUT_USER`);
 * client access without a user (`USER_AUTHENTICATION_REQUIRED`) or for another user (403 text);
 * unknown user (`USER_NOT_FOUND`). Update: `me` without a user; a category id (a uuid) the
 * service does not have (404 text, before any access check); client access without a user or for
 * another user (403 text); unknown user. A malformed user or category id is a SCHEMA_ERROR.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser, UserAuthenticationRequired, UserNotFound } from "../../core/KnownErrors.js"
import { field, Uuid, wireStruct } from "../../core/Wire.js"
import {
  categoryNotFoundText,
  listOtherUserText,
  NotificationCategory,
  NotificationCategoryList,
  SetEnabledPayload,
  updateOtherUserText
} from "../../emails/internal/notificationCategories.js"
import { categories, categoryView, setPreference } from "../NotificationCategories.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { UserRecord } from "../State.js"

const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

/** `GET /emails/notification-preference/{user_id|me}` (client+; a client only its own user). */
const listPreferences = Endpoint.make({
  name: "Emulator.listNotificationPreferences",
  method: "GET",
  path: "/emails/notification-preference/:user_id",
  access: "client",
  session: "optional",
  params: wireStruct({ userId: field("user_id", UserIdOrMe) }),
  success: NotificationCategoryList,
  errors: [CannotGetOwnUserWithoutUser, UserAuthenticationRequired, UserNotFound]
})

/** `PATCH /emails/notification-preference/{user_id|me}/{notification_category_id}` (client+). */
const updatePreference = Endpoint.make({
  name: "Emulator.updateNotificationPreference",
  method: "PATCH",
  path: "/emails/notification-preference/:user_id/:notification_category_id",
  access: "client",
  session: "optional",
  params: wireStruct({ userId: field("user_id", UserIdOrMe), categoryId: field("notification_category_id", Uuid) }),
  payload: SetEnabledPayload,
  success: NotificationCategory,
  errors: [CannotGetOwnUserWithoutUser, UserAuthenticationRequired, UserNotFound]
})

/** The id `me` stands for (the request's user), or the id given. */
const resolveUserId = (context: RequestContext, userId: string) => userId === "me" ? Effect.map(requireMe(context), (user) => user.id) : Effect.succeed(userId)

/** Client access: a signed-in user, and only its own id (403 `forbiddenText` otherwise). */
const checkClientAccess = (context: RequestContext, userId: string, forbiddenText: string) => {
  if (context.auth?.type !== "client") return Effect.void
  const user = context.auth.user
  if (user === undefined) return Effect.fail(UserAuthenticationRequired.make({}))
  return user.id === userId ? Effect.void : Effect.fail(new TextFailure({ status: 403, text: forbiddenText }))
}

const existingUser = (context: RequestContext, userId: string): Effect.Effect<UserRecord, UserNotFound> => {
  const user = projectOf(context).users.get(userId)
  return user === undefined ? Effect.fail(UserNotFound.make({})) : Effect.succeed(user)
}

/** The notification preference routes. */
export const routes = [
  route(listPreferences, ({ params }, context) =>
    Effect.gen(function* () {
      const userId = yield* resolveUserId(context, params.userId)
      yield* checkClientAccess(context, userId, listOtherUserText)
      const user = yield* existingUser(context, userId)
      return { items: categories.map((category) => categoryView(user, category)), isPaginated: false as const }
    })),
  route(updatePreference, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const userId = yield* resolveUserId(context, params.userId)
      const category = categories.find((candidate) => candidate.id === params.categoryId)
      if (category === undefined) return yield* Effect.fail(new TextFailure({ status: 404, text: categoryNotFoundText }))
      yield* checkClientAccess(context, userId, updateOtherUserText)
      const user = yield* existingUser(context, userId)
      setPreference(user, category.id, payload.enabled)
      return categoryView(user, category)
    }))
]
