/**
 * Type tests for user API keys: error channels and requirements (own-key calls need a session;
 * check needs `ServerAccess` and fails with the typed API_KEY_NOT_VALID family, checkOrNone
 * without it). Checked by `tsc`; a no-op at run time.
 */
import type { Option } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type * as UserApiKeys from "../../src/api-keys/UserApiKeys.js"
import type * as ServerUserApiKeys from "../../src/api-keys/ServerUserApiKeys.js"
import type { ServerAccess } from "../../src/core/Access.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type { ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, Transport } from "./support.js"

type OwnKeyErrors =
  | KnownErrors.CannotGetOwnUserWithoutUser
  | KnownErrors.UserAuthenticationRequired
  | UserApiKeys.UserApiKeysNotEnabled
  | ClientCommon
  | SessionCommon
  | UserNotSignedIn
  | InvalidArgument
  | Transport

type NotValid = KnownErrors.ApiKeyNotFound | KnownErrors.WrongApiKeyType | KnownErrors.ApiKeyRevoked | KnownErrors.ApiKeyExpired

describe("UserApiKeys", () => {
  it("create: InvalidArgument (owner) among the errors; the answer holds the full (redacted) value", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof UserApiKeys.create>>>().toEqualTypeOf<OwnKeyErrors>()
    expectTypeOf<SuccessOf<ReturnType<typeof UserApiKeys.create>>>().toEqualTypeOf<UserApiKeys.UserApiKeyFirstView>()
    expectTypeOf<RequirementsOf<ReturnType<typeof UserApiKeys.create>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("list / get / update / revoke: own keys; get, update and revoke may be ApiKeyNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof UserApiKeys.list>>>().toEqualTypeOf<OwnKeyErrors>()
    expectTypeOf<SuccessOf<ReturnType<typeof UserApiKeys.list>>>().toEqualTypeOf<ReadonlyArray<UserApiKeys.UserApiKey>>()
    expectTypeOf<ErrorOf<ReturnType<typeof UserApiKeys.get>>>().toEqualTypeOf<OwnKeyErrors | KnownErrors.ApiKeyNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof UserApiKeys.update>>>().toEqualTypeOf<OwnKeyErrors | KnownErrors.ApiKeyNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof UserApiKeys.revoke>>>().toEqualTypeOf<OwnKeyErrors | KnownErrors.ApiKeyNotFound>()
    expectTypeOf<SuccessOf<ReturnType<typeof UserApiKeys.revoke>>>().toEqualTypeOf<UserApiKeys.UserApiKey>()
  })

  it("check: server access, the API_KEY_NOT_VALID family typed; checkOrNone: none instead of it", () => {
    type CheckErrors = NotValid | UserApiKeys.UserApiKeysNotEnabled | ServerCommon | InvalidArgument | Transport
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUserApiKeys.check>>>().toEqualTypeOf<CheckErrors>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerUserApiKeys.check>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUserApiKeys.checkOrNone>>>().toEqualTypeOf<Exclude<CheckErrors, NotValid>>()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUserApiKeys.checkOrNone>>>().toEqualTypeOf<Option.Option<UserApiKeys.UserApiKey>>()
  })

  it("validity is pure", () => {
    expectTypeOf<ReturnType<typeof UserApiKeys.validity>>().toEqualTypeOf<"valid" | "expired" | "manually-revoked">()
  })
})
