/**
 * The wire definitions of `ServerTeamInvitations`: the team-invitation routes of
 * `internal/teamInvitations.ts` with server access (no team permission needed; a team or user
 * addressed by id). Not part of the public surface.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { RedirectUrlNotWhitelisted, TeamNotFound } from "../../core/KnownErrors.js"
import { field, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { TeamInvitation } from "./teamInvitations.js"

/** `POST /team-invitations/send-code` (server access; answered 200 with the invitation's id). */
export const sendEndpoint = Endpoint.make({
  name: "ServerTeamInvitations.send",
  method: "POST",
  path: "/team-invitations/send-code",
  access: "server",
  session: "none",
  payload: wireStruct({
    teamId: field("team_id", Uuid),
    email: Schema.String,
    callbackUrl: field("callback_url", Schema.String)
  }),
  success: Schema.Struct({ success: Schema.Literal(true), id: Uuid }),
  errors: [TeamNotFound, RedirectUrlNotWhitelisted]
})

/** `GET /team-invitations?team_id=` (server access): a team's pending invitations. */
export const listEndpoint = Endpoint.make({
  name: "ServerTeamInvitations.list",
  method: "GET",
  path: "/team-invitations",
  access: "server",
  session: "none",
  query: wireStruct({ teamId: field("team_id", Uuid) }),
  success: wireStruct({ items: Schema.Array(TeamInvitation), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [TeamNotFound]
})

/** `GET /team-invitations?user_id=<id>` (server access): invitations addressed to a user's verified e-mails. */
export const listMineEndpoint = Endpoint.make({
  name: "ServerTeamInvitations.listMine",
  method: "GET",
  path: "/team-invitations",
  access: "server",
  session: "none",
  query: wireStruct({ userId: field("user_id", Uuid) }),
  success: wireStruct({ items: Schema.Array(TeamInvitation), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: []
})

/** `DELETE /team-invitations/{id}?team_id=` (server access). */
export const revokeEndpoint = Endpoint.make({
  name: "ServerTeamInvitations.revoke",
  method: "DELETE",
  path: "/team-invitations/:id",
  access: "server",
  session: "none",
  params: Schema.Struct({ id: Uuid }),
  query: wireStruct({ teamId: field("team_id", Uuid) }),
  success: SuccessTrue,
  errors: [TeamNotFound]
})
