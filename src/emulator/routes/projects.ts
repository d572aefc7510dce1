/**
 * Projects (PROTOCOL.md §3.6, §3.7, wire samples projects/*): the client view
 * (`GET /projects/current`), the admin view with config updates and deletion
 * (`/internal/projects/current`, admin key or an owner's admin access token), and the projects
 * owned by a user of the `internal` project (`GET|POST /internal/projects`, client access with the
 * user's token; any other project answers EXPECTED_INTERNAL_PROJECT), and the transfer of an owned project to
 * another team (`POST /internal/projects/transfer`).
 *
 * A project created here is a working project without API keys (as on the service: its owners
 * create them with `POST /internal/api-keys`, or use their admin access tokens); its owners are the
 * members of `owner_team_id` (a team of the `internal` project the caller belongs to, else
 * TEAM_MEMBERSHIP_NOT_FOUND). A deleted project answers CURRENT_PROJECT_NOT_FOUND.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import { ExpectedInternalProject, ProjectNotFound, TeamMembershipNotFound, TeamPermissionRequired, UserAuthenticationRequired } from "../../core/KnownErrors.js"
import type {
  AdminProject,
  ClientProject,
  EmailConfig as WireEmailConfig,
  OAuthProviderConfig as WireOAuthProviderConfig,
  OAuthProviderId
} from "../../projects/Projects.js"
import { noOwnerTeamText, transferEndpoint } from "../../projects/internal/config.js"
import { createOwnedEndpoint, deleteCurrentEndpoint, getCurrentAdminEndpoint, getCurrentEndpoint, listOwnedEndpoint } from "../../projects/internal/projects.js"
import type { AdminProjectConfigUpdateOfService } from "../Endpoints.js"
import * as Endpoints from "../Endpoints.js"
import { generateSigningKeys } from "../AccessTokens.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { legacyOverride, overrideLevel } from "../ConfigOverrides.js"
import { hasTeamPermission } from "../Permissions.js"
import { deleteProject, makeProject } from "../Store.js"
import type { EmailConfig, OAuthProviderConfig, ProjectConfig, ProjectRecord } from "../State.js"
import { defaultEmailTheme, defaultProjectConfig, isProjectOwner, teamsOf } from "../State.js"

/** Providers whose shared (service-owned) OAuth keys exist. */
const sharedKeyProviders: ReadonlyArray<string> = ["google", "github", "microsoft", "spotify"]

const ids = (values: ReadonlyArray<string>) => values.map((id) => ({ id }))

/** The client view of a project. */
export const clientView = (project: ProjectRecord): ClientProject => ({
  id: project.id,
  displayName: project.displayName,
  config: {
    signUpEnabled: project.config.signUpEnabled,
    credentialEnabled: project.config.credentialEnabled,
    magicLinkEnabled: project.config.magicLinkEnabled,
    passkeyEnabled: project.config.passkeyEnabled,
    clientTeamCreationEnabled: project.config.clientTeamCreationEnabled,
    clientUserDeletionEnabled: project.config.clientUserDeletionEnabled,
    allowUserApiKeys: project.config.allowUserApiKeys,
    allowTeamApiKeys: project.config.allowTeamApiKeys,
    oauthProviders: project.config.oauthProviders.map((provider) => ({ id: provider.id })),
    domains: project.config.domains.map((domain) => ({ domain: domain.domain, handlerPath: domain.handlerPath }))
  }
})

const providerView = (provider: OAuthProviderConfig): WireOAuthProviderConfig => ({
  providerConfigId: provider.id,
  id: provider.provider as OAuthProviderId,
  type: provider.type,
  ...(provider.type === "standard"
    ? { clientId: provider.clientId ?? "", clientSecret: Redacted.make(provider.clientSecret ?? "") }
    : {}),
  ...(provider.facebookConfigId !== undefined ? { facebookConfigId: provider.facebookConfigId } : {}),
  ...(provider.microsoftTenantId !== undefined ? { microsoftTenantId: provider.microsoftTenantId } : {}),
  ...(provider.appleBundleIds !== undefined ? { appleBundleIds: provider.appleBundleIds } : {})
})

const emailConfigView = (config: EmailConfig | undefined): WireEmailConfig =>
  config === undefined || config.type === "shared" ? { type: "shared" } : { ...config, password: Redacted.make(config.password) }

/** The admin view of a project. */
export const adminView = (project: ProjectRecord): AdminProject => {
  const config = project.config
  const providers = [...config.oauthProviders].sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0))
  return {
    id: project.id,
    displayName: project.displayName,
    description: project.description,
    createdAt: new Date(project.createdAtMillis),
    isProductionMode: project.isProductionMode ?? false,
    ownerTeamId: project.ownerTeamId ?? null,
    onboardingStatus: (project.onboardingStatus ?? "completed") as AdminProject["onboardingStatus"],
    logoUrl: project.logoUrl ?? null,
    logoFullUrl: project.logoFullUrl ?? null,
    logoDarkModeUrl: project.logoDarkModeUrl ?? null,
    logoFullDarkModeUrl: project.logoFullDarkModeUrl ?? null,
    config: {
      allowLocalhost: config.allowLocalhost,
      signUpEnabled: config.signUpEnabled,
      credentialEnabled: config.credentialEnabled,
      magicLinkEnabled: config.magicLinkEnabled,
      passkeyEnabled: config.passkeyEnabled,
      clientTeamCreationEnabled: config.clientTeamCreationEnabled,
      clientUserDeletionEnabled: config.clientUserDeletionEnabled,
      allowUserApiKeys: config.allowUserApiKeys,
      allowTeamApiKeys: config.allowTeamApiKeys,
      createTeamOnSignUp: config.createTeamOnSignUp,
      oauthAccountMergeStrategy: config.oauthAccountMergeStrategy ?? "link_method",
      oauthProviders: providers.map(providerView),
      enabledOauthProviders: providers.map((provider) => ({ id: provider.id })),
      domains: config.domains.map((domain) => ({ domain: domain.domain, handlerPath: domain.handlerPath })),
      emailConfig: emailConfigView(config.emailConfig),
      emailTheme: config.emailTheme ?? defaultEmailTheme,
      teamCreatorDefaultPermissions: ids(config.teamCreatorDefaultPermissions ?? ["team_admin"]),
      teamMemberDefaultPermissions: ids(config.teamMemberDefaultPermissions ?? ["team_member"]),
      userDefaultPermissions: ids(config.userDefaultPermissions ?? [])
    }
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The config fields an update changes (arrays replace the whole list), to be written as the
 * environment override the service writes (`ConfigOverrides.legacyOverride`). Fails with SCHEMA_ERROR for a
 * domain that is not `http(s)://…` or a handler path without a leading `/`, shared keys for a
 * provider that has none, a duplicate provider; with the service's text for an unknown e-mail theme.
 */
const configChanges = (
  context: RequestContext,
  update: AdminProjectConfigUpdateOfService | undefined
): Effect.Effect<Partial<ProjectConfig>, ReturnType<typeof schemaError> | TextFailure> =>
  Effect.gen(function* () {
    if (update === undefined) return {}
    const problems: Array<string> = []
    update.domains?.forEach((domain, index) => {
      if (!/^https?:\/\//.test(domain.domain)) problems.push(`body.config.domains[${index}].domain must start with http:// or https://`)
      if (!domain.handlerPath.startsWith("/")) problems.push(`body.config.domains[${index}].handler_path must start with /`)
    })
    if (update.emailConfig?.type === "standard" && update.emailConfig.host === "") problems.push("body.config.email_config.host must not be empty")
    const seen = new Set<string>()
    update.oauthProviders?.forEach((provider, index) => {
      if (provider.type === "shared" && !sharedKeyProviders.includes(provider.id)) {
        problems.push(`body.config.oauth_providers[${index}]: shared keys are not available for ${provider.id}`)
      }
      if (seen.has(provider.id)) problems.push(`body.config.oauth_providers[${index}]: duplicate provider ${provider.id}`)
      seen.add(provider.id)
    })
    if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
    if (update.emailTheme !== undefined && !uuidPattern.test(update.emailTheme)) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: "Invalid email theme" }))
    }
    const next: { -readonly [K in keyof ProjectConfig]?: ProjectConfig[K] } = {}
    if (update.signUpEnabled !== undefined) next.signUpEnabled = update.signUpEnabled
    if (update.credentialEnabled !== undefined) next.credentialEnabled = update.credentialEnabled
    if (update.magicLinkEnabled !== undefined) next.magicLinkEnabled = update.magicLinkEnabled
    if (update.passkeyEnabled !== undefined) next.passkeyEnabled = update.passkeyEnabled
    if (update.clientTeamCreationEnabled !== undefined) next.clientTeamCreationEnabled = update.clientTeamCreationEnabled
    if (update.clientUserDeletionEnabled !== undefined) next.clientUserDeletionEnabled = update.clientUserDeletionEnabled
    if (update.allowLocalhost !== undefined) next.allowLocalhost = update.allowLocalhost
    if (update.allowUserApiKeys !== undefined) next.allowUserApiKeys = update.allowUserApiKeys
    if (update.allowTeamApiKeys !== undefined) next.allowTeamApiKeys = update.allowTeamApiKeys
    if (update.createTeamOnSignUp !== undefined) next.createTeamOnSignUp = update.createTeamOnSignUp
    if (update.oauthAccountMergeStrategy !== undefined) next.oauthAccountMergeStrategy = update.oauthAccountMergeStrategy
    if (update.emailTheme !== undefined) next.emailTheme = update.emailTheme
    if (update.domains !== undefined) next.domains = update.domains.map((d) => ({ domain: d.domain, handlerPath: d.handlerPath }))
    if (update.emailConfig !== undefined) {
      next.emailConfig = update.emailConfig.type === "shared"
        ? { type: "shared" }
        : { ...update.emailConfig, password: Redacted.value(update.emailConfig.password) }
    }
    if (update.oauthProviders !== undefined) {
      next.oauthProviders = update.oauthProviders.map((provider) =>
        provider.type === "shared"
          ? { id: provider.id, provider: provider.id, type: "shared" as const }
          : {
            id: provider.id,
            provider: provider.id,
            type: "standard" as const,
            clientId: provider.clientId,
            clientSecret: Redacted.value(provider.clientSecret),
            ...(provider.facebookConfigId !== undefined ? { facebookConfigId: provider.facebookConfigId } : {}),
            ...(provider.microsoftTenantId !== undefined ? { microsoftTenantId: provider.microsoftTenantId } : {}),
            ...(provider.appleBundleIds !== undefined ? { appleBundleIds: provider.appleBundleIds } : {})
          }
      )
    }
    if (update.teamCreatorDefaultPermissions !== undefined) next.teamCreatorDefaultPermissions = update.teamCreatorDefaultPermissions.map((p) => p.id)
    if (update.teamMemberDefaultPermissions !== undefined) next.teamMemberDefaultPermissions = update.teamMemberDefaultPermissions.map((p) => p.id)
    if (update.userDefaultPermissions !== undefined) next.userDefaultPermissions = update.userDefaultPermissions.map((p) => p.id)
    return next
  })

/** The signed-in user of the `internal` project, or EXPECTED_INTERNAL_PROJECT / USER_AUTHENTICATION_REQUIRED. */
const internalUser = (context: RequestContext) =>
  Effect.gen(function* () {
    if (projectOf(context).id !== "internal") return yield* Effect.fail(ExpectedInternalProject.make({}))
    const user = context.auth?.user
    if (user === undefined) return yield* Effect.fail(UserAuthenticationRequired.make({}))
    return user
  })

/**
 * `POST /internal/projects/transfer` as the service (`apps/backend/src/app/api/latest/internal/projects/transfer/route.tsx`
 * at stack-auth 2f719903): the request's project must be `internal` and carry a user (its auth schema: a
 * SCHEMA_ERROR otherwise); the project must exist (PROJECT_NOT_FOUND) and have an owner team (400 text); the user
 * must be a member of the owner team holding `team_admin`, recursively (TEAM_MEMBERSHIP_NOT_FOUND, then
 * TEAM_PERMISSION_REQUIRED) and a member of the new team (TEAM_MEMBERSHIP_NOT_FOUND). Answers `{ success: "true" }`.
 */
const transfer = (payload: { readonly projectId: string; readonly newTeamId: string }, context: RequestContext) =>
  Effect.gen(function* () {
    const internal = projectOf(context)
    const user = context.auth?.user
    const problems = [
      ...(internal.id === "internal" ? [] : ["auth.project.id must be one of the following values: internal"]),
      ...(user === undefined ? ["auth.user must be defined"] : [])
    ]
    if (problems.length > 0 || user === undefined) return yield* Effect.fail(schemaError(context, problems))
    const state = context.env.state
    const project = state.projects.get(payload.projectId)
    if (project === undefined) return yield* Effect.fail(ProjectNotFound.make({ project_id: payload.projectId }))
    const ownerTeamId = project.ownerTeamId ?? null
    if (ownerTeamId === null) return yield* Effect.fail(new TextFailure({ status: 400, text: noOwnerTeamText }))
    const isMember = (teamId: string) => teamsOf(internal).get(teamId)?.memberUserIds.has(user.id) ?? false
    if (!isMember(ownerTeamId)) return yield* Effect.fail(TeamMembershipNotFound.make({ team_id: ownerTeamId, user_id: user.id }))
    if (!hasTeamPermission(internal, ownerTeamId, user.id, "team_admin")) {
      return yield* Effect.fail(TeamPermissionRequired.make({ team_id: ownerTeamId, user_id: user.id, permission_id: "team_admin" }))
    }
    if (!isMember(payload.newTeamId)) return yield* Effect.fail(TeamMembershipNotFound.make({ team_id: payload.newTeamId, user_id: user.id }))
    project.ownerTeamId = payload.newTeamId
    return { success: "true" as const }
  })

/** The project routes. */
export const routes = [
  route(getCurrentEndpoint, (_input, context) => Effect.succeed(clientView(projectOf(context)))),
  route(getCurrentAdminEndpoint, (_input, context) => Effect.succeed(adminView(projectOf(context)))),
  route(Endpoints.updateCurrentProject, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const changes = yield* configChanges(context, payload.config)
      // as the service's `createOrUpdateProjectWithLegacyConfig`: the given fields become environment override keys
      overrideLevel(project, "environment", legacyOverride(changes, false))
      if (payload.displayName !== undefined) project.displayName = payload.displayName
      if (payload.description !== undefined) project.description = payload.description
      if (payload.isProductionMode !== undefined) project.isProductionMode = payload.isProductionMode
      if (payload.onboardingStatus !== undefined) project.onboardingStatus = payload.onboardingStatus
      if (payload.logoUrl !== undefined) project.logoUrl = payload.logoUrl
      if (payload.logoFullUrl !== undefined) project.logoFullUrl = payload.logoFullUrl
      if (payload.logoDarkModeUrl !== undefined) project.logoDarkModeUrl = payload.logoDarkModeUrl
      if (payload.logoFullDarkModeUrl !== undefined) project.logoFullDarkModeUrl = payload.logoFullDarkModeUrl
      return adminView(project)
    })),
  route(deleteCurrentEndpoint, (_input, context) =>
    Effect.sync(() => {
      deleteProject(context.env.state, projectOf(context).id)
      return { success: true as const }
    })),
  route(transferEndpoint, ({ payload }, context) => transfer(payload, context)),
  route(listOwnedEndpoint, (_input, context) =>
    Effect.gen(function* () {
      const user = yield* internalUser(context)
      const state = context.env.state
      const items = [...state.projects.values()]
        .filter((project) => project.id !== "internal" && isProjectOwner(state, project, user.id))
        .sort((a, b) => a.createdAtMillis - b.createdAtMillis)
        .map(adminView)
      return { items, isPaginated: false }
    })),
  route(createOwnedEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const user = yield* internalUser(context)
      const internal = projectOf(context)
      const team = teamsOf(internal).get(payload.ownerTeamId)
      if (team === undefined || !team.memberUserIds.has(user.id)) {
        return yield* Effect.fail(TeamMembershipNotFound.make({ team_id: payload.ownerTeamId, user_id: user.id }))
      }
      const config = { ...defaultProjectConfig, domains: [], oauthProviders: [], ...(yield* configChanges(context, payload.config)) }
      const signingKeys = yield* generateSigningKeys
      const id = randomUuid()
      const project = makeProject({
        id,
        displayName: payload.displayName,
        description: payload.description ?? "",
        createdAtMillis: context.nowMillis,
        requiresPublishableClientKey: false,
        config,
        // as on the service, a new project has no API keys: its owners create them (`POST /internal/api-keys`)
        keys: [],
        signingKeys,
        isProductionMode: payload.isProductionMode ?? false,
        ownerTeamId: payload.ownerTeamId,
        onboardingStatus: "completed"
      })
      context.env.state.projects.set(id, project)
      return adminView(project)
    }))
]
