/**
 * End to end over real HTTP against the emulator server: the cross-domain sign-in hand-over (the
 * official SDK's cross-domain redirect). The receiving domain prepares a PKCE flow
 * (`OAuth.prepareCrossDomainHandOff`), the signed-in domain asks for the redirect
 * (`OAuth.crossDomainRedirectUrl`, `POST /auth/oauth/cross-domain/authorize` with both tokens), and
 * the receiving page's `OAuth.handleCallback` exchanges the code: it is signed in as the same user,
 * holding the same refresh token, and goes to the after-callback URL.
 */
import { Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as OAuth from "../../src/auth/OAuth.js"
import * as OAuthBrowser from "../../src/auth/OAuthBrowser.js"
import * as Password from "../../src/auth/Password.js"
import * as Tokens from "../../src/auth/Tokens.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer()

const receivingCallback = "http://localhost:3001/handler/oauth-callback"

describe("cross-domain hand-over over HTTP against the emulator", () => {
  it("signs the receiving domain in as the same user with the same refresh token; one POST /auth/oauth/cross-domain/authorize", async () => {
    const { fetch, options } = countedConnection(main)
    const receivingPage = OAuthBrowser.makeMemory({ url: "http://localhost:3001/sign-in" })
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const signedIn = yield* Layer.build(Stack.layerClient({ ...options, tokenStore: "memory" }))
          const receiving = yield* Layer.build(Layer.merge(Stack.layerClient({ ...options, tokenStore: "memory" }), receivingPage.layer))
          const user = yield* Password.signUpWithPassword({
            email: `e2e-cross-domain-${Date.now()}@example.com`,
            password: "correct horse",
            noVerificationCallback: true
          }).pipe(
            Effect.provide(signedIn)
          )
          const request = yield* OAuth.prepareCrossDomainHandOff().pipe(Effect.provide(receiving))
          const redirectUrl = yield* OAuth.crossDomainRedirectUrl({
            ...request,
            redirectUri: receivingCallback,
            afterCallbackRedirectUrl: "http://localhost:3001/dashboard"
          }).pipe(
            Effect.provide(signedIn)
          )
          receivingPage.setUrl(redirectUrl)
          const callback = yield* OAuth.handleCallback().pipe(Effect.provide(receiving))
          const receivedUser = yield* Users.getCurrent().pipe(Effect.provide(receiving))
          const sourceHeaders = yield* Tokens.getAuthHeaders().pipe(Effect.provide(signedIn))
          const receivedHeaders = yield* Tokens.getAuthHeaders().pipe(Effect.provide(receiving))
          return { userId: user.userId, redirectUrl, callback, receivedUser, sourceHeaders, receivedHeaders }
        })
      )
    )
    expect(outcome.redirectUrl.startsWith(`${receivingCallback}?code=`)).toBe(true)
    expect(Option.getOrThrow(outcome.callback).redirectUrl).toBe("http://localhost:3001/dashboard")
    expect(Option.getOrThrow(outcome.receivedUser).id).toBe(outcome.userId)
    const refreshOf = (headers: unknown) => JSON.parse((headers as { "x-stack-auth": string })["x-stack-auth"]).refreshToken as string
    expect(refreshOf(outcome.receivedHeaders)).toBe(refreshOf(outcome.sourceHeaders))
    expect(fetch.count("POST /auth/oauth/cross-domain/authorize")).toBe(1)
    expect(fetch.count("POST /auth/oauth/token")).toBe(1)
  })
})
