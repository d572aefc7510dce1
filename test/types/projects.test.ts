/**
 * Type tests for projects and internal API keys: error channels and requirements (admin calls
 * need `AdminAccess`; owned projects need a session and may fail with ExpectedInternalProject).
 * Checked by `tsc`; a no-op at run time.
 */
import { describe, expectTypeOf, it } from "vitest"
import type { AdminAccess } from "../../src/core/Access.js"
import type { ConfigurationError, InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type * as InternalApiKeys from "../../src/projects/InternalApiKeys.js"
import type * as ProductionMode from "../../src/projects/ProductionMode.js"
import type * as Projects from "../../src/projects/Projects.js"
import type * as AdminProjects from "../../src/projects/AdminProjects.js"
import type { Session } from "../../src/session/Session.js"
import type { AdminCommon, ClientCommon, ClientReasons, ErrorOf, RequirementsOf, SessionCommon, SuccessOf, Transport } from "./support.js"

type AdminErrors = AdminCommon | UserNotSignedIn | Transport

describe("Projects", () => {
  it("getCurrent: client errors only, no session, no admin access", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Projects.getCurrent>>>().toEqualTypeOf<ClientCommon | Transport>()
    expectTypeOf<SuccessOf<ReturnType<typeof Projects.getCurrent>>>().toEqualTypeOf<Projects.ClientProject>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Projects.getCurrent>>>().toEqualTypeOf<StackClient>()
  })

  it("admin operations need AdminAccess and fail with the admin credential errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof AdminProjects.getCurrent>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<ErrorOf<ReturnType<typeof AdminProjects.updateCurrent>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
    expectTypeOf<ErrorOf<ReturnType<typeof AdminProjects.deleteCurrent>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<RequirementsOf<ReturnType<typeof AdminProjects.updateCurrent>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<RequirementsOf<ReturnType<typeof AdminProjects.deleteCurrent>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<SuccessOf<ReturnType<typeof AdminProjects.updateCurrent>>>().toEqualTypeOf<Projects.AdminProject>()
  })

  it("owned projects need a session and may fail with ExpectedInternalProject (a configuration reason)", () => {
    type Owned = KnownErrors.SchemaError | ConfigurationError<ClientReasons | KnownErrors.ExpectedInternalProject>
    expectTypeOf<ErrorOf<ReturnType<typeof Projects.listOwned>>>().toEqualTypeOf<
      KnownErrors.UserAuthenticationRequired | Owned | SessionCommon | UserNotSignedIn | Transport
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof Projects.createOwned>>>().toEqualTypeOf<
      | KnownErrors.UserAuthenticationRequired
      | KnownErrors.TeamMembershipNotFound
      | Owned
      | SessionCommon
      | UserNotSignedIn
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof Projects.createOwned>>>().toEqualTypeOf<StackClient | Session>()
    expectTypeOf<SuccessOf<ReturnType<typeof Projects.listOwned>>>().toEqualTypeOf<ReadonlyArray<Projects.AdminProject>>()
  })

  it("ProductionMode.check accepts an admin project", () => {
    expectTypeOf<Projects.AdminProject>().toMatchTypeOf<Parameters<typeof ProductionMode.check>[0]>()
    expectTypeOf<ReturnType<typeof ProductionMode.check>>().toEqualTypeOf<ReadonlyArray<ProductionMode.ProductionModeProblem>>()
  })
})

describe("InternalApiKeys", () => {
  it("need AdminAccess; get and revoke may fail with ApiKeyNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof InternalApiKeys.list>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<ErrorOf<ReturnType<typeof InternalApiKeys.create>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
    expectTypeOf<ErrorOf<ReturnType<typeof InternalApiKeys.get>>>().toEqualTypeOf<KnownErrors.ApiKeyNotFound | AdminErrors | InvalidArgument>()
    expectTypeOf<ErrorOf<ReturnType<typeof InternalApiKeys.revoke>>>().toEqualTypeOf<KnownErrors.ApiKeyNotFound | AdminErrors | InvalidArgument>()
    expectTypeOf<RequirementsOf<ReturnType<typeof InternalApiKeys.revoke>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<SuccessOf<ReturnType<typeof InternalApiKeys.create>>>().toEqualTypeOf<InternalApiKeys.InternalApiKeyFirstView>()
    expectTypeOf<ReturnType<typeof InternalApiKeys.validity>>().toEqualTypeOf<"valid" | "expired" | "manually-revoked">()
  })
})
