/**
 * Type aliases shared by the type tests (`test/types/*.test.ts`): the error sets most public
 * functions have in common, and the channels of an Effect type.
 */
import type { Effect } from "effect"
import type {
  ConnectivityError,
  HttpError,
  InvalidArgument,
  InvalidResponse,
  RateLimited,
  UnexpectedKnownError,
  UnsupportedKnownError
} from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"

/** The errors of the transport: every call can fail with these (a catalogued but undeclared code is an UnexpectedKnownError). */
export type Transport = InvalidResponse | HttpError | UnsupportedKnownError | UnexpectedKnownError | ConnectivityError | RateLimited

/** The known errors of any client call (schema, project and publishable key). */
export type ClientCommon =
  | KnownErrors.SchemaError
  | KnownErrors.CurrentProjectNotFound
  | KnownErrors.InvalidPublishableClientKey
  | KnownErrors.PublishableClientKeyRequiredForProject

/**
 * The errors of a call that sends the session's access token and may refresh it: the known errors,
 * and every failure of the refresh grant but the refresh-token family (`RefreshError`), which
 * includes `InvalidScope` and `InvalidArgument` (the grant's form).
 */
export type SessionCommon =
  | KnownErrors.UnparsableAccessToken
  | KnownErrors.AccessTokenExpired
  | KnownErrors.InvalidProjectForAccessToken
  | KnownErrors.InvalidOauthClientIdOrSecret
  | KnownErrors.InvalidScope
  | InvalidArgument

/** The known errors of server access (secret server key). */
export type ServerCommon = KnownErrors.ServerAuthenticationRequired | KnownErrors.InvalidSecretServerKey

/** The known errors of admin access (super secret admin key or admin access token). */
export type AdminCommon =
  | KnownErrors.AdminAuthenticationRequired
  | KnownErrors.InvalidSuperSecretAdminKey
  | KnownErrors.UnparsableAdminAccessToken
  | KnownErrors.AdminAccessTokenExpired
  | KnownErrors.AdminAccessTokenIsNotAdmin
  | KnownErrors.InvalidProjectForAdminAccessToken

/** The known errors of checking or using a verification code (reset, e-mail verification, magic link, MFA attempt). */
export type VerificationCodeErrors =
  | KnownErrors.VerificationCodeNotFound
  | KnownErrors.VerificationCodeExpired
  | KnownErrors.VerificationCodeAlreadyUsed
  | KnownErrors.VerificationCodeMaxAttemptsReached

/** The error channel of an Effect type. */
export type ErrorOf<T> = T extends Effect.Effect<any, infer E, any> ? E : never

/** The success channel of an Effect type. */
export type SuccessOf<T> = T extends Effect.Effect<infer A, any, any> ? A : never

/** The requirements of an Effect type. */
export type RequirementsOf<T> = T extends Effect.Effect<any, any, infer R> ? R : never
