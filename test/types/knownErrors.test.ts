/**
 * Type tests of the known-error model (issue 13 item 2, issue 15 item 4): family unions derive
 * from their class lists, family guards are real refinements that narrow an error union to the
 * members it has, and every call's error channel has `UnexpectedKnownError` carrying any class of
 * the catalogue. Checked by `tsc` (npm run typecheck), run by vitest as a no-op at run time.
 */
import type { Predicate } from "effect"
import { Effect } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { UnexpectedKnownError } from "../../src/core/Errors.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import type * as Users from "../../src/users/Users.js"
import type { ErrorOf } from "./support.js"

describe("families derive from their class lists", () => {
  it("REFRESH_TOKEN_ERROR is exactly its three classes", () => {
    expectTypeOf<KnownErrors.RefreshTokenError>().toEqualTypeOf<
      KnownErrors.RefreshTokenNotFoundOrExpired | KnownErrors.CannotDeleteCurrentSession | KnownErrors.ProviderRejected
    >()
  })

  it("API_KEY_NOT_VALID is exactly its five classes", () => {
    expectTypeOf<KnownErrors.ApiKeyNotValid>().toEqualTypeOf<
      | KnownErrors.ApiKeyExpired
      | KnownErrors.ApiKeyRevoked
      | KnownErrors.WrongApiKeyType
      | KnownErrors.ApiKeyNotFound
      | KnownErrors.PublicApiKeyCannotBeRevoked
    >()
  })

  it("a parent family includes its children (INVALID_PROJECT_AUTHENTICATION ⊃ INVALID_ADMIN_ACCESS_TOKEN)", () => {
    expectTypeOf<KnownErrors.InvalidAdminAccessToken>().toMatchTypeOf<KnownErrors.InvalidProjectAuthentication>()
    expectTypeOf<KnownErrors.InvalidProjectAuthentication>().toMatchTypeOf<KnownErrors.ProjectAuthenticationError>()
    expectTypeOf<KnownErrors.ExpectedInternalProject>().not.toMatchTypeOf<KnownErrors.ProjectAuthenticationRequired>()
  })

  it("AnyKnownError's code is the union of the catalogue's codes, not string", () => {
    expectTypeOf<"TEAM_NOT_FOUND">().toMatchTypeOf<KnownErrors.AnyKnownError["code"]>()
    expectTypeOf<string>().not.toMatchTypeOf<KnownErrors.AnyKnownError["code"]>()
  })
})

describe("a family guard is a real refinement", () => {
  it("is a Predicate.Refinement<unknown, Family>", () => {
    expectTypeOf(KnownErrors.isRefreshTokenError).toMatchTypeOf<Predicate.Refinement<unknown, KnownErrors.RefreshTokenError>>()
    expectTypeOf(KnownErrors.isVerificationError).toMatchTypeOf<Predicate.Refinement<unknown, KnownErrors.VerificationError>>()
  })

  it("Effect.catchIf with it removes exactly the family's members the error union has", () => {
    const checked = Effect.fail(KnownErrors.ApiKeyNotFound.make({})) as Effect.Effect<
      number,
      KnownErrors.ApiKeyNotFound | KnownErrors.ApiKeyRevoked | KnownErrors.SchemaError
    >
    const recovered = checked.pipe(Effect.catchIf(KnownErrors.isApiKeyNotValid, () => Effect.succeed(0)))
    expectTypeOf<ErrorOf<typeof recovered>>().toEqualTypeOf<KnownErrors.SchemaError>()
  })

  it("narrows an unknown value to the family", () => {
    const value: unknown = KnownErrors.ProviderRejected.make({})
    if (KnownErrors.isRefreshTokenError(value)) expectTypeOf(value).toEqualTypeOf<KnownErrors.RefreshTokenError>()
  })
})

describe("UnexpectedKnownError", () => {
  it("carries any class of the catalogue, and its code is a catalogued code", () => {
    expectTypeOf<UnexpectedKnownError["error"]>().toEqualTypeOf<KnownErrors.AnyKnownError>()
    expectTypeOf<UnexpectedKnownError["code"]>().toEqualTypeOf<KnownErrors.AnyKnownError["code"]>()
  })

  it("is in every call's error channel (Users.getCurrent declares nothing of its own)", () => {
    expectTypeOf<Extract<ErrorOf<ReturnType<typeof Users.getCurrent>>, { readonly _tag: "UnexpectedKnownError" }>>().toEqualTypeOf<UnexpectedKnownError>()
  })
})
