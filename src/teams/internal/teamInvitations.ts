/**
 * The wire definitions of `TeamInvitations` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `TeamInvitations.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { verificationCodeErrors } from "../../auth/PasswordReset.js"
import * as Endpoint from "../../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  ItemQuantityInsufficientAmount,
  RedirectUrlNotWhitelisted,
  TeamInvitationRestrictedUserNotAllowed,
  TeamMembershipNotFound,
  TeamNotFound,
  TeamPermissionRequired,
  UserAuthenticationRequired,
  UserNotFound,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import { AnyObject, CodePayload, CodeValid, DateFromMillis, field, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"

/** A pending invitation (same shape for client and server). */
export const TeamInvitation = wireStruct({
  id: Uuid,
  teamId: field("team_id", Uuid),
  teamDisplayName: field("team_display_name", Schema.String),
  recipientEmail: field("recipient_email", Schema.String),
  expiresAt: field("expires_at_millis", DateFromMillis)
})

/** A pending invitation. */
export type TeamInvitation = typeof TeamInvitation.Type

/** What `accept/details` tells the invitee. */
export const InvitationDetails = wireStruct({
  teamId: field("team_id", Uuid),
  teamDisplayName: field("team_display_name", Schema.String)
})

/** What `accept/details` tells the invitee. */
export type InvitationDetails = typeof InvitationDetails.Type

/** `POST /team-invitations/send-code` (client access; needs `$invite_members`; answered 200). */
export const sendEndpoint = Endpoint.make({
  name: "TeamInvitations.send",
  method: "POST",
  path: "/team-invitations/send-code",
  access: "client",
  session: "required",
  payload: wireStruct({
    teamId: field("team_id", Uuid),
    email: Schema.String,
    callbackUrl: field("callback_url", Schema.String)
  }),
  success: Schema.Struct({ success: Schema.Literal(true), id: Uuid }),
  errors: [TeamPermissionRequired, TeamMembershipNotFound, RedirectUrlNotWhitelisted, UserAuthenticationRequired, UserNotFound, TeamNotFound]
})

/** `GET /team-invitations?team_id=` (client access; needs `$read_members` and `$invite_members`). */
export const listEndpoint = Endpoint.make({
  name: "TeamInvitations.list",
  method: "GET",
  path: "/team-invitations",
  access: "client",
  session: "required",
  query: wireStruct({ teamId: field("team_id", Uuid) }),
  success: wireStruct({ items: Schema.Array(TeamInvitation), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [TeamMembershipNotFound, TeamPermissionRequired, CannotGetOwnUserWithoutUser, UserNotFound, TeamNotFound]
})

/** `DELETE /team-invitations/{id}?team_id=` (client access; needs `$remove_members`). */
export const revokeEndpoint = Endpoint.make({
  name: "TeamInvitations.revoke",
  method: "DELETE",
  path: "/team-invitations/:id",
  access: "client",
  session: "required",
  params: Schema.Struct({ id: Uuid }),
  query: wireStruct({ teamId: field("team_id", Uuid) }),
  success: SuccessTrue,
  errors: [TeamMembershipNotFound, TeamPermissionRequired, TeamNotFound, CannotGetOwnUserWithoutUser, UserNotFound]
})

/** `GET /team-invitations?user_id=me` (client access): invitations addressed to the user's verified e-mails. */
export const listMineEndpoint = Endpoint.make({
  name: "TeamInvitations.listMine",
  method: "GET",
  path: "/team-invitations",
  access: "client",
  session: "required",
  query: wireStruct({ userId: field("user_id", Schema.Union([Schema.Literal("me"), Uuid])) }),
  success: wireStruct({ items: Schema.Array(TeamInvitation), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [CannotGetOwnUserWithoutUser]
})

/**
 * `POST /team-invitations/{id}/accept?user_id=me` (client access; no body): accepts an invitation
 * by id for a user who has a verified e-mail equal to the invitation's recipient.
 */
export const acceptByIdEndpoint = Endpoint.make({
  name: "TeamInvitations.acceptById",
  method: "POST",
  path: "/team-invitations/:id/accept",
  access: "client",
  session: "required",
  params: Schema.Struct({ id: Uuid }),
  query: wireStruct({ userId: field("user_id", Schema.Union([Schema.Literal("me"), Uuid])) }),
  success: AnyObject,
  errors: [CannotGetOwnUserWithoutUser, TeamInvitationRestrictedUserNotAllowed, VerificationCodeNotFound, ItemQuantityInsufficientAmount]
})

/** `POST /team-invitations/accept/check-code`. */
export const checkCodeEndpoint = Endpoint.make({
  name: "TeamInvitations.checkCode",
  method: "POST",
  path: "/team-invitations/accept/check-code",
  access: "client",
  session: "optional",
  payload: CodePayload,
  success: CodeValid,
  errors: [...verificationCodeErrors]
})

/** `POST /team-invitations/accept/details` (a signed-in, unrestricted user). */
export const detailsEndpoint = Endpoint.make({
  name: "TeamInvitations.details",
  method: "POST",
  path: "/team-invitations/accept/details",
  access: "client",
  session: "required",
  payload: CodePayload,
  success: InvitationDetails,
  errors: [...verificationCodeErrors, UserAuthenticationRequired, TeamInvitationRestrictedUserNotAllowed]
})

/** `POST /team-invitations/accept` (a signed-in, unrestricted user; `{}`; idempotent for a member). */
export const acceptEndpoint = Endpoint.make({
  name: "TeamInvitations.accept",
  method: "POST",
  path: "/team-invitations/accept",
  access: "client",
  session: "required",
  payload: CodePayload,
  success: AnyObject,
  errors: [...verificationCodeErrors, UserAuthenticationRequired, TeamInvitationRestrictedUserNotAllowed, ItemQuantityInsufficientAmount]
})
