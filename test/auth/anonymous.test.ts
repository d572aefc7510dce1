/** Anonymous users through the SDK against the in-process emulator: sign-up, and the upgrade that keeps the id. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { decodeJwt } from "jose"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Password from "../../src/auth/Password.js"
import { Session } from "../../src/session/Session.js"
import * as Users from "../../src/users/Users.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

describe("Anonymous", () => {
  it.effect("signUp creates an anonymous user with one POST (no body) and stores its tokens", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { userId, tokens, user } = yield* Effect.gen(function* () {
        const { userId } = yield* Anonymous.signUp()
        const tokens = yield* Effect.flatMap(Session, (session) => session.current)
        const user = yield* Users.getCurrent()
        return { userId, tokens, user }
      }).pipe(Effect.provide(device.context))
      expect(device.requests).toEqual(["POST /auth/anonymous/sign-up", "GET /users/me"])
      expect(Option.isSome(tokens.refreshToken)).toBe(true)
      const claims = decodeJwt(Redacted.value(Option.getOrThrow(tokens.accessToken)))
      expect(claims.sub).toBe(userId)
      expect(claims.is_anonymous).toBe(true)
      expect(claims.aud).toBe(`${emulator.demo.projectId}:anon`)
      const current = Option.getOrThrow(user)
      expect(current.id).toBe(userId)
      expect(current.isAnonymous).toBe(true)
      expect(current.isRestricted).toBe(true)
      expect(current.restrictedReason).toEqual({ type: "anonymous" })
      expect(current.primaryEmail).toBeNull()
      expect(current.hasPassword).toBe(false)
    }))

  it.effect("a password sign-up of the signed-in anonymous user upgrades it in place: same id", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const device = yield* clientDevice(emulator)
      const { anonymousId, upgradedId, user } = yield* Effect.gen(function* () {
        const { userId: anonymousId } = yield* Anonymous.signUp()
        const { userId: upgradedId } = yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true })
        const user = yield* Users.getCurrent()
        return { anonymousId, upgradedId, user }
      }).pipe(Effect.provide(device.context))
      expect(upgradedId).toBe(anonymousId)
      const current = Option.getOrThrow(user)
      expect(current.id).toBe(anonymousId)
      expect(current.isAnonymous).toBe(false)
      expect(current.isRestricted).toBe(false)
      expect(current.primaryEmail).toBe("ada@example.com")
      expect(current.hasPassword).toBe(true)
      expect(emulator.state.projects.get(emulator.demo.projectId)!.users.size).toBe(1)
    }))

  it.effect("signUp while another user is signed in replaces the stored session with a new anonymous user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { first, second, user } = yield* Effect.gen(function* () {
        const first = yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true })
        const second = yield* Anonymous.signUp()
        const user = yield* Users.getCurrent()
        return { first, second, user }
      }).pipe(Effect.provide(device.context))
      expect(second.userId).not.toBe(first.userId)
      expect(Option.getOrThrow(user).id).toBe(second.userId)
      expect(Option.getOrThrow(user).isAnonymous).toBe(true)
    }))
})
