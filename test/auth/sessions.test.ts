/**
 * Active sessions through the SDK against the in-process emulator: listing (newest first, the
 * current one marked), revoking another session, the current one and an unknown one, and
 * sessions a server creates for a user (defaults, impersonation visible only to admins).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as AdminSessions from "../../src/auth/AdminSessions.js"
import * as ServerSessions from "../../src/auth/ServerSessions.js"
import type * as Emulator from "../../src/emulator/index.js"
import { Session } from "../../src/session/Session.js"
import type { ClientServices } from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { clientHeaders, send } from "../emulator/helpers.js"
import type { Device } from "./flowsSupport.js"
import { adminDevice, clientDevice, makeEmulator, password, serverDevice } from "./flowsSupport.js"

const email = "ada@example.com"
const start = 1_800_000_000_000

/** The session id (`refresh_token_id`) behind a device's current access token. */
const sessionIdOf = (emulator: Emulator.Emulator, device: Device<ClientServices>) =>
  Effect.flatMap(Session, (session) => session.current).pipe(
    Effect.map((tokens) => {
      const refreshToken = Redacted.value(Option.getOrThrow(tokens.refreshToken))
      const record = [...emulator.state.projects.get(emulator.demo.projectId)!.sessions.values()].find(
        (session) => session.refreshToken === refreshToken
      )
      return record!.id
    }),
    Effect.provide(device.context)
  )

/** One user signed in on a laptop (sign-up) and, a minute later, on a phone. */
const twoDevices = Effect.gen(function* () {
  yield* TestClock.setTime(start)
  const emulator = yield* makeEmulator()
  const laptop = yield* clientDevice(emulator)
  const phone = yield* clientDevice(emulator)
  const { userId } = yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(Effect.provide(laptop.context))
  yield* TestClock.adjust("1 minute")
  yield* Password.signInWithPassword({ email, password }).pipe(Effect.provide(phone.context))
  return { emulator, laptop, phone, userId }
})

describe("Sessions: the signed-in user's sessions", () => {
  it.effect("list returns the user's sessions, newest first, marking the current one", () =>
    Effect.gen(function* () {
      const { emulator, laptop, phone, userId } = yield* twoDevices
      const sessions = yield* Sessions.list().pipe(Effect.provide(laptop.context))
      expect(sessions.map((session) => session.id)).toEqual([yield* sessionIdOf(emulator, phone), yield* sessionIdOf(emulator, laptop)])
      expect(sessions.map((session) => session.isCurrentSession)).toEqual([false, true])
      for (const session of sessions) {
        expect(session.userId).toBe(userId)
        expect(session.isImpersonation).toBe(false)
        expect(session.createdAt).toBeInstanceOf(Date)
        expect(session.lastUsedAt).toBeInstanceOf(Date)
      }
      expect(sessions[0]!.createdAt.getTime()).toBe(start + 60_000)
      expect(sessions[1]!.createdAt.getTime()).toBe(start)
      const fromPhone = yield* Sessions.list().pipe(Effect.provide(phone.context))
      expect(fromPhone.map((session) => session.isCurrentSession)).toEqual([true, false])
      expect(laptop.count("GET /auth/sessions")).toBe(1)
    }))

  it.effect("revoke ends another session: its device is signed out once its access token expires", () =>
    Effect.gen(function* () {
      const { emulator, laptop, phone } = yield* twoDevices
      yield* Sessions.revoke(yield* sessionIdOf(emulator, phone)).pipe(Effect.provide(laptop.context))
      const left = yield* Sessions.list().pipe(Effect.provide(laptop.context))
      expect(left.map((session) => session.isCurrentSession)).toEqual([true])
      yield* TestClock.adjust(`${emulator.settings.accessTokenLifetimeSeconds} seconds`)
      expect(yield* Users.getCurrent().pipe(Effect.provide(phone.context))).toEqual(Option.none())
      expect(Option.isSome(yield* Users.getCurrent().pipe(Effect.provide(laptop.context)))).toBe(true)
    }))

  it.effect("the current session cannot be revoked by id (CannotDeleteCurrentSession)", () =>
    Effect.gen(function* () {
      const { emulator, laptop } = yield* twoDevices
      const error = yield* Effect.flip(Sessions.revoke(yield* sessionIdOf(emulator, laptop))).pipe(Effect.provide(laptop.context))
      expect(error._tag).toBe("CannotDeleteCurrentSession")
      expect(error.message).toBe("Cannot delete the current session.")
      expect((yield* Sessions.list().pipe(Effect.provide(laptop.context))).length).toBe(2)
    }))

  it.effect("an unknown session id is a 404 HttpError 'Session not found.'", () =>
    Effect.gen(function* () {
      const { laptop } = yield* twoDevices
      const error = yield* Effect.flip(Sessions.revoke("00000000-0000-4000-8000-000000000000")).pipe(Effect.provide(laptop.context))
      expect(error._tag).toBe("HttpError")
      expect(error).toMatchObject({ status: 404, body: "Session not found." })
    }))

  it.effect("a session of another user is not found either", () =>
    Effect.gen(function* () {
      const { emulator, laptop } = yield* twoDevices
      const other = yield* clientDevice(emulator)
      yield* Password.signUpWithPassword({ email: "bob@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(other.context))
      const error = yield* Effect.flip(Sessions.revoke(yield* sessionIdOf(emulator, other))).pipe(Effect.provide(laptop.context))
      expect(error).toMatchObject({ _tag: "HttpError", status: 404 })
    }))

  it.effect("a malformed session id fails with InvalidArgument before sending", () =>
    Effect.gen(function* () {
      const { laptop } = yield* twoDevices
      const before = laptop.requests.length
      const error = yield* Effect.flip(Sessions.revoke("not-a-uuid")).pipe(Effect.provide(laptop.context))
      expect(error._tag).toBe("InvalidArgument")
      expect(laptop.requests.length).toBe(before)
    }))

  it.effect("without a signed-in user, list and revoke fail with UserNotSignedIn before sending", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      expect((yield* Effect.flip(Sessions.list()).pipe(Effect.provide(device.context)))._tag).toBe("UserNotSignedIn")
      expect(
        (yield* Effect.flip(Sessions.revoke("00000000-0000-4000-8000-000000000000")).pipe(Effect.provide(device.context)))._tag
      ).toBe("UserNotSignedIn")
      expect(device.requests).toEqual([])
    }))

  it.effect("client access cannot list another user's sessions (403 text)", () =>
    Effect.gen(function* () {
      const { emulator, laptop } = yield* twoDevices
      const accessToken = yield* Effect.flatMap(Session, (session) => session.requestTokens).pipe(
        Effect.map((tokens) => Redacted.value(Option.getOrThrow(tokens.accessToken))),
        Effect.provide(laptop.context)
      )
      const answer = yield* send(emulator, {
        path: "/api/v1/auth/sessions?user_id=00000000-0000-4000-8000-000000000000",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": accessToken })
      })
      expect(answer.status).toBe(403)
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain/)
    }))
})

describe("Sessions: server-created sessions", () => {
  it.effect("create returns working tokens for the user, one year by default, without touching the server's own session", () =>
    Effect.gen(function* () {
      const { emulator, userId } = yield* twoDevices
      const backend = yield* serverDevice(emulator)
      const created = yield* ServerSessions.create({ userId }).pipe(Effect.provide(backend.context))
      const record = [...emulator.state.projects.get(emulator.demo.projectId)!.sessions.values()].find(
        (session) => session.refreshToken === Redacted.value(created.refreshToken)
      )!
      expect(record.expiresAtMillis - record.createdAtMillis).toBe(31_536_000_000)
      expect(record.isImpersonation).toBe(false)
      const backendTokens = yield* Effect.flatMap(Session, (session) => session.current).pipe(Effect.provide(backend.context))
      expect(Option.isNone(backendTokens.refreshToken)).toBe(true)
      const handedOver = yield* clientDevice(emulator, {
        accessToken: Option.some(created.accessToken),
        refreshToken: Option.some(created.refreshToken)
      })
      expect(Option.getOrThrow(yield* Users.getCurrent().pipe(Effect.provide(handedOver.context))).id).toBe(userId)
    }))

  it.effect("create with a lifetime: the session is listed until it expires", () =>
    Effect.gen(function* () {
      const { emulator, laptop, userId } = yield* twoDevices
      const backend = yield* serverDevice(emulator)
      yield* ServerSessions.create({ userId, expiresInMillis: 3_600_000 }).pipe(Effect.provide(backend.context))
      expect((yield* Sessions.list().pipe(Effect.provide(laptop.context))).length).toBe(3)
      expect((yield* ServerSessions.list(userId).pipe(Effect.provide(backend.context))).length).toBe(3)
      yield* TestClock.adjust("61 minutes")
      expect((yield* Sessions.list().pipe(Effect.provide(laptop.context))).length).toBe(2)
    }))

  it.effect("impersonation sessions are listed only with admin access", () =>
    Effect.gen(function* () {
      const { emulator, laptop, userId } = yield* twoDevices
      const backend = yield* serverDevice(emulator)
      const admin = yield* adminDevice(emulator)
      yield* TestClock.adjust("1 minute")
      yield* ServerSessions.create({ userId, isImpersonation: true }).pipe(Effect.provide(backend.context))
      expect((yield* Sessions.list().pipe(Effect.provide(laptop.context))).length).toBe(2)
      expect((yield* ServerSessions.list(userId).pipe(Effect.provide(backend.context))).length).toBe(2)
      const asAdmin = yield* AdminSessions.list(userId).pipe(Effect.provide(admin.context))
      expect(asAdmin.map((session) => session.isImpersonation)).toEqual([true, false, false])
      expect(asAdmin.every((session) => !session.isCurrentSession)).toBe(true)
    }))

  it.effect("ServerSessions.revoke ends a session with server access", () =>
    Effect.gen(function* () {
      const { emulator, phone, userId } = yield* twoDevices
      const backend = yield* serverDevice(emulator)
      yield* ServerSessions.revoke(userId, yield* sessionIdOf(emulator, phone)).pipe(Effect.provide(backend.context))
      expect((yield* ServerSessions.list(userId).pipe(Effect.provide(backend.context))).length).toBe(1)
    }))

  it.effect("create for a user id that does not exist fails with UserIdDoesNotExist", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const backend = yield* serverDevice(emulator)
      const missing = "00000000-0000-4000-8000-000000000000"
      const error = yield* Effect.flip(ServerSessions.create({ userId: missing })).pipe(Effect.provide(backend.context))
      expect(error._tag).toBe("UserIdDoesNotExist")
      expect(error).toMatchObject({ details: { user_id: missing } })
    }))

  it.effect("a lifetime over 367 days fails with InvalidArgument before sending", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const backend = yield* serverDevice(emulator)
      const error = yield* Effect.flip(
        ServerSessions.create({ userId: "00000000-0000-4000-8000-000000000000", expiresInMillis: ServerSessions.maxSessionLifetimeMillis + 1 })
      ).pipe(Effect.provide(backend.context))
      expect(error._tag).toBe("InvalidArgument")
      expect(backend.requests).toEqual([])
    }))
})
