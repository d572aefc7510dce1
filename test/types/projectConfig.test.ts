/**
 * Type tests of `ProjectConfig`, `Projects.transfer`, `AdminProjects.getProductionModeErrors` and
 * the admin hooks: the new error unions are pinned (the SDK's own `InvalidConfigOverride`, the
 * service's `ConfigOverrideRefused`, the transfer's known errors), overrides are typed by the
 * service's keys per level, and `makeStackHooks(runtime)` offers the admin hooks only to a runtime
 * with `AdminAccess`. Checked by `tsc`; a no-op at run time.
 */
import { ManagedRuntime } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import { makeStackHooks } from "../../react/index.js"
import type { AdminAccess } from "../../src/core/Access.js"
import type { ConfigurationError, InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import { Stack } from "../../src/index.js"
import type * as AdminProjects from "../../src/projects/AdminProjects.js"
import type * as ProductionMode from "../../src/projects/ProductionMode.js"
import type * as ProjectConfig from "../../src/projects/ProjectConfig.js"
import type * as Projects from "../../src/projects/Projects.js"
import type { Session } from "../../src/session/Session.js"
import type { AdminCommon, ClientReasons, ErrorOf, RequirementsOf, SessionCommon, SuccessOf, Transport } from "./support.js"

type AdminErrors = AdminCommon | UserNotSignedIn | Transport

const typeOnly = (_body: () => void): void => {}

describe("ProjectConfig types", () => {
  it("writes fail with the admin errors, InvalidConfigOverride (before sending) and ConfigOverrideRefused (the service's text)", () => {
    type Write = AdminErrors | InvalidArgument | ProjectConfig.InvalidConfigOverride | ProjectConfig.ConfigOverrideRefused
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.update>>>().toEqualTypeOf<Write>()
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.push>>>().toEqualTypeOf<Write>()
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.updatePushed>>>().toEqualTypeOf<Write>()
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.replaceOverride<"environment">>>>().toEqualTypeOf<Write>()
    expectTypeOf<RequirementsOf<ReturnType<typeof ProjectConfig.update>>>().toEqualTypeOf<StackClient | AdminAccess>()
  })

  it("reads fail with the admin errors (and InvalidArgument where a payload is encoded) and answer typed values", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.get>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.getPushedSource>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<ErrorOf<ReturnType<typeof ProjectConfig.resetOverrideKeys>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
    expectTypeOf<SuccessOf<ReturnType<typeof ProjectConfig.get>>>().toEqualTypeOf<ProjectConfig.RenderedConfig>()
    expectTypeOf<SuccessOf<ReturnType<typeof ProjectConfig.getPushedSource>>>().toEqualTypeOf<ProjectConfig.PushedConfigSource>()
    expectTypeOf<ProjectConfig.RenderedConfig["auth"]>().toMatchTypeOf<{ readonly allowSignUp?: boolean | null } | null | undefined>()
  })

  it("overrides are typed by the level's keys, nested or dotted", () => {
    const environment: ProjectConfig.EnvironmentConfigOverride = {
      "auth.allowSignUp": false,
      teams: { createPersonalTeamOnSignUp: true },
      "domains.trustedDomains.production": { baseUrl: "https://app.example.com", handlerPath: "/handler" },
      "auth.oauth.accountMergeStrategy": "raise_error",
      "emails.server.port": 587
    }
    expectTypeOf(environment).toMatchTypeOf<ProjectConfig.EnvironmentConfigOverride>()
    // @ts-expect-error a value of the wrong type
    const wrongType: ProjectConfig.EnvironmentConfigOverride = { "auth.allowSignUp": "no" }
    // @ts-expect-error a merge strategy the service does not have
    const wrongStrategy: ProjectConfig.EnvironmentConfigOverride = { "auth.oauth.accountMergeStrategy": "merge" }
    // @ts-expect-error the e-mail server is an environment key, not a branch one
    const branchSecret: ProjectConfig.BranchConfigOverride = { "emails.server": { isShared: true } }
    // @ts-expect-error the project level holds only sourceOfTruth and project
    const projectAuth: ProjectConfig.ProjectConfigOverride = { "auth.allowSignUp": true }
    expectTypeOf([wrongType, wrongStrategy, branchSecret, projectAuth]).not.toBeNever()
  })
})

describe("Projects.transfer and getProductionModeErrors types", () => {
  it("transfer needs a session and lists the service's refusals", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Projects.transfer>>>().toEqualTypeOf<
      | KnownErrors.ProjectNotFound
      | KnownErrors.TeamMembershipNotFound
      | KnownErrors.TeamPermissionRequired
      | KnownErrors.UserAuthenticationRequired
      | KnownErrors.SchemaError
      | ConfigurationError<ClientReasons>
      | ConfigurationError<KnownErrors.ExpectedInternalProject>
      | SessionCommon
      | UserNotSignedIn
      | InvalidArgument
      | Transport
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof Projects.transfer>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("getProductionModeErrors answers the problems with the admin errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof AdminProjects.getProductionModeErrors>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<SuccessOf<ReturnType<typeof AdminProjects.getProductionModeErrors>>>().toEqualTypeOf<
      ReadonlyArray<ProductionMode.ProductionModeProblem>
    >()
  })
})

describe("admin hooks typed by the runtime", () => {
  const keys = { projectId: "p", publishableClientKey: "pck_x" }
  const client = makeStackHooks(ManagedRuntime.make(Stack.layerClient(keys)))
  const server = makeStackHooks(ManagedRuntime.make(Stack.layerServer({ ...keys, secretServerKey: "ssk_x" })))
  const admin = makeStackHooks(ManagedRuntime.make(Stack.layerAdmin({ ...keys, superSecretAdminKey: "sak_x" })))

  it("only a runtime with AdminAccess gets useConfig, useAdminProject and useProductionModeErrors", () => {
    expectTypeOf(client).not.toHaveProperty("useConfig")
    expectTypeOf(server).not.toHaveProperty("useAdminProject")
    expectTypeOf(server).not.toHaveProperty("useProductionModeErrors")
    typeOnly(() => {
      const config = admin.useConfig()
      expectTypeOf(config.status === "success" ? config.data : undefined).toEqualTypeOf<ProjectConfig.RenderedConfig | undefined>()
      expectTypeOf(admin.useSuspenseAdminProject()).toEqualTypeOf<Projects.AdminProject>()
      expectTypeOf(admin.useSuspenseProductionModeErrors()).toEqualTypeOf<ReadonlyArray<ProductionMode.ProductionModeProblem>>()
      expectTypeOf(admin.useSuspenseConfig()).toEqualTypeOf<ProjectConfig.RenderedConfig>()
      expectTypeOf(admin.useSuspenseConfigOverride("branch")).toEqualTypeOf<{ readonly [x: string]: unknown }>()
    })
  })
})
