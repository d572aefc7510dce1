/**
 * The shape shared by every known error of the service (PROTOCOL.md §1.5, §4) and the factory
 * that defines one tagged class per code. The catalogue itself is in `KnownErrors.ts`.
 *
 * A known error arrives as `{ code, error, details? }` with the header `x-stack-known-error: CODE`.
 * Its class has the PascalCase tag of the code (`EMAIL_PASSWORD_MISMATCH` → `EmailPasswordMismatch`),
 * the HTTP status, the message the service sent, and `details` decoded by the class's schema.
 *
 * @module
 */
import type * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/** Members every known-error instance has. */
export interface KnownErrorInstance<Code extends string = string, Details = unknown> extends Error {
  readonly _tag: string
  /** The wire code, e.g. `"EMAIL_PASSWORD_MISMATCH"`. */
  readonly code: Code
  /** The HTTP status the service uses for this code. */
  readonly status: number
  /** The human readable message (the body's `error`). */
  readonly message: string
  /** Typed `details` (an empty object for codes without details). */
  readonly details: Details
}

/** Constructor arguments of a known-error class. */
export interface KnownErrorArgs<Details> {
  readonly message: string
  readonly details: Details
}

/** Statics of a known-error class: what the transport needs to decode one from a response. */
export interface KnownErrorClass<Code extends string = string, Details = any, Instance = KnownErrorInstance<Code, Details>> {
  new(args: KnownErrorArgs<Details>): Instance
  /** The `_tag` of its instances (the PascalCase of the code). */
  readonly tag: string
  readonly code: Code
  readonly status: number
  readonly detailsSchema: Schema.Codec<Details, unknown>
  /** Builds the error with the service's message template (for errors the SDK raises itself). */
  readonly make: (details: Details) => Instance
}

/** Schema for codes without details: decodes anything to `{}`. */
export const NoDetails: Schema.Codec<{}, unknown> = Schema.Unknown.pipe(
  Schema.decodeTo(
    Schema.Struct({}),
    SchemaTransformation.transform({ decode: (): {} => ({}), encode: (value: {}): unknown => value })
  )
)

/**
 * Defines the class of one known error.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { KnownError } from "stack-auth-effect"
 *
 * export class PasswordTooShort extends KnownError.KnownError("PasswordTooShort", "PASSWORD_TOO_SHORT", 400,
 *   Schema.Struct({ min_length: Schema.Number }),
 *   (d) => `Password too short. Minimum length is ${d.min_length}.`) {}
 * ```
 */
export const KnownError = <const Tag extends string, const Code extends string, Details>(
  tag: Tag,
  code: Code,
  status: number,
  detailsSchema: Schema.Codec<Details, unknown>,
  message: (details: Details) => string
) => {
  class Base extends Data.TaggedError(tag)<{ readonly message: string; readonly details: Details }> {
    static readonly tag: Tag = tag
    static readonly code: Code = code
    static readonly status: number = status
    static readonly detailsSchema: Schema.Codec<Details, unknown> = detailsSchema
    /** The wire code. */
    readonly code: Code = code
    /** The HTTP status of this code. */
    readonly status: number = status
    /** Builds the error with the service's message template. */
    static make(this: new(args: KnownErrorArgs<Details>) => any, details: Details) {
      return new this({ message: message(details), details })
    }
  }
  return Base as unknown as
    & (new(args: KnownErrorArgs<Details>) => Cause.YieldableError & {
      readonly _tag: Tag
      readonly message: string
      readonly details: Details
      readonly code: Code
      readonly status: number
    })
    & {
      readonly tag: Tag
      readonly code: Code
      readonly status: number
      readonly detailsSchema: Schema.Codec<Details, unknown>
      readonly make: <Self>(this: new(args: KnownErrorArgs<Details>) => Self, details: Details) => Self
    }
}

/**
 * The guard of an error family (an abstract parent such as `VERIFICATION_ERROR`): a
 * `Predicate.Refinement<unknown, Family>` (it is assignable to one) that holds for instances of
 * the family's classes only, matched by `_tag`: a plain body, an `UnexpectedKnownError` or an
 * `UnsupportedKnownError` carrying a member's code is not a member. Applied to an error union
 * `E`, it narrows to the members `E` has (`E & Family`), so `Effect.catchIf(isFamily, …)` removes
 * exactly those from the error channel, even when the call declares only part of the family.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import { KnownErrors, ServerUserApiKeys } from "stack-auth-effect"
 *
 * const keyOrNone = (value: string) =>
 *   ServerUserApiKeys.check(value).pipe(
 *     Effect.map(Option.some),
 *     Effect.catchIf(KnownErrors.isApiKeyNotValid, () => Effect.succeed(Option.none()))
 *   )
 * ```
 */
export interface FamilyGuard<Family> {
  <E>(error: E): error is E & Family
}

/**
 * The tag of a wire code as a type: `TagOfCode<"SOME_CODE">` is `"SomeCode"` (each `_`-separated
 * part lower-cased, then its first letter upper-cased), as {@link tagOfCode} computes it.
 */
export type TagOfCode<Code extends string> = Code extends `${infer Head}_${infer Rest}` ? `${Capitalize<Lowercase<Head>>}${TagOfCode<Rest>}`
  : Capitalize<Lowercase<Code>>

/** Turns `SOME_CODE` into `SomeCode`. */
export const tagOfCode = (code: string): string =>
  code
    .toLowerCase()
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")
