/**
 * What user and team API keys share (PROTOCOL.md §3.0 "User / team API keys", SPEC.md §4): the
 * owner of a key (a user or a team, never both), the read and first-view wire shapes, and the
 * pure validity check.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { InvalidArgument } from "../core/Errors.js"
import { DateFromMillis, field, optionalField, RedactedToken, Uuid, wireStruct } from "../core/Wire.js"

/** An obfuscated key value: its last four characters. */
export const LastFour = wireStruct({ lastFour: field("last_four", Schema.String) })

/** The owner a request names: a user (`"me"` or a uuid) or a team (a uuid), never both. */
export interface ApiKeyOwner {
  readonly userId?: string
  readonly teamId?: string
}

/** An owner once checked: exactly one of a user and a team. */
export type ResolvedOwner = { readonly type: "user"; readonly userId: string } | { readonly type: "team"; readonly teamId: string }

/**
 * Checks that `owner` names exactly one of a user and a team, before anything is sent. Fails with
 * `InvalidArgument` (argument `owner`) when it names both or neither.
 */
export const resolveOwner = (owner: ApiKeyOwner): Effect.Effect<ResolvedOwner, InvalidArgument> => {
  if (owner.userId !== undefined && owner.teamId !== undefined) {
    return Effect.fail(new InvalidArgument({ argument: "owner", message: "An API key belongs to a user or a team, not both." }))
  }
  if (owner.userId !== undefined) return Effect.succeed({ type: "user", userId: owner.userId })
  if (owner.teamId !== undefined) return Effect.succeed({ type: "team", teamId: owner.teamId })
  return Effect.fail(new InvalidArgument({ argument: "owner", message: "An API key needs an owner: a user or a team." }))
}

/** Fields every user/team key has, whatever its view. */
export const commonKeyFields = {
  id: Uuid,
  description: Schema.String,
  createdAt: field("created_at_millis", DateFromMillis),
  expiresAt: optionalField("expires_at_millis", DateFromMillis),
  manuallyRevokedAt: optionalField("manually_revoked_at_millis", DateFromMillis),
  isPublic: field("is_public", Schema.Boolean)
}

/** The value of a key as read (last four characters). */
export const readValue = { value: LastFour }

/** The value of a just-created key: the full key, redacted. */
export const firstValue = { value: RedactedToken }

/** Whether a user or team key authenticates. */
export type Validity = "valid" | "expired" | "manually-revoked"

/**
 * Whether a user or team key is valid at `now`: a revoked key is `"manually-revoked"` (checked
 * FIRST, as the service does for user and team keys), then a past `expiresAt` gives `"expired"`;
 * otherwise `"valid"`. Pure.
 */
export const validity = (key: { readonly expiresAt?: Date | undefined; readonly manuallyRevokedAt?: Date | undefined }, now: Date): Validity =>
  key.manuallyRevokedAt !== undefined
    ? "manually-revoked"
    : key.expiresAt !== undefined && key.expiresAt.getTime() < now.getTime()
    ? "expired"
    : "valid"
