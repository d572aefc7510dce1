/**
 * User API keys (PROTOCOL.md §3.0 "User / team API keys", §3.6; SPEC.md §4): keys a signed-in
 * user creates for itself, lists, reads, renames and revokes (client access, own keys only), and
 * that a server checks (`ServerUserApiKeys`). The full key value appears once, in the create
 * answer (as `Redacted`); reads show its last four characters. There is no delete: revoke instead.
 * A project must allow user API keys (`allow_user_api_keys`), otherwise every call fails with
 * {@link UserApiKeysNotEnabled}.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText, HttpError, InvalidArgument } from "../core/Errors.js"
import type { ApiKeyOwner } from "./ApiKey.js"
import { resolveOwner } from "./ApiKey.js"
import { createEndpoint, getEndpoint, listEndpoint, updateEndpoint, userApiKeysNotEnabledText, UserIdOrMe } from "./internal/userApiKeys.js"

/** The domain's schemas, defined with its wire definitions (`internal/userApiKeys.ts`). */
export { UserApiKey, UserApiKeyFirstView } from "./internal/userApiKeys.js"

export type { ApiKeyOwner, Validity } from "./ApiKey.js"
export { validity } from "./ApiKey.js"

/** The project does not allow user API keys (`allow_user_api_keys` is off; the service answers 400 text). */
export class UserApiKeysNotEnabled extends Data.TaggedError("UserApiKeysNotEnabled")<{ readonly message: string }> {
  /** The error with the service's message. */
  static readonly make = () => new UserApiKeysNotEnabled({ message: userApiKeysNotEnabledText })
}

/** Turns the service's feature-disabled text into {@link UserApiKeysNotEnabled}. */
const featureGate = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, HttpError> | HttpError | UserApiKeysNotEnabled, R> =>
  effect.pipe(catchPlainText(400, userApiKeysNotEnabledText, () => UserApiKeysNotEnabled.make())) as Effect.Effect<
    A,
    Exclude<E, HttpError> | HttpError | UserApiKeysNotEnabled,
    R
  >

/** What to create. */
export interface UserApiKeyCreate {
  readonly description: string
  /** When the key stops working; `null`: never. */
  readonly expiresAt: Date | null
  /** A public key (`pk_…`) rather than a secret one (`sk_…`). Default: the service's (secret). */
  readonly isPublic?: boolean
  /** Whose key: default the signed-in user (`{ userId: "me" }`). Naming a team is an `InvalidArgument`. */
  readonly owner?: ApiKeyOwner
}

/**
 * Creates a key for the signed-in user; the answer is the only place the full value appears
 * (`Redacted`). `POST /user-api-keys` with `expires_at_millis` always sent (`null`: never
 * expires). Fails with `InvalidArgument` before sending when `owner` names a team (or both a user
 * and a team), {@link UserApiKeysNotEnabled}, `UserNotSignedIn`.
 */
export const create = Effect.fn("UserApiKeys.create")(function* (input: UserApiKeyCreate) {
  const owner = yield* resolveOwner(input.owner ?? { userId: "me" })
  if (owner.type !== "user") {
    return yield* Effect.fail(
      new InvalidArgument({ argument: "owner", message: "User API keys belong to a user; use team API keys for a team." })
    )
  }
  const userId = yield* Schema.decodeUnknownEffect(UserIdOrMe)(owner.userId).pipe(
    Effect.mapError(() => new InvalidArgument({ argument: "owner", message: "A user owner is \"me\" or a user id (uuid)." }))
  )
  return yield* featureGate(
    Endpoint.call(createEndpoint, {
      payload: {
        userId,
        description: input.description,
        expiresAt: input.expiresAt,
        ...(input.isPublic === undefined ? {} : { isPublic: input.isPublic })
      }
    })
  ).pipe(invalidatesKeys)
})

/** The cache key of the signed-in user's keys (see `QueryCache`). */
export const cacheKey: QueryCache.Key = ["user-api-keys", "me"]

const invalidatesKeys = QueryCache.invalidating(["user-api-keys"])

/**
 * The signed-in user's keys, newest first, values obfuscated. `GET /user-api-keys?user_id=me`,
 * through the query cache (key {@link cacheKey}). Fails with {@link UserApiKeysNotEnabled}.
 */
export const list = Effect.fn("UserApiKeys.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, featureGate(Endpoint.call(listEndpoint, { query: { userId: "me" } })))
  return answer.items
})

/** One of the signed-in user's keys. `GET /user-api-keys/{id}?user_id=me`. Fails with `ApiKeyNotFound`, {@link UserApiKeysNotEnabled}. */
export const get = Effect.fn("UserApiKeys.get")(function* (apiKeyId: string) {
  return yield* featureGate(Endpoint.call(getEndpoint, { params: { apiKeyId }, query: { userId: "me" } }))
})

/** Changes a key's description. `PATCH /user-api-keys/{id}?user_id=me`. Fails with `ApiKeyNotFound`, {@link UserApiKeysNotEnabled}. */
export const update = Effect.fn("UserApiKeys.update")(function* (apiKeyId: string, changes: { readonly description?: string }) {
  return yield* featureGate(
    Endpoint.call(updateEndpoint, {
      params: { apiKeyId },
      query: { userId: "me" },
      payload: changes.description === undefined ? {} : { description: changes.description }
    })
  ).pipe(invalidatesKeys)
})

/**
 * Revokes a key: it stops authenticating at once; revoking twice keeps the first time.
 * `PATCH /user-api-keys/{id}?user_id=me` with `{ revoked: true }`. Fails with `ApiKeyNotFound`,
 * {@link UserApiKeysNotEnabled}.
 */
export const revoke = Effect.fn("UserApiKeys.revoke")(function* (apiKeyId: string) {
  return yield* featureGate(
    Endpoint.call(updateEndpoint, { params: { apiKeyId }, query: { userId: "me" }, payload: { revoked: true } })
  ).pipe(invalidatesKeys)
})
