/**
 * The user as the service sends it (PROTOCOL.md §3.0) and as the SDK hands it out (SPEC.md §3):
 * camelCase with `Date`s. Client view ({@link CurrentUser}) and server view ({@link ServerUser}).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { DateFromMillis, defaultedField, field, Json, optionalField } from "../core/Wire.js"

/** A team as embedded in a user (`selected_team`), client view. */
export const ClientTeam = /* @__PURE__ */ Schema.Struct({
  id: Schema.String,
  displayName: /* @__PURE__ */ field("display_name", Schema.String),
  profileImageUrl: /* @__PURE__ */ field("profile_image_url", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  clientMetadata: /* @__PURE__ */ defaultedField("client_metadata", Json, () => null),
  clientReadOnlyMetadata: /* @__PURE__ */ defaultedField("client_read_only_metadata", Json, () => null)
})

/** A team, client view. */
export type ClientTeam = typeof ClientTeam.Type

/** A team, server view (adds `createdAt` and `serverMetadata`). */
export const ServerTeam = /* @__PURE__ */ Schema.Struct({
  ...ClientTeam.fields,
  createdAt: /* @__PURE__ */ field("created_at_millis", DateFromMillis),
  serverMetadata: /* @__PURE__ */ defaultedField("server_metadata", Json, () => null)
})

/** A team, server view. */
export type ServerTeam = typeof ServerTeam.Type

/** An OAuth connection listed on a user. */
export const OAuthProviderLink = /* @__PURE__ */ Schema.Struct({
  id: Schema.String,
  accountId: /* @__PURE__ */ field("account_id", Schema.String),
  email: /* @__PURE__ */ Schema.optional(/* @__PURE__ */ Schema.NullOr(Schema.String))
})

/** Why a user is restricted. */
export const RestrictedReason = /* @__PURE__ */ Schema.Struct({
  type: Schema.String
})

const userFields = {
  id: Schema.String,
  displayName: /* @__PURE__ */ field("display_name", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  primaryEmail: /* @__PURE__ */ field("primary_email", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  primaryEmailVerified: /* @__PURE__ */ field("primary_email_verified", Schema.Boolean),
  profileImageUrl: /* @__PURE__ */ field("profile_image_url", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  signedUpAt: /* @__PURE__ */ field("signed_up_at_millis", DateFromMillis),
  clientMetadata: /* @__PURE__ */ defaultedField("client_metadata", Json, () => null),
  clientReadOnlyMetadata: /* @__PURE__ */ defaultedField("client_read_only_metadata", Json, () => null),
  hasPassword: /* @__PURE__ */ field("has_password", Schema.Boolean),
  /** Wire name `auth_with_email` (deprecated there). */
  emailAuthEnabled: /* @__PURE__ */ field("auth_with_email", Schema.Boolean),
  otpAuthEnabled: /* @__PURE__ */ field("otp_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: /* @__PURE__ */ field("passkey_auth_enabled", Schema.Boolean),
  /** Wire name `requires_totp_mfa`. */
  isMultiFactorRequired: /* @__PURE__ */ field("requires_totp_mfa", Schema.Boolean),
  oauthProviders: /* @__PURE__ */ field("oauth_providers", /* @__PURE__ */ Schema.Array(OAuthProviderLink)),
  selectedTeamId: /* @__PURE__ */ defaultedField("selected_team_id", /* @__PURE__ */ Schema.NullOr(Schema.String), () => null),
  isAnonymous: /* @__PURE__ */ defaultedField("is_anonymous", Schema.Boolean, () => false),
  isRestricted: /* @__PURE__ */ defaultedField("is_restricted", Schema.Boolean, () => false),
  restrictedReason: /* @__PURE__ */ defaultedField("restricted_reason", /* @__PURE__ */ Schema.NullOr(RestrictedReason), () => null),
  restrictedByAdmin: /* @__PURE__ */ defaultedField("restricted_by_admin", Schema.Boolean, () => false),
  restrictedByAdminReason: /* @__PURE__ */ defaultedField("restricted_by_admin_reason", /* @__PURE__ */ Schema.NullOr(Schema.String), () => null)
}

/** The signed-in user, client view (`GET /users/me` with client access). */
export const CurrentUser = /* @__PURE__ */ Schema.Struct({
  ...userFields,
  selectedTeam: /* @__PURE__ */ field("selected_team", /* @__PURE__ */ Schema.NullOr(ClientTeam))
})

/** The signed-in user, client view. */
export type CurrentUser = typeof CurrentUser.Type

/** A user, server view (`/users`, `/users/{id}`; adds `lastActiveAt`, `serverMetadata`…). */
export const ServerUser = /* @__PURE__ */ Schema.Struct({
  ...userFields,
  selectedTeam: /* @__PURE__ */ field("selected_team", /* @__PURE__ */ Schema.NullOr(ServerTeam)),
  primaryEmailAuthEnabled: /* @__PURE__ */ defaultedField("primary_email_auth_enabled", Schema.Boolean, () => false),
  serverMetadata: /* @__PURE__ */ defaultedField("server_metadata", Json, () => null),
  lastActiveAt: /* @__PURE__ */ field("last_active_at_millis", DateFromMillis),
  restrictedByAdminPrivateDetails: /* @__PURE__ */ defaultedField("restricted_by_admin_private_details", /* @__PURE__ */ Schema.NullOr(Schema.String), () => null),
  countryCode: /* @__PURE__ */ defaultedField("country_code", /* @__PURE__ */ Schema.NullOr(Schema.String), () => null),
  riskScores: /* @__PURE__ */ optionalField(
    "risk_scores",
    /* @__PURE__ */ Schema.Struct({
      signUp: /* @__PURE__ */ field("sign_up", /* @__PURE__ */ Schema.Struct({ bot: Schema.Number, freeTrialAbuse: /* @__PURE__ */ field("free_trial_abuse", Schema.Number) }))
    })
  )
})

/** A user, server view. */
export type ServerUser = typeof ServerUser.Type
