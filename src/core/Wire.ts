/**
 * Schema helpers for the wire ↔ domain mapping: snake_case keys become camelCase properties,
 * `*_millis` numbers become `Date`s, tokens become `Redacted`. Nothing else renames fields.
 *
 * @module
 */
import * as Schema from "effect/Schema"

/** A required property read from the wire key `key`. */
export const field = <const Key extends string, S extends Schema.Schema.Any>(key: Key, schema: S) => Schema.propertySignature(schema).pipe(Schema.fromKey(key))

/** An optional property read from the wire key `key` (absent stays absent). */
export const optionalField = <const Key extends string, S extends Schema.Schema.All>(key: Key, schema: S) => Schema.optional(schema).pipe(Schema.fromKey(key))

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
export const isUsableToken = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value !== "undefined" && value !== "null"

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

/** `token_type` of an OAuth token response: bearer or dpop, any case. */
export const TokenType = Schema.String.pipe(
  Schema.filter((value) => /^(bearer|dpop)$/i.test(value), { message: () => "token_type must be bearer or dpop" })
)

/** Answer of `POST /auth/oauth/token`. */
export const OAuthTokenResponse = Schema.Struct({
  accessToken: field("access_token", RedactedToken),
  tokenType: field("token_type", TokenType),
  expiresIn: optionalField("expires_in", Schema.Number.pipe(Schema.positive())),
  scope: optionalField("scope", Schema.String),
  /** Only on the code grant: the refresh grant keeps the old refresh token. */
  refreshToken: optionalField("refresh_token", RedactedToken),
  isNewUser: optionalField("is_new_user", Schema.Boolean),
  afterCallbackRedirectUrl: defaultedField("after_callback_redirect_url", Schema.NullOr(Schema.String), () => null)
})

/** A token-endpoint answer in the domain. */
export type OAuthTokenResponse = typeof OAuthTokenResponse.Type

/** The client secret sent when the project has no publishable key. */
export const publicClientSentinel = "__stack_public_client__"

// Helpers of core's `internal/` that other parts use, shared from here (docs/ARCHITECTURE.md: no
// part imports another part's `internal/`).

export {
  /** Lowercase Crockford base32 (the service's tokens, codes and nonces). */
  crockfordAlphabet,
  /** Decodes Crockford base32 text (either case; `i`/`l` read as 1, `o` as 0), or `undefined` when it is not base32. */
  decodeCrockford,
  /** Encodes bytes in base32 with the given 32-character alphabet, 5 bits a character, no padding. */
  encodeBase32,
  /** RFC 4648 base32 (what authenticator apps read in `otpauth://` URIs). */
  rfc4648Alphabet
} from "./internal/base32.js"
export {
  /** Whether a JSON text nests arrays and objects more than `max` levels deep, read from the text. */
  jsonNestsDeeperThan,
  /** Parses JSON text of an untrusted source, refusing documents nested deeper than the answers' bound. */
  parseJsonBounded
} from "./internal/call.js"
export {
  /**
   * Whether `text` can be a token read from outside input (a cookie, the `x-stack-auth` header):
   * not empty and sendable as a header value.
   */
  isSendableToken
} from "./internal/headerText.js"
export {
  /** A URL parsed (against `base` when given), or none when it is not one. Never throws. */
  parseUrl
} from "./internal/url.js"
export {
  /** The text of UTF-8 `bytes` (malformed sequences replaced, never a throw). */
  utf8Text
} from "./internal/utf8.js"
