/** getUser's `or` policies (SPEC.md §4, PROTOCOL.md §5.1) through the SDK against the in-process emulator. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Redacted } from "effect"
import * as Anonymous from "../../src/auth/Anonymous.js"
import type { NavigationShape } from "../../src/auth/GetUser.js"
import { getUser, Navigation, pageWithReturnTo } from "../../src/auth/GetUser.js"
import * as Password from "../../src/auth/Password.js"
import type * as Emulator from "../../src/emulator/index.js"
import { Session } from "../../src/session/Session.js"
import type { ClientServices } from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import { send, serverHeaders } from "../emulator/helpers.js"
import { realPause } from "../support/fixtures.js"
import type { Device } from "./flowsSupport.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

const pageUrl = "https://app.example.com/dashboard?tab=2#top"

/** A Navigation that records where it was sent. */
const recorder = (currentUrl = pageUrl) => {
  const visited: Array<string> = []
  const navigation: NavigationShape = {
    currentUrl: Effect.succeed(currentUrl),
    replace: (url) => Effect.sync(() => void visited.push(url))
  }
  return { navigation, visited }
}

/** Runs a redirecting getUser until it navigated; checks it never completes, then interrupts it. */
const redirected = <E>(effect: Effect.Effect<unknown, E>, visited: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(effect)
    for (let i = 0; i < 500 && visited.length === 0; i++) yield* realPause(1)
    expect(fiber.pollUnsafe()).toBeUndefined()
    yield* Fiber.interrupt(fiber)
    return visited
  })

/** Marks the signed-in user restricted by an administrator (server access). */
const restrictByAdmin = (emulator: Emulator.Emulator, accessToken: string) =>
  send(emulator, {
    method: "PATCH",
    path: "/api/v1/users/me",
    headers: serverHeaders(emulator.demo, { "x-stack-access-token": accessToken }),
    body: { restricted_by_admin: true, restricted_by_admin_reason: "Check pending" }
  })

/** The device's current access token. */
const accessTokenOf = (device: Device<ClientServices>) =>
  Effect.flatMap(Session, (session) => session.requestTokens).pipe(
    Effect.map((tokens) => Redacted.value(Option.getOrThrow(tokens.accessToken))),
    Effect.provide(device.context)
  )

const signedUp = (device: Device<ClientServices>) =>
  Password.signUpWithPassword({ email: "ada@example.com", password, noVerificationCallback: true }).pipe(Effect.provide(device.context))

describe("getUser", () => {
  it.effect("return-null (default): Option.none() when signed out, without a request; the user when signed in", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      expect(yield* getUser().pipe(Effect.provide(device.context))).toEqual(Option.none())
      expect(yield* getUser({ or: "return-null" }).pipe(Effect.provide(device.context))).toEqual(Option.none())
      expect(device.requests).toEqual([])
      const { userId } = yield* signedUp(device)
      const user = yield* getUser().pipe(Effect.provide(device.context))
      expect(Option.getOrThrow(user).id).toBe(userId)
    }))

  it.effect("throw: UserNotSignedIn when signed out; the user when signed in", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const error = yield* Effect.flip(getUser({ or: "throw" })).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("UserNotSignedIn")
      const { userId } = yield* signedUp(device)
      expect((yield* getUser({ or: "throw" }).pipe(Effect.provide(device.context))).id).toBe(userId)
    }))

  it.effect("anonymous users count as signed out unless an anonymous option allows them", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { userId } = yield* Anonymous.signUp().pipe(Effect.provide(device.context))
      const run = <A, E>(effect: Effect.Effect<A, E, ClientServices>) => effect.pipe(Effect.provide(device.context))
      expect(yield* run(getUser())).toEqual(Option.none())
      expect(yield* run(getUser({ includeRestricted: true }))).toEqual(Option.none())
      expect((yield* run(Effect.flip(getUser({ or: "throw" }))))._tag).toBe("UserNotSignedIn")
      expect(Option.getOrThrow(yield* run(getUser({ or: "anonymous-if-exists" }))).id).toBe(userId)
      expect((yield* run(getUser({ or: "anonymous" }))).id).toBe(userId)
      expect(device.count("POST /auth/anonymous/sign-up")).toBe(1)
    }))

  it.effect("anonymous-if-exists returns Option.none() when nobody is signed in, without signing up", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      expect(yield* getUser({ or: "anonymous-if-exists" }).pipe(Effect.provide(device.context))).toEqual(Option.none())
      expect(device.requests).toEqual([])
    }))

  it.effect("anonymous: signs up an anonymous user when signed out, stores it and returns it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const user = yield* getUser({ or: "anonymous" }).pipe(Effect.provide(device.context))
      expect(user.isAnonymous).toBe(true)
      expect(device.requests).toEqual(["POST /auth/anonymous/sign-up", "GET /users/me"])
      const again = yield* getUser({ or: "anonymous" }).pipe(Effect.provide(device.context))
      expect(again.id).toBe(user.id)
      expect(device.count("POST /auth/anonymous/sign-up")).toBe(1)
    }))

  it.effect("anonymous returns a signed-in regular user as it is", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { userId } = yield* signedUp(device)
      const user = yield* getUser({ or: "anonymous" }).pipe(Effect.provide(device.context))
      expect(user.id).toBe(userId)
      expect(user.isAnonymous).toBe(false)
      expect(device.count("POST /auth/anonymous/sign-up")).toBe(0)
    }))

  it.effect("restricted users count as signed out unless includeRestricted", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      yield* signedUp(device)
      expect((yield* restrictByAdmin(emulator, yield* accessTokenOf(device))).status).toBe(200)
      expect(yield* getUser().pipe(Effect.provide(device.context))).toEqual(Option.none())
      const included = yield* getUser({ includeRestricted: true }).pipe(Effect.provide(device.context))
      expect(Option.getOrThrow(included).isRestricted).toBe(true)
    }))

  it.effect("redirect: replaces the page with the sign-in page, after_auth_return_to = the current URL, and never completes", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { navigation, visited } = recorder()
      const urls = yield* redirected(
        getUser({ or: "redirect" }).pipe(Effect.provideService(Navigation, navigation), Effect.provide(device.context)),
        visited
      )
      expect(urls).toEqual([
        "https://app.example.com/handler/sign-in?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Fdashboard%3Ftab%3D2%23top"
      ])
      expect(new URL(urls[0]!).searchParams.get("after_auth_return_to")).toBe(pageUrl)
    }))

  it.effect("redirect uses the HandlerUrls sign-in page, and the signInPath option over it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const first = recorder()
      yield* redirected(
        getUser({ or: "redirect" }).pipe(
          Effect.provideService(Navigation, first.navigation),
          Effect.provide(HandlerUrls.layer({ signIn: "/login" })),
          Effect.provide(device.context)
        ),
        first.visited
      )
      expect(new URL(first.visited[0]!).pathname).toBe("/login")
      const second = recorder()
      yield* redirected(
        getUser({ or: "redirect", signInPath: "/auth/enter" }).pipe(
          Effect.provideService(Navigation, second.navigation),
          Effect.provide(HandlerUrls.layer({ signIn: "/login" })),
          Effect.provide(device.context)
        ),
        second.visited
      )
      expect(new URL(second.visited[0]!).pathname).toBe("/auth/enter")
    }))

  it.effect("redirect sends an anonymous user to sign-in and a restricted user to onboarding", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const anonymous = yield* clientDevice(emulator)
      yield* Anonymous.signUp().pipe(Effect.provide(anonymous.context))
      const toSignIn = recorder()
      yield* redirected(
        getUser({ or: "redirect" }).pipe(Effect.provideService(Navigation, toSignIn.navigation), Effect.provide(anonymous.context)),
        toSignIn.visited
      )
      expect(new URL(toSignIn.visited[0]!).pathname).toBe("/handler/sign-in")

      const restricted = yield* clientDevice(emulator)
      yield* signedUp(restricted)
      expect((yield* restrictByAdmin(emulator, yield* accessTokenOf(restricted))).status).toBe(200)
      const toOnboarding = recorder()
      yield* redirected(
        getUser({ or: "redirect" }).pipe(Effect.provideService(Navigation, toOnboarding.navigation), Effect.provide(restricted.context)),
        toOnboarding.visited
      )
      expect(new URL(toOnboarding.visited[0]!).pathname).toBe("/handler/onboarding")
    }))

  it.effect("redirect returns a signed-in user without navigating", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { userId } = yield* signedUp(device)
      const { navigation, visited } = recorder()
      const user = yield* getUser({ or: "redirect" }).pipe(Effect.provideService(Navigation, navigation), Effect.provide(device.context))
      expect(user.id).toBe(userId)
      expect(visited).toEqual([])
    }))

  it.effect("redirect outside a browser without a Navigation service fails with NavigationUnavailable", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const error = yield* Effect.flip(getUser({ or: "redirect" })).pipe(Effect.provide(device.context))
      expect(error._tag).toBe("NavigationUnavailable")
    }))

  it("pageWithReturnTo resolves the page against the current URL and sets after_auth_return_to", () => {
    expect(pageWithReturnTo("/handler/sign-in", "http://localhost:3000/a?b=1")).toBe(
      "http://localhost:3000/handler/sign-in?after_auth_return_to=http%3A%2F%2Flocalhost%3A3000%2Fa%3Fb%3D1"
    )
    expect(pageWithReturnTo("https://auth.example.com/in", "http://localhost:3000/")).toBe(
      "https://auth.example.com/in?after_auth_return_to=http%3A%2F%2Flocalhost%3A3000%2F"
    )
  })
})
