/**
 * `ServerUsers.getUser({ or })`: the official server app's `getUser` policies for the session's
 * user, answered with the server view (SPEC.md §4, PROTOCOL.md §5.1; `@stackframe/js` 2.8.108
 * `server-app-impl.js` `getUser`), against the in-process emulator.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Scope } from "effect"
import { Effect, Fiber, Layer, Option } from "effect"
import * as Anonymous from "../../src/auth/Anonymous.js"
import type { NavigationShape } from "../../src/auth/GetUser.js"
import { Navigation } from "../../src/auth/GetUser.js"
import * as Password from "../../src/auth/Password.js"
import type { ServerAccess } from "../../src/core/Access.js"
import type * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { send, serverHeaders } from "../emulator/helpers.js"
import { countingClient } from "../support/countingClient.js"
import { realPause, testRetryPolicy } from "../support/fixtures.js"
import { makeEmulator, password } from "../auth/flowsSupport.js"

/** A backend with server access and its own session (memory store), counting its requests. */
const serverWithSession = (emulator: Emulator.Emulator) =>
  Effect.gen(function* () {
    const http = countingClient(emulator)
    const context = yield* Layer.build(
      Stack.layerServer({
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        secretServerKey: emulator.demo.secretServerKey,
        httpClient: http.layer,
        retryPolicy: testRetryPolicy,
        tokenStore: TokenStore.layerMemory(TokenStore.empty)
      })
    ).pipe(Effect.orDie)
    const run = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices | ServerAccess>) => effect.pipe(Effect.provide(context))
    return { run, requests: http.requests, count: http.count }
  })

type Backend = Effect.Success<ReturnType<typeof serverWithSession>>

const signedUp = (backend: Backend, email = "ada@example.com") => backend.run(Password.signUpWithPassword({ email, password, noVerificationCallback: true }))

const setServerMetadata = (emulator: Emulator.Emulator, userId: string) =>
  send(emulator, {
    method: "PATCH",
    path: `/api/v1/users/${userId}`,
    headers: serverHeaders(emulator.demo),
    body: { server_metadata: { plan: "pro" } }
  })

const makeBackend = (): Effect.Effect<{ emulator: Emulator.Emulator; backend: Backend }, never, Scope.Scope> =>
  Effect.gen(function* () {
    const emulator = yield* makeEmulator()
    return { emulator, backend: yield* serverWithSession(emulator) }
  })

describe("ServerUsers.getUser", () => {
  it.effect("return-null (default): Option.none() when signed out without a request; the server view when signed in", () =>
    Effect.gen(function* () {
      const { emulator, backend } = yield* makeBackend()
      expect(yield* backend.run(ServerUsers.getUser())).toEqual(Option.none())
      expect(yield* backend.run(ServerUsers.getUser({ or: "return-null" }))).toEqual(Option.none())
      expect(backend.requests).toEqual([])
      const { userId } = yield* signedUp(backend)
      expect((yield* setServerMetadata(emulator, userId)).status).toBe(200)
      const user = Option.getOrThrow(yield* backend.run(ServerUsers.getUser()))
      expect(user.id).toBe(userId)
      expect(user.serverMetadata).toEqual({ plan: "pro" })
      expect(backend.count("GET /users/me")).toBe(1)
    }))

  it.effect("throw: UserNotSignedIn when signed out; the server user when signed in", () =>
    Effect.gen(function* () {
      const { backend } = yield* makeBackend()
      const error = yield* Effect.flip(backend.run(ServerUsers.getUser({ or: "throw" })))
      expect(error._tag).toBe("UserNotSignedIn")
      const { userId } = yield* signedUp(backend)
      const user = yield* backend.run(ServerUsers.getUser({ or: "throw" }))
      expect(user.id).toBe(userId)
      expect(user.serverMetadata).toEqual(null)
    }))

  it.effect("anonymous: signs up an anonymous user in the session once and returns its server view", () =>
    Effect.gen(function* () {
      const { backend } = yield* makeBackend()
      const user = yield* backend.run(ServerUsers.getUser({ or: "anonymous" }))
      expect(user.isAnonymous).toBe(true)
      expect(backend.requests).toEqual(["POST /auth/anonymous/sign-up", "GET /users/me"])
      const again = yield* backend.run(ServerUsers.getUser({ or: "anonymous" }))
      expect(again.id).toBe(user.id)
      expect(backend.count("POST /auth/anonymous/sign-up")).toBe(1)
    }))

  it.effect("anonymous users count as signed out unless an anonymous policy allows them", () =>
    Effect.gen(function* () {
      const { backend } = yield* makeBackend()
      const { userId } = yield* backend.run(Anonymous.signUp())
      expect(yield* backend.run(ServerUsers.getUser())).toEqual(Option.none())
      expect(yield* backend.run(ServerUsers.getUser({ includeRestricted: true }))).toEqual(Option.none())
      expect((yield* Effect.flip(backend.run(ServerUsers.getUser({ or: "throw" }))))._tag).toBe("UserNotSignedIn")
      expect(Option.getOrThrow(yield* backend.run(ServerUsers.getUser({ or: "anonymous-if-exists" }))).id).toBe(userId)
    }))

  it.effect("restricted users count as signed out unless includeRestricted", () =>
    Effect.gen(function* () {
      const { emulator, backend } = yield* makeBackend()
      const { userId } = yield* signedUp(backend)
      const restricted = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/users/${userId}`,
        headers: serverHeaders(emulator.demo),
        body: { restricted_by_admin: true, restricted_by_admin_reason: "Check pending" }
      })
      expect(restricted.status).toBe(200)
      expect(yield* backend.run(ServerUsers.getUser())).toEqual(Option.none())
      expect(Option.getOrThrow(yield* backend.run(ServerUsers.getUser({ includeRestricted: true }))).isRestricted).toBe(true)
    }))

  it.effect("redirect: replaces the page with the sign-in page and never completes", () =>
    Effect.gen(function* () {
      const { backend } = yield* makeBackend()
      const visited: Array<string> = []
      const navigation: NavigationShape = {
        currentUrl: Effect.succeed("https://app.example.com/account"),
        replace: (url) => Effect.sync(() => void visited.push(url))
      }
      const fiber = yield* Effect.forkChild(backend.run(ServerUsers.getUser({ or: "redirect" })).pipe(Effect.provideService(Navigation, navigation)))
      for (let i = 0; i < 500 && visited.length === 0; i++) yield* realPause(1)
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* Fiber.interrupt(fiber)
      expect(visited).toEqual(["https://app.example.com/handler/sign-in?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Faccount"])
    }))

  it.effect("redirect outside a browser without navigation: NavigationUnavailable, typed", () =>
    Effect.gen(function* () {
      const { backend } = yield* makeBackend()
      const error = yield* Effect.flip(backend.run(ServerUsers.getUser({ or: "redirect" })))
      expect(error._tag).toBe("NavigationUnavailable")
    }))
})
