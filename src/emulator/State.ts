/**
 * The emulator's state: in memory, per project. Records are plain mutable objects owned by the
 * emulator; tests may read them (e.g. to check that no clear password is stored) but should
 * change them only through the emulator's API or HTTP routes.
 *
 * Field names follow the server view of the wire (PROTOCOL.md §3.0) in camelCase.
 *
 * @module
 */
import type { EndUserIpInfo } from "./EndUserIpInfo.js"
import type * as Semaphore from "effect/Semaphore"
import type { ProjectSigningKeys } from "./SigningKeys.js"

/** A trusted domain of a project: a base URL (`https://app.example.com`, `*` wildcards allowed) and its handler path. */
export interface TrustedDomain {
  readonly domain: string
  readonly handlerPath: string
}

/** The project switches of the admin config that this emulator knows. */
export interface ProjectConfig {
  readonly signUpEnabled: boolean
  readonly credentialEnabled: boolean
  readonly magicLinkEnabled: boolean
  readonly passkeyEnabled: boolean
  readonly clientTeamCreationEnabled: boolean
  readonly clientUserDeletionEnabled: boolean
  readonly allowUserApiKeys: boolean
  readonly allowTeamApiKeys: boolean
  readonly allowLocalhost: boolean
  readonly domains: ReadonlyArray<TrustedDomain>
  readonly createTeamOnSignUp: boolean
  /** Enabled OAuth providers (`config.oauth_providers`); the emulator serves each with its mock provider. */
  readonly oauthProviders: ReadonlyArray<OAuthProviderConfig>
  /** `oauth_account_merge_strategy` (admin config). */
  readonly oauthAccountMergeStrategy?: "link_method" | "raise_error" | "allow_duplicates"
  /** `email_config` (admin config); shared when absent. */
  readonly emailConfig?: EmailConfig
  /** `email_theme` (admin config): a theme uuid; {@link defaultEmailTheme} when absent. */
  readonly emailTheme?: string
  /** Permission ids granted by default (admin config); the service's defaults when absent. */
  readonly teamCreatorDefaultPermissions?: ReadonlyArray<string>
  readonly teamMemberDefaultPermissions?: ReadonlyArray<string>
  readonly userDefaultPermissions?: ReadonlyArray<string>
  /**
   * `onboarding.requireEmailVerification` (config override API): users whose primary e-mail is
   * not verified are restricted (`email_not_verified`); off when absent.
   */
  readonly requireEmailVerification?: boolean
}

/** The e-mail server of a project: the service's shared one, or the project's own SMTP server. */
export type EmailConfig =
  | { readonly type: "shared" }
  | {
    readonly type: "standard"
    readonly host: string
    readonly port: number
    readonly username: string
    readonly password: string
    readonly senderName: string
    readonly senderEmail: string
  }

/** The e-mail theme every project starts with (the service's default theme id). */
export const defaultEmailTheme = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac"

/**
 * A team (minimal record, for project ownership: `owner_team_id` of projects of the `internal`
 * project's users). Only id, name and members are kept.
 */
export interface TeamRecord {
  readonly id: string
  displayName: string
  readonly createdAtMillis: number
  /** The members, in the order they joined (the canonical membership set). */
  readonly memberUserIds: Set<string>
  /** `profile_image_url` (null when absent). */
  profileImageUrl?: string | null
  /** `client_metadata`, `client_read_only_metadata`, `server_metadata` (null when absent). */
  clientMetadata?: unknown
  clientReadOnlyMetadata?: unknown
  serverMetadata?: unknown
}

/**
 * What a member set as their profile in one team (`/team-member-profiles`; null: use the user's
 * own value). Kept in the project's `teamMemberProfiles` table under {@link memberProfileKey}.
 */
export interface TeamMemberProfileRecord {
  readonly teamId: string
  readonly userId: string
  displayName: string | null
  profileImageUrl: string | null
}

/**
 * An enabled OAuth provider of a project. `id` is the provider config id used in paths
 * (`/auth/oauth/authorize/{id}`), `provider` the kind (`github`, `google`, `microsoft`…, the
 * `type` of `/oauth-providers` items), `type` whether the service's shared OAuth app or the
 * project's own keys are used (shared keys refuse provider access tokens and extra scopes).
 */
export interface OAuthProviderConfig {
  readonly id: string
  readonly provider: string
  readonly type: "shared" | "standard"
  /** Standard keys only: the project's OAuth app. */
  readonly clientId?: string
  readonly clientSecret?: string
  readonly facebookConfigId?: string
  readonly microsoftTenantId?: string
  /** Apple only: the app bundle ids of native Sign in with Apple (`apple_bundle_ids`). */
  readonly appleBundleIds?: ReadonlyArray<string>
}

/** Config of a new project: sign-up and password on, localhost trusted, everything else off. */
export const defaultProjectConfig: ProjectConfig = {
  signUpEnabled: true,
  credentialEnabled: true,
  magicLinkEnabled: false,
  passkeyEnabled: false,
  clientTeamCreationEnabled: false,
  clientUserDeletionEnabled: false,
  allowUserApiKeys: false,
  allowTeamApiKeys: false,
  allowLocalhost: true,
  domains: [],
  createTeamOnSignUp: false,
  oauthProviders: []
}

/** One set of project API keys (any of the three may be absent). */
export interface ProjectKeySet {
  readonly id: string
  /** Changed by `PATCH /internal/api-keys/{id}`. */
  description: string
  readonly publishableClientKey: string | undefined
  readonly secretServerKey: string | undefined
  readonly superSecretAdminKey: string | undefined
  readonly createdAtMillis: number
  /** A key set past this instant is not valid. */
  expiresAtMillis: number | undefined
  /** A revoked key set is not valid. */
  revokedAtMillis: number | undefined
}

/** `risk_scores` of a user (server view). */
export interface RiskScores {
  readonly signUp: { readonly bot: number; readonly freeTrialAbuse: number }
}

/** A user of a project. */
export interface UserRecord {
  readonly id: string
  displayName: string | null
  primaryEmail: string | null
  primaryEmailVerified: boolean
  primaryEmailAuthEnabled: boolean
  profileImageUrl: string | null
  signedUpAtMillis: number
  lastActiveAtMillis: number
  clientMetadata: unknown
  clientReadOnlyMetadata: unknown
  serverMetadata: unknown
  /** PBKDF2 hash, never the password itself; null = no password. */
  passwordHash: string | null
  otpAuthEnabled: boolean
  passkeyAuthEnabled: boolean
  totpSecretBase64: string | null
  selectedTeamId: string | null
  isAnonymous: boolean
  restrictedByAdmin: boolean
  restrictedByAdminReason: string | null
  restrictedByAdminPrivateDetails: string | null
  countryCode: string | null
  riskScores: RiskScores
  /** The user's OAuth connections (`oauth_providers`, connected accounts). */
  oauthAccounts: Array<OAuthAccountRecord>
  /** The user's passkey (one per user; registering again replaces it). */
  passkey?: PasskeyRecord
  /**
   * Id of the primary contact channel: the channel made of `primaryEmail`, `primaryEmailVerified`
   * and `primaryEmailAuthEnabled` (assigned when the channel is first
   * listed).
   */
  primaryChannelId?: string
  /** The user's other (non-primary) contact channels, in creation order. */
  readonly contactChannels: Array<ContactChannelRecord>
  /** The user's e-mail notification choices, by category id (none: each category's default). */
  readonly notificationPreferences: Map<string, boolean>
}

/**
 * A non-primary contact channel of a user (type `email`). The primary channel is not stored here:
 * it is the user's `primaryEmail` fields, so `primary_email` always follows the primary channel.
 */
export interface ContactChannelRecord {
  readonly id: string
  value: string
  isVerified: boolean
  usedForAuth: boolean
}

/** A registered passkey (WebAuthn credential) of a user. */
export interface PasskeyRecord {
  /** base64url credential id; also the `user_handle` answered by `/auth/passkey/register`. */
  readonly credentialId: string
  /** The COSE public key, base64url. */
  readonly publicKey: string
  /** The authenticator's signature counter seen last. */
  counter: number
  readonly transports: ReadonlyArray<string>
  readonly registeredAtMillis: number
}

/** An OAuth connection of a user: one provider account. */
export interface OAuthAccountRecord {
  /** uuid of the connection (`id` of `/oauth-providers` items). */
  readonly id: string
  /** The project's provider config id (`github`). */
  readonly providerConfigId: string
  /** The provider kind (`github`). */
  readonly provider: string
  /** The provider's account id (the mock provider uses the e-mail). */
  readonly accountId: string
  email: string | null
  allowSignIn: boolean
  allowConnectedAccounts: boolean
  /** Provider scopes granted to this connection. */
  grantedScopes: Array<string>
}

/** A session: one refresh token and the access tokens minted from it. */
export interface SessionRecord {
  /** uuid; the `refresh_token_id` claim of its access tokens. */
  readonly id: string
  readonly refreshToken: string
  readonly userId: string
  readonly createdAtMillis: number
  lastUsedAtMillis: number
  /** The end user's IP and location of the last access token minted with an end user (`EndUserIpInfo`). */
  lastUsedIpInfo?: EndUserIpInfo
  readonly expiresAtMillis: number
  readonly isImpersonation: boolean
}

/** What a code sent by e-mail (or handed out) is for. */
export type CodePurpose =
  | "email_verification"
  | "mfa_attempt"
  | "password_reset"
  | "magic_link"
  | "passkey_registration"
  | "passkey_authentication"
  /** Outbox only: a test e-mail (`POST /internal/send-test-email`); no code is issued for it. */
  | "test_email"
  /** A team invitation (`POST /team-invitations/send-code`): `teamId` and `invitationId` are set. */
  | "team_invitation"
  /** An unsubscribe link of an e-mail (`GET /emails/unsubscribe-link?code=`): `notificationCategoryId` is set. */
  | "unsubscribe_link"
  /** Outbox only: a sign-in invitation (`POST /internal/send-sign-in-invitation`). */
  | "sign_in_invitation"
  /** Outbox only: an e-mail of `POST /emails/send-email` (its queue row is in `ProjectRecord.emailQueue`). */
  | "sent_email"

/**
 * A one-time code (45 Crockford base32 characters), one store for every code family; see
 * `VerificationCodes.ts` for how codes are checked, used and counted.
 */
export interface CodeRecord {
  readonly code: string
  readonly purpose: CodePurpose
  /** The user the code acts for; null for a magic-link code sent to an e-mail no user has yet. */
  readonly userId: string | null
  readonly email: string | null
  readonly createdAtMillis: number
  readonly expiresAtMillis: number
  usedAtMillis: number | undefined
  attempts: number
  /** Passkey codes: the challenge of the options handed out with the code (base64url). */
  passkeyChallenge?: string
  /** E-mail verification codes sent for one contact channel: that channel's id. */
  contactChannelId?: string
  /** Team invitation codes: the team the invitation is for. */
  teamId?: string
  /** Team invitation codes: the invitation's id (uuid, the `id` of `/team-invitations` items). */
  invitationId?: string
  /** Unsubscribe link codes: the notification category the link turns off. */
  notificationCategoryId?: string
}

/** An e-mail the emulator "sent". */
export interface OutboxEntry {
  readonly id: string
  readonly projectId: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  /** What the e-mail is for, e.g. `"email_verification"`. */
  readonly kind: CodePurpose
  /** The code it carries, if any. */
  readonly code: string | null
  /** The link it carries, if any (`callback?code=…`). */
  readonly link: string | null
  readonly sentAtMillis: number
}

/** A project and everything in it. */
export interface ProjectRecord {
  readonly id: string
  displayName: string
  description: string
  readonly createdAtMillis: number
  /** Client requests must carry a valid publishable key (projects created before Feb 2026 do). */
  requiresPublishableClientKey: boolean
  config: ProjectConfig
  readonly keys: Array<ProjectKeySet>
  readonly signingKeys: ProjectSigningKeys
  /** Users of the `internal` project who manage this project (admin access tokens). */
  readonly ownerUserIds: Set<string>
  readonly users: Map<string, UserRecord>
  readonly sessions: Map<string, SessionRecord>
  readonly codes: Map<string, CodeRecord>
  /**
   * Lifetime of this project's access tokens in seconds (an emulator setting, not on the wire);
   * absent: the emulator's `accessTokenLifetimeSeconds`.
   */
  accessTokenLifetimeSeconds?: number
  /** `is_production_mode` (false when absent). */
  isProductionMode?: boolean
  /** `owner_team_id`: a team of the `internal` project whose members own this project (null when absent). */
  ownerTeamId?: string | null
  /** `onboarding_status` ("completed" when absent). */
  onboardingStatus?: string
  /** Logo URLs (`logo_url`, `logo_full_url`, `logo_dark_mode_url`, `logo_full_dark_mode_url`); null when absent. */
  logoUrl?: string | null
  logoFullUrl?: string | null
  logoDarkModeUrl?: string | null
  logoFullDarkModeUrl?: string | null
  /** Teams of this project's users (`internal`: the teams that own projects). */
  readonly teams: Map<string, TeamRecord>
  /** Team member profiles, by {@link memberProfileKey} (team id and user id). */
  readonly teamMemberProfiles: Map<string, TeamMemberProfileRecord>
  /** E-mail templates (current config-based API), by id; a new project holds the service's defaults. */
  readonly emailTemplates: Map<string, EmailTemplateRecord>
  /** User and team API keys, by id. */
  readonly apiKeys: Map<string, ApiKeyRecord>
  /** Permission definitions and grants; a new project holds the system team permissions. */
  readonly permissions: PermissionState
  /**
   * Config overrides in the service's schema, by level (`project`, `branch`, `environment`): each
   * the object its writer gave (top-level keys may be dotted), replaced on every write. `config`
   * and `requiresPublishableClientKey` are read from them (`ConfigOverrides.attachDerivedConfig`).
   */
  readonly configOverrides: Map<"project" | "branch" | "environment", Readonly<Record<string, unknown>>>
  /** Where the branch config was pushed from (`/internal/config/source`); `unlinked` at first. */
  configSource: BranchConfigSource
  /** E-mail themes (`/internal/email-themes`), by id; a new project holds the service's three defaults. */
  readonly emailThemes: Map<string, EmailThemeRecord>
  /** E-mail drafts (`/internal/email-drafts`), by id. */
  readonly emailDrafts: Map<string, EmailDraftRecord>
  /** The e-mail outbox of `POST /emails/send-email` (`/emails/outbox`), by id, in creation order. */
  readonly emailQueue: Map<string, QueuedEmailRecord>
  /** When the e-mail capacity boost (`POST /emails/capacity-boost`) ends; absent when none was activated. */
  emailCapacityBoostExpiresAtMillis?: number
  /** Managed e-mail domains (`/internal/emails/managed-onboarding/*`), by subdomain. */
  readonly managedEmailDomains: Map<string, ManagedEmailDomainRecord>
}

/** A managed e-mail domain of a project (the service's `ManagedEmailDomain` row, in its mock mode). */
export interface ManagedEmailDomainRecord {
  readonly domainId: string
  readonly subdomain: string
  readonly senderLocalPart: string
  readonly nameServerRecords: ReadonlyArray<string>
  /** When the domain counts as verified (the service's mock: 1 s after set-up). */
  readonly verifiedAtMillis: number
  appliedAtMillis: number | null
  updatedAtMillis: number
}

/** An e-mail theme of a project (`/internal/email-themes`). */
export interface EmailThemeRecord {
  readonly id: string
  readonly displayName: string
  tsxSource: string
}

/** An e-mail draft of a project (`/internal/email-drafts`). */
export interface EmailDraftRecord {
  readonly id: string
  displayName: string
  tsxSource: string
  /** `"project"`: the project's theme; `false`: none; else a theme id (the service's theme modes). */
  themeId: string | false | "project"
  updatedAtMillis: number
  sentAtMillis: number | null
}

/** Who an e-mail of the queue goes to (the service's outbox recipients). */
export type QueuedEmailRecipient =
  | { readonly type: "user-primary-email"; readonly userId: string }
  | { readonly type: "user-custom-emails"; readonly userId: string; readonly emails: ReadonlyArray<string> }
  | { readonly type: "custom-emails"; readonly emails: ReadonlyArray<string> }

/** An e-mail as rendered for the queue. */
export interface QueuedEmailRendering {
  readonly subject: string
  readonly html: string
  readonly text: string
  readonly notificationCategoryId: string | null
  readonly isTransactional: boolean
  readonly startedAtMillis: number
  readonly renderedAtMillis: number
}

/**
 * An e-mail of `POST /emails/send-email`, one per recipient (the service's `EmailOutbox` row):
 * what to render, when to send, and how far it went (`progress`).
 */
export interface QueuedEmailRecord {
  readonly id: string
  readonly createdAtMillis: number
  updatedAtMillis: number
  tsxSource: string
  /** The theme: an id, or null for none (the project's theme is resolved when the e-mail is queued). */
  themeId: string | null
  to: QueuedEmailRecipient
  variables: Readonly<Record<string, unknown>>
  skipDeliverabilityCheck: boolean
  scheduledAtMillis: number
  readonly createdWith: "draft" | "programmatic-call"
  readonly emailDraftId: string | null
  readonly templateId: string | null
  readonly isHighPriority: boolean
  readonly overrideSubject: string | undefined
  readonly overrideNotificationCategoryId: string | undefined
  isPaused: boolean
  progress:
    | { readonly kind: "pending"; readonly rendering: QueuedEmailRendering | undefined }
    | { readonly kind: "render-error"; readonly error: string; readonly startedAtMillis: number; readonly renderedAtMillis: number }
    | { readonly kind: "sent"; readonly rendering: QueuedEmailRendering; readonly sentAtMillis: number; readonly outboxEntryId: string }
    | { readonly kind: "skipped"; readonly reason: string; readonly atMillis: number; readonly rendering: QueuedEmailRendering | undefined }
}

/** Where a branch config was pushed from, as the service stores it (`branchConfigSourceSchema`). */
export type BranchConfigSource =
  | {
    readonly type: "pushed-from-github"
    readonly owner: string
    readonly repo: string
    readonly branch: string
    readonly commit_hash: string
    readonly config_file_path: string
  }
  | { readonly type: "pushed-from-unknown" }
  | { readonly type: "unlinked" }

/** The key of a member's profile in {@link ProjectRecord.teamMemberProfiles}. */
export const memberProfileKey = (teamId: string, userId: string): string => `${teamId} ${userId}`

/** A permission definition of one scope (team or project). */
export interface PermissionDefinitionRecord {
  id: string
  description: string | undefined
  containedPermissionIds: Array<string>
}

/** A project's permission definitions per scope and the permissions granted directly to users. */
export interface PermissionState {
  /** Team-scope definitions by id, the system `$` permissions included. */
  readonly teamDefinitions: Map<string, PermissionDefinitionRecord>
  /** Project-scope definitions by id. */
  readonly projectDefinitions: Map<string, PermissionDefinitionRecord>
  /** Direct team grants: team id → user id → permission ids. */
  readonly teamGrants: Map<string, Map<string, Set<string>>>
  /** Direct project grants: user id → permission ids. */
  readonly projectGrants: Map<string, Set<string>>
}

/** A user or team API key. The full value is never stored: only its SHA-256 hash and last four characters. */
export interface ApiKeyRecord {
  readonly id: string
  readonly type: "user" | "team"
  /** The owning user's or team's id. */
  readonly ownerId: string
  description: string
  readonly isPublic: boolean
  readonly createdAtMillis: number
  readonly expiresAtMillis: number | undefined
  revokedAtMillis: number | undefined
  /** Hex SHA-256 of the full key value. */
  readonly valueHash: string
  readonly lastFour: string
}

/** An e-mail template of a project (`/internal/email-templates`). */
export interface EmailTemplateRecord {
  readonly id: string
  displayName: string
  tsxSource: string
  /** `theme_id`: a theme uuid, `false` (no theme), `null` (project default); absent when never set. */
  themeId?: string | false | null
}

/** A CLI login attempt (`POST /auth/cli`). */
export interface CliAttemptRecord {
  readonly projectId: string
  /** Secret of the CLI (45 characters): polling with it returns the refresh token once. */
  readonly pollingCode: string
  /** Shown in the confirmation URL (45 characters). */
  readonly loginCode: string
  readonly createdAtMillis: number
  readonly expiresAtMillis: number
  /** The CLI's anonymous session, if it brought one (`anon_refresh_token`). */
  readonly anonRefreshToken: string | null
  /** Set by `complete`: the refresh token handed to the CLI. */
  refreshToken: string | null
  /** Set when a poll returned the refresh token. */
  usedAtMillis: number | undefined
}

/** An authorization request to the mock OAuth provider (the service's side of the inner flow). */
export interface ProviderRequest {
  readonly clientId: string
  readonly redirectUri: string
  readonly state: string
  readonly codeChallenge: string
  readonly scopes: ReadonlyArray<string>
}

/** A code of the mock OAuth provider (`OAuthProvider.ts`), by code. */
export interface ProviderCodeRecord {
  readonly providerId: string
  readonly clientId: string
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly email: string
  readonly scopes: ReadonlyArray<string>
  readonly expiresAtMillis: number
  used: boolean
}

/** An OAuth flow in progress (`/auth/oauth/authorize` → provider → callback), by its inner state. */
export interface OAuthFlowRecord {
  readonly projectId: string
  readonly provider: OAuthProviderConfig
  readonly type: "authenticate" | "link"
  /** The user of `token` (the linking user, or an anonymous user to upgrade). */
  readonly tokenUserId: string | undefined
  readonly redirectUri: string
  readonly errorRedirectUrl: string | undefined
  readonly afterCallbackRedirectUrl: string | undefined
  readonly state: string
  readonly codeChallenge: string
  /** PKCE method of `codeChallenge`: `S256`, or `plain` (the verifier itself). */
  readonly codeChallengeMethod: "S256" | "plain"
  readonly providerRequest: ProviderRequest
  readonly innerVerifier: string
  readonly responseMode: "json" | "redirect"
  readonly expiresAtMillis: number
}

/** An authorization code handed to the app (`redirect_uri?code=`), by code. */
export interface OAuthCodeRecord {
  readonly projectId: string
  readonly userId: string
  readonly isNewUser: boolean
  readonly redirectUri: string
  readonly codeChallenge: string
  /** PKCE method of `codeChallenge`: `S256`, or `plain` (the verifier itself). */
  readonly codeChallengeMethod: "S256" | "plain"
  readonly afterCallbackRedirectUrl: string | null
  readonly expiresAtMillis: number
  used: boolean
  /**
   * The session a cross-domain hand-over code was issued from (`POST /auth/oauth/cross-domain/authorize`):
   * the exchange answers that session's refresh token while it is live, as the service does.
   */
  readonly grantedSessionId?: string
}

/**
 * The whole state: every table of the emulator. Project tables live in their {@link ProjectRecord};
 * the tables here span projects (flows and codes carry their `projectId`). Deleting a row also
 * deletes what depends on it, so the tables stay consistent.
 */
export interface EmulatorState {
  readonly projects: Map<string, ProjectRecord>
  readonly outbox: Array<OutboxEntry>
  /** CLI login attempts of every project, by polling code. */
  readonly cliAttempts: Map<string, CliAttemptRecord>
  /** OAuth flows in progress, by inner state. */
  readonly oauthFlows: Map<string, OAuthFlowRecord>
  /** OAuth authorization codes handed to apps, by code. */
  readonly oauthCodes: Map<string, OAuthCodeRecord>
  /** The mock OAuth provider's codes, by code. */
  readonly providerCodes: Map<string, ProviderCodeRecord>
  /**
   * One permit: every request's handler runs holding it (the router takes it), so a handler's
   * checks and writes are one step even when it yields in between (hashing a password, signing a
   * token). One lock for the whole state, not one per project: some writes cross projects (a
   * project created by a user of `internal`, an `internal` user's deletion).
   */
  readonly writeLock: Semaphore.Semaphore
}

/** A user with every field at its default (no e-mail, no password, not anonymous). */
export const makeUser = (id: string, nowMillis: number): UserRecord => ({
  id,
  displayName: null,
  primaryEmail: null,
  primaryEmailVerified: false,
  primaryEmailAuthEnabled: false,
  profileImageUrl: null,
  signedUpAtMillis: nowMillis,
  lastActiveAtMillis: nowMillis,
  clientMetadata: null,
  clientReadOnlyMetadata: null,
  serverMetadata: null,
  passwordHash: null,
  otpAuthEnabled: false,
  passkeyAuthEnabled: false,
  totpSecretBase64: null,
  selectedTeamId: null,
  isAnonymous: false,
  restrictedByAdmin: false,
  restrictedByAdminReason: null,
  restrictedByAdminPrivateDetails: null,
  countryCode: null,
  riskScores: { signUp: { bot: 0, freeTrialAbuse: 0 } },
  oauthAccounts: [],
  contactChannels: [],
  notificationPreferences: new Map()
})

/**
 * Why a user is restricted (`restricted_reason`), or null. Anonymous users are always restricted;
 * when the project requires e-mail verification, so is a user whose primary e-mail is not verified.
 */
export const restrictionOf = (
  user: UserRecord,
  config: Pick<ProjectConfig, "requireEmailVerification">
): { readonly type: "anonymous" | "email_not_verified" | "restricted_by_administrator" } | null =>
  user.isAnonymous
    ? { type: "anonymous" }
    : config.requireEmailVerification === true && !user.primaryEmailVerified
    ? { type: "email_not_verified" }
    : user.restrictedByAdmin
    ? { type: "restricted_by_administrator" }
    : null

/**
 * Whether two e-mails are the same sign-in identity: the service normalises e-mails for sign-in
 * (a user who signed up as `Repro.Case@Example.com` signs in as `repro.case@example.com`, and a
 * sign-up with the lower-cased address is a duplicate), so they compare lower-cased. The e-mail
 * is still stored and shown as typed.
 */
export const sameEmail = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * The contact channel used for auth that carries this e-mail (the primary e-mail or another
 * channel), with its user and whether THAT channel is verified, if any. A sign-in that would join
 * an existing account through this channel (OAuth merge, OTP) must check `isVerified` of the
 * channel itself, not the user's primary e-mail: an unverified channel was only typed in by its
 * owner and proves nothing about who holds the mailbox.
 */
export const findAuthChannel = (
  project: ProjectRecord,
  email: string
): { readonly user: UserRecord; readonly isVerified: boolean; readonly isPrimary: boolean } | undefined => {
  for (const user of project.users.values()) {
    if (user.primaryEmailAuthEnabled && user.primaryEmail !== null && sameEmail(user.primaryEmail, email)) {
      return { user, isVerified: user.primaryEmailVerified, isPrimary: true }
    }
    const channel = user.contactChannels.find((candidate) => candidate.usedForAuth && sameEmail(candidate.value, email))
    if (channel !== undefined) return { user, isVerified: channel.isVerified, isPrimary: false }
  }
  return undefined
}

/**
 * The user who signs in with this e-mail through any contact channel used for auth (the primary
 * e-mail or another channel), if any (verified or not: see {@link findAuthChannel}).
 */
export const findUserByAuthChannel = (project: ProjectRecord, email: string): UserRecord | undefined => findAuthChannel(project, email)?.user

/** The live session holding this refresh token (not expired, user still there), if any. */
export const findLiveSession = (project: ProjectRecord, refreshToken: string, nowMillis: number): SessionRecord | undefined => {
  for (const session of project.sessions.values()) {
    if (session.refreshToken === refreshToken) {
      return session.expiresAtMillis > nowMillis && project.users.has(session.userId) ? session : undefined
    }
  }
  return undefined
}

/** Whether a key set is usable at `nowMillis`. */
export const isKeySetValid = (keys: ProjectKeySet, nowMillis: number): boolean =>
  keys.revokedAtMillis === undefined && (keys.expiresAtMillis === undefined || keys.expiresAtMillis > nowMillis)

/** The teams of a project (its `teams` table). */
export const teamsOf = (project: ProjectRecord): Map<string, TeamRecord> => project.teams

/**
 * Whether a user of the `internal` project owns `project`: listed in its `ownerUserIds`, or a
 * member of its owner team (a team of the `internal` project).
 */
export const isProjectOwner = (state: EmulatorState, project: ProjectRecord, userId: string): boolean => {
  if (project.ownerUserIds.has(userId)) return true
  const ownerTeamId = project.ownerTeamId ?? null
  if (ownerTeamId === null) return false
  const internal = state.projects.get("internal")
  return internal?.teams.get(ownerTeamId)?.memberUserIds.has(userId) ?? false
}
