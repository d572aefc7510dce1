/**
 * User API keys with server access (PROTOCOL.md §3.6): checking a presented value (the key behind
 * it, or why it is not valid), and any user's keys by user id — the same calls as `UserApiKeys`
 * (the signed-in user's) taking the user's id first (the official SDK has them on a server user:
 * `serverUser.listApiKeys()`, `createApiKey(…)`). An unknown user fails with `UserNotFound`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import { isApiKeyNotValid } from "../core/KnownErrors.js"
import { createEndpoint, getEndpoint, listEndpoint, updateEndpoint } from "./internal/serverUserApiKeys.js"
import { checkEndpoint, userApiKeysNotEnabledText } from "./internal/userApiKeys.js"
import * as UserApiKeys from "./UserApiKeys.js"

/**
 * The key behind a user API key value (server side). `POST /user-api-keys/check`; needs
 * `ServerAccess`. Fails with the API_KEY_NOT_VALID family, in the service's order: `ApiKeyNotFound`,
 * `WrongApiKeyType` (a team key), `ApiKeyRevoked`, `ApiKeyExpired`; `UserApiKeys.UserApiKeysNotEnabled`.
 */
export const check = Effect.fn("ServerUserApiKeys.check")(function* (apiKey: string | Redacted.Redacted<string>) {
  return yield* Endpoint.call(checkEndpoint, { payload: { apiKey: Redacted.isRedacted(apiKey) ? apiKey : Redacted.make(apiKey) } }).pipe(
    catchPlainText(400, userApiKeysNotEnabledText, () => UserApiKeys.UserApiKeysNotEnabled.make())
  )
})

/** Like {@link check}, but any API_KEY_NOT_VALID error gives `Option.none()`. `POST /user-api-keys/check`; needs `ServerAccess`. */
export const checkOrNone = Effect.fn("ServerUserApiKeys.checkOrNone")(function* (apiKey: string | Redacted.Redacted<string>) {
  return yield* check(apiKey).pipe(
    Effect.map(Option.some),
    Effect.catchIf(isApiKeyNotValid, () => Effect.succeed(Option.none<UserApiKeys.UserApiKey>()))
  )
})

/** Turns the service's feature-disabled text into `UserApiKeys.UserApiKeysNotEnabled`. */
const featureGate = catchPlainText(400, userApiKeysNotEnabledText, () => UserApiKeys.UserApiKeysNotEnabled.make())

/** What to create for a user (no owner: the user is the first argument). */
export type UserApiKeyCreate = Omit<UserApiKeys.UserApiKeyCreate, "owner">

/**
 * Creates a key for a user; the answer is the only place the full value appears (`Redacted`).
 * `POST /user-api-keys` with the user's id and `expires_at_millis` (`null`: never expires); needs
 * server access. Fails with `UserNotFound`, `UserApiKeys.UserApiKeysNotEnabled`.
 */
export const create = Effect.fn("ServerUserApiKeys.create")(function* (userId: string, input: UserApiKeyCreate) {
  return yield* Endpoint.call(createEndpoint, {
    payload: {
      userId,
      description: input.description,
      expiresAt: input.expiresAt,
      ...(input.isPublic === undefined ? {} : { isPublic: input.isPublic })
    }
  }).pipe(featureGate)
})

/**
 * A user's keys, newest first, values obfuscated. `GET /user-api-keys?user_id=<id>`; needs server
 * access. Fails with `UserNotFound`, `UserApiKeys.UserApiKeysNotEnabled`.
 */
export const list = Effect.fn("ServerUserApiKeys.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(listEndpoint, { query: { userId } }).pipe(featureGate)
  return answer.items
})

/** One of a user's keys. `GET /user-api-keys/{id}?user_id=<id>`. Fails with `ApiKeyNotFound`, `UserNotFound`, `UserApiKeys.UserApiKeysNotEnabled`. */
export const get = Effect.fn("ServerUserApiKeys.get")(function* (userId: string, apiKeyId: string) {
  return yield* Endpoint.call(getEndpoint, { params: { apiKeyId }, query: { userId } }).pipe(featureGate)
})

/**
 * Changes a user's key's description. `PATCH /user-api-keys/{id}?user_id=<id>` (the service's
 * body has `description` and `revoked` only). Fails with `ApiKeyNotFound`, `UserNotFound`,
 * `UserApiKeys.UserApiKeysNotEnabled`.
 */
export const update = Effect.fn("ServerUserApiKeys.update")(function* (
  userId: string,
  apiKeyId: string,
  changes: { readonly description?: string }
) {
  return yield* Endpoint.call(updateEndpoint, {
    params: { apiKeyId },
    query: { userId },
    payload: changes.description === undefined ? {} : { description: changes.description }
  }).pipe(featureGate)
})

/**
 * Revokes a user's key: it stops authenticating at once. `PATCH /user-api-keys/{id}?user_id=<id>`
 * with `{ revoked: true }`. Fails with `ApiKeyNotFound`, `UserNotFound`, `UserApiKeys.UserApiKeysNotEnabled`.
 */
export const revoke = Effect.fn("ServerUserApiKeys.revoke")(function* (userId: string, apiKeyId: string) {
  return yield* Endpoint.call(updateEndpoint, { params: { apiKeyId }, query: { userId }, payload: { revoked: true } }).pipe(featureGate)
})
