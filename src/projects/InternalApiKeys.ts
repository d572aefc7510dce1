/**
 * Internal (project) API keys (PROTOCOL.md §3.0 "Internal (project) API keys", §3.7): the
 * publishable client, secret server and super secret admin keys of the current project. Admin
 * access only. Full key values appear once, in the create answer (as `Redacted`); reads show the
 * last four characters. There is no delete: revoke instead.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { createEndpoint, getEndpoint, InternalApiKey, InternalApiKeyCreate, listEndpoint, updateEndpoint } from "./internal/internalApiKeys.js"

/** The domain's schemas, defined with its wire definitions (`internal/internalApiKeys.ts`). */
export { InternalApiKey, InternalApiKeyCreate, InternalApiKeyFirstView, LastFour } from "./internal/internalApiKeys.js"

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
 * then revocation (`"manually-revoked"`), as the service does for internal keys. Pure.
 */
export const validity = (key: Pick<InternalApiKey, "expiresAt" | "manuallyRevokedAt">, now: Date): Validity =>
  key.expiresAt.getTime() < now.getTime() ? "expired" : key.manuallyRevokedAt !== undefined ? "manually-revoked" : "valid"
