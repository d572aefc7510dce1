/**
 * Issue 16 item 11: `/emails/notification-preference` answers as the service does (backend
 * `apps/backend/src/app/api/latest/emails/notification-preference/crud.tsx`, the categories of
 * `apps/backend/src/lib/notification-categories.ts`, and the service's own end-to-end expectations
 * for these routes): paths `{user_id|me}` and `{user_id|me}/{category_id}`, the two categories and
 * their defaults, the PATCH answer, and each refusal with its code or text.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const marketing = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c"
const transactional = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef"
const nobody = "00000000-0000-4000-8000-000000000000"

describe("item 11: /emails/notification-preference", () => {
  it.effect("a user's list is the service's two categories, both enabled by default, Transactional not to be disabled", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "prefs@example.com")
      const answer = yield* send(emulator, {
        path: "/api/v1/emails/notification-preference/me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      })
      expect(answer.status).toBe(200)
      expect(answer.json).toEqual({
        is_paginated: false,
        items: [
          { notification_category_id: transactional, notification_category_name: "Transactional", enabled: true, can_disable: false },
          { notification_category_id: marketing, notification_category_name: "Marketing", enabled: true, can_disable: true }
        ]
      })
    }))

  it.effect("PATCH {enabled} answers the category as it is now, and the list keeps the choice", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUp(emulator, emulator.demo, "prefs-patch@example.com")
      const asUser = clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token })
      const patched = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/emails/notification-preference/me/${marketing}`,
        headers: asUser,
        body: { enabled: false }
      })
      expect(patched.status).toBe(200)
      expect(patched.json).toEqual({ notification_category_id: marketing, notification_category_name: "Marketing", enabled: false, can_disable: true })
      const listed = yield* send(emulator, { path: "/api/v1/emails/notification-preference/me", headers: asUser })
      expect(listed.json.items.map((item: { enabled: boolean }) => item.enabled)).toEqual([true, false])
    }))

  it.effect("refusals: 'me' without a user, an unknown category (404 text), a client for another user (403 texts) or without a user (401), an unknown user, a malformed id", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const demo = emulator.demo
      const ada = yield* signUp(emulator, demo, "ada.prefs@example.com")
      const bob = yield* signUp(emulator, demo, "bob.prefs@example.com")
      const asAda = clientHeaders(demo, { "x-stack-access-token": ada.access_token })

      const withoutUser = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/emails/notification-preference/me/${nobody}`,
        headers: clientHeaders(demo),
        body: { enabled: true }
      })
      expect(withoutUser.status).toBe(400)
      expect(withoutUser.json).toEqual({
        code: "CANNOT_GET_OWN_USER_WITHOUT_USER",
        error: "You have specified 'me' as a userId, but did not provide authentication for a user."
      })

      const unknownCategory = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/emails/notification-preference/me/${nobody}`,
        headers: asAda,
        body: { enabled: true }
      })
      expect(unknownCategory.status).toBe(404)
      expect(unknownCategory.text).toBe("Notification category not found")
      expect(unknownCategory.headers.get("x-stack-known-error")).toBeNull()

      const listOther = yield* send(emulator, { path: `/api/v1/emails/notification-preference/${bob.user_id}`, headers: asAda })
      expect(listOther.status).toBe(403)
      expect(listOther.text).toBe("You can only view your own notification preferences")
      const patchOther = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/emails/notification-preference/${bob.user_id}/${marketing}`,
        headers: asAda,
        body: { enabled: false }
      })
      expect(patchOther.status).toBe(403)
      expect(patchOther.text).toBe("You can only manage your own notification preferences")

      const anonymousClient = yield* send(emulator, { path: `/api/v1/emails/notification-preference/${bob.user_id}`, headers: clientHeaders(demo) })
      expect(anonymousClient.status).toBe(401)
      expect(anonymousClient.headers.get("x-stack-known-error")).toBe("USER_AUTHENTICATION_REQUIRED")

      const unknownUser = yield* send(emulator, { path: `/api/v1/emails/notification-preference/${nobody}`, headers: serverHeaders(demo) })
      expect(unknownUser.status).toBe(404)
      expect(unknownUser.headers.get("x-stack-known-error")).toBe("USER_NOT_FOUND")
      const serverPatch = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/emails/notification-preference/${bob.user_id}/${marketing}`,
        headers: serverHeaders(demo),
        body: { enabled: false }
      })
      expect(serverPatch.json.enabled).toBe(false)

      const malformed = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/emails/notification-preference/me/marketing",
        headers: asAda,
        body: { enabled: false }
      })
      expect(malformed.status).toBe(400)
      expect(malformed.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
      const noBody = yield* send(emulator, { method: "PATCH", path: `/api/v1/emails/notification-preference/me/${marketing}`, headers: asAda, body: {} })
      expect(noBody.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR")
    }))
})
