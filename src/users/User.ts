/**
 * The user as the service sends it (PROTOCOL.md §3.0) and as the SDK hands it out (SPEC.md §3):
 * camelCase with `Date`s. Client view ({@link CurrentUser}) and server view ({@link ServerUser}).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { DateFromMillis, defaultedField, field, Json, optionalField, wireStruct } from "../core/Wire.js"

/** A team as embedded in a user (`selected_team`), client view. */
export const ClientTeam = wireStruct({
  id: Schema.String,
  displayName: field("display_name", Schema.String),
  profileImageUrl: field("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: defaultedField("client_metadata", Json, () => null),
  clientReadOnlyMetadata: defaultedField("client_read_only_metadata", Json, () => null)
})

/** A team, client view. */
export type ClientTeam = typeof ClientTeam.Type

/** A team, server view (adds `createdAt` and `serverMetadata`). */
export const ServerTeam = wireStruct({
  ...ClientTeam.wireFields,
  createdAt: field("created_at_millis", DateFromMillis),
  serverMetadata: defaultedField("server_metadata", Json, () => null)
})

/** A team, server view. */
export type ServerTeam = typeof ServerTeam.Type

/** An OAuth connection listed on a user. */
export const OAuthProviderLink = wireStruct({
  id: Schema.String,
  accountId: field("account_id", Schema.String),
  email: Schema.optional(Schema.NullOr(Schema.String))
})

/** Why a user is restricted. */
export const RestrictedReason = Schema.Struct({
  type: Schema.String
})

const userFields = {
  id: Schema.String,
  displayName: field("display_name", Schema.NullOr(Schema.String)),
  primaryEmail: field("primary_email", Schema.NullOr(Schema.String)),
  primaryEmailVerified: field("primary_email_verified", Schema.Boolean),
  profileImageUrl: field("profile_image_url", Schema.NullOr(Schema.String)),
  signedUpAt: field("signed_up_at_millis", DateFromMillis),
  clientMetadata: defaultedField("client_metadata", Json, () => null),
  clientReadOnlyMetadata: defaultedField("client_read_only_metadata", Json, () => null),
  hasPassword: field("has_password", Schema.Boolean),
  /** Wire name `auth_with_email` (deprecated there). */
  emailAuthEnabled: field("auth_with_email", Schema.Boolean),
  otpAuthEnabled: field("otp_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: field("passkey_auth_enabled", Schema.Boolean),
  /** Wire name `requires_totp_mfa`. */
  isMultiFactorRequired: field("requires_totp_mfa", Schema.Boolean),
  oauthProviders: field("oauth_providers", Schema.Array(OAuthProviderLink)),
  selectedTeamId: defaultedField("selected_team_id", Schema.NullOr(Schema.String), () => null),
  isAnonymous: defaultedField("is_anonymous", Schema.Boolean, () => false),
  isRestricted: defaultedField("is_restricted", Schema.Boolean, () => false),
  restrictedReason: defaultedField("restricted_reason", Schema.NullOr(RestrictedReason), () => null),
  restrictedByAdmin: defaultedField("restricted_by_admin", Schema.Boolean, () => false),
  restrictedByAdminReason: defaultedField("restricted_by_admin_reason", Schema.NullOr(Schema.String), () => null)
}

/** The signed-in user, client view (`GET /users/me` with client access). */
export const CurrentUser = wireStruct({
  ...userFields,
  selectedTeam: field("selected_team", Schema.NullOr(ClientTeam))
})

/** The signed-in user, client view. */
export type CurrentUser = typeof CurrentUser.Type

/** A user, server view (`/users`, `/users/{id}`; adds `lastActiveAt`, `serverMetadata`…). */
export const ServerUser = wireStruct({
  ...userFields,
  selectedTeam: field("selected_team", Schema.NullOr(ServerTeam)),
  primaryEmailAuthEnabled: defaultedField("primary_email_auth_enabled", Schema.Boolean, () => false),
  serverMetadata: defaultedField("server_metadata", Json, () => null),
  lastActiveAt: field("last_active_at_millis", DateFromMillis),
  restrictedByAdminPrivateDetails: defaultedField("restricted_by_admin_private_details", Schema.NullOr(Schema.String), () => null),
  countryCode: defaultedField("country_code", Schema.NullOr(Schema.String), () => null),
  riskScores: optionalField(
    "risk_scores",
    wireStruct({
      signUp: field("sign_up", wireStruct({ bot: Schema.Number, freeTrialAbuse: field("free_trial_abuse", Schema.Number) }))
    })
  )
})

/** A user, server view. */
export type ServerUser = typeof ServerUser.Type
