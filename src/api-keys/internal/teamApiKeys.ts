/**
 * The wire definitions of `TeamApiKeys` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `TeamApiKeys.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { ApiKeyExpired, ApiKeyNotFound, ApiKeyRevoked, TeamNotFound, UserAuthenticationRequired, WrongApiKeyType } from "../../core/KnownErrors.js"
import { DateFromMillis, field, optionalField, Uuid, wireStruct } from "../../core/Wire.js"
import { commonKeyFields, firstValue, readValue } from "../ApiKey.js"

const teamKeyFields = {
  ...commonKeyFields,
  type: Schema.Literal("team"),
  teamId: field("team_id", Uuid)
}

/** A team API key as read (value obfuscated to its last four characters). */
export const TeamApiKey = wireStruct({ ...teamKeyFields, ...readValue })

/** A team API key (value obfuscated). */
export type TeamApiKey = typeof TeamApiKey.Type

/** A just-created team API key: the full value, redacted. */
export const TeamApiKeyFirstView = wireStruct({ ...teamKeyFields, ...firstValue })

/** A just-created team API key (full value). */
export type TeamApiKeyFirstView = typeof TeamApiKeyFirstView.Type

/** The service's answer (400, plain text) when the project does not allow team API keys. */
export const teamApiKeysNotEnabledText = "Team API keys are not enabled for this project."

const TeamQuery = wireStruct({ teamId: field("team_id", Uuid) })
const KeyParams = wireStruct({ apiKeyId: field("api_key_id", Uuid) })

/** `GET /team-api-keys?team_id=` (client access; `$manage_api_keys`). */
export const listEndpoint = Endpoint.make({
  name: "TeamApiKeys.list",
  method: "GET",
  path: "/team-api-keys",
  access: "client",
  session: "required",
  query: TeamQuery,
  success: wireStruct({ items: Schema.Array(TeamApiKey), isPaginated: field("is_paginated", Schema.Boolean) }),
  errors: [ApiKeyNotFound, UserAuthenticationRequired, TeamNotFound]
})

/** `POST /team-api-keys` (client access; `$manage_api_keys`; answered 200 with the full value). */
export const createEndpoint = Endpoint.make({
  name: "TeamApiKeys.create",
  method: "POST",
  path: "/team-api-keys",
  access: "client",
  session: "required",
  payload: wireStruct({
    teamId: field("team_id", Uuid),
    description: Schema.String,
    expiresAt: field("expires_at_millis", Schema.NullOr(DateFromMillis)),
    isPublic: optionalField("is_public", Schema.Boolean)
  }),
  success: TeamApiKeyFirstView,
  errors: [ApiKeyNotFound, UserAuthenticationRequired, TeamNotFound]
})

/** `GET /team-api-keys/{api_key_id}?team_id=` (client access; `$manage_api_keys`). */
export const getEndpoint = Endpoint.make({
  name: "TeamApiKeys.get",
  method: "GET",
  path: "/team-api-keys/:api_key_id",
  access: "client",
  session: "required",
  params: KeyParams,
  query: TeamQuery,
  success: TeamApiKey,
  errors: [ApiKeyNotFound, UserAuthenticationRequired, TeamNotFound]
})

/** `PATCH /team-api-keys/{api_key_id}?team_id=` (client access; `$manage_api_keys`). */
export const updateEndpoint = Endpoint.make({
  name: "TeamApiKeys.update",
  method: "PATCH",
  path: "/team-api-keys/:api_key_id",
  access: "client",
  session: "required",
  params: KeyParams,
  query: TeamQuery,
  payload: wireStruct({
    description: optionalField("description", Schema.String),
    revoked: optionalField("revoked", Schema.Literal(true))
  }),
  success: TeamApiKey,
  errors: [ApiKeyNotFound, UserAuthenticationRequired, TeamNotFound]
})

/** `POST /team-api-keys/check` (server or admin access). */
export const checkEndpoint = Endpoint.make({
  name: "ServerTeamApiKeys.check",
  method: "POST",
  path: "/team-api-keys/check",
  access: "server",
  session: "none",
  payload: wireStruct({ apiKey: field("api_key", Schema.RedactedFromValue(Schema.String)) }),
  success: TeamApiKey,
  errors: [ApiKeyNotFound, WrongApiKeyType, ApiKeyRevoked, ApiKeyExpired]
})
