/**
 * The project's branch (SPEC.md §3 "a project also has a branch"; PROTOCOL.md §1.2
 * `X-Stack-Branch-Id`, §2.1 `client_id` "<projectId>#<branchId>"), against the in-process
 * emulator: a chosen branch is sent on every request and in the OAuth client id; no branch sends
 * nothing (the service's `main`); an unknown branch is the service's `BRANCH_DOES_NOT_EXIST`; a
 * branch id outside 1…255 characters is a `StackConfigError` before anything is sent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import * as Emulator from "../../src/emulator/index.js"
import { makeRefreshGrant } from "../../src/session/RefreshGrant.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { makeEmulator } from "../emulator/helpers.js"

/** The emulator, with every request's branch header and URL recorded. */
const recorded = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const requests: Array<{ readonly url: string; readonly branch: string | null }> = []
  const recording: Emulator.Emulator = {
    ...emulator,
    handle: (request) =>
      Effect.suspend(() => {
        requests.push({ url: request.url, branch: request.headers.get("x-stack-branch-id") })
        return emulator.handle(request)
      })
  }
  return { emulator, recording, requests }
})

describe("the project's branch", () => {
  it.effect("branchId is sent as X-Stack-Branch-Id on every request; without it no branch header is sent", () =>
    Effect.gen(function* () {
      const { emulator, recording, requests } = yield* recorded
      const options = {
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        httpClient: Emulator.layerHttpClient(recording)
      }
      const user = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "branch@example.com", password: "correct horse battery", noVerificationCallback: true })
        return yield* Users.getCurrent()
      }).pipe(Effect.provide(Stack.layerClient({ ...options, branchId: "main" })))
      expect(Option.getOrThrow(user).primaryEmail).toBe("branch@example.com")
      expect(requests.length).toBeGreaterThanOrEqual(2)
      expect(requests.every((request) => request.branch === "main")).toBe(true)

      const before = requests.length
      yield* Password.signInWithPassword({ email: "branch@example.com", password: "correct horse battery" }).pipe(Effect.provide(Stack.layerClient(options)))
      expect(requests.slice(before).map((request) => request.branch)).toEqual([null])
    }))

  it.effect("an unknown branch is the service's BRANCH_DOES_NOT_EXIST", () =>
    Effect.gen(function* () {
      const { emulator, recording } = yield* recorded
      const error = yield* Effect.flip(
        Password.signInWithPassword({ email: "nobody@example.com", password: "whatever password" }).pipe(
          Effect.provide(
            Stack.layerClient({
              projectId: emulator.demo.projectId,
              publishableClientKey: emulator.demo.publishableClientKey,
              branchId: "dev",
              httpClient: Emulator.layerHttpClient(recording)
            })
          )
        )
      )
      const known = error._tag === "UnexpectedKnownError" ? error.error._tag : error._tag
      expect(known).toBe("BranchDoesNotExist")
    }))

  it.effect("the OAuth client id carries the branch: <projectId>#<branchId>", () =>
    Effect.gen(function* () {
      const { emulator, recording, requests } = yield* recorded
      const page = OAuthBrowser.makeMemory({ url: "http://localhost:3000/sign-in", onNavigate: (url) => Effect.succeed(url) })
      const layer = Layer.merge(
        Stack.layerClient({
          projectId: emulator.demo.projectId,
          publishableClientKey: emulator.demo.publishableClientKey,
          branchId: "main",
          httpClient: Emulator.layerHttpClient(recording)
        }),
        page.layer
      )
      yield* OAuth.signInWithOAuth({ provider: "github" }).pipe(Effect.provide(layer))
      const authorize = requests.map((request) => new URL(request.url)).find((url) => url.pathname.includes("/auth/oauth/authorize/"))
      expect(authorize?.searchParams.get("client_id")).toBe(`${emulator.demo.projectId}#main`)
      expect(StackConfig.oauthClientId({ projectId: "internal" })).toBe("internal")
      // the refresh grant uses the same client id
      const grant = makeRefreshGrant({
        projectId: emulator.demo.projectId,
        branchId: "main",
        publishableClientKey: undefined,
        refreshToken: Redacted.make("r")
      })
      expect(grant.clientId).toBe(`${emulator.demo.projectId}#main`)
    }))

  it.effect("a branch id outside 1…255 characters is a StackConfigError naming branchId", () =>
    Effect.gen(function* () {
      const empty = yield* Effect.flip(StackConfig.make({ projectId: "internal", branchId: "" }))
      expect(empty.setting).toBe("branchId")
      const long = yield* Effect.flip(StackConfig.make({ projectId: "internal", branchId: "b".repeat(256) }))
      expect(long.setting).toBe("branchId")
      const ok = yield* StackConfig.make({ projectId: "internal", branchId: "b".repeat(255) })
      expect(ok.branchId).toHaveLength(255)
    }))
})
