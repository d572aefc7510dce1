/**
 * Type tests for MFA, anonymous sign-up, getUser, sessions and CLI login: the error channels,
 * getUser's success type per `or` policy, and the access level each call requires.
 * Checked by `tsc`; a no-op at run time.
 */
import type { Option } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type * as Anonymous from "../../src/auth/Anonymous.js"
import type * as Cli from "../../src/auth/Cli.js"
import type { getUser, NavigationUnavailable } from "../../src/auth/GetUser.js"
import type * as Mfa from "../../src/auth/Mfa.js"
import type * as Sessions from "../../src/auth/Sessions.js"
import type * as AdminSessions from "../../src/auth/AdminSessions.js"
import type * as ServerSessions from "../../src/auth/ServerSessions.js"
import type { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import type { ConfigurationError, InvalidArgument, SessionError, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type { CurrentUser } from "../../src/users/User.js"
import type * as Users from "../../src/users/Users.js"
import type {
  AdminCommon,
  ClientCommon,
  ErrorOf,
  RequirementsOf,
  ServerCommon,
  SessionCommon,
  SuccessOf,
  Transport,
  VerificationCodeErrors
} from "./support.js"

describe("MFA and anonymous users", () => {
  it("Mfa.signIn fails with InvalidTotpCode, the verification-code errors, and the common set", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Mfa.signIn>>>().toEqualTypeOf<
      KnownErrors.InvalidTotpCode | VerificationCodeErrors | ClientCommon | Transport | InvalidArgument
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof Mfa.signIn>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("Mfa.enableTotp and disableTotp fail as Users.updateCurrent does", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Mfa.enableTotp>>>().toEqualTypeOf<ErrorOf<ReturnType<typeof Users.updateCurrent>>>()
    expectTypeOf<ErrorOf<ReturnType<typeof Mfa.disableTotp>>>().toEqualTypeOf<ErrorOf<ReturnType<typeof Users.updateCurrent>>>()
  })

  it("Anonymous.signUp has no known error of its own (the service checks no project switch)", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Anonymous.signUp>>>().toEqualTypeOf<ClientCommon | Transport>()
  })
})

describe("getUser", () => {
  type Read = ClientCommon | SessionCommon | Transport

  it("return-null (default) and anonymous-if-exists give an Option and only the read's errors", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof getUser<"return-null">>>>().toEqualTypeOf<Option.Option<CurrentUser>>()
    expectTypeOf<ErrorOf<ReturnType<typeof getUser<"return-null">>>>().toEqualTypeOf<Read>()
    expectTypeOf<SuccessOf<ReturnType<typeof getUser<"anonymous-if-exists">>>>().toEqualTypeOf<Option.Option<CurrentUser>>()
    expectTypeOf<ErrorOf<ReturnType<typeof getUser<"anonymous-if-exists">>>>().toEqualTypeOf<Read>()
  })

  it("throw, redirect and anonymous give the user, each with its own extra error", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof getUser<"throw">>>>().toEqualTypeOf<CurrentUser>()
    expectTypeOf<ErrorOf<ReturnType<typeof getUser<"throw">>>>().toEqualTypeOf<Read | UserNotSignedIn>()
    expectTypeOf<SuccessOf<ReturnType<typeof getUser<"redirect">>>>().toEqualTypeOf<CurrentUser>()
    expectTypeOf<ErrorOf<ReturnType<typeof getUser<"redirect">>>>().toEqualTypeOf<Read | NavigationUnavailable>()
    expectTypeOf<SuccessOf<ReturnType<typeof getUser<"anonymous">>>>().toEqualTypeOf<CurrentUser>()
    expectTypeOf<ErrorOf<ReturnType<typeof getUser<"anonymous">>>>().toEqualTypeOf<Read | UserNotSignedIn>()
  })

  it("needs only the client services (Navigation has a default)", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof getUser<"redirect">>>>().toEqualTypeOf<StackClient | Session>()
  })
})

describe("sessions", () => {
  it("list and revoke need a signed-in user; revoke adds CannotDeleteCurrentSession", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Sessions.list>>>().toEqualTypeOf<
      KnownErrors.CannotGetOwnUserWithoutUser | ClientCommon | SessionCommon | UserNotSignedIn | Transport | InvalidArgument
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof Sessions.revoke>>>().toEqualTypeOf<
      | KnownErrors.CannotDeleteCurrentSession
      | KnownErrors.CannotGetOwnUserWithoutUser
      | ClientCommon
      | SessionCommon
      | UserNotSignedIn
      | Transport
      | InvalidArgument
    >()
  })

  it("ServerSessions.create and list need server access; AdminSessions.list admin access", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerSessions.create>>>().toEqualTypeOf<
      KnownErrors.UserIdDoesNotExist | KnownErrors.CannotGetOwnUserWithoutUser | ServerCommon | Transport | InvalidArgument
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerSessions.create>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerSessions.list>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<RequirementsOf<ReturnType<typeof AdminSessions.list>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof AdminSessions.list>>>().toEqualTypeOf<
      KnownErrors.CannotGetOwnUserWithoutUser | AdminCommon | UserNotSignedIn | Transport | InvalidArgument
    >()
  })
})

describe("CLI login", () => {
  it("initiate has no known error of its own", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Cli.initiate>>>().toEqualTypeOf<ClientCommon | Transport | InvalidArgument>()
  })

  it("waitForLogin fails with the CLI errors, InvalidPollingCode, or the refresh's errors (the REFRESH_TOKEN_ERROR family among them)", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Cli.waitForLogin>>>().toEqualTypeOf<
      | KnownErrors.CliAuthError
      | KnownErrors.CliAuthExpiredError
      | KnownErrors.CliAuthUsedError
      | KnownErrors.InvalidPollingCode
      | KnownErrors.CannotDeleteCurrentSession
      | KnownErrors.InvalidScope
      | SessionError<KnownErrors.RefreshTokenNotFoundOrExpired | KnownErrors.ProviderRejected>
      | ConfigurationError<
        KnownErrors.InvalidOauthClientIdOrSecret | KnownErrors.InvalidPublishableClientKey | KnownErrors.PublishableClientKeyRequiredForProject
      >
      | ClientCommon
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof Cli.waitForLogin>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("complete needs a signed-in user, and types the service's invalid-login-code text", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Cli.complete>>>().toEqualTypeOf<
      ClientCommon | SessionCommon | UserNotSignedIn | Transport | InvalidArgument | Cli.CliInvalidLoginCode
    >()
  })
})
