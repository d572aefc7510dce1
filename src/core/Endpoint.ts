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
import type { KnownErrorClass } from "./KnownError.js"
import { call as internalCall, callDecoded as internalCallDecoded, callInSession as internalCallInSession } from "./internal/call.js"
import type {
  Any,
  DecodedErrorOf,
  Endpoint,
  EndpointAccess,
  ErrorOf,
  InputOf,
  PayloadEncoding,
  RequirementsOf,
  SessionUse,
  SuccessOf
} from "./internal/definition.js"
import type { HttpMethod } from "./internal/exchange.js"
import type { Session, SessionShape } from "./Session.js"
import { fillPath as internalFillPath, matchPath as internalMatchPath } from "./internal/path.js"

/** The definition's and the call's types (defined beside the call's implementation, which uses them too). */
export type {
  Any,
  CommonErrors,
  DecodedErrorOf,
  Endpoint,
  EndpointAccess,
  ErrorOf,
  Grouped,
  InputOf,
  PayloadEncoding,
  RequirementsOf,
  SessionErrors,
  SessionUse,
  SuccessOf
} from "./internal/definition.js"

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
  readonly params?: Schema.Codec<Params, any>
  readonly query?: Schema.Codec<Query, any>
  readonly payload?: Schema.Codec<Payload, any>
  readonly payloadEncoding?: PayloadEncoding
  readonly success: Schema.Codec<Success, any>
  readonly successStatus?: number
  readonly errors: Errors
}

/**
 * Defines an endpoint.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Endpoint, KnownErrors, Tokens } from "stack-auth-effect"
 *
 * // the wire's field names are the encoded side (`Wire.wireStruct` maps them to the domain's)
 * const SignInPayload = Schema.Struct({ email: Schema.String, password: Schema.String })
 *
 * export const signIn = Endpoint.make({
 *   name: "Password.signInWithPassword", method: "POST", path: "/auth/password/sign-in",
 *   access: "client", session: "none",
 *   payload: SignInPayload, success: Tokens.SignInTokens,
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

/** Fills `:name` parameters of a path pattern (values are URL-encoded). */
export const fillPath: (pattern: string, params: Readonly<Record<string, string>>) => string = internalFillPath

/** Matches a concrete path against a pattern, returning the decoded parameters. */
export const matchPath: (pattern: string, path: string) => Record<string, string> | undefined = internalMatchPath

/**
 * Calls an endpoint: encodes the input, adds the access level's credentials and the session's
 * tokens, sends through `StackClient` (retry policy included), and decodes the answer into the
 * success value or one of the declared errors. An invalid/expired-access-token answer marks the
 * token expired and the call is retried once with a fresh token. Configuration errors (wrong keys,
 * unknown project…) fail as one `ConfigurationError`, session rejections and failed refreshes as
 * one `SessionError`, each with the known error as its typed `reason` (`ErrorOf`).
 */
export const call: <E extends Any>(endpoint: E, input: InputOf<E>) => Effect.Effect<SuccessOf<E>, ErrorOf<E>, RequirementsOf<E>> = internalCall

/**
 * {@link call} in the given session rather than the context's `Session` service: the same rules
 * (the session's tokens, a refresh and one retry on an invalid access token, grouped errors). For
 * a session made for one call (a server handling a request, `Session.makeForRequest`), where
 * providing it as a service would copy the context on every call.
 */
export const callInSession: <E extends Any>(
  endpoint: E,
  input: InputOf<E>,
  session: SessionShape
) => Effect.Effect<SuccessOf<E>, ErrorOf<E>, Exclude<RequirementsOf<E>, Session>> = internalCallInSession

/**
 * Calls an endpoint that does not use the session (`session: "none"`) and fails with its known
 * errors as their own classes, not grouped into `ConfigurationError` / `SessionError`: what the
 * session's refresh grant needs to tell a rejected refresh token (sign out) from the rest.
 */
export const callDecoded: <E extends Endpoint<string, EndpointAccess, "none", any, any, any, any, KnownErrorClass>>(
  endpoint: E,
  input: InputOf<E>
) => Effect.Effect<SuccessOf<E>, DecodedErrorOf<E>, RequirementsOf<E>> = internalCallDecoded
