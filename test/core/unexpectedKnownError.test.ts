/**
 * Every catalogued known-error code decodes to its class (issue 15 item 4): a code the call
 * declares as the class itself; a catalogued code it does not declare as an
 * `UnexpectedKnownError` carrying the instance of its class (details decoded), so the declared
 * unions stay exact and nothing is lost; only a code the catalogue does not know is an
 * `UnsupportedKnownError` (SPEC.md §8). Unit (the decoder) and msw (a public call); the end-to-end
 * test over real HTTP is test/e2e/unexpectedKnownError.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Cause, Effect, Exit, Option, Schema } from "effect"
import { http, HttpResponse } from "msw"
import { afterAll, afterEach, beforeAll } from "vitest"
import * as Password from "../../src/auth/Password.js"
import { UnexpectedKnownError } from "../../src/core/Errors.js"
import { decodeResponse } from "../../src/core/internal/call.js"
import type { StackResponse } from "../../src/core/internal/exchange.js"
import type { KnownErrorClass } from "../../src/core/KnownError.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import { apiUrl, makeMswServer, sessionLayer } from "../support/fixtures.js"

const answer = (code: string, status: number, body: unknown): StackResponse => ({
  status,
  headers: { "x-stack-known-error": code, "content-type": "application/json" },
  text: JSON.stringify(body),
  method: "GET",
  url: "http://stack.test/api/v1/test"
})

/** The failure of decoding `response` for a call that declares `declared`. */
const failureOf = (response: StackResponse, declared: ReadonlyArray<KnownErrorClass>): unknown => {
  const exit = Effect.runSyncExit(decodeResponse("Test.call", response, Schema.Unknown, declared))
  if (Exit.isSuccess(exit)) throw new Error("decoded as a success")
  return Option.getOrThrow(Cause.findErrorOption(exit.cause))
}

/** Wire details of a class: generated from its details schema (encoded side), seeded. */
const wireDetailsOf = (cls: KnownErrorClass): unknown =>
  Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(Schema.toEncoded(cls.detailsSchema)), { count: 1, seed: 42 }))[0]

describe("the decoder: every catalogued code decodes to its class", () => {
  it.each(KnownErrors.all.map((cls) => ({ code: cls.code, cls })))(
    "$code decodes to its class when declared, and to an UnexpectedKnownError carrying it when not",
    ({ code, cls }) => {
      const details = wireDetailsOf(cls)
      const response = answer(code, cls.status, { code, error: `message of ${code}`, details })

      const declaredFailure = failureOf(response, [cls])
      expect(declaredFailure).toBeInstanceOf(cls)

      const undeclared = failureOf(response, [KnownErrors.SchemaError === cls ? KnownErrors.UserNotFound : KnownErrors.SchemaError])
      expect(undeclared).toBeInstanceOf(UnexpectedKnownError)
      if (!(undeclared instanceof UnexpectedKnownError)) return
      expect(undeclared.code).toBe(code)
      expect(undeclared.status).toBe(cls.status)
      expect(undeclared.message).toBe(`message of ${code}`)
      expect(undeclared.error).toBeInstanceOf(cls)
      expect(undeclared.error._tag).toBe(cls.tag)
      expect(undeclared.error.message).toBe(`message of ${code}`)
      expect(undeclared.error.details).toEqual(Schema.decodeUnknownSync(cls.detailsSchema)(details))
    }
  )

  it("the codes the issue names (declared by no endpoint) are UnexpectedKnownError, not UnsupportedKnownError", () => {
    const samples: ReadonlyArray<readonly [string, number, unknown]> = [
      ["INSUFFICIENT_ACCESS_TYPE", 401, { actual_access_type: "client", allowed_access_types: ["server", "admin"] }],
      ["BRANCH_DOES_NOT_EXIST", 400, { branch_id: "main" }],
      ["PROJECT_PERMISSION_REQUIRED", 401, { user_id: "u", permission_id: "p" }],
      ["EMAIL_NOT_VERIFIED", 400, {}],
      ["OUTER_OAUTH_TIMEOUT", 408, {}]
    ]
    for (const [code, status, details] of samples) {
      const failure = failureOf(answer(code, status, { code, error: "m", details }), [])
      expect(failure, code).toBeInstanceOf(UnexpectedKnownError)
      if (failure instanceof UnexpectedKnownError) expect(failure.error.code).toBe(code)
    }
  })

  it("details of an undeclared catalogued code that do not match its class are an InvalidResponse", () => {
    const failure = failureOf(answer("TEAM_NOT_FOUND", 404, { code: "TEAM_NOT_FOUND", error: "m", details: { team_id: 42 } }), [])
    expect(failure).toMatchObject({
      _tag: "InvalidResponse",
      message: expect.stringContaining("details of TEAM_NOT_FOUND did not match at team_id")
    })
  })

  it("a code the catalogue does not know stays an UnsupportedKnownError with its raw details", () => {
    const failure = failureOf(answer("BRAND_NEW_ERROR", 418, { code: "BRAND_NEW_ERROR", error: "New.", details: { a: 1 } }), [])
    expect(failure).toMatchObject({ _tag: "UnsupportedKnownError", code: "BRAND_NEW_ERROR", status: 418, message: "New.", details: { a: 1 } })
  })
})

const server = makeMswServer()
beforeAll(() => server.listen({ onUnhandledFrame: "error" }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe("a public call (msw)", () => {
  it.effect("an undeclared catalogued code fails the call with UnexpectedKnownError: code, status, message and the decoded class", () =>
    Effect.gen(function* () {
      let requests = 0
      server.use(
        http.post(`${apiUrl}/auth/password/sign-in`, () => {
          requests++
          return HttpResponse.json(
            { code: "BRANCH_DOES_NOT_EXIST", error: "Branch main does not exist.", details: { branch_id: "main" } },
            { status: 200, headers: { "x-stack-known-error": "BRANCH_DOES_NOT_EXIST", "x-stack-actual-status": "400" } }
          )
        })
      )
      const error = yield* Effect.flip(Password.signInWithPassword({ email: "a@example.com", password: "x" }))
      expect(requests).toBe(1)
      expect(error._tag).toBe("UnexpectedKnownError")
      if (error._tag !== "UnexpectedKnownError") return
      expect(error.code).toBe("BRANCH_DOES_NOT_EXIST")
      expect(error.status).toBe(400)
      expect(error.message).toBe("Branch main does not exist.")
      expect(error.error).toBeInstanceOf(KnownErrors.BranchDoesNotExist)
      if (error.error._tag === "BranchDoesNotExist") expect(error.error.details.branch_id).toBe("main")
    }).pipe(Effect.provide(sessionLayer())))
})
