/**
 * Redirects (SPEC.md §2, PROTOCOL.md §5.4): handler pages, `after_auth_return_to` added and
 * honoured, the trusted-URL check before any navigation, the four redirect methods, and the
 * 2000 ms wait after navigating (TestClock: no real sleeping).
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { getUser } from "../../src/auth/GetUser.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Redirects from "../../src/urls/Redirects.js"
import { clientDevice, makeEmulator } from "../auth/flowsSupport.js"
import { realPause } from "../support/fixtures.js"

interface Navigation {
  readonly url: string
  readonly replace: boolean
}

/** A custom method that records navigations, on a given current page. */
const recorder = (currentUrl: string | undefined, options: Redirects.NavigateFunctionOptions = {}) => {
  const navigations: Array<Navigation> = []
  const method = Redirects.methodCustom((url, { replace }) => {
    navigations.push({ url, replace })
  }, { currentUrl: () => currentUrl, ...options })
  return { navigations, layer: Redirects.layerMethod(method) }
}

/** Runs without waiting: the wait is tested on its own below. */
const instant = { wait: Duration.zero }

/** Runs with a fake browser `location`, restored afterwards. */
const withLocation = <A, E, R>(href: string, effect: (calls: Array<string>) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = Object.getOwnPropertyDescriptor(globalThis, "location")
      const calls: Array<string> = []
      const location = {
        href,
        assign: (url: string) => void calls.push(`assign ${url}`),
        replace: (url: string) => void calls.push(`replace ${url}`)
      }
      Object.defineProperty(globalThis, "location", { value: location, configurable: true, writable: true })
      return { previous, calls }
    }),
    ({ calls }) => effect(calls),
    ({ previous }) =>
      Effect.sync(() => {
        if (previous === undefined) delete (globalThis as { location?: unknown }).location
        else Object.defineProperty(globalThis, "location", previous)
      })
  )

describe("HandlerUrls pages", () => {
  it("every page of SPEC.md §2 and PROTOCOL.md §5.4, including mfa, onboarding and cli-auth-confirm", () => {
    expect(HandlerUrls.defaultPaths).toEqual({
      handler: "/handler",
      signIn: "/handler/sign-in",
      signUp: "/handler/sign-up",
      signOut: "/handler/sign-out",
      emailVerification: "/handler/email-verification",
      passwordReset: "/handler/password-reset",
      forgotPassword: "/handler/forgot-password",
      oauthCallback: "/handler/oauth-callback",
      magicLinkCallback: "/handler/magic-link-callback",
      accountSettings: "/handler/account-settings",
      teamInvitation: "/handler/team-invitation",
      error: "/handler/error",
      mfa: "/handler/mfa",
      onboarding: "/handler/onboarding",
      cliAuthConfirm: "/handler/cli-auth-confirm",
      home: "/",
      afterSignIn: "/",
      afterSignUp: "/",
      afterSignOut: "/"
    })
    const paths = HandlerUrls.pathsFor({ handler: "/auth", home: "/app", cliAuthConfirm: "/cli" })
    expect([paths.mfa, paths.onboarding, paths.cliAuthConfirm, paths.afterSignIn, paths.afterSignUp, paths.afterSignOut]).toEqual([
      "/auth/mfa",
      "/auth/onboarding",
      "/cli",
      "/app",
      "/app",
      "/app"
    ])
  })
})

describe("Redirects", () => {
  it.effect("waits 2000 ms on the Clock after navigating, then completes", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/dashboard")
      const fiber = yield* Effect.forkChild(Redirects.redirectToHome().pipe(Effect.provide(layer)))
      yield* TestClock.adjust("1999 millis")
      expect(navigations).toEqual([{ url: "/", replace: false }])
      expect(Option.isNone(Option.fromUndefinedOr(fiber.pollUnsafe()))).toBe(true)
      yield* TestClock.adjust("1 millis")
      const exit = yield* Fiber.await(fiber)
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(Duration.toMillis(Redirects.redirectWait)).toBe(2000)
    }))

  it.effect("the wait is configurable per method; the none method neither navigates nor waits", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/", { wait: "500 millis" })
      const fiber = yield* Effect.forkChild(Redirects.redirectToSignUp().pipe(Effect.provide(layer)))
      yield* TestClock.adjust("499 millis")
      expect(Option.isNone(Option.fromUndefinedOr(fiber.pollUnsafe()))).toBe(true)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(navigations).toHaveLength(1)

      // no TestClock adjustment needed: nothing to wait for
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(Redirects.layerMethod(Redirects.methodNone)))
      // ...but the target is still checked
      const refused = yield* Effect.flip(
        Redirects.redirectToUrl("//evil.com").pipe(Effect.provide(Redirects.layerMethod(Redirects.methodNone)))
      )
      expect(refused._tag).toBe("UntrustedRedirectUrl")
      expect(refused.message).toBe("Redirect URL //evil.com is not trusted; should be relative.")
    }))

  it.effect("sign-in, sign-up, onboarding and sign-out carry after_auth_return_to = the current page", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/orders/7?tab=items#top", instant)
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(layer))
      yield* Redirects.redirectToSignUp({ replace: true }).pipe(Effect.provide(layer))
      yield* Redirects.redirectToOnboarding().pipe(Effect.provide(layer))
      yield* Redirects.redirectToSignOut().pipe(Effect.provide(layer))
      const back = encodeURIComponent("/orders/7?tab=items#top")
      expect(navigations).toEqual([
        { url: `/handler/sign-in?after_auth_return_to=${back}`, replace: false },
        { url: `/handler/sign-up?after_auth_return_to=${back}`, replace: true },
        { url: `/handler/onboarding?after_auth_return_to=${back}`, replace: false },
        { url: `/handler/sign-out?after_auth_return_to=${back}`, replace: false }
      ])
    }))

  it.effect("a page that already carries after_auth_return_to passes it on; noRedirectBack adds nothing; other pages add nothing", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/handler/sign-up?after_auth_return_to=%2Fcart", instant)
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(layer))
      yield* Redirects.redirectToSignIn({ noRedirectBack: true }).pipe(Effect.provide(layer))
      yield* Redirects.redirectToAccountSettings().pipe(Effect.provide(layer))
      yield* Redirects.redirectToMfa().pipe(Effect.provide(layer))
      expect(navigations.map((n) => n.url)).toEqual([
        "/handler/sign-in?after_auth_return_to=%2Fcart",
        "/handler/sign-in",
        "/handler/account-settings",
        "/handler/mfa"
      ])
    }))

  it.effect("after sign-in / sign-up: after_auth_return_to when present, else the configured pages", () =>
    Effect.gen(function* () {
      const urls = HandlerUrls.layer({ afterSignIn: "/welcome-back", afterSignOut: "/bye" })
      const returning = recorder("https://app.example.com/handler/sign-in?after_auth_return_to=%2Forders%2F7%3Ftab%3Ditems", instant)
      yield* Redirects.redirectToAfterSignIn().pipe(Effect.provide(Layer.merge(returning.layer, urls)))
      yield* Redirects.redirectToAfterSignUp().pipe(Effect.provide(Layer.merge(returning.layer, urls)))
      yield* Redirects.redirectToAfterSignIn({ noRedirectBack: true }).pipe(Effect.provide(Layer.merge(returning.layer, urls)))
      expect(returning.navigations.map((n) => n.url)).toEqual(["/orders/7?tab=items", "/orders/7?tab=items", "/welcome-back"])

      const plain = recorder("https://app.example.com/handler/sign-in", instant)
      yield* Redirects.redirectToAfterSignIn().pipe(Effect.provide(Layer.merge(plain.layer, urls)))
      yield* Redirects.redirectToAfterSignUp().pipe(Effect.provide(Layer.merge(plain.layer, urls)))
      yield* Redirects.redirectToAfterSignOut().pipe(Effect.provide(Layer.merge(plain.layer, urls)))
      // afterSignUp follows afterSignIn (PROTOCOL.md §5.4)
      expect(plain.navigations.map((n) => n.url)).toEqual(["/welcome-back", "/welcome-back", "/bye"])

      // an absolute return-to on the app's own origin is fine too
      const absolute = recorder(`https://app.example.com/handler/sign-in?after_auth_return_to=${encodeURIComponent("https://app.example.com/x")}`, instant)
      yield* Redirects.redirectToAfterSignIn().pipe(Effect.provide(absolute.layer))
      expect(absolute.navigations.map((n) => n.url)).toEqual(["https://app.example.com/x"])
    }))

  it.effect("an untrusted after_auth_return_to fails with UntrustedRedirectUrl and navigates nowhere", () =>
    Effect.gen(function* () {
      for (const evil of ["//evil.com", "https://evil.com/", "javascript:alert(1)", "/%2F%2Fevil.com", "https://app.example.com@evil.com"]) {
        const { navigations, layer } = recorder(
          `https://app.example.com/handler/sign-in?after_auth_return_to=${encodeURIComponent(evil)}`,
          instant
        )
        const error = yield* Effect.flip(Redirects.redirectToAfterSignIn().pipe(Effect.provide(layer)))
        expect(error._tag).toBe("UntrustedRedirectUrl")
        expect(error.message).toBe(`Redirect URL ${evil} is not trusted; should be relative.`)
        expect(navigations).toEqual([])
      }
    }))

  it.effect("redirectToUrl: same origin and trusted domains pass; other origins only when trusted", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/", instant)
      yield* Redirects.redirectToUrl("https://app.example.com/settings").pipe(Effect.provide(layer))
      yield* Redirects.redirectToUrl(new URL("https://app.example.com/u")).pipe(Effect.provide(layer))
      const refused = yield* Effect.flip(Redirects.redirectToUrl("https://shop.partner.example/").pipe(Effect.provide(layer)))
      expect(refused._tag).toBe("UntrustedRedirectUrl")
      const trusted = Layer.merge(layer, Redirects.layerTrust({ trustedDomains: ["https://*.partner.example"] }))
      yield* Redirects.redirectToUrl("https://shop.partner.example/", { replace: true }).pipe(Effect.provide(trusted))
      expect(navigations).toEqual([
        { url: "https://app.example.com/settings", replace: false },
        { url: "https://app.example.com/u", replace: false },
        { url: "https://shop.partner.example/", replace: true }
      ])
    }))

  it.effect("the app URL of HandlerUrls is the origin when the current page is unknown", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder(undefined, instant)
      const urls = HandlerUrls.layer({ appUrl: "https://app.example.com" })
      yield* Redirects.redirectToUrl("https://app.example.com/x").pipe(Effect.provide(Layer.merge(layer, urls)))
      // without a current page nothing is added
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(Layer.merge(layer, urls)))
      const refused = yield* Effect.flip(Redirects.redirectToUrl("https://app.example.com/x").pipe(Effect.provide(layer)))
      expect(refused._tag).toBe("UntrustedRedirectUrl")
      expect(navigations.map((n) => n.url)).toEqual(["https://app.example.com/x", "/handler/sign-in"])
    }))

  it.effect("a handler page on another origin needs a trusted domain, and gets the absolute current URL as return-to", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/orders?x=1", instant)
      const urls = HandlerUrls.layer({ signIn: "https://auth.example.com/handler/sign-in" })
      const refused = yield* Effect.flip(Redirects.redirectToSignIn().pipe(Effect.provide(Layer.merge(layer, urls))))
      expect(refused._tag).toBe("UntrustedRedirectUrl")
      const trusted = Layer.mergeAll(layer, urls, Redirects.layerTrust({ trustedDomains: ["https://auth.example.com"] }))
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(trusted))
      expect(navigations.map((n) => n.url)).toEqual([
        `https://auth.example.com/handler/sign-in?after_auth_return_to=${encodeURIComponent("https://app.example.com/orders?x=1")}`
      ])
    }))

  it.effect("urlFor computes the checked target without navigating", () =>
    Effect.gen(function* () {
      const { navigations, layer } = recorder("https://app.example.com/a?b=c", instant)
      const url = yield* Redirects.urlFor("signIn").pipe(Effect.provide(layer))
      expect(url).toBe("/handler/sign-in?after_auth_return_to=%2Fa%3Fb%3Dc")
      expect(yield* Redirects.ensureTrusted("/x/../y").pipe(Effect.provide(layer))).toBe("/y")
      expect(navigations).toEqual([])
    }))

  it.effect("the CLI confirmation page takes the login code", () =>
    Effect.gen(function* () {
      const withApp = yield* Redirects.cliAuthConfirmUrl("abc123").pipe(
        Effect.provide(Layer.merge(HandlerUrls.layer({ appUrl: "https://app.example.com" }), Redirects.layerMethod(Redirects.methodNone)))
      )
      expect(withApp).toBe("https://app.example.com/handler/cli-auth-confirm?login_code=abc123")
      const relative = yield* Redirects.cliAuthConfirmUrl("abc123").pipe(Effect.provide(Redirects.layerMethod(Redirects.methodNone)))
      expect(relative).toBe("/handler/cli-auth-confirm?login_code=abc123")
      const { navigations, layer } = recorder("https://app.example.com/", instant)
      yield* Redirects.redirectToCliAuthConfirm({ loginCode: "xyz" }).pipe(Effect.provide(layer))
      yield* Redirects.redirectToCliAuthConfirm().pipe(Effect.provide(layer))
      expect(navigations.map((n) => n.url)).toEqual([
        "https://app.example.com/handler/cli-auth-confirm?login_code=xyz",
        "/handler/cli-auth-confirm"
      ])
    }))

  it.effect("window method: location.assign, or location.replace with replace: true; it waits too", () =>
    withLocation("https://app.example.com/page", (calls) =>
      Effect.gen(function* () {
        // the default method is the window method
        const fiber = yield* Effect.forkChild(Redirects.redirectToSignIn())
        yield* TestClock.adjust("2 seconds")
        yield* Fiber.join(fiber)
        const replaced = yield* Effect.forkChild(Redirects.redirectToError({ replace: true }))
        yield* TestClock.adjust("2 seconds")
        yield* Fiber.join(replaced)
        expect(calls).toEqual(["assign /handler/sign-in?after_auth_return_to=%2Fpage", "replace /handler/error"])
      })))

  it.effect("window method outside a browser: RedirectUnavailable, not a defect", () =>
    Effect.gen(function* () {
      expect((globalThis as { location?: unknown }).location).toBeUndefined()
      expect((globalThis as { window?: unknown }).window).toBeUndefined()
      const error = yield* Effect.flip(Redirects.redirectToSignIn())
      expect(error._tag).toBe("RedirectUnavailable")
      if (error._tag === "RedirectUnavailable") expect(error.url).toBe("/handler/sign-in")
      const explicit = yield* Effect.flip(
        Redirects.redirectToHome().pipe(Effect.provide(Redirects.layerMethod(Redirects.methodWindow())))
      )
      expect(explicit._tag).toBe("RedirectUnavailable")
    }))

  it.effect("framework method: router.push / router.replace (awaited); a throwing or rejecting router is RedirectFailed", () =>
    Effect.gen(function* () {
      const calls: Array<string> = []
      const router = {
        push: (url: string) => Promise.resolve().then(() => void calls.push(`push ${url}`)),
        replace: (url: string) => void calls.push(`replace ${url}`)
      }
      const layer = Redirects.layerMethod(Redirects.methodFramework(router, { currentUrl: () => new URL("https://app.example.com/p"), wait: 0 }))
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(layer))
      yield* Redirects.redirectToAfterSignOut({ replace: true }).pipe(Effect.provide(layer))
      expect(calls).toEqual(["push /handler/sign-in?after_auth_return_to=%2Fp", "replace /"])

      const throwing = Redirects.methodFramework(
        {
          push: () => {
            throw new Error("router not mounted")
          },
          replace: () => Promise.reject(new Error("aborted"))
        },
        { currentUrl: () => "https://app.example.com/", wait: 0 }
      )
      const pushed = yield* Effect.flip(Redirects.redirectToHome().pipe(Effect.provide(Redirects.layerMethod(throwing))))
      const replaced = yield* Effect.flip(Redirects.redirectToHome({ replace: true }).pipe(Effect.provide(Redirects.layerMethod(throwing))))
      expect([pushed._tag, replaced._tag]).toEqual(["RedirectFailed", "RedirectFailed"])
      if (pushed._tag === "RedirectFailed") expect(pushed.url).toBe("/")
    }))

  it.effect("a current-URL reader that throws or returns garbage means 'unknown page'", () =>
    Effect.gen(function* () {
      const navigations: Array<string> = []
      const method = Redirects.methodCustom((url) => void navigations.push(url), {
        currentUrl: () => {
          throw new Error("no router")
        },
        wait: 0
      })
      yield* Redirects.redirectToSignIn().pipe(Effect.provide(Redirects.layerMethod(method)))
      const garbage = Redirects.methodCustom((url) => void navigations.push(url), { currentUrl: () => "not a url", wait: 0 })
      yield* Redirects.redirectToSignUp().pipe(Effect.provide(Redirects.layerMethod(garbage)))
      expect(navigations).toEqual(["/handler/sign-in", "/handler/sign-up"])
    }))
})

describe("Redirects.navigationFor (GetUser's Navigation over a redirect method)", () => {
  it.effect("reads the current page and replaces through the method; failures become NavigationUnavailable", () =>
    Effect.gen(function* () {
      const navigations: Array<Navigation> = []
      const method = Redirects.methodCustom((url, { replace }) => void navigations.push({ url, replace }), {
        currentUrl: () => "https://app.example.com/p",
        wait: 0
      })
      const navigation = Redirects.navigationFor(method)
      expect(yield* navigation.currentUrl).toBe("https://app.example.com/p")
      yield* navigation.replace("/handler/sign-in")
      expect(navigations).toEqual([{ url: "/handler/sign-in", replace: true }])

      const none = Redirects.navigationFor(Redirects.methodNone)
      expect((yield* Effect.flip(none.currentUrl))._tag).toBe("NavigationUnavailable")
      const outsideBrowser = Redirects.navigationFor(Redirects.methodWindow())
      const error = yield* Effect.flip(outsideBrowser.replace("/x"))
      expect(error).toMatchObject({ _tag: "NavigationUnavailable", url: "/x" })
    }))

  it.effect("GetUser's navigation passes the trusted-URL check: an untrusted target navigates nowhere", () =>
    Effect.gen(function* () {
      const navigations: Array<Navigation> = []
      const method = Redirects.methodCustom((url, { replace }) => void navigations.push({ url, replace }), {
        currentUrl: () => "https://app.example.com/p",
        wait: 0
      })
      const navigation = Redirects.navigationFor(method)
      for (const target of ["//evil.example", "/..//evil.example", "/%2F%2Fevil.example/%", "https://evil.example/", "javascript:alert(1)"]) {
        const error = yield* Effect.flip(navigation.replace(target))
        expect(error).toMatchObject({
          _tag: "NavigationUnavailable",
          url: target,
          message: `Redirect URL ${target} is not trusted; should be relative.`
        })
      }
      expect(navigations).toEqual([])
      yield* navigation.replace("https://app.example.com/handler/sign-in?after_auth_return_to=%2Fp")
      yield* navigation.replace("https://partner.example.org/x").pipe(
        Effect.provide(Redirects.layerTrust({ trustedDomains: ["https://*.example.org"] }))
      )
      expect(navigations.map((navigation) => navigation.url)).toEqual([
        "https://app.example.com/handler/sign-in?after_auth_return_to=%2Fp",
        "https://partner.example.org/x"
      ])
    }))
})

describe("one navigation service: GetUser.getUser({ or: 'redirect' }) navigates through the RedirectMethod", () => {
  it.effect("getUser({ or: 'redirect' }) navigates through the app's RedirectMethod when no Navigation is given", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const { navigations, layer } = recorder("https://app.example.com/dashboard?tab=2", instant)
      const fiber = yield* Effect.forkChild(getUser({ or: "redirect" }).pipe(Effect.provide(layer), Effect.provide(device.context)))
      for (let i = 0; i < 500 && navigations.length === 0; i++) yield* realPause(1)
      expect(Option.isNone(Option.fromUndefinedOr(fiber.pollUnsafe()))).toBe(true)
      yield* Fiber.interrupt(fiber)
      expect(navigations).toEqual([
        {
          url: "https://app.example.com/handler/sign-in?after_auth_return_to=https%3A%2F%2Fapp.example.com%2Fdashboard%3Ftab%3D2",
          replace: true
        }
      ])
    }))

  it.effect("getUser({ or: 'redirect' }) with the none method (current page unknown) fails with NavigationUnavailable and navigates nowhere", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const device = yield* clientDevice(emulator)
      const error = yield* Effect.flip(
        getUser({ or: "redirect" }).pipe(Effect.provide(Redirects.layerMethod(Redirects.methodNone)), Effect.provide(device.context))
      )
      expect(error._tag).toBe("NavigationUnavailable")
    }))
})
