/**
 * User and team API keys in the emulator (PROTOCOL.md §3.0 "User / team API keys"): the key
 * format — `{sk|pk}_` + 45-char secret + 32-hex id (uuid without dashes) + `user`/`team` + the
 * scanner flag character (`1` secret, `3` public: {@link scannerFlag}) + `574ck4u7h` + the 8-hex
 * CRC32 of everything before it —, issuing keys (only a
 * SHA-256 hash and the last four characters are kept), and checking a presented value in the
 * service's order: not found, wrong type, revoked, expired.
 *
 * @module
 */
import { Effect } from "effect"
import { ApiKeyExpired, ApiKeyNotFound, ApiKeyRevoked, WrongApiKeyType } from "../core/KnownErrors.js"
import { randomToken45, randomUuid } from "./Random.js"
import type { ApiKeyRecord, ProjectRecord } from "./State.js"

/** The marker between the flag character and the checksum. */
export const keyMarker = "574ck4u7h"

/**
 * The scanner flag character the service writes after the type: the Crockford base-32 digit of
 * `(isCloudVersion ? 0 : 1) + (isPublic ? 2 : 0)`, lower-cased (`createApiKeyParts`,
 * `packages/stack-shared/src/utils/api-keys.tsx` at stack-auth/stack-auth 2f719903). Only keys
 * made on `api.stack-auth.com` are cloud keys, so the emulator writes `1` (secret) or `3` (public).
 */
export const scannerFlag = (isPublic: boolean): string => (isPublic ? "3" : "1")

/** Whether a scanner flag character marks a public key (bit 2 of its base-32 value, as the service parses it). */
const flagIsPublic = (character: string): boolean => (parseInt(character, 32) & 2) !== 0

const crcTable: ReadonlyArray<number> = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

/** CRC-32 (IEEE 802.3, as zlib) of the UTF-8 bytes of `text`, as 8 lower-case hex digits. */
export const crc32Hex = (text: string): string => {
  let crc = 0xffffffff
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0")
}

/** The parts of a well-formed key value. */
export interface ParsedKey {
  readonly isPublic: boolean
  /** The key's id (a uuid, with dashes). */
  readonly id: string
  readonly type: "user" | "team"
}

const keyPattern = new RegExp(`^(sk|pk)_[0-9a-z]{45}([0-9a-f]{32})(user|team)([0-9a-z])${keyMarker}([0-9a-f]{8})$`)

const dashed = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

/** The parts of a key value, or `undefined` when it is not a well-formed key (bad shape or checksum). */
export const parseKey = (value: string): ParsedKey | undefined => {
  const match = keyPattern.exec(value)
  if (match === null) return undefined
  if (crc32Hex(value.slice(0, -8)) !== match[5]) return undefined
  return { isPublic: flagIsPublic(match[4]!), id: dashed(match[2]!), type: match[3] as "user" | "team" }
}

/** A new key value for a key id. */
export const formatKey = (input: { readonly id: string; readonly type: "user" | "team"; readonly isPublic: boolean }): string => {
  const body = `${input.isPublic ? "pk" : "sk"}_${randomToken45()}${input.id.replace(/-/g, "")}${input.type}${scannerFlag(input.isPublic)}${keyMarker}`
  return body + crc32Hex(body)
}

/** Hex SHA-256 of a key value. */
export const hashKey = (value: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))).pipe(
    Effect.map((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""))
  )

/** The API keys of a project (its `apiKeys` table). */
export const apiKeysOf = (project: ProjectRecord): Map<string, ApiKeyRecord> => project.apiKeys

/** What to issue. */
export interface IssueInput {
  readonly type: "user" | "team"
  readonly ownerId: string
  readonly description: string
  readonly isPublic: boolean
  readonly expiresAtMillis: number | undefined
  readonly nowMillis: number
}

/** Issues a key: stores its record (hash and last four only) and returns it with the full value. */
export const issueKey = (project: ProjectRecord, input: IssueInput): Effect.Effect<{ readonly record: ApiKeyRecord; readonly value: string }> =>
  Effect.gen(function* () {
    const id = randomUuid()
    const value = formatKey({ id, type: input.type, isPublic: input.isPublic })
    const record: ApiKeyRecord = {
      id,
      type: input.type,
      ownerId: input.ownerId,
      description: input.description,
      isPublic: input.isPublic,
      createdAtMillis: input.nowMillis,
      expiresAtMillis: input.expiresAtMillis,
      revokedAtMillis: undefined,
      valueHash: yield* hashKey(value),
      lastFour: value.slice(-4)
    }
    apiKeysOf(project).set(id, record)
    return { record, value }
  })

/**
 * The key behind a presented value, checked as a key of type `expected` in the service's order:
 * `API_KEY_NOT_FOUND` (malformed, unknown, or the hash differs), `WRONG_API_KEY_TYPE`,
 * `API_KEY_REVOKED`, `API_KEY_EXPIRED`.
 */
export const checkKey = (
  project: ProjectRecord,
  value: string,
  expected: "user" | "team",
  nowMillis: number
): Effect.Effect<ApiKeyRecord, ApiKeyNotFound | WrongApiKeyType | ApiKeyRevoked | ApiKeyExpired> =>
  Effect.gen(function* () {
    const parsed = parseKey(value)
    const record = parsed === undefined ? undefined : apiKeysOf(project).get(parsed.id)
    if (record === undefined || record.valueHash !== (yield* hashKey(value))) return yield* Effect.fail(ApiKeyNotFound.make({}))
    if (record.type !== expected) return yield* Effect.fail(WrongApiKeyType.make({ expected_type: expected, actual_type: record.type }))
    if (record.revokedAtMillis !== undefined) return yield* Effect.fail(ApiKeyRevoked.make({}))
    if (record.expiresAtMillis !== undefined && record.expiresAtMillis <= nowMillis) return yield* Effect.fail(ApiKeyExpired.make({}))
    return record
  })
