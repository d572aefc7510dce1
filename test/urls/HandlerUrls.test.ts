/** HandlerUrls: default paths (PROTOCOL.md §5.4), overrides, and resolving callback URLs. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"

/** Runs with a fake browser location, restored afterwards. */
const withLocation = <A, E, R>(href: string, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = Object.getOwnPropertyDescriptor(globalThis, "location")
      Object.defineProperty(globalThis, "location", { value: { href }, configurable: true, writable: true })
      return previous
    }),
    () => effect,
    (previous) =>
      Effect.sync(() => {
        if (previous === undefined) delete (globalThis as { location?: unknown }).location
        else Object.defineProperty(globalThis, "location", previous)
      })
  )

describe("HandlerUrls", () => {
  it("defaults follow PROTOCOL.md §5.4", () => {
    const paths = HandlerUrls.defaultPaths
    expect(paths.handler).toBe("/handler")
    expect(paths.emailVerification).toBe("/handler/email-verification")
    expect(paths.passwordReset).toBe("/handler/password-reset")
    expect(paths.magicLinkCallback).toBe("/handler/magic-link-callback")
    expect(paths.forgotPassword).toBe("/handler/forgot-password")
    expect(paths.oauthCallback).toBe("/handler/oauth-callback")
    expect(paths.home).toBe("/")
    expect(paths.afterSignIn).toBe("/")
    expect(paths.afterSignUp).toBe("/")
    expect(paths.afterSignOut).toBe("/")
  })

  it("derived paths follow an overridden handler base; afterSignUp follows afterSignIn; any page can be overridden", () => {
    const paths = HandlerUrls.pathsFor({ handler: "/auth/", afterSignIn: "/dashboard", passwordReset: "/reset" })
    expect(paths.handler).toBe("/auth")
    expect(paths.emailVerification).toBe("/auth/email-verification")
    expect(paths.magicLinkCallback).toBe("/auth/magic-link-callback")
    expect(paths.passwordReset).toBe("/reset")
    expect(paths.afterSignUp).toBe("/dashboard")
    expect(paths.afterSignOut).toBe("/")
  })

  it.effect("with an app URL, a default resolves to an absolute URL", () =>
    Effect.gen(function* () {
      const url = yield* HandlerUrls.callbackUrl("passwordReset", "callbackUrl").pipe(
        Effect.provide(HandlerUrls.layer({ appUrl: "https://app.example.com/base/" }))
      )
      expect(url).toBe("https://app.example.com/handler/password-reset")
      const overridden = yield* HandlerUrls.callbackUrl("magicLinkCallback", "callbackUrl").pipe(
        Effect.provide(HandlerUrls.layer({ appUrl: new URL("https://app.example.com"), magicLinkCallback: "/in" }))
      )
      expect(overridden).toBe("https://app.example.com/in")
    }))

  it.effect("an explicit URL wins; absolute ones need no base; the #hash is dropped", () =>
    Effect.gen(function* () {
      expect(yield* HandlerUrls.callbackUrl("passwordReset", "callbackUrl", "http://localhost:3000/x?y=1#frag")).toBe(
        "http://localhost:3000/x?y=1"
      )
      const relative = yield* HandlerUrls.callbackUrl("passwordReset", "callbackUrl", "/custom").pipe(
        Effect.provide(HandlerUrls.layer({ appUrl: "https://app.example.com" }))
      )
      expect(relative).toBe("https://app.example.com/custom")
    }))

  it.effect("with neither an app URL nor a browser location, a default fails with CallbackUrlRequired", () =>
    Effect.gen(function* () {
      expect((globalThis as { location?: unknown }).location).toBeUndefined()
      const error = yield* Effect.flip(HandlerUrls.callbackUrl("emailVerification", "verificationCallbackUrl"))
      expect(error._tag).toBe("CallbackUrlRequired")
      expect(error.message).toBe(
        "verificationCallbackUrl option is required in a non-browser environment. Pass verificationCallbackUrl (an absolute URL), or provide " +
          "HandlerUrls.layer({ appUrl: \"https://your.app\" }) so the emailVerification page (/handler/email-verification) is resolved against your app."
      )
      if (error._tag === "CallbackUrlRequired") expect(error.handler).toBe("emailVerification")
      // the service alone (paths, no app URL) does not help either
      const withService = yield* Effect.flip(
        HandlerUrls.callbackUrl("passwordReset", "callbackUrl").pipe(Effect.provide(HandlerUrls.layer()))
      )
      expect(withService._tag).toBe("CallbackUrlRequired")
    }))

  it.effect("in a browser the base is globalThis.location, and after_auth_return_to is kept", () =>
    withLocation(
      "https://shop.example.com/account/page?after_auth_return_to=%2Fcart#top",
      Effect.gen(function* () {
        const url = yield* HandlerUrls.callbackUrl("emailVerification", "callbackUrl")
        expect(url).toBe("https://shop.example.com/handler/email-verification?after_auth_return_to=%2Fcart")
        // an app URL wins over the page as the base; the page's return-to is still kept
        const withApp = yield* HandlerUrls.callbackUrl("emailVerification", "callbackUrl").pipe(
          Effect.provide(HandlerUrls.layer({ appUrl: "https://app.example.com" }))
        )
        expect(withApp).toBe("https://app.example.com/handler/email-verification?after_auth_return_to=%2Fcart")
      })
    ))

  it.effect("a malformed app URL is an InvalidArgument", () =>
    Effect.gen(function* () {
      const result = yield* Effect.result(HandlerUrls.make({ appUrl: "not a url" }))
      expect(Result.isFailure(result) && result.failure._tag).toBe("InvalidArgument")
      const ok = yield* HandlerUrls.make({ appUrl: "https://a.example.com" })
      expect(Option.getOrThrow(ok.appUrl)).toBe("https://a.example.com")
    }))
})
