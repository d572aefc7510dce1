/**
 * The types of an endpoint definition and of calling it (its input, success, errors and
 * requirements), in a leaf module so that `Endpoint.ts` (which exports `call`) and the call's
 * implementation (`internal/call.ts`) both depend on it and not on each other
 * (docs/ARCHITECTURE.md). `Endpoint` re-exports all of it.
 *
 * @module
 */
import type * as Schema from "effect/Schema"
import type { AccessLevel, AdminAccess, ServerAccess } from "../Access.js"
import type {
  ConfigurationError,
  ConfigurationReason,
  InvalidArgument,
  RefreshFailure,
  SessionError,
  SessionRejection,
  TransportError,
  UserNotSignedIn
} from "../Errors.js"
import type { KnownErrorClass } from "../KnownError.js"
import type * as KnownErrors from "../KnownErrors.js"
import type { Session } from "../Session.js"
import type { HttpMethod } from "./exchange.js"
import type { StackClient } from "../StackClient.js"

/** How an endpoint uses the user's session. */
export type SessionUse =
  /** no user tokens are sent */
  | "none"
  /** tokens are sent when the session has them */
  | "optional"
  /** the call fails with `UserNotSignedIn` before sending when there is no token */
  | "required"

/** The access level of an endpoint, or `"none"` for the OAuth token endpoint (no x-stack headers). */
export type EndpointAccess = AccessLevel | "none"

/** How the payload is encoded. */
export type PayloadEncoding = "json" | "form"

/** An endpoint definition. */
export interface Endpoint<
  out Name extends string = string,
  out Access extends EndpointAccess = EndpointAccess,
  out Use extends SessionUse = SessionUse,
  in out Params = any,
  in out Query = any,
  in out Payload = any,
  in out Success = any,
  out Errors extends KnownErrorClass = KnownErrorClass
> {
  /** `Domain.operation`, used for spans. */
  readonly name: Name
  readonly method: HttpMethod
  /** Path below `/api/v1` with `:name` parameters, e.g. `/users/:userId`. */
  readonly path: string
  readonly access: Access
  readonly session: Use
  readonly params: Schema.Codec<Params, any> | undefined
  readonly query: Schema.Codec<Query, any> | undefined
  readonly payload: Schema.Codec<Payload, any> | undefined
  readonly payloadEncoding: PayloadEncoding
  readonly success: Schema.Codec<Success, any>
  /** Status the service answers with on success (the emulator uses it; the SDK accepts any 2xx). */
  readonly successStatus: number
  readonly errors: ReadonlyArray<Errors>
}

/** Any endpoint. */
export type Any = Endpoint<string, EndpointAccess, SessionUse, any, any, any, any, KnownErrorClass>

/**
 * Known errors any request of an access level can meet (wrong keys, unknown project, schema), as
 * the decoder knows them; in the error channel ({@link ErrorOf}) all but `SchemaError` are the
 * `reason` of a `ConfigurationError`.
 */
export type CommonErrors<Access extends EndpointAccess> =
  | KnownErrors.SchemaError
  | (Access extends "none" ? never
    :
      | KnownErrors.CurrentProjectNotFound
      | KnownErrors.InvalidPublishableClientKey
      | KnownErrors.PublishableClientKeyRequiredForProject
      | (Access extends "server" ? KnownErrors.ServerAuthenticationRequired | KnownErrors.InvalidSecretServerKey : never)
      | (Access extends "admin" ?
          | KnownErrors.AdminAuthenticationRequired
          | KnownErrors.InvalidSuperSecretAdminKey
          | KnownErrors.UnparsableAdminAccessToken
          | KnownErrors.AdminAccessTokenExpired
          | KnownErrors.AdminAccessTokenIsNotAdmin
          | KnownErrors.InvalidProjectForAdminAccessToken
        : never))

/**
 * Known errors the decoder knows for endpoints that carry the user's tokens: a rejected access
 * token (`INVALID_ACCESS_TOKEN`), refreshed and retried once, then the `reason` of a `SessionError`.
 */
export type SessionErrors<Use extends SessionUse> = Use extends "none" ? never : KnownErrors.InvalidAccessToken

/** A `ConfigurationError` with these reasons, or nothing when there are none. */
type ConfigurationErrorOf<Reason> = [Reason] extends [never] ? never : ConfigurationError<Extract<Reason, ConfigurationReason>>

/** A `SessionError` with these reasons, or nothing when there are none. */
type SessionErrorOf<Reason> = [Reason] extends [never] ? never : SessionError<Extract<Reason, SessionRejection | RefreshFailure>>

/**
 * The known errors of a call as its error channel shows them: the configuration reasons grouped
 * into one `ConfigurationError`, the session rejections (and, for an endpoint that uses the
 * session, the failures of its refresh) into one `SessionError`, every other (business) error as
 * its own tag.
 */
export type Grouped<Known, Use extends SessionUse> =
  | Exclude<Known, ConfigurationReason | SessionRejection>
  | ConfigurationErrorOf<Extract<Known, ConfigurationReason>>
  | SessionErrorOf<Extract<Known, SessionRejection> | (Use extends "none" ? never : RefreshFailure)>

/**
 * The error channel of calling an endpoint: its declared errors, the configuration errors of its
 * access level and the session errors of its session use (both grouped, see {@link Grouped}),
 * `UserNotSignedIn` when it needs a user (or an owner's admin access token), the transport's
 * failures, and `InvalidArgument` when it has input.
 */
export type ErrorOf<E extends Any> = E extends Endpoint<any, infer Access, infer Use, infer Params, infer Query, infer Payload, any, infer Errors> ?
    | Grouped<InstanceType<Errors> | CommonErrors<Access> | SessionErrors<Use>, Use>
    | (Use extends "required" ? UserNotSignedIn : never)
    | TransportError
    | ([Params, Query, Payload] extends [void, void, void] ? never : InvalidArgument)
    // an admin access token comes from an owner's session, which may be signed out
    | (Access extends "admin" ? UserNotSignedIn : never)
  : never

/**
 * The error channel of an endpoint that does not use the session, before grouping: the known
 * errors as their own classes (`Endpoint.callDecoded`): the session's refresh grant reacts to them
 * (a rejected refresh token signs out; the rest is a `RefreshError`).
 */
export type DecodedErrorOf<E extends Any> = E extends Endpoint<any, infer Access, "none", infer Params, infer Query, infer Payload, any, infer Errors> ?
    | InstanceType<Errors>
    | CommonErrors<Access>
    | TransportError
    | ([Params, Query, Payload] extends [void, void, void] ? never : InvalidArgument)
    | (Access extends "admin" ? UserNotSignedIn : never)
  : never

/** The success value of an endpoint. */
export type SuccessOf<E extends Any> = E extends Endpoint<any, any, any, any, any, any, infer A, any> ? A : never

/** The services calling an endpoint needs. */
export type RequirementsOf<E extends Any> = E extends Endpoint<any, infer Access, infer Use, any, any, any, any, any> ?
    | StackClient
    | (Access extends "server" ? ServerAccess : never)
    | (Access extends "admin" ? AdminAccess : never)
    | (Use extends "none" ? never : Session)
  : never

/** The input of calling an endpoint: its path parameters, query and payload, where it has them. */
export type InputOf<E extends Any> = E extends Endpoint<any, any, any, infer Params, infer Query, infer Payload, any, any> ?
    & ([Params] extends [void] ? {} : { readonly params: Params })
    & ([Query] extends [void] ? {} : { readonly query: Query })
    & ([Payload] extends [void] ? {} : { readonly payload: Payload })
  : never
