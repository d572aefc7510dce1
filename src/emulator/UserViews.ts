/**
 * Users as the wire shows them, in the SDK's domain shapes (the router encodes them with the
 * endpoint's success schema): the client view (`CurrentUser`) and the server view.
 *
 * @module
 */
import type { CurrentUser } from "../users/User.js"
import type { ServerUser } from "../users/User.js"
import type { ProjectConfig, UserRecord } from "./State.js"
import { restrictionOf } from "./State.js"

/** The client view of a user (`GET /users/me` with client access). */
export const toCurrentUser = (user: UserRecord, config: Pick<ProjectConfig, "requireEmailVerification">): CurrentUser => {
  const restriction = restrictionOf(user, config)
  return {
    id: user.id,
    displayName: user.displayName,
    primaryEmail: user.primaryEmail,
    primaryEmailVerified: user.primaryEmailVerified,
    profileImageUrl: user.profileImageUrl,
    signedUpAt: new Date(user.signedUpAtMillis),
    clientMetadata: user.clientMetadata,
    clientReadOnlyMetadata: user.clientReadOnlyMetadata,
    hasPassword: user.passwordHash !== null,
    // the service's `auth_with_email` is "has a password or OTP auth method" (users/crud.tsx userPrismaToCrud)
    emailAuthEnabled: user.passwordHash !== null || user.otpAuthEnabled,
    otpAuthEnabled: user.otpAuthEnabled,
    passkeyAuthEnabled: user.passkeyAuthEnabled,
    isMultiFactorRequired: user.totpSecretBase64 !== null,
    oauthProviders: user.oauthAccounts.map((account) => ({ id: account.providerConfigId, accountId: account.accountId, email: account.email })),
    selectedTeamId: user.selectedTeamId,
    isAnonymous: user.isAnonymous,
    isRestricted: restriction !== null,
    restrictedReason: restriction,
    restrictedByAdmin: user.restrictedByAdmin,
    restrictedByAdminReason: user.restrictedByAdmin ? user.restrictedByAdminReason : null,
    selectedTeam: null
  }
}

/** The server view of a user (`/users`, `/users/{id}`, `/users/me` with server/admin access). */
export const toServerUser = (user: UserRecord, config: Pick<ProjectConfig, "requireEmailVerification">): ServerUser => ({
  ...toCurrentUser(user, config),
  selectedTeam: null,
  primaryEmailAuthEnabled: user.primaryEmail !== null && user.primaryEmailAuthEnabled,
  serverMetadata: user.serverMetadata,
  lastActiveAt: new Date(user.lastActiveAtMillis),
  restrictedByAdminPrivateDetails: user.restrictedByAdmin ? user.restrictedByAdminPrivateDetails : null,
  countryCode: user.countryCode,
  riskScores: user.riskScores
})
