/**
 * `ProjectConfig` (the official `getConfig` / `updateConfig` / `pushConfig` family), `Projects.transfer`
 * and `AdminProjects.getProductionModeErrors` through the SDK against the in-process emulator.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { defaults } from "../../src/emulator/Defaults.js"
import { Stack } from "../../src/index.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import * as ProjectConfig from "../../src/projects/ProjectConfig.js"
import * as Projects from "../../src/projects/Projects.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import { makeEmulator } from "../emulator/helpers.js"
import { countingClient, ownerOnInternal } from "./support.js"

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const counting = countingClient(emulator)
  const demo = emulator.demo
  const admin = Stack.layerAdmin({ projectId: demo.projectId, httpClient: counting.layer, superSecretAdminKey: demo.superSecretAdminKey })
  const client = Stack.layerClient({ projectId: demo.projectId, httpClient: Emulator.layerHttpClient(emulator) })
  return { emulator, admin, client, count: counting.count }
})

describe("ProjectConfig", () => {
  it.effect("update writes the environment override; get, getOverride and both project views follow (the cache refreshes)", () =>
    Effect.gen(function* () {
      const { admin, client } = yield* setup
      const result = yield* Effect.gen(function* () {
        const before = yield* ProjectConfig.get()
        const adminBefore = yield* AdminProjects.getCurrent()
        yield* ProjectConfig.update({ "auth.allowSignUp": false, teams: { createPersonalTeamOnSignUp: true } })
        const after = yield* ProjectConfig.get()
        const adminAfter = yield* AdminProjects.getCurrent()
        const override = yield* ProjectConfig.getOverride("environment")
        return { before, adminBefore, after, adminAfter, override }
      }).pipe(Effect.provide(admin))
      expect(result.before.auth?.allowSignUp).toBe(true)
      expect(result.adminBefore.config.signUpEnabled).toBe(true)
      expect(result.after.auth?.allowSignUp).toBe(false)
      expect(result.after.teams?.createPersonalTeamOnSignUp).toBe(true)
      expect(result.adminAfter.config.signUpEnabled).toBe(false)
      expect(result.adminAfter.config.createTeamOnSignUp).toBe(true)
      expect(result.override).toMatchObject({ "auth.allowSignUp": false, teams: { createPersonalTeamOnSignUp: true } })
      const view = yield* Projects.getCurrent().pipe(Effect.provide(client))
      expect(view.config.signUpEnabled).toBe(false)
    }))

  it.effect("an unknown key, an unknown property or a wrong value is InvalidConfigOverride, before anything is sent", () =>
    Effect.gen(function* () {
      const { admin, count } = yield* setup
      const sent = count()
      const unknownKey = yield* Effect.flip(ProjectConfig.update({ "auth.allowSignUpp": true } as ProjectConfig.EnvironmentConfigOverride)).pipe(
        Effect.provide(admin)
      )
      expect(unknownKey).toEqual(
        new ProjectConfig.InvalidConfigOverride({
          message: "The key \"auth.allowSignUpp\" is not valid (nested object not found in schema: \"auth.allowSignUpp\").",
          level: "environment"
        })
      )
      const unknownProperty = yield* Effect.flip(
        ProjectConfig.updatePushed({ auth: { password: { allowSignin: true } } } as unknown as ProjectConfig.BranchConfigOverride)
      ).pipe(Effect.provide(admin))
      expect(unknownProperty.message).toBe("auth.password contains unknown properties: allowSignin")
      const environmentKeyOnBranch = yield* Effect.flip(
        ProjectConfig.push({ "domains.allowLocalhost": false } as unknown as ProjectConfig.BranchConfigOverride, { source: { type: "pushed-from-unknown" } })
      ).pipe(Effect.provide(admin))
      expect(environmentKeyOnBranch._tag).toBe("InvalidConfigOverride")
      const wrongType = yield* Effect.flip(ProjectConfig.updateOverride("project", { "project.requirePublishableClientKey": "yes" as unknown as boolean }))
        .pipe(
          Effect.provide(admin)
        )
      expect(wrongType.message).toBe("project.requirePublishableClientKey must be a `boolean` type, but the final value was: `\"yes\"`.")
      expect(count()).toBe(sent)
    }))

  it.effect("a refusal the SDK does not foresee is the service's text as ConfigOverrideRefused", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup
      // prices are checked by the service's own schema, not key by key: nested past the emulator's JSON depth limit
      let prices: Record<string, unknown> = {}
      for (let index = 0; index < 120; index++) prices = { nested: prices }
      const refused = yield* Effect.flip(
        ProjectConfig.update({ "payments.products.pro": { customerType: "user", prices } })
      ).pipe(Effect.provide(admin))
      expect(refused._tag).toBe("ConfigOverrideRefused")
      expect(refused.message).toMatch(/^Invalid config format/)
    }))

  it.effect("push records the source; updatePushed merges into the branch; the environment wins; reset-keys, replaceOverride and unlink", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup
      const source = { type: "pushed-from-github", owner: "acme", repo: "app", branch: "main", commitHash: "abc", configFilePath: "stack.config.ts" } as const
      const result = yield* Effect.gen(function* () {
        const initial = yield* ProjectConfig.getPushedSource()
        yield* ProjectConfig.push({ "auth.allowSignUp": false, "teams.allowClientTeamCreation": true }, { source })
        const pushedSource = yield* ProjectConfig.getPushedSource()
        yield* ProjectConfig.updatePushed({ "auth.passkey.allowSignIn": true })
        const branch = yield* ProjectConfig.getOverride("branch")
        // the environment (written at creation) still says sign-up is on
        const shadowed = (yield* ProjectConfig.get()).auth?.allowSignUp
        yield* ProjectConfig.resetOverrideKeys("environment", ["auth.allowSignUp"])
        const reset = (yield* ProjectConfig.get()).auth?.allowSignUp
        yield* ProjectConfig.replaceOverride("branch", { "auth.otp.allowSignIn": true })
        const replaced = yield* ProjectConfig.getOverride("branch")
        const sourceAfterReplace = yield* ProjectConfig.getPushedSource()
        yield* ProjectConfig.unlinkPushedSource()
        const unlinked = yield* ProjectConfig.getPushedSource()
        const project = yield* AdminProjects.getCurrent()
        return { initial, pushedSource, branch, shadowed, reset, replaced, sourceAfterReplace, unlinked, project }
      }).pipe(Effect.provide(admin))
      expect(result.initial).toEqual({ type: "unlinked" })
      expect(result.pushedSource).toEqual(source)
      expect(result.branch).toEqual({ "auth.allowSignUp": false, "teams.allowClientTeamCreation": true, "auth.passkey.allowSignIn": true })
      expect(result.shadowed).toBe(true)
      expect(result.reset).toBe(false)
      expect(result.replaced).toEqual({ "auth.otp.allowSignIn": true })
      expect(result.sourceAfterReplace).toEqual(source)
      expect(result.unlinked).toEqual({ type: "unlinked" })
      expect(result.project.config.magicLinkEnabled).toBe(true)
    }))

  it.effect("getProductionModeErrors reads the admin view: allowLocalhost written as an override shows up and goes away", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup
      const [before, after] = yield* Effect.gen(function* () {
        const before = yield* AdminProjects.getProductionModeErrors()
        yield* ProjectConfig.update({ "domains.allowLocalhost": false })
        return [before, yield* AdminProjects.getProductionModeErrors()] as const
      }).pipe(Effect.provide(admin))
      expect(before.map((problem) => problem.message)).toContain(
        "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings"
      )
      expect(after).toEqual([])
    }))
})

describe("Projects.transfer", () => {
  it.effect("the owner moves the demo project to another team of theirs; ProjectNotFound for an unknown project; only on internal", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const httpClient = Emulator.layerHttpClient(emulator)
      const internalServer = Stack.layerServer({ projectId: "internal", httpClient, secretServerKey: emulator.internal.secretServerKey })
      const target = yield* ServerTeams.create({ displayName: "Target", creatorUserId: defaults.internalOwner.userId }).pipe(Effect.provide(internalServer))
      const outcome = yield* Effect.scoped(
        Effect.gen(function* () {
          const internal = yield* ownerOnInternal(httpClient)
          yield* Projects.transfer(emulator.demo.projectId, target.id).pipe(Effect.provide(internal))
          const unknown = yield* Effect.flip(Projects.transfer("0b6c3f58-7f1d-4a57-9a55-3f0a8c1d2e4b", target.id)).pipe(Effect.provide(internal))
          const notMember = yield* Effect.flip(Projects.transfer(emulator.demo.projectId, "3c2b1a09-8f7e-4d6c-9b5a-1f2e3d4c5b6a")).pipe(
            Effect.provide(internal)
          )
          return { unknown, notMember }
        })
      )
      expect(outcome.unknown._tag).toBe("ProjectNotFound")
      expect(outcome.notMember._tag).toBe("TeamMembershipNotFound")
      expect(emulator.state.projects.get(emulator.demo.projectId)!.ownerTeamId).toBe(target.id)
      const elsewhere = yield* Effect.flip(Projects.transfer(emulator.demo.projectId, target.id)).pipe(
        Effect.provide(Stack.layerClient({ projectId: emulator.demo.projectId, httpClient }))
      )
      expect(elsewhere._tag).toBe("ConfigurationError")
    }))
})
