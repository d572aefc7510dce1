/**
 * The wire definitions of `ServerUserApiKeys`' key management: the user API key routes of
 * `internal/userApiKeys.ts` with server access, addressing any user by id (PROTOCOL.md §3.6:
 * "client+"; an unknown user is `USER_NOT_FOUND`). Not part of the public surface.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { ApiKeyNotFound, UserAuthenticationRequired, UserNotFound } from "../../core/KnownErrors.js"
import { DateFromMillis, field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"
import { UserApiKey, UserApiKeyFirstView } from "./userApiKeys.js"

const OwnerQuery = wireStruct({ userId: field("user_id", Uuid) })
const KeyParams = wireStruct({ apiKeyId: field("api_key_id", Uuid) })

/** `GET /user-api-keys?user_id=<id>` (server access). */
export const listEndpoint = Endpoint.make({
  name: "ServerUserApiKeys.list",
  method: "GET",
  path: "/user-api-keys",
  access: "server",
  session: "none",
  query: OwnerQuery,
  success: wireStruct({ items: Schema.Array(UserApiKey), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [UserNotFound, UserAuthenticationRequired]
})

/** `POST /user-api-keys` for a user by id (server access; answered 200 with the full value). */
export const createEndpoint = Endpoint.make({
  name: "ServerUserApiKeys.create",
  method: "POST",
  path: "/user-api-keys",
  access: "server",
  session: "none",
  payload: wireStruct({
    userId: field("user_id", Uuid),
    description: Schema.String,
    expiresAt: field("expires_at_millis", Schema.NullOr(DateFromMillis)),
    isPublic: optionalField("is_public", Schema.Boolean)
  }),
  success: UserApiKeyFirstView,
  errors: [UserNotFound, UserAuthenticationRequired]
})

/** `GET /user-api-keys/{api_key_id}?user_id=<id>` (server access). */
export const getEndpoint = Endpoint.make({
  name: "ServerUserApiKeys.get",
  method: "GET",
  path: "/user-api-keys/:api_key_id",
  access: "server",
  session: "none",
  params: KeyParams,
  query: OwnerQuery,
  success: UserApiKey,
  errors: [ApiKeyNotFound, UserNotFound]
})

/** `PATCH /user-api-keys/{api_key_id}?user_id=<id>` `{ description?, revoked?: true }` (server access). */
export const updateEndpoint = Endpoint.make({
  name: "ServerUserApiKeys.update",
  method: "PATCH",
  path: "/user-api-keys/:api_key_id",
  access: "server",
  session: "none",
  params: KeyParams,
  query: OwnerQuery,
  payload: wireStruct({
    description: optionalField("description", Schema.String),
    revoked: optionalField("revoked", Schema.Literal(true))
  }),
  success: UserApiKey,
  errors: [ApiKeyNotFound, UserNotFound]
})
