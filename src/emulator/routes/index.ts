/**
 * Every route of the emulator, in one list (order matters only among overloads).
 *
 * @module
 */
import type { Route } from "../Router.js"
import { routes as admin } from "./admin.js"
import { routes as cli } from "./cli.js"
import { routes as connectedAccounts } from "./connectedAccounts.js"
import { routes as contactChannels } from "./contactChannels.js"
import { routes as emails } from "./emails.js"
import { routes as emailOutbox } from "./emailOutbox.js"
import { routes as emailThemes } from "./emailThemes.js"
import { routes as emailDrafts } from "./emailDrafts.js"
import { routes as managedEmail } from "./managedEmail.js"
import { routes as health } from "./health.js"
import { routes as jwks } from "./jwks.js"
import { routes as mfa } from "./mfa.js"
import { routes as oauth } from "./oauth.js"
import { routes as otp } from "./otp.js"
import { routes as outbox } from "./outbox.js"
import { routes as passkeys } from "./passkeys.js"
import { routes as internalApiKeys } from "./internalApiKeys.js"
import { routes as userApiKeys } from "./apiKeys.js"
import { routes as projects } from "./projects.js"
import { routes as password } from "./password.js"
import { routes as sessions } from "./sessions.js"
import { routes as tokens } from "./tokens.js"
import { routes as users } from "./users.js"
import { routes as verification } from "./verification.js"
import { routes as permissions } from "./permissions.js"
import { routes as permissionDefinitions } from "./permissionDefinitions.js"
import { routes as teams } from "./teams.js"
import { routes as teamMemberships } from "./teamMemberships.js"
import { routes as teamMemberProfiles } from "./teamMemberProfiles.js"
import { routes as teamInvitations } from "./teamInvitations.js"
import { teamRoutes as teamApiKeys } from "./apiKeys.js"
import { routes as config } from "./config.js"
import { routes as notificationPreferences } from "./notificationPreferences.js"
import { routes as crossDomainAuth } from "./crossDomainAuth.js"

/** The routes of this emulator. */
export const allRoutes: ReadonlyArray<Route> = [
  ...health,
  ...jwks,
  ...outbox,
  ...tokens,
  ...password,
  ...sessions,
  ...users,
  ...otp,
  ...verification,
  ...mfa,
  ...cli,
  ...oauth,
  ...connectedAccounts,
  ...passkeys,
  ...contactChannels,
  ...projects,
  ...internalApiKeys,
  ...userApiKeys,
  ...emails,
  ...emailOutbox,
  ...emailThemes,
  ...emailDrafts,
  ...managedEmail,
  ...admin,
  ...permissions,
  ...permissionDefinitions,
  ...teams,
  ...teamMemberships,
  ...teamMemberProfiles,
  ...teamInvitations,
  ...teamApiKeys,
  ...config,
  ...notificationPreferences,
  ...crossDomainAuth
]
