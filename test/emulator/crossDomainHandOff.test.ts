/**
 * The SDK's cross-domain hand-over (`OAuth.prepareCrossDomainHandOff`, `OAuth.crossDomainRedirectUrl`,
 * then `OAuth.handleCallback` on the receiving page), against the in-process emulator: the
 * signed-in session's access and refresh tokens are sent, the code signs the receiving page in as
 * the same user, and the refusals are typed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Emulator from "../../src/emulator/index.js"
import { Stack, Users } from "../../src/index.js"
import { makeApp } from "../permissions/support.js"

const receivingCallback = "http://localhost:3001/handler/oauth-callback"

describe("OAuth.crossDomainRedirectUrl", () => {
  it.live("the receiving page's handleCallback signs in as the signed-in user; the request carries both tokens", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const userId = yield* app.signUp("hand-over@example.com")
      const page = OAuthBrowser.makeMemory({ url: "http://localhost:3001/sign-in" })
      const receiving = yield* Effect.acquireRelease(
        Effect.sync(() =>
          ManagedRuntime.make(
            Layer.merge(
              Stack.layerClient({ projectId: app.emulator.demo.projectId, httpClient: Emulator.layerHttpClient(app.emulator), tokenStore: "memory" }),
              page.layer
            )
          )
        ),
        (runtime) => Effect.promise(() => runtime.dispose())
      )
      const request = yield* Effect.promise(() => receiving.runPromise(OAuth.prepareCrossDomainHandOff()))
      expect(page.jar.has(`stack-oauth-outer-${request.state}`)).toBe(true)
      const redirect = yield* app.run(OAuth.crossDomainRedirectUrl({ ...request, redirectUri: receivingCallback }))
      if (redirect._tag === "Failure") throw new Error(JSON.stringify(redirect.failure))
      page.setUrl(redirect.success)
      const signedIn = yield* Effect.promise(() =>
        receiving.runPromise(Effect.gen(function* () {
          yield* OAuth.handleCallback()
          return yield* Users.getCurrent()
        }))
      )
      expect(Option.getOrThrow(signedIn).id).toBe(userId)
      expect(app.sent.filter((sent) => sent === "POST /auth/oauth/cross-domain/authorize")).toHaveLength(1)
    }))

  it.live("an untrusted redirectUri is RedirectUrlNotWhitelisted; signed out it is UserNotSignedIn and nothing is sent", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      yield* app.signUp("hand-over-refused@example.com")
      const untrusted = yield* app.run(
        OAuth.crossDomainRedirectUrl({ state: "s", codeChallenge: "xf6HY7PIgoaCf_eMniSt-45brYE2J_05C9BnfIbueik", redirectUri: "https://evil.example.com/cb" })
      )
      expect(untrusted._tag === "Failure" ? untrusted.failure._tag : "Success").toBe("RedirectUrlNotWhitelisted")
      yield* app.signOut
      const before = app.sent.length
      const signedOut = yield* app.run(
        OAuth.crossDomainRedirectUrl({ state: "s", codeChallenge: "xf6HY7PIgoaCf_eMniSt-45brYE2J_05C9BnfIbueik", redirectUri: receivingCallback })
      )
      expect(signedOut._tag === "Failure" ? signedOut.failure._tag : "Success").toBe("UserNotSignedIn")
      expect(app.sent.length).toBe(before)
    }))
})
