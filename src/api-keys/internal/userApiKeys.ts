/**
 * The wire definitions of `UserApiKeys` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `UserApiKeys.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  ApiKeyExpired,
  ApiKeyNotFound,
  ApiKeyRevoked,
  CannotGetOwnUserWithoutUser,
  UserAuthenticationRequired,
  WrongApiKeyType
} from "../../core/KnownErrors.js"
import { DateFromMillis, field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"
import { commonKeyFields, firstValue, readValue } from "../ApiKey.js"

export const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

const userKeyFields = {
  ...commonKeyFields,
  type: Schema.Literal("user"),
  userId: field("user_id", Uuid)
}

/** A user API key as read (value obfuscated to its last four characters). */
export const UserApiKey = wireStruct({ ...userKeyFields, ...readValue })

/** A user API key (value obfuscated). */
export type UserApiKey = typeof UserApiKey.Type

/** A just-created user API key: the full value, redacted. */
export const UserApiKeyFirstView = wireStruct({ ...userKeyFields, ...firstValue })

/** A just-created user API key (full value). */
export type UserApiKeyFirstView = typeof UserApiKeyFirstView.Type

/** The service's answer (400, plain text) when the project does not allow user API keys. */
export const userApiKeysNotEnabledText = "User API keys are not enabled for this project."

const OwnerQuery = wireStruct({ userId: field("user_id", UserIdOrMe) })
const KeyParams = wireStruct({ apiKeyId: field("api_key_id", Uuid) })

/** `GET /user-api-keys?user_id=` (client access, own keys). */
export const listEndpoint = Endpoint.make({
  name: "UserApiKeys.list",
  method: "GET",
  path: "/user-api-keys",
  access: "client",
  session: "required",
  query: OwnerQuery,
  success: wireStruct({ items: Schema.Array(UserApiKey), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [CannotGetOwnUserWithoutUser, UserAuthenticationRequired]
})

/** `POST /user-api-keys` (client access; answered 200 with the full value). */
export const createEndpoint = Endpoint.make({
  name: "UserApiKeys.create",
  method: "POST",
  path: "/user-api-keys",
  access: "client",
  session: "required",
  payload: wireStruct({
    userId: field("user_id", UserIdOrMe),
    description: Schema.String,
    expiresAt: field("expires_at_millis", Schema.NullOr(DateFromMillis)),
    isPublic: optionalField("is_public", Schema.Boolean)
  }),
  success: UserApiKeyFirstView,
  errors: [CannotGetOwnUserWithoutUser, UserAuthenticationRequired]
})

/** `GET /user-api-keys/{api_key_id}?user_id=` (client access, own keys). */
export const getEndpoint = Endpoint.make({
  name: "UserApiKeys.get",
  method: "GET",
  path: "/user-api-keys/:api_key_id",
  access: "client",
  session: "required",
  params: KeyParams,
  query: OwnerQuery,
  success: UserApiKey,
  errors: [ApiKeyNotFound, CannotGetOwnUserWithoutUser, UserAuthenticationRequired]
})

/** `PATCH /user-api-keys/{api_key_id}?user_id=` (client access, own keys). */
export const updateEndpoint = Endpoint.make({
  name: "UserApiKeys.update",
  method: "PATCH",
  path: "/user-api-keys/:api_key_id",
  access: "client",
  session: "required",
  params: KeyParams,
  query: OwnerQuery,
  payload: wireStruct({
    description: optionalField("description", Schema.String),
    revoked: optionalField("revoked", Schema.Literal(true))
  }),
  success: UserApiKey,
  errors: [ApiKeyNotFound, CannotGetOwnUserWithoutUser, UserAuthenticationRequired]
})

/** `POST /user-api-keys/check` (server or admin access). */
export const checkEndpoint = Endpoint.make({
  name: "ServerUserApiKeys.check",
  method: "POST",
  path: "/user-api-keys/check",
  access: "server",
  session: "none",
  payload: wireStruct({ apiKey: field("api_key", Schema.RedactedFromValue(Schema.String)) }),
  success: UserApiKey,
  errors: [ApiKeyNotFound, WrongApiKeyType, ApiKeyRevoked, ApiKeyExpired]
})
