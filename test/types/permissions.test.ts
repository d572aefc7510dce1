/**
 * Type tests of the permission functions: pinned error unions, success types and requirements
 * (client reads need the session; grants need ServerAccess; definitions need AdminAccess).
 * Checked by `tsc`.
 */
import { describe, expectTypeOf, it } from "vitest"
import type { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import type * as Permissions from "../../src/permissions/Permissions.js"
import type * as ServerPermissions from "../../src/permissions/ServerPermissions.js"
import type { Session } from "../../src/session/Session.js"
import type { AdminCommon, ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, Transport } from "./support.js"

type Client = ClientCommon | SessionCommon | UserNotSignedIn | Transport | InvalidArgument | KnownErrors.CannotGetOwnUserWithoutUser
type Server = ServerCommon | Transport | InvalidArgument
type Admin = AdminCommon | UserNotSignedIn | Transport

describe("permissions: client reads", () => {
  it("list and has share one error union", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Permissions.listTeamPermissions>>>().toEqualTypeOf<Client>()
    expectTypeOf<ErrorOf<ReturnType<typeof Permissions.hasTeamPermission>>>().toEqualTypeOf<Client>()
    expectTypeOf<ErrorOf<ReturnType<typeof Permissions.listProjectPermissions>>>().toEqualTypeOf<Client>()
    expectTypeOf<ErrorOf<ReturnType<typeof Permissions.hasProjectPermission>>>().toEqualTypeOf<Client>()
  })

  it("successes and requirements", () => {
    expectTypeOf<SuccessOf<ReturnType<typeof Permissions.listTeamPermissions>>>().toEqualTypeOf<ReadonlyArray<Permissions.TeamPermission>>()
    expectTypeOf<SuccessOf<ReturnType<typeof Permissions.listProjectPermissions>>>().toEqualTypeOf<
      ReadonlyArray<Permissions.ProjectPermission>
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof Permissions.hasTeamPermission>>>().toEqualTypeOf<boolean>()
    expectTypeOf<Permissions.TeamPermission>().toEqualTypeOf<{ readonly id: string; readonly userId: string; readonly teamId: string }>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Permissions.listTeamPermissions>>>().toEqualTypeOf<StackClient | Session>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Permissions.hasProjectPermission>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("server reads of any user need ServerAccess and no session", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerPermissions.listTeamPermissions>>>().toEqualTypeOf<Server>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerPermissions.hasProjectPermission>>>().toEqualTypeOf<Server>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerPermissions.listProjectPermissions>>>().toEqualTypeOf<StackClient | ServerAccess>()
  })
})

describe("permissions: server grants and revokes", () => {
  it("team grant: user, membership, permission, scope", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerPermissions.grantTeamPermission>>>().toEqualTypeOf<
      | KnownErrors.UserNotFound
      | KnownErrors.TeamMembershipNotFound
      | KnownErrors.PermissionNotFound
      | KnownErrors.WrongPermissionScope
      | Server
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerPermissions.grantTeamPermission>>>().toEqualTypeOf<Permissions.TeamPermission>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerPermissions.grantTeamPermission>>>().toEqualTypeOf<StackClient | ServerAccess>()
  })

  it("team revoke: TeamPermissionNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerPermissions.revokeTeamPermission>>>().toEqualTypeOf<
      KnownErrors.UserNotFound | KnownErrors.TeamMembershipNotFound | KnownErrors.TeamPermissionNotFound | Server
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerPermissions.revokeTeamPermission>>>().toEqualTypeOf<void>()
  })

  it("project grant and revoke", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerPermissions.grantProjectPermission>>>().toEqualTypeOf<
      KnownErrors.UserNotFound | KnownErrors.PermissionNotFound | KnownErrors.WrongPermissionScope | Server
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof ServerPermissions.grantProjectPermission>>>().toEqualTypeOf<Permissions.ProjectPermission>()
    expectTypeOf<ErrorOf<ReturnType<typeof ServerPermissions.revokeProjectPermission>>>().toEqualTypeOf<
      KnownErrors.UserNotFound | KnownErrors.PermissionNotFound | Server
    >()
  })
})

describe("permission definitions (admin)", () => {
  it("list: only the admin credential errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.listTeamDefinitions>>>().toEqualTypeOf<Admin>()
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.listProjectDefinitions>>>().toEqualTypeOf<Admin>()
    expectTypeOf<SuccessOf<ReturnType<typeof PermissionDefinitions.listTeamDefinitions>>>().toEqualTypeOf<
      ReadonlyArray<PermissionDefinitions.PermissionDefinition>
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof PermissionDefinitions.listTeamDefinitions>>>().toEqualTypeOf<StackClient | AdminAccess>()
  })

  it("listTeamDefinitionsPaginated: a page with an optional cursor; InvalidArgument for a bad limit", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.listTeamDefinitionsPaginated>>>().toEqualTypeOf<Admin | InvalidArgument>()
    expectTypeOf<SuccessOf<ReturnType<typeof PermissionDefinitions.listTeamDefinitionsPaginated>>>().toEqualTypeOf<PermissionDefinitions.DefinitionPage>()
    expectTypeOf<RequirementsOf<ReturnType<typeof PermissionDefinitions.listTeamDefinitionsPaginated>>>().toEqualTypeOf<StackClient | AdminAccess>()
  })

  it("create, update, delete at both scopes", () => {
    type Create = KnownErrors.PermissionIdAlreadyExists | KnownErrors.ContainedPermissionNotFound | Admin | InvalidArgument
    type Update =
      | KnownErrors.PermissionNotFound
      | KnownErrors.PermissionIdAlreadyExists
      | KnownErrors.ContainedPermissionNotFound
      | Admin
      | InvalidArgument
    type Delete = KnownErrors.PermissionNotFound | Admin | InvalidArgument
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.createTeamDefinition>>>().toEqualTypeOf<Create>()
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.createProjectDefinition>>>().toEqualTypeOf<Create>()
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.updateTeamDefinition>>>().toEqualTypeOf<Update>()
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.updateProjectDefinition>>>().toEqualTypeOf<Update>()
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.deleteTeamDefinition>>>().toEqualTypeOf<Delete>()
    expectTypeOf<ErrorOf<ReturnType<typeof PermissionDefinitions.deleteProjectDefinition>>>().toEqualTypeOf<Delete>()
    expectTypeOf<SuccessOf<ReturnType<typeof PermissionDefinitions.createTeamDefinition>>>().toEqualTypeOf<PermissionDefinitions.PermissionDefinition>()
    expectTypeOf<PermissionDefinitions.PermissionDefinition>().toEqualTypeOf<{
      readonly id: string
      readonly description?: string | undefined
      readonly containedPermissionIds: ReadonlyArray<string>
    }>()
  })
})
