/**
 * OAuth in the SDK against the in-process emulator: the authorize request, PKCE and the verifier
 * cookie, the callback (no-ops, errors on the URL, destinations), linking, and connected accounts.
 * The page is an in-memory `OAuthBrowser` whose navigation follows the mock provider in process.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted, Result } from "effect"
import { TestClock } from "effect/testing"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Password from "../../src/auth/Password.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import * as Emulator from "../../src/emulator/index.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { Session } from "../../src/session/Session.js"
import { makeEmulator } from "../emulator/helpers.js"

const appUrl = "http://localhost:3000"

/** Follows the mock provider (auto-approve) and the service's callback; returns where the page lands. */
const follow = (emulator: Emulator.Emulator, url: string, email: string) =>
  Effect.gen(function* () {
    const approve = yield* emulator.handle(new Request(`${url}&auto=1&email=${encodeURIComponent(email)}`))
    const callback = yield* emulator.handle(new Request(approve.headers.get("location")!))
    return callback.headers.get("location") ?? url
  })

const setup = (options: { readonly emulatorOptions?: Emulator.EmulatorOptions; readonly withKey?: boolean; readonly url?: string } = {}) =>
  Effect.gen(function* () {
    const emulator = yield* makeEmulator(options.emulatorOptions)
    const requests: Array<string> = []
    const recording: Emulator.Emulator = {
      ...emulator,
      handle: (request) =>
        Effect.suspend(() => {
          requests.push(request.url)
          return emulator.handle(request)
        })
    }
    const identity = { email: "octo@example.com" }
    const page = OAuthBrowser.makeMemory({ url: options.url ?? `${appUrl}/sign-in`, onNavigate: (url) => follow(emulator, url, identity.email) })
    const stack = Stack.layerClient({
      projectId: emulator.demo.projectId,
      ...(options.withKey === false ? {} : { publishableClientKey: emulator.demo.publishableClientKey }),
      httpClient: Emulator.layerHttpClient(recording)
    })
    const layer = Layer.merge(stack, page.layer)
    const authorizeRequests = () => requests.filter((url) => url.includes("/auth/oauth/authorize/")).map((url) => new URL(url))
    return { emulator, page, layer, identity, authorizeRequests }
  })

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url")

describe("OAuth: PKCE and state", () => {
  it.effect("the verifier is 32 random bytes as 43 base64url characters; the challenge is its SHA-256", () =>
    Effect.gen(function* () {
      const verifier = yield* OAuth.makeCodeVerifier
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(verifier, "base64url")).toHaveLength(32)
      expect(yield* OAuth.codeChallengeOf(verifier)).toBe(sha256(verifier))
      expect(yield* OAuth.codeChallengeOf("ADysM1nZmSEVUVGgAbaKER4HDBm3B_qzMw9dHBOcY0E")).toBe("_Nu7H40DTNKuiX03c84_DnorUt50i5i5mGN3VnOLE_E")
      expect(yield* OAuth.makeCodeVerifier).not.toBe(verifier)
      expect(yield* OAuth.makeState).toMatch(/^[A-Za-z0-9_-]{22}$/)
    }))
})

describe("OAuth: signInWithOAuth", () => {
  it.effect("fetches the authorize URL in JSON mode with every parameter, keeps the verifier for 1 h, navigates to the provider", () =>
    Effect.gen(function* () {
      const { emulator, page, layer, authorizeRequests } = yield* setup({ url: `${appUrl}/sign-in?code=old&state=old&keep=1#frag` })
      const started = yield* OAuth.signInWithOAuth({
        provider: "GitHub",
        redirectUri: "/handler/oauth-callback?code=stale&state=stale&after_auth_return_to=%2Fpage",
        afterCallbackRedirectUrl: "/dashboard",
        scopes: ["repo", "read:org"]
      }).pipe(Effect.provide(layer))
      const [request] = authorizeRequests()
      expect(request!.pathname).toBe("/api/v1/auth/oauth/authorize/github")
      const query = Object.fromEntries(request!.searchParams)
      expect(query).toEqual({
        client_id: emulator.demo.projectId,
        client_secret: emulator.demo.publishableClientKey,
        redirect_uri: `${appUrl}/handler/oauth-callback?after_auth_return_to=%2Fpage`,
        scope: "legacy",
        state: started.state,
        grant_type: "authorization_code",
        code_challenge: expect.any(String),
        code_challenge_method: "S256",
        response_type: "code",
        type: "authenticate",
        provider_scope: "repo read:org",
        error_redirect_url: `${appUrl}/handler/error`,
        after_callback_redirect_url: `${appUrl}/dashboard`,
        stack_response_mode: "json"
      })
      const cookie = page.jar.get(`stack-oauth-outer-${started.state}`)!
      expect(cookie.maxAgeSeconds).toBe(3600)
      expect(cookie.raw).toContain("Max-Age=3600")
      expect(cookie.raw).toContain("Path=/")
      expect(cookie.raw).not.toContain("HttpOnly")
      expect(query["code_challenge"]).toBe(sha256(cookie.value))
      expect(cookie.value).toHaveLength(43)
      expect(page.navigations).toEqual([started.location])
      expect(new URL(started.location).pathname).toBe("/api/v1/emulator/oauth-provider/github/authorize")
      // the provider sent the page back to the callback
      expect(page.url()).toMatch(/^http:\/\/localhost:3000\/handler\/oauth-callback\?after_auth_return_to=%2Fpage&code=[0-9a-f]{64}&state=/)
    }))

  it.effect("without a publishable key the secret is the public-client sentinel; a signed-in user's token is sent", () =>
    Effect.gen(function* () {
      const { layer, authorizeRequests } = yield* setup({ withKey: false })
      yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse", noVerificationCallback: true })
        yield* OAuth.signInWithOAuth({ provider: "github" })
      }).pipe(Effect.provide(layer))
      const [anonymous, signedIn] = authorizeRequests()
      expect(anonymous!.searchParams.get("client_secret")).toBe("__stack_public_client__")
      expect(anonymous!.searchParams.has("token")).toBe(false)
      expect(anonymous!.searchParams.has("after_callback_redirect_url")).toBe(false)
      expect(signedIn!.searchParams.get("token")).toMatch(/^eyJ/)
    }))

  it.effect("a disabled provider and an untrusted URL are typed errors, and nothing is written or navigated", () =>
    Effect.gen(function* () {
      const { page, layer } = yield* setup()
      const unknown = yield* Effect.flip(OAuth.signInWithOAuth({ provider: "facebook" }).pipe(Effect.provide(layer)))
      expect(unknown._tag).toBe("OauthProviderNotFoundOrNotEnabled")
      const untrusted = yield* Effect.flip(
        OAuth.signInWithOAuth({ provider: "github", afterCallbackRedirectUrl: "https://evil.example.com/" }).pipe(Effect.provide(layer))
      )
      expect(untrusted._tag).toBe("RedirectUrlNotWhitelisted")
      expect(page.jar.size).toBe(0)
      expect(page.navigations).toEqual([])
    }))
})

describe("OAuth: handleCallback", () => {
  it.effect("a new user: stores the tokens, deletes the cookie, strips code/state, goes to after-sign-up", () =>
    Effect.gen(function* () {
      const { page, layer } = yield* setup()
      const outcome = yield* Effect.gen(function* () {
        const started = yield* OAuth.signInWithOAuth({ provider: "github" })
        const result = yield* OAuth.handleCallback({ afterSignIn: "/home", afterSignUp: "/welcome" })
        const user = yield* Users.getCurrent()
        return { started, result, user }
      }).pipe(Effect.provide(layer))
      expect(outcome.result).toEqual(Option.some({ redirectUrl: "/welcome", isNewUser: true }))
      expect(Option.getOrThrow(outcome.user)).toMatchObject({
        primaryEmail: "octo@example.com",
        primaryEmailVerified: true,
        hasPassword: false,
        oauthProviders: [{ id: "github", accountId: "octo@example.com", email: "octo@example.com" }]
      })
      expect(page.jar.has(`stack-oauth-outer-${outcome.started.state}`)).toBe(false)
      expect(page.replacements).toEqual([`${appUrl}/handler/oauth-callback`])
      expect(page.url()).toBe(`${appUrl}/handler/oauth-callback`)
    }))

  it.effect("a returning user goes to after-sign-in (after-sign-up defaults to it, both to /); after_callback_redirect_url wins", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      const results = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const first = yield* OAuth.handleCallback({ afterSignIn: "/home" })
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const second = yield* OAuth.handleCallback({ afterSignIn: "/home", afterSignUp: "/welcome" })
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const defaults = yield* OAuth.handleCallback()
        yield* OAuth.signInWithOAuth({ provider: "github", afterCallbackRedirectUrl: "/dashboard" })
        const echoed = yield* OAuth.handleCallback({ afterSignIn: "/home" })
        return { first, second, defaults, echoed }
      }).pipe(Effect.provide(layer))
      expect(results.first).toEqual(Option.some({ redirectUrl: "/home", isNewUser: true }))
      expect(results.second).toEqual(Option.some({ redirectUrl: "/home", isNewUser: false }))
      expect(results.defaults).toEqual(Option.some({ redirectUrl: "/", isNewUser: false }))
      expect(results.echoed).toEqual(Option.some({ redirectUrl: `${appUrl}/dashboard`, isNewUser: false }))
    }))

  it.effect("no code/state, no cookie, or an expired cookie: a silent no-op", () =>
    Effect.gen(function* () {
      const { page, layer } = yield* setup()
      const outcome = yield* Effect.gen(function* () {
        const plain = yield* OAuth.handleCallback(`${appUrl}/handler/oauth-callback`)
        const noCookie = yield* OAuth.handleCallback(`${appUrl}/handler/oauth-callback?code=abc&state=unknown`)
        const started = yield* OAuth.signInWithOAuth({ provider: "github" })
        yield* TestClock.adjust("61 minutes")
        const expired = yield* OAuth.handleCallback()
        const session = yield* (yield* Session).current
        return { plain, noCookie, expired, started, session }
      }).pipe(Effect.provide(layer))
      expect(outcome.plain).toEqual(Option.none())
      expect(outcome.noCookie).toEqual(Option.none())
      expect(outcome.expired).toEqual(Option.none())
      expect(Option.isNone(outcome.session.refreshToken)).toBe(true)
      expect(page.replacements).toEqual([])
    }))

  it.effect("an errorCode on the URL is the typed known error, rebuilt with message and details; the parameters are stripped", () =>
    Effect.gen(function* () {
      const { page, layer } = yield* setup()
      const details = { type: "email", contact_channel_value: "a@example.com", would_work_if_email_was_verified: true }
      page.setUrl(
        `${appUrl}/handler/oauth-callback?keep=1&error=server_error&error_description=x&errorCode=CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE&message=Already+used&details=${
          encodeURIComponent(JSON.stringify(details))
        }`
      )
      const error = yield* Effect.flip(OAuth.handleCallback().pipe(Effect.provide(layer)))
      expect(error._tag).toBe("ContactChannelAlreadyUsedForAuthBySomeoneElse")
      expect(error.message).toBe("Already used")
      expect((error as { details: unknown }).details).toEqual(details)
      expect(page.url()).toBe(`${appUrl}/handler/oauth-callback?keep=1`)

      const unknown = yield* Effect.flip(
        OAuth.handleCallback(`${appUrl}/cb?errorCode=SOMETHING_NEW&message=New`).pipe(Effect.provide(layer))
      )
      expect(unknown).toMatchObject({ _tag: "UnsupportedKnownError", code: "SOMETHING_NEW", message: "New" })
      const bare = yield* Effect.flip(OAuth.handleCallback(`${appUrl}/cb?error=access_denied`).pipe(Effect.provide(layer)))
      expect(bare).toMatchObject({ _tag: "OAuthCallbackError", message: "Error signing in during OAuth callback. Please try again." })
    }))

  it.effect("a failure delivered by the service (sign-up disabled) comes back as SignUpNotEnabled", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup({ emulatorOptions: { demo: { config: { signUpEnabled: false } } } })
      const error = yield* Effect.flip(
        Effect.gen(function* () {
          yield* OAuth.signInWithOAuth({ provider: "github" })
          return yield* OAuth.handleCallback()
        }).pipe(Effect.provide(layer))
      )
      expect(error._tag).toBe("SignUpNotEnabled")
    }))

  it.effect("a failed code exchange is OAuthCallbackError with the cause; the cookie is gone", () =>
    Effect.gen(function* () {
      const { page, layer } = yield* setup()
      const error = yield* Effect.flip(
        Effect.gen(function* () {
          const started = yield* OAuth.signInWithOAuth({ provider: "github" })
          // a verifier that does not match the challenge
          page.jar.set(`stack-oauth-outer-${started.state}`, { ...page.jar.get(`stack-oauth-outer-${started.state}`)!, value: "x".repeat(43) })
          return yield* OAuth.handleCallback()
        }).pipe(Effect.provide(layer))
      )
      expect(error).toMatchObject({ _tag: "OAuthCallbackError", message: "Error signing in during OAuth callback. Please try again." })
      expect((error as OAuth.OAuthCallbackError).cause).toMatchObject({ _tag: "InvalidAuthorizationCode" })
      expect([...page.jar.keys()].filter((name) => name.startsWith("stack-oauth-outer-"))).toEqual([])
    }))

  it.effect("MULTI_FACTOR_AUTHENTICATION_REQUIRED surfaces with the attempt code", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      const error = yield* Effect.flip(
        Effect.gen(function* () {
          yield* OAuth.signInWithOAuth({ provider: "github" })
          yield* OAuth.handleCallback()
          yield* Users.updateCurrent({ totpSecretBase64: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=" })
          yield* OAuth.signInWithOAuth({ provider: "github" })
          return yield* OAuth.handleCallback()
        }).pipe(Effect.provide(layer))
      )
      expect(error._tag).toBe("MultiFactorAuthenticationRequired")
      expect((error as { details: { attempt_code: string } }).details.attempt_code).toHaveLength(45)
    }))
})

describe("OAuth: the configured handler pages (HandlerUrls, issue 15 item 2)", () => {
  it.effect("with HandlerUrls handler \"/auth\" the authorize request sends redirect_uri …/auth/oauth-callback and error_redirect_url …/auth/error", () =>
    Effect.gen(function* () {
      const { page, layer, authorizeRequests } = yield* setup()
      yield* OAuth.signInWithOAuth({ provider: "github" }).pipe(
        Effect.provide(Layer.merge(layer, HandlerUrls.layer({ handler: "/auth", afterSignUp: "/welcome" })))
      )
      const [request] = authorizeRequests()
      expect(request!.searchParams.get("redirect_uri")).toBe(`${appUrl}/auth/oauth-callback`)
      expect(request!.searchParams.get("error_redirect_url")).toBe(`${appUrl}/auth/error`)
      expect(page.url()).toMatch(/^http:\/\/localhost:3000\/auth\/oauth-callback\?code=/)
    }))

  it.effect("explicit oauthCallback and error pages of HandlerUrls are used, resolved against its appUrl", () =>
    Effect.gen(function* () {
      const { layer, authorizeRequests } = yield* setup({ url: "http://127.0.0.1:3000/sign-in" })
      yield* OAuth.signInWithOAuth({ provider: "github" }).pipe(
        Effect.provide(Layer.merge(layer, HandlerUrls.layer({ appUrl, oauthCallback: "/cb/oauth", error: "/oops" })))
      )
      const [request] = authorizeRequests()
      expect(request!.searchParams.get("redirect_uri")).toBe(`${appUrl}/cb/oauth`)
      expect(request!.searchParams.get("error_redirect_url")).toBe(`${appUrl}/oops`)
    }))

  it.effect("a new user goes to HandlerUrls' afterSignUp, a returning user to its afterSignIn; the options still win", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      const urls = HandlerUrls.layer({ handler: "/auth", afterSignIn: "/home", afterSignUp: "/welcome" })
      const results = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const newUser = yield* OAuth.handleCallback()
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const returning = yield* OAuth.handleCallback()
        yield* OAuth.signInWithOAuth({ provider: "github" })
        const explicit = yield* OAuth.handleCallback({ afterSignIn: "/mine" })
        return { newUser, returning, explicit }
      }).pipe(Effect.provide(Layer.merge(layer, urls)))
      expect(results.newUser).toEqual(Option.some({ redirectUrl: "/welcome", isNewUser: true }))
      expect(results.returning).toEqual(Option.some({ redirectUrl: "/home", isNewUser: false }))
      expect(results.explicit).toEqual(Option.some({ redirectUrl: "/mine", isNewUser: false }))
    }))

  it.effect("a new user goes to the option's afterSignIn when HandlerUrls sets no afterSignUp of its own", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      const result = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github" })
        return yield* OAuth.handleCallback({ afterSignIn: "/home" })
      }).pipe(Effect.provide(Layer.merge(layer, HandlerUrls.layer({ handler: "/auth" }))))
      expect(result).toEqual(Option.some({ redirectUrl: "/home", isNewUser: true }))
    }))
})

describe("OAuth: linkAccount", () => {
  it.effect("links the provider account to the signed-in user and returns to the page it started from", () =>
    Effect.gen(function* () {
      const { page, layer, authorizeRequests, identity } = yield* setup({ url: `${appUrl}/account/settings` })
      identity.email = "gh-ada@example.com"
      const outcome = yield* Effect.gen(function* () {
        const signedUp = yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse", noVerificationCallback: true })
        yield* OAuth.linkAccount({ provider: "github" })
        const result = yield* OAuth.handleCallback()
        const user = yield* Users.getCurrent()
        const accounts = yield* ConnectedAccounts.list()
        const providers = yield* ConnectedAccounts.listOAuthProviders()
        return { signedUp, result, user, accounts, providers }
      }).pipe(Effect.provide(layer))
      const [request] = authorizeRequests()
      expect(request!.searchParams.get("type")).toBe("link")
      expect(request!.searchParams.get("token")).toMatch(/^eyJ/)
      expect(request!.searchParams.get("after_callback_redirect_url")).toBe(`${appUrl}/account/settings`)
      expect(outcome.result).toEqual(Option.some({ redirectUrl: `${appUrl}/account/settings`, isNewUser: false }))
      const user = Option.getOrThrow(outcome.user)
      expect(user.id).toBe(outcome.signedUp.userId)
      expect(user.primaryEmail).toBe("ada@example.com")
      expect(user.oauthProviders).toEqual([{ id: "github", accountId: "gh-ada@example.com", email: "gh-ada@example.com" }])
      expect(outcome.accounts).toMatchObject([{ userId: user.id, provider: "github", providerAccountId: "gh-ada@example.com" }])
      expect(outcome.providers).toMatchObject([{ userId: user.id, type: "github", providerConfigId: "github", allowSignIn: true }])
      expect(page.navigations).toHaveLength(1)
    }))

  it.effect("needs a signed-in user", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      const error = yield* Effect.flip(OAuth.linkAccount({ provider: "github" }).pipe(Effect.provide(layer)))
      expect(error._tag).toBe("UserNotSignedIn")
    }))

  it.effect("a token with less than 45 s left is refreshed before it is sent", () =>
    Effect.gen(function* () {
      const { layer, authorizeRequests } = yield* setup()
      const tokens = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "ada@example.com", password: "correct horse", noVerificationCallback: true })
        const before = yield* (yield* Session).current
        // 600 s tokens: 30 s left is still usable for requests (≥ 20 s) but not for linking
        yield* TestClock.adjust("570 seconds")
        yield* OAuth.linkAccount({ provider: "github" })
        const after = yield* (yield* Session).current
        return { before, after }
      }).pipe(Effect.provide(layer))
      const sent = authorizeRequests()[0]!.searchParams.get("token")
      const before = Redacted.value(Option.getOrThrow(tokens.before.accessToken))
      const after = Redacted.value(Option.getOrThrow(tokens.after.accessToken))
      expect(before).not.toBe(after)
      expect(sent).toBe(after)
    }))
})

describe("ConnectedAccounts", () => {
  it.effect("provider access tokens: a token, none for a missing scope or an unconnected provider, errors for disabled providers", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      const outcome = yield* Effect.gen(function* () {
        yield* OAuth.signInWithOAuth({ provider: "github", scopes: ["repo"] })
        yield* OAuth.handleCallback()
        const token = yield* ConnectedAccounts.getAccessToken({ provider: "github", scope: ["repo"] })
        const byAccount = yield* ConnectedAccounts.getAccessToken({ provider: "github", accountId: "octo@example.com" })
        const missingScope = yield* ConnectedAccounts.getAccessToken({ provider: "github", scope: "admin:org" })
        const notConnected = yield* ConnectedAccounts.getAccessToken({ provider: "google" })
        const disabled = yield* Effect.result(ConnectedAccounts.getAccessToken({ provider: "facebook" }))
        return { token, byAccount, missingScope, notConnected, disabled }
      }).pipe(Effect.provide(layer))
      expect(Redacted.value(Option.getOrThrow(outcome.token))).toHaveLength(43)
      expect(Option.isSome(outcome.byAccount)).toBe(true)
      expect(outcome.missingScope).toEqual(Option.none())
      expect(outcome.notConnected).toEqual(Option.none())
      expect(Result.isFailure(outcome.disabled) && outcome.disabled.failure._tag).toBe("OauthProviderNotFoundOrNotEnabled")
    }))

  it.effect("shared keys: OauthAccessTokenNotAvailableWithSharedOauthKeys", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup({
        emulatorOptions: { demo: { config: { oauthProviders: [{ id: "github", provider: "github", type: "shared" }] } } }
      })
      const exit = yield* Effect.exit(
        Effect.gen(function* () {
          yield* OAuth.signInWithOAuth({ provider: "github" })
          yield* OAuth.handleCallback()
          return yield* ConnectedAccounts.getAccessToken({ provider: "github" })
        }).pipe(Effect.provide(layer))
      )
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("OauthAccessTokenNotAvailableWithSharedOauthKeys")
    }))
})

describe("OAuthBrowser", () => {
  it.effect("the browser layer uses document.cookie, location.assign and history.replaceState; without them it is unavailable", () =>
    Effect.gen(function* () {
      const unavailable = yield* Effect.flip(OAuthBrowser.makeBrowser)
      expect(unavailable._tag).toBe("OAuthBrowserUnavailable")

      const calls: Array<string> = []
      const fake = {
        document: { cookie: "a=1; stack-oauth-outer-s=v%2Fx" },
        location: { href: `${appUrl}/page`, assign: (url: string) => calls.push(`assign ${url}`) },
        history: { state: null, replaceState: (_: unknown, __: string, url?: string) => calls.push(`replace ${url}`) }
      }
      const g = globalThis as Record<string, unknown>
      const saved = { document: g["document"], location: g["location"], history: g["history"] }
      Object.assign(g, fake)
      try {
        const browser = yield* OAuthBrowser.makeBrowser
        expect(yield* browser.currentUrl).toBe(`${appUrl}/page`)
        expect((yield* browser.cookies).get("stack-oauth-outer-s")).toBe("v/x")
        yield* browser.setCookie("stack-oauth-outer-t=w; Path=/; Max-Age=3600; SameSite=Lax")
        expect(fake.document.cookie).toBe("stack-oauth-outer-t=w; Path=/; Max-Age=3600; SameSite=Lax")
        yield* browser.navigate("https://provider.example.com/auth")
        yield* browser.replaceUrl(`${appUrl}/handler/oauth-callback`)
        expect(calls).toEqual(["assign https://provider.example.com/auth", `replace ${appUrl}/handler/oauth-callback`])
      } finally {
        Object.assign(g, saved)
        for (const key of ["document", "location", "history"] as const) if (saved[key] === undefined) delete g[key]
      }
    }))
})
