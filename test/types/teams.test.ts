/**
 * Type tests of the team functions (client teams, member profiles, invitations, server teams,
 * team API keys): pinned error unions, success types and requirements. Checked by `tsc`; a no-op
 * at run time.
 */
import type { Option } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type * as TeamApiKeys from "../../src/api-keys/TeamApiKeys.js"
import type * as ServerTeamApiKeys from "../../src/api-keys/ServerTeamApiKeys.js"
import type { ServerAccess } from "../../src/core/Access.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type * as ServerTeams from "../../src/teams/ServerTeams.js"
import type * as TeamInvitations from "../../src/teams/TeamInvitations.js"
import type * as TeamMemberProfiles from "../../src/teams/TeamMemberProfiles.js"
import type * as Teams from "../../src/teams/Teams.js"
import type { CallbackUrlRequired } from "../../src/core/HandlerUrls.js"
import type { ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, Transport, VerificationCodeErrors } from "./support.js"

/** A call on the signed-in session: the access token's errors, a failed refresh, no user. */
type SignedIn = ClientCommon | SessionCommon | UserNotSignedIn | Transport
/** The checks in front of a team: the user, the membership, the permission. */
type TeamChecks = KnownErrors.TeamMembershipNotFound | KnownErrors.TeamPermissionRequired | KnownErrors.UserNotFound
type Server = ServerCommon | Transport | InvalidArgument

describe("Teams (client)", () => {
  it("listMine / get", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.listMine>>>().toEqualTypeOf<
      SignedIn | InvalidArgument | KnownErrors.CannotGetOwnUserWithoutUser
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof Teams.listMine>>>().toEqualTypeOf<ReadonlyArray<Teams.ClientTeam>>()
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.get>>>().toEqualTypeOf<
      | SignedIn
      | InvalidArgument
      | KnownErrors.TeamNotFound
      | KnownErrors.TeamMembershipNotFound
      | KnownErrors.UserAuthenticationRequired
      | KnownErrors.UserNotFound
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof Teams.get>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("create: the creation switch and the image check are typed", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.create>>>().toEqualTypeOf<
      | SignedIn
      | InvalidArgument
      | KnownErrors.UserAuthenticationRequired
      | KnownErrors.UserNotFound
      | Teams.ClientTeamCreationDisabled
      | Teams.InvalidProfileImageUrl
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof Teams.create>>>().toEqualTypeOf<Teams.ClientTeam>()
  })

  it("update / delete need a permission; leave and removeMember", () => {
    type Guarded = SignedIn | InvalidArgument | TeamChecks | KnownErrors.TeamNotFound | KnownErrors.UserAuthenticationRequired
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.update>>>().toEqualTypeOf<Guarded | Teams.InvalidProfileImageUrl>()
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.delete>>>().toEqualTypeOf<Guarded>()
    expectTypeOf<SuccessOf<ReturnType<typeof Teams.delete>>>().toEqualTypeOf<void>()
    type Membership = SignedIn | InvalidArgument | TeamChecks | KnownErrors.CannotGetOwnUserWithoutUser | KnownErrors.TeamNotFound
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.leave>>>().toEqualTypeOf<Membership>()
    expectTypeOf<ErrorOf<ReturnType<typeof Teams.removeMember>>>().toEqualTypeOf<Membership>()
  })
})

describe("TeamMemberProfiles", () => {
  it("list / get / updateMine", () => {
    type Profiles = SignedIn | InvalidArgument | TeamChecks | KnownErrors.CannotGetOwnUserWithoutUser | KnownErrors.TeamNotFound
    expectTypeOf<ErrorOf<ReturnType<typeof TeamMemberProfiles.list>>>().toEqualTypeOf<Profiles>()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamMemberProfiles.list>>>().toEqualTypeOf<
      ReadonlyArray<TeamMemberProfiles.TeamMemberProfile>
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamMemberProfiles.get>>>().toEqualTypeOf<Profiles>()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamMemberProfiles.updateMine>>>().toEqualTypeOf<Profiles>()
  })
})

describe("TeamInvitations", () => {
  it("send: the callback URL may not resolve; permission and trusted-URL errors are typed; answers the id", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.send>>>().toEqualTypeOf<
      | SignedIn
      | InvalidArgument
      | CallbackUrlRequired
      | KnownErrors.TeamPermissionRequired
      | KnownErrors.TeamMembershipNotFound
      | KnownErrors.RedirectUrlNotWhitelisted
      | KnownErrors.UserAuthenticationRequired
      | KnownErrors.UserNotFound
      | KnownErrors.TeamNotFound
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamInvitations.send>>>().toEqualTypeOf<string>()
  })

  it("list / revoke", () => {
    type Listing = SignedIn | InvalidArgument | TeamChecks | KnownErrors.CannotGetOwnUserWithoutUser
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.list>>>().toEqualTypeOf<Listing | KnownErrors.TeamNotFound>()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamInvitations.list>>>().toEqualTypeOf<ReadonlyArray<TeamInvitations.TeamInvitation>>()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.revoke>>>().toEqualTypeOf<Listing | KnownErrors.TeamNotFound>()
  })

  it("checkCode (session optional) / details / accept (signed in, unrestricted)", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.checkCode>>>().toEqualTypeOf<
      ClientCommon | SessionCommon | Transport | InvalidArgument | VerificationCodeErrors
    >()
    type Invitee =
      | SignedIn
      | InvalidArgument
      | VerificationCodeErrors
      | KnownErrors.UserAuthenticationRequired
      | KnownErrors.TeamInvitationRestrictedUserNotAllowed
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.details>>>().toEqualTypeOf<Invitee>()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamInvitations.details>>>().toEqualTypeOf<TeamInvitations.InvitationDetails>()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.accept>>>().toEqualTypeOf<Invitee | KnownErrors.ItemQuantityInsufficientAmount>()
  })
})

describe("TeamInvitations addressed to the user", () => {
  it("listMine / acceptById", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.listMine>>>().toEqualTypeOf<
      SignedIn | InvalidArgument | KnownErrors.CannotGetOwnUserWithoutUser
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamInvitations.listMine>>>().toEqualTypeOf<ReadonlyArray<TeamInvitations.TeamInvitation>>()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamInvitations.acceptById>>>().toEqualTypeOf<
      | SignedIn
      | InvalidArgument
      | KnownErrors.CannotGetOwnUserWithoutUser
      | KnownErrors.TeamInvitationRestrictedUserNotAllowed
      | KnownErrors.VerificationCodeNotFound
      | KnownErrors.ItemQuantityInsufficientAmount
    >()
  })
})

describe("ServerTeams", () => {
  it("CRUD and memberships need ServerAccess and carry their not-found / already-exists errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.list>>>().toEqualTypeOf<Server | KnownErrors.CannotGetOwnUserWithoutUser>()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerTeams.list>>>().toEqualTypeOf<ReadonlyArray<ServerTeams.ServerTeam>>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerTeams.list>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.get>>>().toEqualTypeOf<Server | KnownErrors.TeamNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.create>>>().toEqualTypeOf<
      Server | KnownErrors.UserNotFound | KnownErrors.CannotGetOwnUserWithoutUser
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.update>>>().toEqualTypeOf<Server | KnownErrors.TeamNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.delete>>>().toEqualTypeOf<Server | KnownErrors.TeamNotFound>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.addMember>>>().toEqualTypeOf<
      Server | KnownErrors.UserNotFound | KnownErrors.TeamNotFound | KnownErrors.TeamMembershipAlreadyExists | KnownErrors.CannotGetOwnUserWithoutUser
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeams.removeMember>>>().toEqualTypeOf<
      Server | KnownErrors.TeamMembershipNotFound | KnownErrors.UserNotFound | KnownErrors.CannotGetOwnUserWithoutUser | KnownErrors.TeamNotFound
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerTeams.listMemberProfiles>>>().toEqualTypeOf<
      ReadonlyArray<ServerTeams.ServerTeamMemberProfile>
    >()
  })
})

describe("TeamApiKeys", () => {
  type NotValid = KnownErrors.ApiKeyNotFound | KnownErrors.WrongApiKeyType | KnownErrors.ApiKeyRevoked | KnownErrors.ApiKeyExpired
  type Managed =
    | SignedIn
    | InvalidArgument
    | TeamApiKeys.TeamApiKeysNotEnabled
    | KnownErrors.ApiKeyNotFound
    | KnownErrors.UserAuthenticationRequired
    | KnownErrors.TeamNotFound

  it("create rejects a user owner (InvalidArgument); the answer holds the full (redacted) value", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof TeamApiKeys.create>>>().toEqualTypeOf<Managed>()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamApiKeys.create>>>().toEqualTypeOf<TeamApiKeys.TeamApiKeyFirstView>()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamApiKeys.list>>>().toEqualTypeOf<Managed>()
    expectTypeOf<ErrorOf<ReturnType<typeof TeamApiKeys.revoke>>>().toEqualTypeOf<Managed>()
    expectTypeOf<SuccessOf<ReturnType<typeof TeamApiKeys.revoke>>>().toEqualTypeOf<TeamApiKeys.TeamApiKey>()
  })

  it("check: server access, the API_KEY_NOT_VALID family typed; checkOrNone: none instead", () => {
    type CheckErrors = NotValid | TeamApiKeys.TeamApiKeysNotEnabled | ServerCommon | InvalidArgument | Transport
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeamApiKeys.check>>>().toEqualTypeOf<CheckErrors>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerTeamApiKeys.check>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerTeamApiKeys.checkOrNone>>>().toEqualTypeOf<Exclude<CheckErrors, NotValid>>()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerTeamApiKeys.checkOrNone>>>().toEqualTypeOf<Option.Option<TeamApiKeys.TeamApiKey>>()
  })
})
