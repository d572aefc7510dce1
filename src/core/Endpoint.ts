/**
 * Endpoints defined once, as data: method, path, access level, session use, schemas for path
 * parameters, query, payload and success, and the known errors the endpoint can return.
 * The SDK's call ({@link call}) and the emulator's route are both derived from a definition,
 * so the wire shape lives in one place.
 *
 * Schemas map the wire (snake_case, `*_millis`) to the domain (camelCase, `Date`s): the encoded
 * side of each schema is what goes over the wire.
 *
 * Why not `HttpApi`: the service identifies errors by the code in the body *and* a header, and
 * (with `x-stack-override-error-status`) answers 4xx as 200 with the real status in another
 * header; `HttpApiClient` decodes by status. The definition below keeps the same idea (endpoint
 * as data, client and server derived) with the protocol's own error model.
 *
 * @module
 */
import type * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { AccessLevel, AdminAccess, ServerAccess } from "./Access.js"
import type { InvalidArgument, TransportError, UserNotSignedIn } from "./Errors.js"
import type { KnownErrorClass } from "./KnownError.js"
import type * as KnownErrors from "./KnownErrors.js"
import type { HttpMethod, StackClient } from "./StackClient.js"
import type { RefreshError, Session } from "../session/Session.js"
import { call as internalCall } from "./internal/call.js"
import { fillPath as internalFillPath, matchPath as internalMatchPath } from "./internal/path.js"

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
  readonly params: Schema.Schema<Params, any> | undefined
  readonly query: Schema.Schema<Query, any> | undefined
  readonly payload: Schema.Schema<Payload, any> | undefined
  readonly payloadEncoding: PayloadEncoding
  readonly success: Schema.Schema<Success, any>
  /** Status the service answers with on success (the emulator uses it; the SDK accepts any 2xx). */
  readonly successStatus: number
  readonly errors: ReadonlyArray<Errors>
}

/** Any endpoint. */
export type Any = Endpoint<string, EndpointAccess, SessionUse, any, any, any, any, KnownErrorClass>

/** Definition accepted by {@link make}. */
export interface Definition<
  Name extends string,
  Access extends EndpointAccess,
  Use extends SessionUse,
  Params,
  Query,
  Payload,
  Success,
  Errors extends ReadonlyArray<KnownErrorClass>
> {
  readonly name: Name
  readonly method: HttpMethod
  readonly path: string
  readonly access: Access
  readonly session: Use
  readonly params?: Schema.Schema<Params, any>
  readonly query?: Schema.Schema<Query, any>
  readonly payload?: Schema.Schema<Payload, any>
  readonly payloadEncoding?: PayloadEncoding
  readonly success: Schema.Schema<Success, any>
  readonly successStatus?: number
  readonly errors: Errors
}

/**
 * Defines an endpoint.
 *
 * @example
 * ```ts
 * import { Endpoint, KnownErrors, Password, Tokens } from "stack-auth-effect"
 *
 * export const signIn = Endpoint.make({
 *   name: "Auth.signInWithPassword", method: "POST", path: "/auth/password/sign-in",
 *   access: "client", session: "none",
 *   payload: Password.SignInPayload, success: Tokens.SignInTokens,
 *   errors: [KnownErrors.EmailPasswordMismatch, KnownErrors.PasswordAuthenticationNotEnabled]
 * })
 * ```
 */
export const make = <
  const Name extends string,
  const Access extends EndpointAccess,
  const Use extends SessionUse,
  Success,
  const Errors extends ReadonlyArray<KnownErrorClass>,
  Params = void,
  Query = void,
  Payload = void
>(
  definition: Definition<Name, Access, Use, Params, Query, Payload, Success, Errors>
): Endpoint<Name, Access, Use, Params, Query, Payload, Success, Errors[number]> => ({
  name: definition.name,
  method: definition.method,
  path: definition.path,
  access: definition.access,
  session: definition.session,
  params: definition.params,
  query: definition.query,
  payload: definition.payload,
  payloadEncoding: definition.payloadEncoding ?? "json",
  success: definition.success,
  successStatus: definition.successStatus ?? 200,
  errors: definition.errors
})

/** Known errors any request of an access level can meet (wrong keys, unknown project, schema). */
export type CommonErrors<Access extends EndpointAccess> =
  | KnownErrors.SchemaError
  | (Access extends "none"
      ? never
      :
          | KnownErrors.CurrentProjectNotFound
          | KnownErrors.InvalidPublishableClientKey
          | KnownErrors.PublishableClientKeyRequiredForProject
          | (Access extends "server" ? KnownErrors.ServerAuthenticationRequired | KnownErrors.InvalidSecretServerKey : never)
          | (Access extends "admin"
              ?
                  | KnownErrors.AdminAuthenticationRequired
                  | KnownErrors.InvalidSuperSecretAdminKey
                  | KnownErrors.UnparsableAdminAccessToken
                  | KnownErrors.AdminAccessTokenExpired
                  | KnownErrors.AdminAccessTokenIsNotAdmin
                  | KnownErrors.InvalidProjectForAdminAccessToken
              : never))

/** Errors of endpoints that carry the user's tokens: a rejected token after the retry, a failed refresh. */
export type SessionErrors<Use extends SessionUse> = Use extends "none"
  ? never
  :
      | KnownErrors.UnparsableAccessToken
      | KnownErrors.AccessTokenExpired
      | KnownErrors.InvalidProjectForAccessToken
      | RefreshError
      | (Use extends "required" ? UserNotSignedIn : never)

/** The error channel of calling an endpoint. */
export type ErrorOf<E extends Any> =
  E extends Endpoint<any, infer Access, infer Use, infer Params, infer Query, infer Payload, any, infer Errors>
    ?
        | InstanceType<Errors>
        | CommonErrors<Access>
        | SessionErrors<Use>
        | TransportError
        | ([Params, Query, Payload] extends [void, void, void] ? never : InvalidArgument)
        // an admin access token comes from an owner's session, which may be signed out
        | (Access extends "admin" ? UserNotSignedIn : never)
    : never

/** The success value of an endpoint. */
export type SuccessOf<E extends Any> = E extends Endpoint<any, any, any, any, any, any, infer A, any> ? A : never

/** The services calling an endpoint needs. */
export type RequirementsOf<E extends Any> =
  E extends Endpoint<any, infer Access, infer Use, any, any, any, any, any>
    ?
        | StackClient
        | (Access extends "server" ? ServerAccess : never)
        | (Access extends "admin" ? AdminAccess : never)
        | (Use extends "none" ? never : Session)
    : never

/** The input of calling an endpoint: its path parameters, query and payload, where it has them. */
export type InputOf<E extends Any> =
  E extends Endpoint<any, any, any, infer Params, infer Query, infer Payload, any, any>
    ? ([Params] extends [void] ? {} : { readonly params: Params }) &
        ([Query] extends [void] ? {} : { readonly query: Query }) &
        ([Payload] extends [void] ? {} : { readonly payload: Payload })
    : never

/** Fills `:name` parameters of a path pattern (values are URL-encoded). */
export const fillPath: (pattern: string, params: Readonly<Record<string, string>>) => string = internalFillPath

/** Matches a concrete path against a pattern, returning the decoded parameters. */
export const matchPath: (pattern: string, path: string) => Record<string, string> | undefined = internalMatchPath

/**
 * Calls an endpoint: encodes the input, adds the access level's credentials and the session's
 * tokens, sends through `StackClient` (retry policy included), and decodes the answer into the
 * success value or one of the declared errors. An invalid/expired-access-token answer marks the
 * token expired and the call is retried once with a fresh token.
 */
export const call: <E extends Any>(endpoint: E, input: InputOf<E>) => Effect.Effect<SuccessOf<E>, ErrorOf<E>, RequirementsOf<E>> =
  internalCall
