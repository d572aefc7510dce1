/**
 * Schema helpers for the wire ↔ domain mapping: snake_case keys become camelCase properties,
 * `*_millis` numbers become `Date`s, tokens become `Redacted`. Nothing else renames fields.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

const WireFieldId = "~stack-auth-effect/WireField" as const

/**
 * A struct property read from a wire key of its own: made by {@link field}, {@link optionalField}
 * and {@link defaultedField}, gathered by {@link wireStruct} into one `Schema.encodeKeys` mapping.
 */
export interface WireField<Key extends string, S extends Schema.Top> {
  readonly [WireFieldId]: typeof WireFieldId
  /** The key on the wire. */
  readonly key: Key
  /** The property's schema (already optional or defaulted where the helper says so). */
  readonly schema: S
}

/** The properties of a {@link wireStruct}: plain schemas (same key on the wire) or {@link WireField}s. */
export type WireFields = { readonly [name: string]: Schema.Top | WireField<string, Schema.Top> }

/** The `Schema.Struct` fields of {@link WireFields}: each {@link WireField} replaced by its schema. */
export type PlainFields<F extends WireFields> = {
  readonly [K in keyof F]: F[K] extends WireField<string, infer S> ? S : F[K] extends Schema.Top ? F[K] : never
}

/** The `Schema.encodeKeys` mapping of {@link WireFields}: property name → wire key (its own name for plain schemas). */
export type WireKeys<F extends WireFields> = {
  readonly [K in keyof F]: F[K] extends WireField<infer Key, Schema.Top> ? Key : K
}

/** A struct whose properties are read from their wire keys; `wireFields` lets another struct extend it. */
export interface WireStruct<F extends WireFields> extends Schema.encodeKeys<Schema.Struct<PlainFields<F>>, WireKeys<F>> {
  /** The fields it was made from, to spread into another {@link wireStruct} (renames kept). */
  readonly wireFields: F
}

const isWireField = (value: unknown): value is WireField<string, Schema.Top> => typeof value === "object" && value !== null && WireFieldId in value

/**
 * A struct read from wire keys: `wireStruct({ displayName: field("display_name", Schema.String) })`
 * decodes `{ display_name }` into `{ displayName }` and encodes back. Plain schemas keep their key.
 */
export const wireStruct = <const F extends WireFields>(fields: F): WireStruct<F> => {
  const plain: Record<string, Schema.Top> = {}
  const keys: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (isWireField(value)) {
      plain[name] = value.schema
      if (value.key !== name) keys[name] = value.key
    } else {
      plain[name] = value
    }
  }
  const struct = Schema.Struct(plain as PlainFields<F>).pipe(Schema.encodeKeys(keys as WireKeys<F>))
  return Object.assign(struct, { wireFields: fields }) as unknown as WireStruct<F>
}

/** A required property read from the wire key `key`. */
export const field = <const Key extends string, S extends Schema.Top>(key: Key, schema: S): WireField<Key, S> => ({
  [WireFieldId]: WireFieldId,
  key,
  schema
})

/** An optional property read from the wire key `key` (absent stays absent; `undefined` is accepted as absent). */
export const optionalField = <const Key extends string, S extends Schema.Top>(key: Key, schema: S): WireField<Key, Schema.optional<S>> =>
  field(key, Schema.optional(schema))

/** A property that older service versions may omit: decodes to `fallback` when absent. */
export const defaultedField = <const Key extends string, S extends Schema.Top>(
  key: Key,
  schema: S,
  fallback: () => S["Type"]
) => field(key, schema.pipe(Schema.withDecodingDefaultTypeKey(Effect.sync(fallback))))

/**
 * A check with a fixed failure text: `Schema.String.check(withMessage(pred, "must be …"))`.
 * The text is what callers and the emulator's 400 answers show.
 */
export const withMessage = <T>(predicate: (value: T) => boolean, message: string) => Schema.makeFilter<T>((value) => predicate(value) ? true : message)

/** Milliseconds since the epoch on the wire, a `Date` in the domain. */
export const DateFromMillis = Schema.Finite.pipe(
  Schema.decodeTo(
    Schema.Date.check(withMessage((date: Date) => !Number.isNaN(date.getTime()), "must be a valid date")),
    SchemaTransformation.transform({ decode: (millis: number) => new Date(millis), encode: (date: Date) => date.getTime() })
  )
)

/** Arbitrary JSON (metadata fields). */
export const Json: Schema.Codec<unknown> = Schema.Unknown

/** A token text is usable unless empty or the string `"undefined"` / `"null"` (SPEC.md §5). */
export const isUsableToken = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value !== "undefined" && value !== "null"

/** A token text: non-empty and never the string `"undefined"` (SPEC.md §5). */
export const TokenText = Schema.String.check(withMessage(isUsableToken, "unusable token"))

/** A token on the wire, `Redacted` in the domain. */
export const RedactedToken = Schema.RedactedFromValue(TokenText)

/** The `{ "success": true }` answer of endpoints that succeed with nothing. */
export const SuccessTrue = Schema.Struct({ success: Schema.Literal(true) })

/** Any JSON object answer whose content the SDK does not use (e.g. `{}`). */
export const AnyObject = Schema.Record(Schema.String, Schema.Unknown)

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A uuid (ids in paths and bodies); the failure reads "must be a valid UUID" as the service's does. */
export const Uuid = Schema.String.check(withMessage((value: string) => uuidPattern.test(value), "must be a valid UUID"))

/**
 * A verification code (e-mailed links, magic-link/OTP sign-in, MFA attempts): exactly 45
 * characters; the service lower-cases it. The failure reads "must be exactly 45 characters".
 */
export const VerificationCode = Schema.String.check(withMessage((value: string) => value.length === 45, "must be exactly 45 characters"))

/** Payload of the check-code and use-code endpoints (password reset, e-mail verification, magic link, team invitation): `{ code }` (45 characters). */
export const CodePayload = Schema.Struct({ code: VerificationCode })

/** `"true"` / `"false"` in a query string, a boolean in the domain (the SDK's queries and the emulator's routes). */
export const QueryBoolean = Schema.Literals(["true", "false"]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (text: "true" | "false") => text === "true",
      encode: (value: boolean): "true" | "false" => (value ? "true" : "false")
    })
  )
)

/** The `{ "is_code_valid": true }` answer of the check-code endpoints. */
export const CodeValid = wireStruct({ isCodeValid: field("is_code_valid", Schema.Literal(true)) })

/** `token_type` of an OAuth token response: bearer or dpop, any case. */
export const TokenType = Schema.String.check(withMessage((value: string) => /^(bearer|dpop)$/i.test(value), "token_type must be bearer or dpop"))

/** Answer of `POST /auth/oauth/token`. */
export const OAuthTokenResponse = wireStruct({
  accessToken: field("access_token", RedactedToken),
  tokenType: field("token_type", TokenType),
  expiresIn: optionalField("expires_in", Schema.Number.check(Schema.isGreaterThan(0))),
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
