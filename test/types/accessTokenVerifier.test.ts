/**
 * Type tests of `AccessTokenVerifier`: the error union of `verifyAccessToken` is pinned, its only
 * requirement is the verifier service, and the layer needs only the transport.
 */
import type { Effect, Layer } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { StackClient } from "../../src/core/StackClient.js"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import type { ErrorOf, RequirementsOf } from "./support.js"

describe("AccessTokenVerifier types", () => {
  it("verifyAccessToken fails with exactly the verification errors and needs only the verifier", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof AccessTokenVerifier.verifyAccessToken>>>().toEqualTypeOf<
      | AccessTokenVerifier.TokenMalformed
      | AccessTokenVerifier.TokenSignatureInvalid
      | AccessTokenVerifier.TokenExpired
      | AccessTokenVerifier.TokenAudienceMismatch
      | AccessTokenVerifier.TokenIssuerMismatch
      | AccessTokenVerifier.TokenUserNotAllowed
      | AccessTokenVerifier.TokenKeyUnknown
      | AccessTokenVerifier.TokenKeyTooWeak
      | AccessTokenVerifier.JwksUnavailable
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof AccessTokenVerifier.verifyAccessToken>>>().toEqualTypeOf<AccessTokenVerifier.AccessTokenVerifier>()
    expectTypeOf<Effect.Success<ReturnType<typeof AccessTokenVerifier.verifyAccessToken>>>().toEqualTypeOf<AccessTokenVerifier.AccessTokenClaims>()
  })

  it("the layer needs only the transport and cannot fail", () => {
    expectTypeOf(AccessTokenVerifier.layer()).toEqualTypeOf<Layer.Layer<AccessTokenVerifier.AccessTokenVerifier, never, StackClient>>()
  })

  it("claims are typed in the domain: dates, nullable profile fields, the restriction reason", () => {
    expectTypeOf<AccessTokenVerifier.AccessTokenClaims["expiresAt"]>().toEqualTypeOf<Date>()
    expectTypeOf<AccessTokenVerifier.AccessTokenClaims["primaryEmail"]>().toEqualTypeOf<string | null>()
    expectTypeOf<AccessTokenVerifier.AccessTokenClaims["restrictedReason"]>().toEqualTypeOf<
      {
        readonly type: "anonymous" | "email_not_verified" | "restricted_by_administrator"
      } | null
    >()
  })
})
