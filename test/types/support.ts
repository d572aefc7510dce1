/**
 * Type aliases shared by the type tests (`test/types/*.test.ts`): the error sets most public
 * functions have in common, and the channels of an Effect type.
 */
import type { Effect } from "effect"
import type {
  ConfigurationError,
  ConnectivityError,
  HttpError,
  InvalidResponse,
  RateLimited,
  RefreshFailure,
  SessionError,
  UnexpectedKnownError,
  UnsupportedKnownError
} from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"

/** The errors of the transport: every call can fail with these (a catalogued but undeclared code is an UnexpectedKnownError). */
export type Transport = InvalidResponse | HttpError | UnsupportedKnownError | UnexpectedKnownError | ConnectivityError | RateLimited

/** The configuration reasons of any call with an access level (project and publishable key). */
export type ClientReasons =
  | KnownErrors.CurrentProjectNotFound
  | KnownErrors.InvalidPublishableClientKey
  | KnownErrors.PublishableClientKeyRequiredForProject

/** The configuration reasons server access adds (secret server key). */
export type ServerReasons = KnownErrors.ServerAuthenticationRequired | KnownErrors.InvalidSecretServerKey

/** The configuration reasons admin access adds (super secret admin key or an owner's admin access token). */
export type AdminReasons =
  | KnownErrors.AdminAuthenticationRequired
  | KnownErrors.InvalidSuperSecretAdminKey
  | KnownErrors.UnparsableAdminAccessToken
  | KnownErrors.AdminAccessTokenExpired
  | KnownErrors.AdminAccessTokenIsNotAdmin
  | KnownErrors.InvalidProjectForAdminAccessToken

/** The common errors of any client call: schema, and the configuration errors (project and publishable key) grouped. */
export type ClientCommon = KnownErrors.SchemaError | ConfigurationError<ClientReasons>

/** The common errors of any server call: the client's, and the secret server key's, in one `ConfigurationError`. */
export type ServerCommon = KnownErrors.SchemaError | ConfigurationError<ClientReasons | ServerReasons>

/** The common errors of any admin call: the client's, and the admin credential's, in one `ConfigurationError`. */
export type AdminCommon = KnownErrors.SchemaError | ConfigurationError<ClientReasons | AdminReasons>

/**
 * The session errors of a call that sends the session's access token and may refresh it: one
 * `SessionError` whose reason is a rejected access token (after the retry) or a failed refresh
 * (`RefreshFailure`: every failure of the refresh grant but the refresh-token family and the
 * transport's, which includes `InvalidScope` and `InvalidArgument` of the grant's form).
 */
export type SessionCommon = SessionError<KnownErrors.InvalidAccessToken | RefreshFailure>

/** The known errors of checking or using a verification code (reset, e-mail verification, magic link, MFA attempt). */
export type VerificationCodeErrors =
  | KnownErrors.VerificationCodeNotFound
  | KnownErrors.VerificationCodeExpired
  | KnownErrors.VerificationCodeAlreadyUsed
  | KnownErrors.VerificationCodeMaxAttemptsReached

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never
type LastOf<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer R ? R : never
type TupleOf<U, L = LastOf<U>> = [U] extends [never] ? [] : [...TupleOf<Exclude<U, L>>, L]

/** How many distinct `_tag`s an error union has (what a caller can `catchTag` on). */
export type TagCount<E> = TupleOf<E extends { readonly _tag: infer Tag } ? Tag : never>["length"]

/** The error channel of an Effect type. */
export type ErrorOf<T> = T extends Effect.Effect<any, infer E, any> ? E : never

/** The success channel of an Effect type. */
export type SuccessOf<T> = T extends Effect.Effect<infer A, any, any> ? A : never

/** The requirements of an Effect type. */
export type RequirementsOf<T> = T extends Effect.Effect<any, any, infer R> ? R : never
