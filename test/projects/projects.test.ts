/** Projects through the SDK against the in-process emulator: client view, admin view and update, owned projects, deletion. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Result } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { defaults } from "../../src/emulator/Defaults.js"
import { Password, Stack } from "../../src/index.js"
import * as InternalApiKeys from "../../src/projects/InternalApiKeys.js"
import * as Projects from "../../src/projects/Projects.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import { makeEmulator } from "../emulator/helpers.js"
import { adminViaToken, countingClient, ownerOnInternal } from "./support.js"

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator()
  const httpClient = Emulator.layerHttpClient(emulator)
  const demoClient = Stack.layerClient({ projectId: emulator.demo.projectId, httpClient })
  const demoAdmin = Stack.layerAdmin({ projectId: emulator.demo.projectId, httpClient, superSecretAdminKey: emulator.demo.superSecretAdminKey })
  return { emulator, httpClient, demoClient, demoAdmin }
})

const fullUpdate: Projects.AdminProjectUpdate = {
  displayName: "Renamed",
  description: "with everything",
  logoUrl: "https://cdn.example.com/logo.png",
  config: {
    allowLocalhost: false,
    magicLinkEnabled: true,
    passkeyEnabled: true,
    clientTeamCreationEnabled: true,
    clientUserDeletionEnabled: true,
    allowUserApiKeys: true,
    allowTeamApiKeys: true,
    createTeamOnSignUp: true,
    oauthAccountMergeStrategy: "raise_error",
    domains: [{ domain: "https://app.example.com", handlerPath: "/auth" }],
    oauthProviders: [
      { id: "google", type: "shared" },
      { id: "microsoft", type: "standard", clientId: "ms-client", clientSecret: Redacted.make("ms-secret"), microsoftTenantId: "tenant-1" },
      { id: "facebook", type: "standard", clientId: "fb-client", clientSecret: Redacted.make("fb-secret"), facebookConfigId: "fb-config" }
    ],
    emailConfig: {
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "mailer",
      password: Redacted.make("smtp-secret"),
      senderName: "Example",
      senderEmail: "noreply@example.com"
    },
    teamCreatorDefaultPermissions: [{ id: "team_admin" }, { id: "billing" }],
    teamMemberDefaultPermissions: [],
    userDefaultPermissions: [{ id: "reader" }]
  }
}

describe("Projects", () => {
  it.effect("getCurrent: the client view, enabled OAuth providers as config.oauthProviders", () =>
    Effect.gen(function* () {
      const { demoClient } = yield* setup
      const project = yield* Projects.getCurrent().pipe(Effect.provide(demoClient))
      expect(project.displayName).toBe("Demo Project")
      expect(project.config.oauthProviders.map((p) => p.id)).toEqual(["github", "google", "microsoft"])
      expect(project.config.signUpEnabled).toBe(true)
    }))

  it.effect("updateCurrent with the admin key: every config part round-trips, the client view follows", () =>
    Effect.gen(function* () {
      const { demoAdmin, demoClient } = yield* setup
      const before = yield* AdminProjects.getCurrent().pipe(Effect.provide(demoAdmin))
      expect(before.ownerTeamId).toBe(defaults.internalOwner.teamId)
      expect(before.config.emailConfig).toEqual({ type: "shared" })
      const updated = yield* AdminProjects.updateCurrent(fullUpdate).pipe(Effect.provide(demoAdmin))
      expect(updated.displayName).toBe("Renamed")
      expect(updated.description).toBe("with everything")
      expect(updated.logoUrl).toBe("https://cdn.example.com/logo.png")
      expect(updated.logoFullUrl).toBeNull()
      const config = updated.config
      expect(config.allowLocalhost).toBe(false)
      expect(config.oauthAccountMergeStrategy).toBe("raise_error")
      expect(config.createTeamOnSignUp).toBe(true)
      expect(config.domains).toEqual([{ domain: "https://app.example.com", handlerPath: "/auth" }])
      expect(config.oauthProviders.map((p) => [p.id, p.type, p.clientId])).toEqual([
        ["facebook", "standard", "fb-client"],
        ["google", "shared", undefined],
        ["microsoft", "standard", "ms-client"]
      ])
      const microsoft = config.oauthProviders.find((p) => p.id === "microsoft")!
      expect(Redacted.value(microsoft.clientSecret!)).toBe("ms-secret")
      expect(microsoft.microsoftTenantId).toBe("tenant-1")
      expect(config.oauthProviders.find((p) => p.id === "facebook")!.facebookConfigId).toBe("fb-config")
      expect(config.emailConfig.type).toBe("standard")
      if (config.emailConfig.type === "standard") {
        expect(config.emailConfig.senderEmail).toBe("noreply@example.com")
        expect(Redacted.value(config.emailConfig.password)).toBe("smtp-secret")
      }
      // the service reads both views from the rendered config, sorted by id and by provider type
      // (`renderedOrganizationConfigToProjectCrud`, apps/backend/src/lib/config.tsx at stack-auth 2f719903)
      expect(config.teamCreatorDefaultPermissions).toEqual([{ id: "billing" }, { id: "team_admin" }])
      expect(config.teamMemberDefaultPermissions).toEqual([])
      expect(config.userDefaultPermissions).toEqual([{ id: "reader" }])
      const client = yield* Projects.getCurrent().pipe(Effect.provide(demoClient))
      expect(client.displayName).toBe("Renamed")
      expect(client.config.oauthProviders.map((p) => p.id)).toEqual(["facebook", "google", "microsoft"])
      expect(client.config.magicLinkEnabled).toBe(true)
    }))

  it.effect("updateCurrent: a domain without scheme is a SchemaError; shared keys only where they exist", () =>
    Effect.gen(function* () {
      const { demoAdmin } = yield* setup
      const badDomain = yield* AdminProjects.updateCurrent({ config: { domains: [{ domain: "app.example.com", handlerPath: "/h" }] } }).pipe(
        Effect.provide(demoAdmin),
        Effect.flip
      )
      expect(badDomain._tag).toBe("SchemaError")
      const badShared = yield* AdminProjects.updateCurrent({ config: { oauthProviders: [{ id: "discord", type: "shared" }] } }).pipe(
        Effect.provide(demoAdmin),
        Effect.flip
      )
      expect(badShared._tag).toBe("SchemaError")
    }))

  it.effect("admin access token: the seeded owner's internal session administers the demo project", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { emulator, httpClient } = yield* setup
        const internal = yield* ownerOnInternal(httpClient)
        const admin = adminViaToken(emulator.demo.projectId, internal, httpClient)
        const updated = yield* AdminProjects.updateCurrent({ config: { passkeyEnabled: true } }).pipe(Effect.provide(admin))
        expect(updated.config.passkeyEnabled).toBe(true)
        expect((yield* AdminProjects.getCurrent().pipe(Effect.provide(admin))).id).toBe(emulator.demo.projectId)
      })
    ))

  it.effect("admin access token of an internal user who owns nothing: AdminAccessTokenIsNotAdmin", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { emulator, httpClient } = yield* setup
        const internal = yield* Layer.build(Stack.layerClient({ projectId: "internal", httpClient }))
        yield* Password.signUpWithPassword({ email: "stranger@example.com", password: "correct horse battery", noVerificationCallback: true }).pipe(
          Effect.provide(internal)
        )
        const error = yield* AdminProjects.getCurrent().pipe(Effect.provide(adminViaToken(emulator.demo.projectId, internal, httpClient)), Effect.flip)
        expect(error._tag === "ConfigurationError" && error.reason._tag).toBe("AdminAccessTokenIsNotAdmin")
      })
    ))

  it.effect("listOwned / createOwned: on another project they fail with ExpectedInternalProject before sending", () =>
    Effect.gen(function* () {
      const { emulator } = yield* setup
      const counting = countingClient(emulator)
      const demo = Stack.layerClient({ projectId: emulator.demo.projectId, httpClient: counting.layer })
      const listed = yield* Projects.listOwned().pipe(Effect.provide(demo), Effect.flip)
      expect(listed._tag === "ConfigurationError" && listed.reason._tag).toBe("ExpectedInternalProject")
      const created = yield* Projects.createOwned({ displayName: "x", ownerTeamId: defaults.internalOwner.teamId }).pipe(
        Effect.provide(demo),
        Effect.flip
      )
      expect(created._tag === "ConfigurationError" && created.reason._tag).toBe("ExpectedInternalProject")
      expect(counting.count()).toBe(0)
    }))

  it.effect("createOwned: a working project without keys (its owner creates them), owned by the team; listed; deleted it is gone", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { emulator, httpClient } = yield* setup
        const internal = yield* ownerOnInternal(httpClient)
        expect((yield* Projects.listOwned().pipe(Effect.provide(internal))).map((p) => p.id)).toEqual([emulator.demo.projectId])
        const created = yield* Projects.createOwned({
          displayName: "Second",
          description: "made by a test",
          ownerTeamId: defaults.internalOwner.teamId,
          config: { magicLinkEnabled: true, domains: [{ domain: "https://second.example.com", handlerPath: "/handler" }] }
        }).pipe(Effect.provide(internal))
        expect(created).toMatchObject({
          displayName: "Second",
          description: "made by a test",
          ownerTeamId: defaults.internalOwner.teamId,
          isProductionMode: false
        })
        expect(created.config.magicLinkEnabled).toBe(true)
        expect((yield* Projects.listOwned().pipe(Effect.provide(internal))).map((p) => p.id)).toEqual([emulator.demo.projectId, created.id])

        // as on the service, a new project has no keys (issue 16 item 8); the owner creates them, and they work
        const ownerAdmin = adminViaToken(created.id, internal, httpClient)
        expect(yield* InternalApiKeys.list().pipe(Effect.provide(ownerAdmin))).toEqual([])
        const made = yield* InternalApiKeys.create({
          description: "first",
          expiresAt: new Date(4_102_444_800_000),
          hasPublishableClientKey: false,
          hasSecretServerKey: false,
          hasSuperSecretAdminKey: true
        }).pipe(Effect.provide(ownerAdmin))
        const ownKey = Stack.layerAdmin({ projectId: created.id, httpClient, superSecretAdminKey: Redacted.value(made.superSecretAdminKey!) })
        expect((yield* AdminProjects.getCurrent().pipe(Effect.provide(ownKey))).displayName).toBe("Second")
        // the demo project's key does not open it
        const wrongKey = Stack.layerAdmin({ projectId: created.id, httpClient, superSecretAdminKey: emulator.demo.superSecretAdminKey })
        const refused = yield* AdminProjects.getCurrent().pipe(Effect.provide(wrongKey), Effect.flip)
        expect(refused._tag === "ConfigurationError" && refused.reason._tag).toBe("InvalidSuperSecretAdminKey")

        const admin = adminViaToken(created.id, internal, httpClient)
        yield* AdminProjects.deleteCurrent().pipe(Effect.provide(admin))
        const gone = yield* AdminProjects.getCurrent().pipe(Effect.provide(admin), Effect.result)
        expect(Result.isFailure(gone) && gone.failure._tag === "ConfigurationError" && gone.failure.reason._tag).toBe("CurrentProjectNotFound")
        const client = yield* Projects.getCurrent().pipe(Effect.provide(Stack.layerClient({ projectId: created.id, httpClient })), Effect.flip)
        expect(client._tag === "ConfigurationError" && client.reason._tag).toBe("CurrentProjectNotFound")
        expect((yield* Projects.listOwned().pipe(Effect.provide(internal))).map((p) => p.id)).toEqual([emulator.demo.projectId])
      })
    ))

  it.effect("createOwned with a team the user is not in: TeamMembershipNotFound", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { httpClient } = yield* setup
        const internal = yield* ownerOnInternal(httpClient)
        const error = yield* Projects.createOwned({ displayName: "x", ownerTeamId: "00000000-0000-4000-8000-000000000000" }).pipe(
          Effect.provide(internal),
          Effect.flip
        )
        expect(error._tag).toBe("TeamMembershipNotFound")
      })
    ))

  it.effect("listOwned signed out: UserNotSignedIn", () =>
    Effect.gen(function* () {
      const { httpClient } = yield* setup
      const error = yield* Projects.listOwned().pipe(Effect.provide(Stack.layerClient({ projectId: "internal", httpClient })), Effect.flip)
      expect(error._tag).toBe("UserNotSignedIn")
    }))
})
