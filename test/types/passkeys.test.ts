/**
 * Type tests for passkeys: the error channels and requirements of `Passkeys.register` and
 * `Passkeys.signIn`. Checked by `tsc`; a no-op at run time.
 */
import { describe, expectTypeOf, it } from "vitest"
import type * as Passkeys from "../../src/auth/Passkeys.js"
import type { WebAuthnBrowser, WebAuthnNotSupported } from "../../src/auth/WebAuthnBrowser.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type { ClientCommon, ErrorOf, RequirementsOf, SessionCommon, SuccessOf, Transport, VerificationCodeErrors } from "./support.js"

describe("Passkeys", () => {
  it("register fails with the registration errors, the ceremony errors, the code errors and the signed-in set", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Passkeys.register>>>().toEqualTypeOf<
      | WebAuthnNotSupported
      | KnownErrors.PasskeyAuthenticationNotEnabled
      | KnownErrors.PasskeyRegistrationFailed
      | KnownErrors.PasskeyWebauthnError
      | VerificationCodeErrors
      | ClientCommon
      | SessionCommon
      | UserNotSignedIn
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof Passkeys.register>>>().toEqualTypeOf<{ userHandle: string }>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Passkeys.register>>>().toEqualTypeOf<WebAuthnBrowser | StackClient | Session>()
  })

  it("signIn fails with the authentication errors, MFA, the ceremony errors and the code errors; no session errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Passkeys.signIn>>>().toEqualTypeOf<
      | WebAuthnNotSupported
      | KnownErrors.PasskeyAuthenticationNotEnabled
      | KnownErrors.PasskeyAuthenticationFailed
      | KnownErrors.PasskeyWebauthnError
      | KnownErrors.MultiFactorAuthenticationRequired
      | VerificationCodeErrors
      | ClientCommon
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof Passkeys.signIn>>>().toEqualTypeOf<{ userId: string }>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Passkeys.signIn>>>().toEqualTypeOf<WebAuthnBrowser | StackClient | Session>()
  })
})
