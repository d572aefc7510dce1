/**
 * Internal (project) API keys (PROTOCOL.md §3.0 "Internal (project) API keys", §3.7): the
 * publishable client, secret server and super secret admin keys of the current project. Admin
 * access only. Full key values appear once, in the create answer (as `Redacted`); reads show the
 * last four characters. There is no delete: revoke instead.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import { ApiKeyNotFound } from "../core/KnownErrors.js"
import { DateFromMillis, field, optionalField, RedactedToken, Uuid } from "../core/Wire.js"

/** An obfuscated key value: its last four characters. */
export const LastFour = Schema.Struct({ lastFour: field("last_four", Schema.String) })

const keyFields = {
  id: Uuid,
  description: Schema.String,
  createdAt: field("created_at_millis", DateFromMillis),
  expiresAt: field("expires_at_millis", DateFromMillis),
  manuallyRevokedAt: optionalField("manually_revoked_at_millis", DateFromMillis)
}

/** A project API key as read (values obfuscated). */
export const InternalApiKey = Schema.Struct({
  ...keyFields,
  publishableClientKey: optionalField("publishable_client_key", LastFour),
  secretServerKey: optionalField("secret_server_key", LastFour),
  superSecretAdminKey: optionalField("super_secret_admin_key", LastFour)
})

/** A project API key (values obfuscated). */
export type InternalApiKey = typeof InternalApiKey.Type

/** A just-created project API key: the full values, redacted. */
export const InternalApiKeyFirstView = Schema.Struct({
  ...keyFields,
  publishableClientKey: optionalField("publishable_client_key", RedactedToken),
  secretServerKey: optionalField("secret_server_key", RedactedToken),
  superSecretAdminKey: optionalField("super_secret_admin_key", RedactedToken)
})

/** A just-created project API key (full values). */
export type InternalApiKeyFirstView = typeof InternalApiKeyFirstView.Type

/** What to create: a description, an expiry (required) and which of the three keys. */
export const InternalApiKeyCreate = Schema.Struct({
  description: Schema.String,
  expiresAt: field("expires_at_millis", DateFromMillis),
  hasPublishableClientKey: field("has_publishable_client_key", Schema.Boolean),
  hasSecretServerKey: field("has_secret_server_key", Schema.Boolean),
  hasSuperSecretAdminKey: field("has_super_secret_admin_key", Schema.Boolean)
})

/** What to create. */
export type InternalApiKeyCreate = typeof InternalApiKeyCreate.Type

const KeyParams = Schema.Struct({ apiKeyId: field("api_key_id", Uuid) })

/** `GET /internal/api-keys` (admin access). */
export const listEndpoint = Endpoint.make({
  name: "InternalApiKeys.list",
  method: "GET",
  path: "/internal/api-keys",
  access: "admin",
  session: "none",
  success: Schema.Struct({ items: Schema.Array(InternalApiKey), isPaginated: field("is_paginated", Schema.Boolean) }),
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
  payload: Schema.Struct({
    description: optionalField("description", Schema.String),
    revoked: optionalField("revoked", Schema.Literal(true))
  }),
  success: InternalApiKey,
  errors: [ApiKeyNotFound]
})

/**
 * Creates project keys (any of the three kinds) valid until `expiresAt`; the answer is the only
 * place the full values appear. `POST /internal/api-keys`; needs `AdminAccess`.
 */
export const create = Effect.fn("InternalApiKeys.create")(function* (input: InternalApiKeyCreate) {
  return yield* Endpoint.call(createEndpoint, { payload: input })
})

/** The project's keys, newest first, values obfuscated. `GET /internal/api-keys`; needs `AdminAccess`. */
export const list = Effect.fn("InternalApiKeys.list")(function* () {
  const answer = yield* Endpoint.call(listEndpoint, {})
  return answer.items
})

/** One key by id. `GET /internal/api-keys/{id}`; needs `AdminAccess`. Fails with `ApiKeyNotFound`. */
export const get = Effect.fn("InternalApiKeys.get")(function* (apiKeyId: string) {
  return yield* Endpoint.call(getEndpoint, { params: { apiKeyId } })
})

/**
 * Revokes a key: it stops authenticating at once (revoking twice keeps the first time).
 * `PATCH /internal/api-keys/{id}` with `{ revoked: true }`; needs `AdminAccess`. Fails with `ApiKeyNotFound`.
 */
export const revoke = Effect.fn("InternalApiKeys.revoke")(function* (apiKeyId: string) {
  return yield* Endpoint.call(updateEndpoint, { params: { apiKeyId }, payload: { revoked: true } })
})

/** Whether a key authenticates. */
export type Validity = "valid" | "expired" | "manually-revoked"

/**
 * Whether a key is valid at `now`: expiry is checked FIRST (`"expired"` once `expiresAt` is past),
 * then revocation (`"manually-revoked"`), as SPEC.md §4 says for internal keys. Pure.
 */
export const validity = (key: Pick<InternalApiKey, "expiresAt" | "manuallyRevokedAt">, now: Date): Validity =>
  key.expiresAt.getTime() < now.getTime() ? "expired" : key.manuallyRevokedAt !== undefined ? "manually-revoked" : "valid"
