/**
 * The wire definitions of `Projects` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Projects.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { ExpectedInternalProject, TeamMembershipNotFound, UserAuthenticationRequired } from "../../core/KnownErrors.js"
import { DateFromMillis, field, optionalField, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"

// ---------------------------------------------------------------------------------------------
// Wire objects
// ---------------------------------------------------------------------------------------------

/** A trusted domain: base URL (`https://app.example.com`, wildcards allowed) and handler path. */
export const TrustedDomain = wireStruct({
  domain: Schema.String,
  handlerPath: field("handler_path", Schema.String)
})

/** A trusted domain of a project. */
export type TrustedDomain = typeof TrustedDomain.Type

/** `{ id }` items (enabled OAuth providers, default permissions). */
export const IdRef = Schema.Struct({ id: Schema.String })

/** An `{ id }` item. */
export type IdRef = typeof IdRef.Type

/** Config of the client view (`GET /projects/current`). */
export const ClientProjectConfig = wireStruct({
  signUpEnabled: field("sign_up_enabled", Schema.Boolean),
  credentialEnabled: field("credential_enabled", Schema.Boolean),
  magicLinkEnabled: field("magic_link_enabled", Schema.Boolean),
  passkeyEnabled: field("passkey_enabled", Schema.Boolean),
  clientTeamCreationEnabled: field("client_team_creation_enabled", Schema.Boolean),
  clientUserDeletionEnabled: field("client_user_deletion_enabled", Schema.Boolean),
  allowUserApiKeys: field("allow_user_api_keys", Schema.Boolean),
  allowTeamApiKeys: field("allow_team_api_keys", Schema.Boolean),
  /** The enabled OAuth providers (`enabled_oauth_providers`). */
  oauthProviders: field("enabled_oauth_providers", Schema.Array(IdRef)),
  domains: Schema.Array(TrustedDomain)
})

/** Config of the client view. */
export type ClientProjectConfig = typeof ClientProjectConfig.Type

/** The current project as any client sees it. */
export const ClientProject = wireStruct({
  id: Schema.String,
  displayName: field("display_name", Schema.String),
  config: ClientProjectConfig
})

/** The current project, client view. */
export type ClientProject = typeof ClientProject.Type

/** OAuth provider kinds. */
export const OAuthProviderId = Schema.Literals([
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
  "twitch"
])

/** An OAuth provider kind. */
export type OAuthProviderId = typeof OAuthProviderId.Type

/** An OAuth provider of the admin config, as read. */
export const OAuthProviderConfig = wireStruct({
  providerConfigId: field("provider_config_id", Schema.String),
  id: OAuthProviderId,
  type: Schema.Literals(["shared", "standard"]),
  clientId: optionalField("client_id", Schema.String),
  clientSecret: optionalField("client_secret", Schema.RedactedFromValue(Schema.String)),
  facebookConfigId: optionalField("facebook_config_id", Schema.String),
  microsoftTenantId: optionalField("microsoft_tenant_id", Schema.String),
  appleBundleIds: optionalField("apple_bundle_ids", Schema.Array(Schema.String))
})

/** An OAuth provider of the admin config. */
export type OAuthProviderConfig = typeof OAuthProviderConfig.Type

/** A shared-keys OAuth provider to write (shared keys exist for google, github, microsoft, spotify). */
export const SharedOAuthProviderUpdate = Schema.Struct({
  id: OAuthProviderId,
  type: Schema.Literal("shared")
})

/** A standard OAuth provider to write: the project's own OAuth app. */
export const StandardOAuthProviderUpdate = wireStruct({
  id: OAuthProviderId,
  type: Schema.Literal("standard"),
  clientId: field("client_id", Schema.String),
  clientSecret: field("client_secret", Schema.RedactedFromValue(Schema.String)),
  facebookConfigId: optionalField("facebook_config_id", Schema.String),
  microsoftTenantId: optionalField("microsoft_tenant_id", Schema.String)
})

/** An OAuth provider to write. */
export const OAuthProviderUpdate = Schema.Union([SharedOAuthProviderUpdate, StandardOAuthProviderUpdate])

/** An OAuth provider to write. */
export type OAuthProviderUpdate = typeof OAuthProviderUpdate.Type

/** The service's shared e-mail server. */
export const SharedEmailConfig = Schema.Struct({ type: Schema.Literal("shared") })

/** The project's own SMTP server. */
export const StandardEmailConfig = wireStruct({
  type: Schema.Literal("standard"),
  host: Schema.String,
  port: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65535 })),
  username: Schema.String,
  password: Schema.RedactedFromValue(Schema.String),
  senderName: field("sender_name", Schema.String),
  senderEmail: field("sender_email", Schema.String)
})

/** E-mail server config. */
export const EmailConfig = Schema.Union([SharedEmailConfig, StandardEmailConfig])

/** E-mail server config. */
export type EmailConfig = typeof EmailConfig.Type

/** How OAuth sign-ins with an e-mail that already has an account are handled. */
export const OAuthAccountMergeStrategy = Schema.Literals(["link_method", "raise_error", "allow_duplicates"])

/** An account-merge strategy. */
export type OAuthAccountMergeStrategy = typeof OAuthAccountMergeStrategy.Type

/** Onboarding status of a project. */
export const OnboardingStatus = Schema.Literals([
  "config_choice",
  "apps_selection",
  "auth_setup",
  "domain_setup",
  "email_theme_setup",
  "payments_setup",
  "welcome",
  "completed"
])

/** Config of the admin view. */
export const AdminProjectConfig = wireStruct({
  allowLocalhost: field("allow_localhost", Schema.Boolean),
  signUpEnabled: field("sign_up_enabled", Schema.Boolean),
  credentialEnabled: field("credential_enabled", Schema.Boolean),
  magicLinkEnabled: field("magic_link_enabled", Schema.Boolean),
  passkeyEnabled: field("passkey_enabled", Schema.Boolean),
  clientTeamCreationEnabled: field("client_team_creation_enabled", Schema.Boolean),
  clientUserDeletionEnabled: field("client_user_deletion_enabled", Schema.Boolean),
  allowUserApiKeys: field("allow_user_api_keys", Schema.Boolean),
  allowTeamApiKeys: field("allow_team_api_keys", Schema.Boolean),
  createTeamOnSignUp: field("create_team_on_sign_up", Schema.Boolean),
  oauthAccountMergeStrategy: field("oauth_account_merge_strategy", OAuthAccountMergeStrategy),
  oauthProviders: field("oauth_providers", Schema.Array(OAuthProviderConfig)),
  enabledOauthProviders: field("enabled_oauth_providers", Schema.Array(IdRef)),
  domains: Schema.Array(TrustedDomain),
  emailConfig: field("email_config", EmailConfig),
  emailTheme: field("email_theme", Schema.String),
  teamCreatorDefaultPermissions: field("team_creator_default_permissions", Schema.Array(IdRef)),
  teamMemberDefaultPermissions: field("team_member_default_permissions", Schema.Array(IdRef)),
  userDefaultPermissions: field("user_default_permissions", Schema.Array(IdRef))
})

/** Config of the admin view. */
export type AdminProjectConfig = typeof AdminProjectConfig.Type

/** A project as its admins see it. */
export const AdminProject = wireStruct({
  id: Schema.String,
  displayName: field("display_name", Schema.String),
  description: Schema.String,
  createdAt: field("created_at_millis", DateFromMillis),
  isProductionMode: field("is_production_mode", Schema.Boolean),
  ownerTeamId: field("owner_team_id", Schema.NullOr(Schema.String)),
  onboardingStatus: field("onboarding_status", OnboardingStatus),
  logoUrl: optionalField("logo_url", Schema.NullOr(Schema.String)),
  logoFullUrl: optionalField("logo_full_url", Schema.NullOr(Schema.String)),
  logoDarkModeUrl: optionalField("logo_dark_mode_url", Schema.NullOr(Schema.String)),
  logoFullDarkModeUrl: optionalField("logo_full_dark_mode_url", Schema.NullOr(Schema.String)),
  config: AdminProjectConfig
})

/** A project, admin view. */
export type AdminProject = typeof AdminProject.Type

/** A config change (every field optional; arrays replace the whole list). */
export const AdminProjectConfigUpdate = wireStruct({
  signUpEnabled: optionalField("sign_up_enabled", Schema.Boolean),
  credentialEnabled: optionalField("credential_enabled", Schema.Boolean),
  magicLinkEnabled: optionalField("magic_link_enabled", Schema.Boolean),
  passkeyEnabled: optionalField("passkey_enabled", Schema.Boolean),
  clientTeamCreationEnabled: optionalField("client_team_creation_enabled", Schema.Boolean),
  clientUserDeletionEnabled: optionalField("client_user_deletion_enabled", Schema.Boolean),
  allowLocalhost: optionalField("allow_localhost", Schema.Boolean),
  allowUserApiKeys: optionalField("allow_user_api_keys", Schema.Boolean),
  allowTeamApiKeys: optionalField("allow_team_api_keys", Schema.Boolean),
  emailConfig: optionalField("email_config", EmailConfig),
  emailTheme: optionalField("email_theme", Schema.String),
  domains: optionalField("domains", Schema.Array(TrustedDomain)),
  oauthProviders: optionalField("oauth_providers", Schema.Array(OAuthProviderUpdate)),
  createTeamOnSignUp: optionalField("create_team_on_sign_up", Schema.Boolean),
  teamCreatorDefaultPermissions: optionalField("team_creator_default_permissions", Schema.Array(IdRef)),
  teamMemberDefaultPermissions: optionalField("team_member_default_permissions", Schema.Array(IdRef)),
  userDefaultPermissions: optionalField("user_default_permissions", Schema.Array(IdRef)),
  oauthAccountMergeStrategy: optionalField("oauth_account_merge_strategy", OAuthAccountMergeStrategy)
})

/** A config change. */
export type AdminProjectConfigUpdate = typeof AdminProjectConfigUpdate.Type

/** A change of the current project (`PATCH /internal/projects/current`). */
export const AdminProjectUpdate = wireStruct({
  displayName: optionalField("display_name", Schema.String),
  description: optionalField("description", Schema.String),
  isProductionMode: optionalField("is_production_mode", Schema.Boolean),
  onboardingStatus: optionalField("onboarding_status", OnboardingStatus),
  logoUrl: optionalField("logo_url", Schema.NullOr(Schema.String)),
  logoFullUrl: optionalField("logo_full_url", Schema.NullOr(Schema.String)),
  logoDarkModeUrl: optionalField("logo_dark_mode_url", Schema.NullOr(Schema.String)),
  logoFullDarkModeUrl: optionalField("logo_full_dark_mode_url", Schema.NullOr(Schema.String)),
  config: optionalField("config", AdminProjectConfigUpdate)
})

/** A change of the current project. */
export type AdminProjectUpdate = typeof AdminProjectUpdate.Type

/** A new project owned by a team of the signed-in `internal` user (`POST /internal/projects`). */
export const OwnedProjectCreate = wireStruct({
  displayName: field("display_name", Schema.String),
  description: optionalField("description", Schema.String),
  isProductionMode: optionalField("is_production_mode", Schema.Boolean),
  ownerTeamId: field("owner_team_id", Uuid),
  config: optionalField("config", AdminProjectConfigUpdate)
})

/** A new owned project. */
export type OwnedProjectCreate = typeof OwnedProjectCreate.Type

/** `{ items, is_paginated: false }` of owned projects. */
export const OwnedProjectList = wireStruct({
  items: Schema.Array(AdminProject),
  isPaginated: field("is_paginated", Schema.Boolean)
})

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** `GET /projects/current` (client access). */
export const getCurrentEndpoint = Endpoint.make({
  name: "Projects.getCurrent",
  method: "GET",
  path: "/projects/current",
  access: "client",
  session: "none",
  success: ClientProject,
  errors: []
})

/** `GET /internal/projects/current` (admin access). */
export const getCurrentAdminEndpoint = Endpoint.make({
  name: "AdminProjects.getCurrent",
  method: "GET",
  path: "/internal/projects/current",
  access: "admin",
  session: "none",
  success: AdminProject,
  errors: []
})

/** `PATCH /internal/projects/current` (admin access). */
export const updateCurrentEndpoint = Endpoint.make({
  name: "AdminProjects.updateCurrent",
  method: "PATCH",
  path: "/internal/projects/current",
  access: "admin",
  session: "none",
  payload: AdminProjectUpdate,
  success: AdminProject,
  errors: []
})

/** `DELETE /internal/projects/current` (admin access). */
export const deleteCurrentEndpoint = Endpoint.make({
  name: "AdminProjects.deleteCurrent",
  method: "DELETE",
  path: "/internal/projects/current",
  access: "admin",
  session: "none",
  success: SuccessTrue,
  errors: []
})

/** `GET /internal/projects` (client access on the `internal` project, signed in). */
export const listOwnedEndpoint = Endpoint.make({
  name: "Projects.listOwned",
  method: "GET",
  path: "/internal/projects",
  access: "client",
  session: "required",
  success: OwnedProjectList,
  errors: [ExpectedInternalProject, UserAuthenticationRequired]
})

/** `POST /internal/projects` (client access on the `internal` project, signed in). */
export const createOwnedEndpoint = Endpoint.make({
  name: "Projects.createOwned",
  method: "POST",
  path: "/internal/projects",
  access: "client",
  session: "required",
  payload: OwnedProjectCreate,
  success: AdminProject,
  successStatus: 201,
  errors: [ExpectedInternalProject, UserAuthenticationRequired, TeamMembershipNotFound]
})
