/**
 * End to end over real HTTP against the emulator (issue 13 item 3): a wrong key or an unknown
 * project fails a call as one `ConfigurationError` whose `reason` is the service's known error; a
 * refresh token the service no longer knows fails the refresh grant as a `SessionError`, and inside
 * a session it signs the user out as before (tokens cleared, `UserNotSignedIn`).
 */
import { Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import { makeRefreshGrant, refreshGrant } from "../../src/session/RefreshGrant.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countingFetch, startServer } from "./support.js"

describe("grouped errors end to end over HTTP against the emulator", () => {
  let emulator: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    emulator = await startServer()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  const demo = () => emulator.server.emulator.demo
  const credentials = { email: "nobody@example.com", password: "correct horse battery" }

  it("a wrong publishable key: ConfigurationError with reason InvalidPublishableClientKey (its project id in details), one request", async () => {
    const fetch = countingFetch()
    const layer = Stack.layerClient({
      projectId: demo().projectId,
      publishableClientKey: "pck_wrongwrongwrongwrongwrongwrongwrongwrongwrong",
      baseUrl: emulator.server.baseUrl,
      httpClient: fetch.layer
    })
    const error = await Effect.runPromise(Effect.flip(Password.signInWithPassword(credentials)).pipe(Effect.provide(layer)))
    expect(fetch.count("POST /auth/password/sign-in")).toBe(1)
    expect(error._tag).toBe("ConfigurationError")
    if (error._tag !== "ConfigurationError") return
    expect(error.reason).toBeInstanceOf(KnownErrors.InvalidPublishableClientKey)
    expect(error.reason.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY")
    if (error.reason._tag === "InvalidPublishableClientKey") expect(error.reason.details.project_id).toBe(demo().projectId)
    expect(error.message).toContain(error.reason.message)
  })

  it("an unknown project: ConfigurationError with reason CurrentProjectNotFound", async () => {
    const layer = Stack.layerClient({
      projectId: "00000000-0000-4000-8000-000000000000",
      publishableClientKey: demo().publishableClientKey,
      baseUrl: emulator.server.baseUrl
    })
    const error = await Effect.runPromise(Effect.flip(Password.signInWithPassword(credentials)).pipe(Effect.provide(layer)))
    expect(error._tag === "ConfigurationError" && error.reason._tag).toBe("CurrentProjectNotFound")
  })

  it("a wrong secret server key: ConfigurationError with reason InvalidSecretServerKey", async () => {
    const layer = Stack.layerServer({
      projectId: demo().projectId,
      publishableClientKey: demo().publishableClientKey,
      secretServerKey: "ssk_wrongwrongwrongwrongwrongwrongwrongwrongwrong",
      baseUrl: emulator.server.baseUrl
    })
    const error = await Effect.runPromise(Effect.flip(ServerUsers.getById("2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11")).pipe(Effect.provide(layer)))
    expect(error._tag === "ConfigurationError" && error.reason._tag).toBe("InvalidSecretServerKey")
  })

  it("the refresh grant with a refresh token the service does not know: SessionError with reason RefreshTokenNotFoundOrExpired", async () => {
    const fetch = countingFetch()
    const layer = Stack.layerClient({
      projectId: demo().projectId,
      publishableClientKey: demo().publishableClientKey,
      baseUrl: emulator.server.baseUrl,
      httpClient: fetch.layer
    })
    const grant = makeRefreshGrant({
      projectId: demo().projectId,
      publishableClientKey: Redacted.make(demo().publishableClientKey),
      refreshToken: Redacted.make("unknownrefreshtoken000000000000000000000000000")
    })
    const error = await Effect.runPromise(Effect.flip(Endpoint.call(refreshGrant, { payload: grant })).pipe(Effect.provide(layer)))
    expect(fetch.count("POST /auth/oauth/token")).toBe(1)
    expect(error._tag === "SessionError" && error.reason).toBeInstanceOf(KnownErrors.RefreshTokenNotFoundOrExpired)
  })

  it("inside a session the same answer signs out as before: both tokens cleared, UserNotSignedIn for a call that needs a user", async () => {
    const fetch = countingFetch()
    const initial: TokenStore.StoredTokens = {
      accessToken: Option.some(Redacted.make("not-a-jwt")),
      refreshToken: Option.some(Redacted.make("unknownrefreshtoken000000000000000000000000000"))
    }
    const layer = Stack.layerClient({
      projectId: demo().projectId,
      publishableClientKey: demo().publishableClientKey,
      baseUrl: emulator.server.baseUrl,
      httpClient: fetch.layer,
      tokenStore: TokenStore.layerMemory(initial)
    })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const error = yield* Effect.flip(Users.updateCurrent({ displayName: "Ada" }))
        const store = yield* TokenStore.TokenStore
        return { error, after: yield* store.get }
      }).pipe(Effect.provide(layer))
    )
    expect(fetch.count("POST /auth/oauth/token")).toBe(1)
    expect(fetch.count("PATCH /users/me")).toBe(0)
    expect(outcome.error._tag).toBe("UserNotSignedIn")
    expect(Option.isNone(outcome.after.accessToken) && Option.isNone(outcome.after.refreshToken)).toBe(true)
  })
})
