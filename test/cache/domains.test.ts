/**
 * The client reads wired through the query cache, and the mutations that invalidate them:
 * contact channels, user API keys, active sessions, the current project. Requests are counted.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as UserApiKeys from "../../src/api-keys/UserApiKeys.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import { Password, Projects, Sessions, Users } from "../../src/index.js"
import { clientApp, makeEmulator, password, signUp } from "./support.js"

const concurrently = <A, E, R>(n: number, effect: Effect.Effect<A, E, R>) => Effect.all(Array.from({ length: n }, () => effect), { concurrency: "unbounded" })

describe("QueryCache: domain reads and the mutations that refresh them", () => {
  it.effect("contact channels: one request for concurrent lists; create, update and delete each refresh the list and the user", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      yield* signUp(app, "ada@example.com")
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, app.context) as Effect.Effect<A, E>
      yield* run(concurrently(10, ContactChannels.list()))
      yield* run(Users.getCurrent())
      expect(app.count("GET /contact-channels")).toBe(1)

      const created = yield* run(ContactChannels.create({ value: "lovelace@example.com", usedForAuth: true }))
      expect((yield* run(ContactChannels.list())).map((channel) => channel.value).sort()).toEqual(["ada@example.com", "lovelace@example.com"])
      expect(app.count("GET /contact-channels")).toBe(2)

      yield* run(ContactChannels.update(created.id, { isPrimary: true }))
      expect(Option.getOrThrow(yield* run(Users.getCurrent())).primaryEmail).toBe("lovelace@example.com")
      expect((yield* run(ContactChannels.list())).find((channel) => channel.id === created.id)?.isPrimary).toBe(true)
      expect(app.count("GET /contact-channels")).toBe(3)
      expect(app.count("GET /users/me")).toBe(2)

      yield* run(ContactChannels.delete(created.id))
      expect((yield* run(ContactChannels.list())).map((channel) => channel.value)).toEqual(["ada@example.com"])
      expect(app.count("GET /contact-channels")).toBe(4)
    }))

  it.effect("user API keys: one request for concurrent lists; create, update and revoke each refresh the list", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const project = yield* emulator.createProject({ config: { allowUserApiKeys: true } }).pipe(Effect.orDie)
      const app = yield* clientApp(emulator, { project })
      yield* Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(app.context))
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, app.context) as Effect.Effect<A, E>
      expect(yield* run(concurrently(10, UserApiKeys.list()))).toEqual(Array.from({ length: 10 }, () => []))
      expect(app.count("GET /user-api-keys")).toBe(1)
      const key = yield* run(UserApiKeys.create({ description: "ci", expiresAt: null }))
      expect((yield* run(UserApiKeys.list())).map((listed) => listed.description)).toEqual(["ci"])
      yield* run(UserApiKeys.update(key.id, { description: "deploys" }))
      expect((yield* run(UserApiKeys.list())).map((listed) => listed.description)).toEqual(["deploys"])
      yield* run(UserApiKeys.revoke(key.id))
      expect((yield* run(UserApiKeys.list()))[0]!.manuallyRevokedAt).toBeInstanceOf(Date)
      expect(app.count("GET /user-api-keys")).toBe(4)
    }))

  it.effect("active sessions: one request for concurrent lists; revoke refreshes it; a new sign-in clears it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const laptop = yield* clientApp(emulator)
      const phone = yield* clientApp(emulator)
      yield* signUp(laptop, "ada@example.com")
      yield* Password.signInWithPassword({ email: "ada@example.com", password }).pipe(Effect.provide(phone.context))
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, laptop.context) as Effect.Effect<A, E>
      const sessions = (yield* run(concurrently(10, Sessions.list())))[0]!
      expect(sessions).toHaveLength(2)
      expect(laptop.count("GET /auth/sessions")).toBe(1)
      const other = sessions.find((session) => !session.isCurrentSession)!
      yield* run(Sessions.revoke(other.id))
      expect((yield* run(Sessions.list())).map((session) => session.isCurrentSession)).toEqual([true])
      expect(laptop.count("GET /auth/sessions")).toBe(2)
      yield* run(Password.signInWithPassword({ email: "ada@example.com", password }))
      expect(yield* run(Sessions.list())).toHaveLength(2)
      expect(laptop.count("GET /auth/sessions")).toBe(3)
    }))

  it.effect("the current project is project-wide: one request, kept across sign-in and sign-out", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const app = yield* clientApp(emulator)
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, app.context) as Effect.Effect<A, E>
      const projects = yield* run(concurrently(10, Projects.getCurrent()))
      expect(projects[0]!.id).toBe(emulator.demo.projectId)
      yield* signUp(app, "ada@example.com")
      yield* run(Sessions.signOut())
      yield* run(Projects.getCurrent())
      expect(app.count("GET /projects/current")).toBe(1)
    }))
})
