/**
 * The wire definitions of `InternalApiKeys` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `InternalApiKeys.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { ApiKeyNotFound } from "../../core/KnownErrors.js"
import { DateFromMillis, field, optionalField, RedactedToken, Uuid, wireStruct } from "../../core/Wire.js"

/** An obfuscated key value: its last four characters. */
export const LastFour = wireStruct({ lastFour: field("last_four", Schema.String) })

const keyFields = {
  id: Uuid,
  description: Schema.String,
  createdAt: field("created_at_millis", DateFromMillis),
  expiresAt: field("expires_at_millis", DateFromMillis),
  manuallyRevokedAt: optionalField("manually_revoked_at_millis", DateFromMillis)
}

/** A project API key as read (values obfuscated). */
export const InternalApiKey = wireStruct({
  ...keyFields,
  publishableClientKey: optionalField("publishable_client_key", LastFour),
  secretServerKey: optionalField("secret_server_key", LastFour),
  superSecretAdminKey: optionalField("super_secret_admin_key", LastFour)
})

/** A project API key (values obfuscated). */
export type InternalApiKey = typeof InternalApiKey.Type

/** A just-created project API key: the full values, redacted. */
export const InternalApiKeyFirstView = wireStruct({
  ...keyFields,
  publishableClientKey: optionalField("publishable_client_key", RedactedToken),
  secretServerKey: optionalField("secret_server_key", RedactedToken),
  superSecretAdminKey: optionalField("super_secret_admin_key", RedactedToken)
})

/** A just-created project API key (full values). */
export type InternalApiKeyFirstView = typeof InternalApiKeyFirstView.Type

/** What to create: a description, an expiry (required) and which of the three keys. */
export const InternalApiKeyCreate = wireStruct({
  description: Schema.String,
  expiresAt: field("expires_at_millis", DateFromMillis),
  hasPublishableClientKey: field("has_publishable_client_key", Schema.Boolean),
  hasSecretServerKey: field("has_secret_server_key", Schema.Boolean),
  hasSuperSecretAdminKey: field("has_super_secret_admin_key", Schema.Boolean)
})

/** What to create. */
export type InternalApiKeyCreate = typeof InternalApiKeyCreate.Type

const KeyParams = wireStruct({ apiKeyId: field("api_key_id", Uuid) })

/** `GET /internal/api-keys` (admin access). */
export const listEndpoint = Endpoint.make({
  name: "InternalApiKeys.list",
  method: "GET",
  path: "/internal/api-keys",
  access: "admin",
  session: "none",
  success: wireStruct({ items: Schema.Array(InternalApiKey), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: []
})

/** `POST /internal/api-keys` (admin access). */
export const createEndpoint = Endpoint.make({
  name: "InternalApiKeys.create",
  method: "POST",
  path: "/internal/api-keys",
  access: "admin",
  session: "none",
  payload: InternalApiKeyCreate,
  success: InternalApiKeyFirstView,
  errors: []
})

/** `GET /internal/api-keys/{api_key_id}` (admin access). */
export const getEndpoint = Endpoint.make({
  name: "InternalApiKeys.get",
  method: "GET",
  path: "/internal/api-keys/:api_key_id",
  access: "admin",
  session: "none",
  params: KeyParams,
  success: InternalApiKey,
  errors: [ApiKeyNotFound]
})

/** `PATCH /internal/api-keys/{api_key_id}` (admin access). */
export const updateEndpoint = Endpoint.make({
  name: "InternalApiKeys.update",
  method: "PATCH",
  path: "/internal/api-keys/:api_key_id",
  access: "admin",
  session: "none",
  params: KeyParams,
  payload: wireStruct({
    description: optionalField("description", Schema.String),
    revoked: optionalField("revoked", Schema.Literal(true))
  }),
  success: InternalApiKey,
  errors: [ApiKeyNotFound]
})
