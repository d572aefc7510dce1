/**
 * Grouped errors (issue 13 item 3): a configuration answer of the service (unknown project, wrong
 * or missing key) fails a call as one `ConfigurationError`, a rejected session (an access token
 * rejected again after the refresh and retry, a refresh token rejected where a call sends it, a
 * refresh that failed without ending the session) as one `SessionError`; the known error is the
 * typed `reason`, with its code, details and message. Business errors keep their own tags, network
 * failures stay transport errors, and the token rules do not move: tokens are cleared only by a
 * rejected refresh token or a sign-out. Answers come from msw; every assertion counts requests or
 * reads the stored tokens.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import { ConfigurationError, SessionError } from "../../src/core/Errors.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import { makeRefreshGrant, refreshGrant } from "../../src/session/RefreshGrant.js"
import * as Stack from "../../src/Stack.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { freshAccess, json, knownError, sessionMocks, tokenResponse } from "../session/sessionMocks.js"
import {
  accessToken,
  apiUrl,
  baseUrl,
  makeMswServer,
  projectId,
  publishableClientKey,
  refreshTokenText,
  secretServerKey,
  sessionLayer,
  tokens,
  userBody
} from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
const { refreshEndpoint, meEndpoint } = sessionMocks(server)

/** A known-error answer with details, as the service sends it. */
const answer = (code: string, status: number, message: string, details: Record<string, unknown>) =>
  HttpResponse.json({ code, error: message, details }, { status, headers: { "x-stack-known-error": code } })

/** Answers `POST /auth/password/sign-in`, counting requests. */
const signInRoute = (reply: () => Response) => {
  const seen = { count: 0 }
  server.use(
    http.post(`${apiUrl}/auth/password/sign-in`, () => {
      seen.count++
      return reply()
    })
  )
  return seen
}

const credentials = { email: "ada@example.com", password: "correct horse battery" }
const stored = Effect.flatMap(TokenStore, (store) => store.get)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))
/** Expires 10 s after the test clock's start: too close to reuse, so the first call refreshes. */
const expiredAccess = accessToken(10)
/** Far from expiry, and another text than the refresh's `freshAccess`. */
const validAccess = accessToken(9_000)

describe("configuration answers fail a call as one ConfigurationError", () => {
  it.effect("INVALID_PUBLISHABLE_CLIENT_KEY: ConfigurationError whose reason is the known error, code, details and message kept", () =>
    Effect.gen(function* () {
      const seen = signInRoute(() => answer("INVALID_PUBLISHABLE_CLIENT_KEY", 401, "The publishable key is not valid.", { project_id: projectId }))
      const error = yield* Effect.flip(Password.signInWithPassword(credentials))
      expect(seen.count).toBe(1)
      expect(error).toBeInstanceOf(ConfigurationError)
      if (error._tag !== "ConfigurationError") return
      expect(error.reason).toBeInstanceOf(KnownErrors.InvalidPublishableClientKey)
      expect(error.reason._tag).toBe("InvalidPublishableClientKey")
      expect(error.reason.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY")
      expect(error.reason.status).toBe(401)
      expect(error.reason.message).toBe("The publishable key is not valid.")
      if (error.reason._tag === "InvalidPublishableClientKey") expect(error.reason.details.project_id).toBe(projectId)
      expect(error.message).toBe("Stack Auth configuration error: The publishable key is not valid.")
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("CURRENT_PROJECT_NOT_FOUND and PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT are reasons of the same error", () =>
    Effect.gen(function* () {
      signInRoute(() => answer("CURRENT_PROJECT_NOT_FOUND", 400, "Project not found.", { project_id: projectId }))
      const unknown = yield* Effect.flip(Password.signInWithPassword(credentials))
      expect(unknown._tag === "ConfigurationError" && unknown.reason._tag).toBe("CurrentProjectNotFound")
      server.resetHandlers()
      signInRoute(() => answer("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", 401, "Publishable client keys are required.", { project_id: projectId }))
      const missing = yield* Effect.flip(Password.signInWithPassword(credentials))
      expect(missing._tag === "ConfigurationError" && missing.reason._tag).toBe("PublishableClientKeyRequiredForProject")
    }).pipe(Effect.provide(sessionLayer())))

  it.effect("a wrong secret server key on a server call: ConfigurationError with reason InvalidSecretServerKey", () =>
    Effect.gen(function* () {
      const userId = "2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11"
      let requests = 0
      server.use(
        http.get(`${apiUrl}/users/${userId}`, () => {
          requests++
          return answer("INVALID_SECRET_SERVER_KEY", 401, "The secret server key is not valid.", { project_id: projectId })
        })
      )
      const error = yield* Effect.flip(ServerUsers.getById(userId))
      expect(requests).toBe(1)
      expect(error._tag === "ConfigurationError" && error.reason).toBeInstanceOf(KnownErrors.InvalidSecretServerKey)
    }).pipe(
      Effect.provide(
        Stack.layerServer({ projectId, baseUrl, publishableClientKey, secretServerKey, retryPolicy: RetryPolicy.layerWith({ attemptTimeout: "none" }) })
      )
    ))
})

describe("business errors keep their own tags", () => {
  it.effect("EMAIL_PASSWORD_MISMATCH: Effect.catchTag(\"EmailPasswordMismatch\") catches it, nothing is grouped", () =>
    Effect.gen(function* () {
      const seen = signInRoute(() => answer("EMAIL_PASSWORD_MISMATCH", 400, "Wrong e-mail or password.", {}))
      const error = yield* Effect.flip(Password.signInWithPassword(credentials))
      expect(error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch)
      const recovered = yield* Password.signInWithPassword(credentials).pipe(
        Effect.as("signed in" as const),
        Effect.catchTag("EmailPasswordMismatch", () => Effect.succeed("wrong password" as const))
      )
      expect(recovered).toBe("wrong password")
      expect(seen.count).toBe(2)
    }).pipe(Effect.provide(sessionLayer())))
})

describe("session rejections and failed refreshes fail a call as one SessionError", () => {
  it.effect("an access token rejected again after the refresh and the retry: SessionError(AccessTokenExpired); the refresh token is kept", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint(() => answer("ACCESS_TOKEN_EXPIRED", 401, "Access token has expired. Please refresh it and try again.", { expired_at_millis: 1 }))
      const error = yield* Effect.flip(Users.getCurrent())
      // the first rejection was seen by the call itself: it refreshed once and retried once
      expect(me).toHaveLength(2)
      expect(refreshes).toHaveLength(1)
      expect(error).toBeInstanceOf(SessionError)
      if (error._tag !== "SessionError") return
      expect(error.reason).toBeInstanceOf(KnownErrors.AccessTokenExpired)
      if (error.reason._tag === "AccessTokenExpired") expect(error.reason.details.expired_at_millis).toBe(1)
      expect(error.message).toContain("the session's token was rejected")
      expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(validAccess, refreshTokenText)))))

  it.effect("a refresh answered with a known error keeps both tokens and fails the call as SessionError with that reason", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => answer("INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400, "Bad client.", { client_id: projectId }))
      const me = meEndpoint()
      const error = yield* Effect.flip(Users.updateCurrent({ displayName: "Ada" }))
      expect(refreshes).toHaveLength(1)
      expect(me).toHaveLength(0)
      expect(error._tag === "SessionError" && error.reason).toBeInstanceOf(KnownErrors.InvalidOauthClientIdOrSecret)
      expect(error.message).toContain("the session could not be refreshed")
      const after = yield* stored
      expect(text(after.accessToken)).toBe(expiredAccess)
      expect(text(after.refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiredAccess, refreshTokenText)))))

  it.effect("a refresh that gets no answer is not grouped: ConnectivityError, tokens kept", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => HttpResponse.error())
      const error = yield* Effect.flip(Users.getCurrent())
      expect(refreshes).toHaveLength(1)
      expect(error._tag).toBe("ConnectivityError")
      expect(text((yield* stored).refreshToken)).toBe(refreshTokenText)
    }).pipe(Effect.provide(sessionLayer(tokens(expiredAccess, refreshTokenText), RetryPolicy.layerNoRetries))))

  it.effect("a rejected refresh token inside the session signs out instead: UserNotSignedIn stays its own tag, both tokens cleared", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, "gone"))
      const me = meEndpoint()
      const error = yield* Effect.flip(Users.updateCurrent({ displayName: "Ada" }))
      expect(refreshes).toHaveLength(1)
      expect(me).toHaveLength(0)
      expect(error._tag).toBe("UserNotSignedIn")
      const after = yield* stored
      expect(Option.isNone(after.accessToken) && Option.isNone(after.refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(expiredAccess, refreshTokenText)))))

  it.effect("the refresh grant called directly with an expired refresh token: SessionError(RefreshTokenNotFoundOrExpired)", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() =>
        knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, "Refresh token not found for this project, or the session has expired/been revoked.")
      )
      const error = yield* Effect.flip(
        Endpoint.call(refreshGrant, {
          payload: makeRefreshGrant({ projectId, publishableClientKey: Redacted.make(publishableClientKey), refreshToken: Redacted.make(refreshTokenText) })
        })
      )
      expect(refreshes).toHaveLength(1)
      expect(error._tag === "SessionError" && error.reason).toBeInstanceOf(KnownErrors.RefreshTokenNotFoundOrExpired)
    }).pipe(Effect.provide(sessionLayer())))
})

describe("the session's own answers are read before grouping", () => {
  it.effect("a successful refresh after a rejected access token still recovers the call (no SessionError)", () =>
    Effect.gen(function* () {
      const refreshes = refreshEndpoint(() => tokenResponse())
      const me = meEndpoint((token) => token === validAccess ? knownError("UNPARSABLE_ACCESS_TOKEN", 401, "Access token is not parsable.") : json(userBody))
      const user = yield* Users.getCurrent()
      expect(refreshes).toHaveLength(1)
      expect(me).toEqual([validAccess, freshAccess])
      expect(Option.isSome(user)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(tokens(validAccess, refreshTokenText)))))
})
