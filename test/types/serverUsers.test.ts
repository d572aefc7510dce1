/**
 * Type tests of the server user operations: error unions of list/create/update/delete, the
 * stream's element type, and the typed refusal of client self-deletion. Checked by `tsc`.
 */
import type { Option, Stream } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { ServerAccess } from "../../src/core/Access.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { TokenStoreError } from "../../src/session/TokenStore.js"
import type { NavigationUnavailable } from "../../src/auth/GetUser.js"
import type { Session } from "../../src/session/Session.js"
import type { ServerUser } from "../../src/users/User.js"
import type * as ServerUsers from "../../src/users/ServerUsers.js"
import type * as Users from "../../src/users/Users.js"
import type { ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, Transport } from "./support.js"

describe("server users: error unions", () => {
  it("list fails only with the common server errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.list>>>().toEqualTypeOf<
      ServerCommon | Transport | InvalidArgument
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.list>>>().toEqualTypeOf<ServerUsers.UserList>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerUsers.list>>>().toEqualTypeOf<StackClient | ServerAccess>()
  })

  it("stream yields server users with the errors of list", () => {
    expectTypeOf<ReturnType<typeof ServerUsers.stream>>().toEqualTypeOf<
      Stream.Stream<ServerUser, ServerCommon | Transport | InvalidArgument, StackClient | ServerAccess>
    >()
  })

  it("create declares the e-mail conflict, the password limits and a selected team the user is not in", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.create>>>().toEqualTypeOf<
      | KnownErrors.UserEmailAlreadyExists
      | KnownErrors.PasswordTooShort
      | KnownErrors.PasswordTooLong
      | KnownErrors.TeamMembershipNotFound
      | ServerCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("update adds UserNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.update>>>().toEqualTypeOf<
      | KnownErrors.UserNotFound
      | KnownErrors.UserEmailAlreadyExists
      | KnownErrors.PasswordTooShort
      | KnownErrors.PasswordTooLong
      | KnownErrors.TeamMembershipNotFound
      | ServerCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("delete fails with UserNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.delete>>>().toEqualTypeOf<
      KnownErrors.UserNotFound | ServerCommon | Transport | InvalidArgument
    >()
  })

  it("deleteCurrent (client) has its own typed refusal and needs a signed-in user (no input: no InvalidArgument)", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Users.deleteCurrent>>>().toEqualTypeOf<
      | Users.ClientUserDeletionNotEnabled
      | KnownErrors.CannotGetOwnUserWithoutUser
      | ClientCommon
      | SessionCommon
      | UserNotSignedIn
      | Transport
    >()
  })

  it("fromRequest answers an Option and adds the request store's error", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.fromRequest>>>().toEqualTypeOf<Option.Option<ServerUser>>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.fromRequest>>>().toEqualTypeOf<
      TokenStoreError | ServerCommon | SessionCommon | Transport
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerUsers.fromRequest>>>().toEqualTypeOf<StackClient | ServerAccess>()
  })
})

describe("ServerUsers.getUser: the official server getUser({ or }) policies", () => {
  type Read = ServerCommon | SessionCommon | Transport

  it("return-null (default) and anonymous-if-exists give an Option of the server view and only the read's errors", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.getUser<"return-null">>>>().toEqualTypeOf<Option.Option<ServerUser>>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.getUser<"return-null">>>>().toEqualTypeOf<Read>()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.getUser<"anonymous-if-exists">>>>().toEqualTypeOf<Option.Option<ServerUser>>()
  })

  it("throw, redirect and anonymous give the server user, each with its own extra error", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.getUser<"throw">>>>().toEqualTypeOf<ServerUser>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.getUser<"throw">>>>().toEqualTypeOf<Read | UserNotSignedIn>()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.getUser<"redirect">>>>().toEqualTypeOf<ServerUser>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.getUser<"redirect">>>>().toEqualTypeOf<Read | NavigationUnavailable>()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerUsers.getUser<"anonymous">>>>().toEqualTypeOf<ServerUser>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.getUser<"anonymous">>>>().toEqualTypeOf<Read | UserNotSignedIn | ClientCommon>()
  })

  it("needs server access and the session", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerUsers.getUser<"anonymous">>>>().toEqualTypeOf<StackClient | ServerAccess | Session>()
  })
})
