/**
 * Type tests of the contact-channel functions: pinned error unions (the plain-text answers mapped
 * to ContactChannelNotFound / ContactChannelAlreadyExists), success types and requirements.
 * Checked by `tsc`.
 */
import { describe, expectTypeOf, it } from "vitest"
import type * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import type * as ServerContactChannels from "../../src/contact-channels/ServerContactChannels.js"
import type { ServerAccess } from "../../src/core/Access.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type { CallbackUrlRequired } from "../../src/core/HandlerUrls.js"
import type { ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, Transport, VerificationCodeErrors } from "./support.js"

/** A call on the signed-in session: the access token's errors, a failed refresh, no user. */
type SignedInCommon = SessionCommon | UserNotSignedIn
type Client = ClientCommon | SignedInCommon | Transport | InvalidArgument | KnownErrors.CannotGetOwnUserWithoutUser
type Server = ServerCommon | Transport | InvalidArgument | KnownErrors.UserIdDoesNotExist

describe("contact channels: client error unions", () => {
  it("list", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ContactChannels.list>>>().toEqualTypeOf<Client>()
    expectTypeOf<SuccessOf<ReturnType<typeof ContactChannels.list>>>().toEqualTypeOf<ReadonlyArray<ContactChannels.ContactChannel>>()
  })

  it("create declares the auth conflict and the typed already-exists text", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ContactChannels.create>>>().toEqualTypeOf<
      | KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse
      | ContactChannels.ContactChannelNotFound
      | ContactChannels.ContactChannelAlreadyExists
      | Client
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ContactChannels.create>>>().toEqualTypeOf<ContactChannels.ContactChannel>()
  })

  it("update and delete carry ContactChannelNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ContactChannels.update>>>().toEqualTypeOf<
      | KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse
      | ContactChannels.ContactChannelNotFound
      | ContactChannels.ContactChannelAlreadyExists
      | Client
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof ContactChannels.delete>>>().toEqualTypeOf<ContactChannels.ContactChannelNotFound | Client>()
  })

  it("sendVerificationCode adds CallbackUrlRequired, EmailAlreadyVerified and RedirectUrlNotWhitelisted", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ContactChannels.sendVerificationCode>>>().toEqualTypeOf<
      | KnownErrors.EmailAlreadyVerified
      | KnownErrors.RedirectUrlNotWhitelisted
      | CallbackUrlRequired
      | ContactChannels.ContactChannelNotFound
      | Client
    >()
  })

  it("verify needs no session: the code errors and the deleted channel", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ContactChannels.verify>>>().toEqualTypeOf<
      | VerificationCodeErrors
      | ContactChannels.ContactChannelNotFound
      | ClientCommon
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof ContactChannels.verify>>>().toEqualTypeOf<StackClient>()
  })

  it("client functions need the session, not server access", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof ContactChannels.list>>>().toEqualTypeOf<StackClient | Session>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ContactChannels.sendVerificationCode>>>().toEqualTypeOf<StackClient | Session>()
  })
})

describe("contact channels: server error unions", () => {
  it("ServerContactChannels.list", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerContactChannels.list>>>().toEqualTypeOf<Server>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerContactChannels.list>>>().toEqualTypeOf<StackClient | ServerAccess>()
  })

  it("ServerContactChannels.create and update", () => {
    type Expected =
      | KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse
      | ContactChannels.ContactChannelNotFound
      | ContactChannels.ContactChannelAlreadyExists
      | Server
    expectTypeOf<ErrorOf<ReturnType<typeof ServerContactChannels.create>>>().toEqualTypeOf<Expected>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerContactChannels.update>>>().toEqualTypeOf<Expected>()
  })

  it("ServerContactChannels.delete and sendVerificationCode", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerContactChannels.delete>>>().toEqualTypeOf<ContactChannels.ContactChannelNotFound | Server>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerContactChannels.sendVerificationCode>>>().toEqualTypeOf<
      | KnownErrors.EmailAlreadyVerified
      | KnownErrors.RedirectUrlNotWhitelisted
      | CallbackUrlRequired
      | ContactChannels.ContactChannelNotFound
      | Server
    >()
  })
})
