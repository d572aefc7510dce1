/**
 * Team API keys (PROTOCOL.md §3.0 "User / team API keys", §3.6; SPEC.md §4): keys that belong to
 * a team. A member holding `$manage_api_keys` creates, lists, reads, renames and revokes them
 * (client access; without the permission, or outside the team, the service answers
 * `API_KEY_NOT_FOUND` so as not to reveal the team); a server checks a presented value with
 * `ServerTeamApiKeys`. The full value appears once, in the create answer (`Redacted`); reads
 * show its last four characters. There is no delete: revoke instead. A project must allow team
 * API keys (`allow_team_api_keys`), otherwise every call fails with {@link TeamApiKeysNotEnabled}.
 *
 * A key belongs to a user or a team, never both: `create` rejects an owner naming a user (or
 * both) with `InvalidArgument` before anything is sent.
 *
 * The team's list is cached (`["team-api-keys", teamId]`); create, update and revoke invalidate it.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText, HttpError, InvalidArgument } from "../core/Errors.js"
import { Uuid } from "../core/Wire.js"
import type { ApiKeyOwner } from "./ApiKey.js"
import { resolveOwner } from "./ApiKey.js"
import { createEndpoint, getEndpoint, listEndpoint, teamApiKeysNotEnabledText, updateEndpoint } from "./internal/teamApiKeys.js"

/** The domain's schemas, defined with its wire definitions (`internal/teamApiKeys.ts`). */
export { TeamApiKey, TeamApiKeyFirstView } from "./internal/teamApiKeys.js"

export type { ApiKeyOwner, Validity } from "./ApiKey.js"
export { validity } from "./ApiKey.js"

/** The project does not allow team API keys (`allow_team_api_keys` is off; the service answers 400 text). */
export class TeamApiKeysNotEnabled extends Data.TaggedError("TeamApiKeysNotEnabled")<{ readonly message: string }> {
  /** The error with the service's message. */
  static readonly make = () => new TeamApiKeysNotEnabled({ message: teamApiKeysNotEnabledText })
}

/** Turns the service's feature-disabled text into {@link TeamApiKeysNotEnabled}. */
const featureGate = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, HttpError> | HttpError | TeamApiKeysNotEnabled, R> =>
  effect.pipe(catchPlainText(400, teamApiKeysNotEnabledText, () => TeamApiKeysNotEnabled.make())) as Effect.Effect<
    A,
    Exclude<E, HttpError> | HttpError | TeamApiKeysNotEnabled,
    R
  >

/** The cache key of a team's keys. */
export const cacheKey = (teamId: string): QueryCache.Key => ["team-api-keys", teamId]

/** What to create. */
export interface TeamApiKeyCreate {
  /** The owning team: `{ teamId }`. Naming a user (or both) is an `InvalidArgument`. */
  readonly owner: ApiKeyOwner
  readonly description: string
  /** When the key stops working; `null`: never. */
  readonly expiresAt: Date | null
  /** A public key (`pk_…`) rather than a secret one (`sk_…`). Default: the service's (secret). */
  readonly isPublic?: boolean
}

/**
 * Creates a key for a team; the answer is the only place the full value appears (`Redacted`).
 * `POST /team-api-keys` with `expires_at_millis` always sent (`null`: never expires); needs
 * `$manage_api_keys` in the team. Fails with `InvalidArgument` before sending when `owner` names a
 * user (or both a user and a team) or the team id is not a uuid; `ApiKeyNotFound` (no permission
 * or not a member), {@link TeamApiKeysNotEnabled}, `UserNotSignedIn`.
 */
export const create = Effect.fn("TeamApiKeys.create")(function* (input: TeamApiKeyCreate) {
  const owner = yield* resolveOwner(input.owner)
  if (owner.type !== "team") {
    return yield* Effect.fail(
      new InvalidArgument({ argument: "owner", message: "Team API keys belong to a team; use user API keys for a user." })
    )
  }
  const teamId = yield* Schema.decodeUnknownEffect(Uuid)(owner.teamId).pipe(
    Effect.mapError(() => new InvalidArgument({ argument: "owner", message: "A team owner is a team id (uuid)." }))
  )
  return yield* featureGate(
    Endpoint.call(createEndpoint, {
      payload: {
        teamId,
        description: input.description,
        expiresAt: input.expiresAt,
        ...(input.isPublic === undefined ? {} : { isPublic: input.isPublic })
      }
    })
  ).pipe(QueryCache.invalidating(cacheKey(teamId)))
})

/**
 * A team's keys, newest first, values obfuscated. `GET /team-api-keys?team_id=`, cached
 * (`["team-api-keys", teamId]`). Fails with `ApiKeyNotFound` (no `$manage_api_keys`),
 * {@link TeamApiKeysNotEnabled}.
 */
export const list = Effect.fn("TeamApiKeys.list")(function* (teamId: string) {
  const answer = yield* QueryCache.cached(cacheKey(teamId), featureGate(Endpoint.call(listEndpoint, { query: { teamId } })))
  return answer.items
})

/** One of a team's keys. `GET /team-api-keys/{id}?team_id=`. Fails with `ApiKeyNotFound`, {@link TeamApiKeysNotEnabled}. */
export const get = Effect.fn("TeamApiKeys.get")(function* (teamId: string, apiKeyId: string) {
  return yield* featureGate(Endpoint.call(getEndpoint, { params: { apiKeyId }, query: { teamId } }))
})

/** Changes a key's description. `PATCH /team-api-keys/{id}?team_id=`. Fails with `ApiKeyNotFound`, {@link TeamApiKeysNotEnabled}. */
export const update = Effect.fn("TeamApiKeys.update")(function* (
  teamId: string,
  apiKeyId: string,
  changes: { readonly description?: string }
) {
  return yield* featureGate(
    Endpoint.call(updateEndpoint, {
      params: { apiKeyId },
      query: { teamId },
      payload: changes.description === undefined ? {} : { description: changes.description }
    })
  ).pipe(QueryCache.invalidating(cacheKey(teamId)))
})

/**
 * Revokes a team key: it stops authenticating at once; revoking twice keeps the first time.
 * `PATCH /team-api-keys/{id}?team_id=` with `{ revoked: true }`. Fails with `ApiKeyNotFound`,
 * {@link TeamApiKeysNotEnabled}.
 */
export const revoke = Effect.fn("TeamApiKeys.revoke")(function* (teamId: string, apiKeyId: string) {
  return yield* featureGate(Endpoint.call(updateEndpoint, { params: { apiKeyId }, query: { teamId }, payload: { revoked: true } })).pipe(
    QueryCache.invalidating(cacheKey(teamId))
  )
})
