/**
 * Changing a user's primary e-mail as the service does it (issue 27, item 6), read from the
 * backend's source at stack-auth/stack-auth commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/users/crud.tsx` (`usersCrudHandlers.onUpdate`, `checkAuthData`)
 * and `apps/backend/src/lib/contact-channel.tsx` (`demoteAllContactChannelsToNonPrimary`,
 * `setContactChannelAsPrimaryByValue`). `PATCH /users/me` goes through the same `onUpdate`
 * (`currentUserCrudHandlers.onUpdate` calls `usersCrudHandlers.adminUpdate`), `primary_email`
 * being one of the client-updatable fields (`packages/stack-shared/src/interface/crud/current-user.ts`).
 *
 * - a new value: every primary e-mail channel is demoted (only `isPrimary` is cleared: the old
 *   channel keeps its id, `isVerified` and `usedForAuth`), then a new primary channel is created
 *   with `isVerified: primary_email_verified ?? false` and `usedForAuth` from
 *   `primary_email_auth_enabled ?? <old primary's usedForAuth>`;
 * - a value the user already has as a channel: that channel is promoted (keeping `isVerified`
 *   unless `primary_email_verified` is sent), the old primary demoted;
 * - `null`: the primary channel is demoted, not deleted;
 * - `checkAuthData` refuses a new value that any channel used for auth already has
 *   (`USER_EMAIL_ALREADY_EXISTS`), the user's own demoted ones included.
 * The password sign-in (`auth/password/sign-in/route.tsx`) finds the user by any channel used for
 * auth, primary or not.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

interface Channel {
  readonly id: string
  readonly value: string
  readonly is_primary: boolean
  readonly is_verified: boolean
  readonly used_for_auth: boolean
}

const server = (emulator: Emulator.Emulator) => serverHeaders(emulator.demo)
const client = (emulator: Emulator.Emulator, accessToken: string) => clientHeaders(emulator.demo, { "x-stack-access-token": accessToken })

const patchUser = (emulator: Emulator.Emulator, userId: string, body: Readonly<Record<string, unknown>>): Effect.Effect<Answer> =>
  send(emulator, { method: "PATCH", path: `/api/v1/users/${userId}`, headers: server(emulator), body })

const channels = (emulator: Emulator.Emulator, userId: string): Effect.Effect<ReadonlyArray<Channel>> =>
  Effect.map(send(emulator, { path: `/api/v1/contact-channels?user_id=${userId}`, headers: server(emulator) }), (answer) => {
    expect(answer.status, answer.text).toBe(200)
    return [...(answer.json.items as ReadonlyArray<Channel>)].sort((a, b) => a.value.localeCompare(b.value))
  })

const pick = ({ value, is_primary, is_verified, used_for_auth }: Channel) => ({ value, is_primary, is_verified, used_for_auth })

/** A user signed up with a password, its primary e-mail verified on the server. */
const verifiedUser = (emulator: Emulator.Emulator, email: string) =>
  Effect.gen(function* () {
    const tokens = yield* signUp(emulator, emulator.demo, email)
    const verified = yield* patchUser(emulator, tokens.user_id, { primary_email_verified: true })
    expect(verified.status, verified.text).toBe(200)
    const [primary] = yield* channels(emulator, tokens.user_id)
    return { ...tokens, primaryChannelId: primary!.id }
  })

describe("changing the primary e-mail (users/crud.tsx onUpdate at 2f719903)", () => {
  it.effect("server update: the old address stays as a non-primary channel, verified and used for auth; the new one is unverified", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "old@example.com")
      const updated = yield* patchUser(emulator, user.user_id, { primary_email: "new@example.com" })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.json).toMatchObject({
        primary_email: "new@example.com",
        primary_email_verified: false,
        // primary_email_auth_enabled ?? !!primaryEmailContactChannel?.usedForAuth
        primary_email_auth_enabled: true
      })
      const after = yield* channels(emulator, user.user_id)
      expect(after.map(pick)).toEqual([
        { value: "new@example.com", is_primary: true, is_verified: false, used_for_auth: true },
        { value: "old@example.com", is_primary: false, is_verified: true, used_for_auth: true }
      ])
      // demoted, not recreated: the old channel keeps its id
      expect(after.find((channel) => channel.value === "old@example.com")!.id).toBe(user.primaryChannelId)
    }))

  it.effect("client PATCH /users/me: the same", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "old-me@example.com")
      const updated = yield* send(emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: client(emulator, user.access_token),
        body: { primary_email: "new-me@example.com" }
      })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.json).toMatchObject({ primary_email: "new-me@example.com", primary_email_verified: false, auth_with_email: true })
      const listed = yield* send(emulator, { path: "/api/v1/contact-channels?user_id=me", headers: client(emulator, user.access_token) })
      expect(listed.status, listed.text).toBe(200)
      const mine = [...(listed.json.items as ReadonlyArray<Channel>)].sort((a, b) => a.value.localeCompare(b.value))
      expect(mine.map(pick)).toEqual([
        { value: "new-me@example.com", is_primary: true, is_verified: false, used_for_auth: true },
        { value: "old-me@example.com", is_primary: false, is_verified: true, used_for_auth: true }
      ])
    }))

  it.effect("the explicit flags of the update go to the new channel; the old one keeps its own", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "flags-old@example.com")
      const updated = yield* patchUser(emulator, user.user_id, {
        primary_email: "flags-new@example.com",
        primary_email_verified: true,
        primary_email_auth_enabled: false
      })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.json).toMatchObject({ primary_email_verified: true, primary_email_auth_enabled: false })
      expect((yield* channels(emulator, user.user_id)).map(pick)).toEqual([
        { value: "flags-new@example.com", is_primary: true, is_verified: true, used_for_auth: false },
        { value: "flags-old@example.com", is_primary: false, is_verified: true, used_for_auth: true }
      ])
    }))

  it.effect("the old address still signs in (its channel is still used for auth)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "signin-old@example.com")
      expect((yield* patchUser(emulator, user.user_id, { primary_email: "signin-new@example.com" })).status).toBe(200)
      for (const email of ["signin-old@example.com", "signin-new@example.com"]) {
        const signedIn = yield* send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-in",
          headers: clientHeaders(emulator.demo),
          body: { email, password: "correct horse battery" }
        })
        expect(signedIn.status, `${email}: ${signedIn.text}`).toBe(200)
        expect(signedIn.json.user_id).toBe(user.user_id)
      }
    }))

  it.effect("a value the user already has as a channel is promoted with its id and verified state", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "promote-old@example.com")
      const created = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/contact-channels",
        headers: server(emulator),
        body: { user_id: user.user_id, type: "email", value: "promote-extra@example.com", used_for_auth: false, is_verified: true }
      })
      expect(created.status, created.text).toBe(201)
      const updated = yield* patchUser(emulator, user.user_id, { primary_email: "promote-extra@example.com" })
      expect(updated.status, updated.text).toBe(200)
      // setContactChannelAsPrimaryByValue with usedForAuth from the old primary, isVerified untouched
      expect(updated.json).toMatchObject({ primary_email: "promote-extra@example.com", primary_email_verified: true, primary_email_auth_enabled: true })
      const after = yield* channels(emulator, user.user_id)
      expect(after.map(pick)).toEqual([
        { value: "promote-extra@example.com", is_primary: true, is_verified: true, used_for_auth: true },
        { value: "promote-old@example.com", is_primary: false, is_verified: true, used_for_auth: true }
      ])
      expect(after.find((channel) => channel.is_primary)!.id).toBe(created.json.id)
      expect(after.find((channel) => !channel.is_primary)!.id).toBe(user.primaryChannelId)
    }))

  it.effect("primary_email: null demotes the primary channel instead of deleting it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "removed@example.com")
      const updated = yield* patchUser(emulator, user.user_id, { primary_email: null })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.json).toMatchObject({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false })
      const after = yield* channels(emulator, user.user_id)
      expect(after.map(pick)).toEqual([{ value: "removed@example.com", is_primary: false, is_verified: true, used_for_auth: true }])
      expect(after[0]!.id).toBe(user.primaryChannelId)
    }))

  it.effect("checkAuthData: going back to the demoted address while it is used for auth is USER_EMAIL_ALREADY_EXISTS", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const user = yield* verifiedUser(emulator, "back-old@example.com")
      expect((yield* patchUser(emulator, user.user_id, { primary_email: "back-new@example.com" })).status).toBe(200)
      const back = yield* patchUser(emulator, user.user_id, { primary_email: "back-old@example.com" })
      expect(back.status, back.text).toBe(409)
      expect(back.headers.get("x-stack-known-error")).toBe("USER_EMAIL_ALREADY_EXISTS")
      // without e-mail auth there is no check: the demoted channel is promoted again
      const backWithoutAuth = yield* patchUser(emulator, user.user_id, { primary_email: "back-old@example.com", primary_email_auth_enabled: false })
      expect(backWithoutAuth.status, backWithoutAuth.text).toBe(200)
      expect((yield* channels(emulator, user.user_id)).map(pick)).toEqual([
        { value: "back-new@example.com", is_primary: false, is_verified: false, used_for_auth: true },
        { value: "back-old@example.com", is_primary: true, is_verified: true, used_for_auth: false }
      ])
    }))
})

/**
 * `primary_email_auth_enabled` when not sent: `onCreate` stores `usedForAuth:
 * primary_email_auth_enabled ? TRUE : null`, `onUpdate` takes `primary_email_auth_enabled ??
 * !!<old primary channel>?.usedForAuth` (users/crud.tsx at 2f719903); the service's own test
 * "should trigger user webhook when a user is created" (`apps/e2e/tests/backend/endpoints/api/v1/users.test.ts`
 * at 2f719903) records `POST /users {primary_email}` as `primary_email_auth_enabled: false`.
 */
describe("primary_email_auth_enabled when not sent (users/crud.tsx onCreate / onUpdate at 2f719903)", () => {
  const createUser = (emulator: Emulator.Emulator, body: Readonly<Record<string, unknown>>) =>
    send(emulator, { method: "POST", path: "/api/v1/users", headers: server(emulator), body })

  it.effect("POST /users with a primary e-mail alone: not used for auth, so the same e-mail may be created again", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const first = yield* createUser(emulator, { primary_email: "plain@example.com" })
      expect(first.status, first.text).toBe(201)
      expect(first.json).toMatchObject({ primary_email: "plain@example.com", primary_email_auth_enabled: false, auth_with_email: false })
      // checkAuthData returns early when the new e-mail is not used for auth
      const second = yield* createUser(emulator, { primary_email: "plain@example.com" })
      expect(second.status, second.text).toBe(201)
      const withAuth = yield* createUser(emulator, { primary_email: "plain@example.com", primary_email_auth_enabled: true })
      expect(withAuth.status, withAuth.text).toBe(201)
      const taken = yield* createUser(emulator, { primary_email: "plain@example.com", primary_email_auth_enabled: true })
      expect(taken.status).toBe(409)
      expect(taken.headers.get("x-stack-known-error")).toBe("USER_EMAIL_ALREADY_EXISTS")
    }))

  it.effect("a user without a primary e-mail given one by an update does not sign in with it unless asked", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const created = yield* createUser(emulator, {})
      const updated = yield* patchUser(emulator, created.json.id, { primary_email: "later@example.com" })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.json.primary_email_auth_enabled).toBe(false)
      const asked = yield* patchUser(emulator, created.json.id, { primary_email: "later-auth@example.com", primary_email_auth_enabled: true })
      expect(asked.json.primary_email_auth_enabled).toBe(true)
    }))
})
