/**
 * Schema helpers for the wire ↔ domain mapping: snake_case keys become camelCase properties,
 * `*_millis` numbers become `Date`s, tokens become `Redacted`. Nothing else renames fields.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** A required property read from the wire key `key`. */
export const field = <const Key extends string, S extends Schema.Schema.Any>(key: Key, schema: S) =>
  Schema.propertySignature(schema).pipe(Schema.fromKey(key))

/** An optional property read from the wire key `key` (absent stays absent). */
export const optionalField = <const Key extends string, S extends Schema.Schema.All>(key: Key, schema: S) =>
  Schema.optional(schema).pipe(Schema.fromKey(key))

/** A property that older service versions may omit: decodes to `fallback` when absent. */
export const defaultedField = <const Key extends string, S extends Schema.Schema.AnyNoContext>(
  key: Key,
  schema: S,
  fallback: () => Schema.Schema.Type<S>
) => Schema.optionalWith(schema, { default: fallback }).pipe(Schema.fromKey(key))

/** Milliseconds since the epoch on the wire, a `Date` in the domain. */
export const DateFromMillis = Schema.DateFromNumber.pipe(Schema.validDate())

/** Arbitrary JSON (metadata fields). */
export const Json: Schema.Schema<unknown> = Schema.Unknown

/** A token text is usable unless empty or the string `"undefined"` / `"null"` (SPEC.md §5). */
export const isUsableToken = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value !== "undefined" && value !== "null"

/** A token text: non-empty and never the string `"undefined"` (SPEC.md §5). */
export const TokenText = Schema.String.pipe(Schema.filter((value) => isUsableToken(value), { message: () => "unusable token" }))

/** A token on the wire, `Redacted` in the domain. */
export const RedactedToken = Schema.Redacted(TokenText)

/** The `{ "success": true }` answer of endpoints that succeed with nothing. */
export const SuccessTrue = Schema.Struct({ success: Schema.Literal(true) })

/** Any JSON object answer whose content the SDK does not use (e.g. `{}`). */
export const AnyObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A uuid (ids in paths and bodies); the failure reads "must be a valid UUID" as the service's does. */
export const Uuid = Schema.String.pipe(Schema.filter((value) => uuidPattern.test(value), { message: () => "must be a valid UUID" }))

/**
 * A verification code (e-mailed links, magic-link/OTP sign-in, MFA attempts): exactly 45
 * characters; the service lower-cases it. The failure reads "must be exactly 45 characters".
 */
export const VerificationCode = Schema.String.pipe(
  Schema.filter((value) => value.length === 45, { message: () => "must be exactly 45 characters" })
)

/** Payload of the check-code and use-code endpoints (password reset, e-mail verification, magic link, team invitation): `{ code }` (45 characters). */
export const CodePayload = Schema.Struct({ code: VerificationCode })

/** `"true"` / `"false"` in a query string, a boolean in the domain (the SDK's queries and the emulator's routes). */
export const QueryBoolean = Schema.transform(Schema.Literal("true", "false"), Schema.Boolean, {
  strict: true,
  decode: (text) => text === "true",
  encode: (value): "true" | "false" => (value ? "true" : "false")
})

/** The `{ "is_code_valid": true }` answer of the check-code endpoints. */
export const CodeValid = Schema.Struct({ isCodeValid: field("is_code_valid", Schema.Literal(true)) })
