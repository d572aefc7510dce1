/**
 * Sign-out ignores the whole REFRESH_TOKEN_ERROR family (SPEC.md §4, PROTOCOL.md §5.1; issue 15
 * item 5): whichever member `DELETE /auth/sessions/current` answers, the tokens are cleared and
 * sign-out succeeds. Other failures keep the tokens, so the caller can retry.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as Sessions from "../../src/auth/Sessions.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import { Session } from "../../src/session/Session.js"
import { accessToken, apiUrl, makeMswServer, refreshTokenText, sessionLayer, tokens } from "../support/fixtures.js"

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const signedIn = tokens(accessToken(4_000_000_000), refreshTokenText)

/** Answers every sign-out with the known error `code`; counts the requests. */
const answerSignOutWith = (code: string, status: number) => {
  const seen = { requests: 0 }
  server.use(
    http.delete(`${apiUrl}/auth/sessions/current`, () => {
      seen.requests++
      return HttpResponse.json(
        { code, error: `answer ${code}` },
        { status: 200, headers: { "x-stack-known-error": code, "x-stack-actual-status": String(status) } }
      )
    })
  )
  return seen
}

describe("sign-out ignores the REFRESH_TOKEN_ERROR family", () => {
  it("the family has the three codes of PROTOCOL.md §4", () => {
    expect([...KnownErrors.refreshTokenErrorCodes].sort()).toEqual([
      "CANNOT_DELETE_CURRENT_SESSION",
      "PROVIDER_REJECTED",
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"
    ])
  })

  for (const cls of KnownErrors.refreshTokenErrorClasses) {
    it.effect(`sign-out answered with ${cls.code} succeeds and clears the tokens`, () =>
      Effect.gen(function* () {
        const seen = answerSignOutWith(cls.code, cls.status)
        yield* Sessions.signOut()
        const session = yield* Session
        const stored = yield* session.current
        expect(seen.requests).toBe(1)
        expect(Option.isNone(stored.accessToken)).toBe(true)
        expect(Option.isNone(stored.refreshToken)).toBe(true)
      }).pipe(Effect.provide(sessionLayer(signedIn))))
  }

  it.effect("a known error outside the family fails sign-out and keeps the tokens", () =>
    Effect.gen(function* () {
      let requests = 0
      server.use(
        http.delete(`${apiUrl}/auth/sessions/current`, () => {
          requests++
          return HttpResponse.json(
            { code: "SCHEMA_ERROR", error: "Request validation failed", details: { message: "Request validation failed" } },
            { status: 200, headers: { "x-stack-known-error": "SCHEMA_ERROR", "x-stack-actual-status": "400" } }
          )
        })
      )
      const error = yield* Effect.flip(Sessions.signOut())
      const session = yield* Session
      const stored = yield* session.current
      expect(error._tag).toBe("SchemaError")
      expect(requests).toBe(1)
      expect(Option.isSome(stored.accessToken)).toBe(true)
      expect(Option.isSome(stored.refreshToken)).toBe(true)
    }).pipe(Effect.provide(sessionLayer(signedIn))))
})
