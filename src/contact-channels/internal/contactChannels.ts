/**
 * The wire definitions of `ContactChannels` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `ContactChannels.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  ContactChannelAlreadyUsedForAuthBySomeoneElse,
  EmailAlreadyVerified,
  RedirectUrlNotWhitelisted,
  UserIdDoesNotExist
} from "../../core/KnownErrors.js"
import { field, optionalField, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"

// ---------------------------------------------------------------------------------------------
// Wire objects
// ---------------------------------------------------------------------------------------------

/** A contact channel (same shape for client and server access). */
export const ContactChannel = wireStruct({
  id: Uuid,
  userId: field("user_id", Uuid),
  type: Schema.Literal("email"),
  value: Schema.String,
  isVerified: field("is_verified", Schema.Boolean),
  isPrimary: field("is_primary", Schema.Boolean),
  usedForAuth: field("used_for_auth", Schema.Boolean)
})

/** A contact channel of a user. */
export type ContactChannel = typeof ContactChannel.Type

/** The list answer `{ items, is_paginated: false }`. */
export const ContactChannelList = wireStruct({
  items: Schema.Array(ContactChannel),
  isPaginated: field("is_paginated", Schema.Literal(false))
})

/** Path parameters of the signed-in user's channel routes (`/contact-channels/me/{id}`). */
const OwnChannelParams = wireStruct({ contactChannelId: field("contact_channel_id", Uuid) })

/** Path parameters of the server's channel routes (`/contact-channels/{user_id}/{id}`). */
const UserChannelParams = wireStruct({
  userId: field("user_id", Uuid),
  contactChannelId: field("contact_channel_id", Uuid)
})

/** Payload of `POST /contact-channels` (client access: the signed-in user). */
export const CreatePayload = wireStruct({
  userId: field("user_id", Schema.Literal("me")),
  type: Schema.Literal("email"),
  value: Schema.String,
  usedForAuth: field("used_for_auth", Schema.Boolean),
  isPrimary: optionalField("is_primary", Schema.Boolean)
})

/** Payload of `POST /contact-channels` (server access: any user, may be created verified). */
export const ServerCreatePayload = wireStruct({
  userId: field("user_id", Uuid),
  type: Schema.Literal("email"),
  value: Schema.String,
  usedForAuth: field("used_for_auth", Schema.Boolean),
  isPrimary: optionalField("is_primary", Schema.Boolean),
  isVerified: optionalField("is_verified", Schema.Boolean)
})

/** Payload of `PATCH /contact-channels/me/{id}`. */
export const UpdatePayload = wireStruct({
  value: optionalField("value", Schema.String),
  usedForAuth: optionalField("used_for_auth", Schema.Boolean),
  isPrimary: optionalField("is_primary", Schema.Boolean)
})

/** Payload of `PATCH /contact-channels/{user_id}/{id}` (server access). */
export const ServerUpdatePayload = wireStruct({
  value: optionalField("value", Schema.String),
  usedForAuth: optionalField("used_for_auth", Schema.Boolean),
  isPrimary: optionalField("is_primary", Schema.Boolean),
  isVerified: optionalField("is_verified", Schema.Boolean)
})

/** Payload of `POST /contact-channels/{user_id|me}/{id}/send-verification-code`. */
export const SendCodePayload = wireStruct({ callbackUrl: field("callback_url", Schema.String) })

// ---------------------------------------------------------------------------------------------
// Endpoints: client access (the signed-in user)
// ---------------------------------------------------------------------------------------------

/** `GET /contact-channels?user_id=me`. */
export const listEndpoint = Endpoint.make({
  name: "ContactChannels.list",
  method: "GET",
  path: "/contact-channels",
  access: "client",
  session: "required",
  query: wireStruct({ userId: field("user_id", Schema.Literal("me")) }),
  success: ContactChannelList,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `POST /contact-channels` (201). */
export const createEndpoint = Endpoint.make({
  name: "ContactChannels.create",
  method: "POST",
  path: "/contact-channels",
  access: "client",
  session: "required",
  payload: CreatePayload,
  success: ContactChannel,
  successStatus: 201,
  errors: [CannotGetOwnUserWithoutUser, ContactChannelAlreadyUsedForAuthBySomeoneElse]
})

/** `PATCH /contact-channels/me/{id}`. */
export const updateEndpoint = Endpoint.make({
  name: "ContactChannels.update",
  method: "PATCH",
  path: "/contact-channels/me/:contact_channel_id",
  access: "client",
  session: "required",
  params: OwnChannelParams,
  payload: UpdatePayload,
  success: ContactChannel,
  errors: [CannotGetOwnUserWithoutUser, ContactChannelAlreadyUsedForAuthBySomeoneElse]
})

/** `DELETE /contact-channels/me/{id}`. */
export const deleteEndpoint = Endpoint.make({
  name: "ContactChannels.delete",
  method: "DELETE",
  path: "/contact-channels/me/:contact_channel_id",
  access: "client",
  session: "required",
  params: OwnChannelParams,
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `POST /contact-channels/me/{id}/send-verification-code`. */
export const sendVerificationCodeEndpoint = Endpoint.make({
  name: "ContactChannels.sendVerificationCode",
  method: "POST",
  path: "/contact-channels/me/:contact_channel_id/send-verification-code",
  access: "client",
  session: "required",
  params: OwnChannelParams,
  payload: SendCodePayload,
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser, EmailAlreadyVerified, RedirectUrlNotWhitelisted]
})

// ---------------------------------------------------------------------------------------------
// Endpoints: server access (any user)
// ---------------------------------------------------------------------------------------------

/** `GET /contact-channels?user_id=<id>` (server access). */
export const listForUserEndpoint = Endpoint.make({
  name: "ServerContactChannels.list",
  method: "GET",
  path: "/contact-channels",
  access: "server",
  session: "none",
  query: wireStruct({ userId: field("user_id", Uuid) }),
  success: ContactChannelList,
  errors: [UserIdDoesNotExist]
})

/** `POST /contact-channels` (server access, 201). */
export const createForUserEndpoint = Endpoint.make({
  name: "ServerContactChannels.create",
  method: "POST",
  path: "/contact-channels",
  access: "server",
  session: "none",
  payload: ServerCreatePayload,
  success: ContactChannel,
  successStatus: 201,
  errors: [UserIdDoesNotExist, ContactChannelAlreadyUsedForAuthBySomeoneElse]
})

/** `PATCH /contact-channels/{user_id}/{id}` (server access). */
export const updateForUserEndpoint = Endpoint.make({
  name: "ServerContactChannels.update",
  method: "PATCH",
  path: "/contact-channels/:user_id/:contact_channel_id",
  access: "server",
  session: "none",
  params: UserChannelParams,
  payload: ServerUpdatePayload,
  success: ContactChannel,
  errors: [UserIdDoesNotExist, ContactChannelAlreadyUsedForAuthBySomeoneElse]
})

/** `DELETE /contact-channels/{user_id}/{id}` (server access). */
export const deleteForUserEndpoint = Endpoint.make({
  name: "ServerContactChannels.delete",
  method: "DELETE",
  path: "/contact-channels/:user_id/:contact_channel_id",
  access: "server",
  session: "none",
  params: UserChannelParams,
  success: SuccessTrue,
  errors: [UserIdDoesNotExist]
})

/** `POST /contact-channels/{user_id}/{id}/send-verification-code` (server access). */
export const sendVerificationCodeForUserEndpoint = Endpoint.make({
  name: "ServerContactChannels.sendVerificationCode",
  method: "POST",
  path: "/contact-channels/:user_id/:contact_channel_id/send-verification-code",
  access: "server",
  session: "none",
  params: UserChannelParams,
  payload: SendCodePayload,
  success: SuccessTrue,
  errors: [UserIdDoesNotExist, EmailAlreadyVerified, RedirectUrlNotWhitelisted]
})
