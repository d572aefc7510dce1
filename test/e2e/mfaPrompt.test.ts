/**
 * The MFA prompt step end to end over real HTTP against the emulator server (issue 15 item 7,
 * SPEC.md §4, §8): `Mfa.continuable` and its `MfaChallenge` for a password sign-in, `Mfa.withPrompt`,
 * and an OAuth callback with `mfa: "prompt"` (right code: signed in; wrong code:
 * "Invalid TOTP code. Please try signing in again.").
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as Mfa from "../../src/auth/Mfa.js"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ passwordHashIterations: 1000 })

const password = "correct horse battery"
const uniqueEmail = (label: string) => `e2e-mfa-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
const wrongCode = (right: string) => String((Number(right) + 500000) % 1000000).padStart(6, "0")

const client = () => {
  const fetch = countingFetch()
  const layer = Stack.layerClient({
    projectId: main.server.emulator.demo.projectId,
    publishableClientKey: main.server.emulator.demo.publishableClientKey,
    baseUrl: main.server.baseUrl,
    httpClient: fetch.layer,
    tokenStore: "memory"
  })
  return { fetch, layer }
}

/** Follows the mock provider (auto-approve) and the service's callback by hand: where the browser lands. */
const followToApp = async (start: string): Promise<string> => {
  let url = start
  while (url.startsWith(main.server.baseUrl)) {
    const response = await fetch(url, { redirect: "manual" })
    const location = response.headers.get("location")
    if (location === null) throw new Error(`no redirect from ${url}: ${response.status}`)
    url = new URL(location, url).href
  }
  return url
}

describe("MFA prompt step over HTTP", () => {
  it("continuable: MfaRequired, a wrong code keeps the challenge, the right one signs in; withPrompt asks once", async () => {
    const { fetch, layer } = client()
    const email = uniqueEmail("password")
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
        const secret = Redacted.value((yield* Mfa.enableTotp()).secret)
        yield* Sessions.signOut()
        const step = yield* Mfa.continuable(Password.signInWithPassword({ email, password }))
        if (step._tag !== "MfaRequired") return yield* Effect.die(new Error("expected the MFA step"))
        const right = yield* Totp.generate(secret)
        const wrong = yield* Effect.flip(step.challenge.submit(wrongCode(right)))
        yield* step.challenge.submit(right)
        const first = yield* Users.getCurrent()
        yield* Sessions.signOut()
        let asked = 0
        yield* Mfa.withPrompt(Password.signInWithPassword({ email, password })).pipe(
          Effect.provideService(Mfa.MfaPrompt, { ask: Effect.sync(() => (asked += 1, Option.some(right))) })
        )
        return { wrong: wrong._tag, first: Option.getOrThrow(first).primaryEmail, asked, second: Option.getOrThrow(yield* Users.getCurrent()).primaryEmail }
      }).pipe(Effect.provide(layer))
    )
    expect(outcome).toEqual({ wrong: "InvalidTotpCode", first: email, asked: 1, second: email })
    expect(fetch.count("POST /auth/mfa/sign-in")).toBe(3)
  })

  const oauthSetup = (email: string) => {
    const { fetch, layer } = client()
    const page = OAuthBrowser.makeMemory({
      url: "http://localhost:3000/sign-in",
      onNavigate: (url) => Effect.promise(() => followToApp(`${url}&auto=1&email=${encodeURIComponent(email)}`))
    })
    return { fetch, layer: Layer.merge(layer, page.layer), page }
  }

  const oauthUserWithTotp = (secret: Uint8Array) =>
    Effect.gen(function* () {
      yield* OAuth.signInWithOAuth({ provider: "github" })
      yield* OAuth.handleCallback()
      yield* Users.updateCurrent({ totpSecretBase64: Totp.toBase64(secret) })
      yield* Sessions.signOut()
      yield* OAuth.signInWithOAuth({ provider: "github" })
    })

  it("OAuth callback with mfa: 'prompt': the right code signs the OAuth user in on the callback page", async () => {
    const email = uniqueEmail("oauth-ok")
    const secret = Totp.randomSecret()
    const { fetch, layer } = oauthSetup(email)
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* oauthUserWithTotp(secret)
        const code = yield* Totp.generate(secret)
        const result = yield* OAuth.handleCallback({ mfa: "prompt" }).pipe(
          Effect.provideService(Mfa.MfaPrompt, { ask: Effect.succeed(Option.some(code)) })
        )
        return { result: Option.getOrThrow(result), user: Option.getOrThrow(yield* Users.getCurrent()).primaryEmail }
      }).pipe(Effect.provide(layer))
    )
    expect(outcome).toEqual({ result: { redirectUrl: "/", isNewUser: false }, user: email })
    expect(fetch.count("POST /auth/mfa/sign-in")).toBe(1)
  })

  it("OAuth callback with mfa: 'prompt': a wrong code is 'Invalid TOTP code. Please try signing in again.' and nobody is signed in", async () => {
    const email = uniqueEmail("oauth-wrong")
    const secret = Totp.randomSecret()
    const { layer } = oauthSetup(email)
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        yield* oauthUserWithTotp(secret)
        const code = yield* Totp.generate(secret)
        const error = yield* Effect.flip(
          OAuth.handleCallback({ mfa: "prompt" }).pipe(Effect.provideService(Mfa.MfaPrompt, { ask: Effect.succeed(Option.some(wrongCode(code))) }))
        )
        return { error, user: yield* Users.getCurrent() }
      }).pipe(Effect.provide(layer))
    )
    expect(outcome.error).toMatchObject({ _tag: "OAuthMfaCodeRejected", message: "Invalid TOTP code. Please try signing in again." })
    expect(Option.isNone(outcome.user)).toBe(true)
  })
})
