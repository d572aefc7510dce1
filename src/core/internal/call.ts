import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { AdminAccess, ServerAccess } from "../Access.js"
import type { Any, EndpointAccess, ErrorOf, InputOf, RequirementsOf, SuccessOf } from "../Endpoint.js"
import { fillPath } from "./path.js"
import { HttpError, InvalidArgument, InvalidResponse, UnsupportedKnownError, UserNotSignedIn } from "../Errors.js"
import type { KnownErrorClass } from "../KnownError.js"
import * as KnownErrors from "../KnownErrors.js"
import { StackClient } from "../StackClient.js"
import type { RequestCredentials, StackClientShape, StackRequest, StackResponse } from "../StackClient.js"
import { Session } from "../../session/internal/tag.js"

/** Known errors every endpoint of an access level declares (see `CommonErrors`). */
export const commonErrorClasses = (access: EndpointAccess): ReadonlyArray<KnownErrorClass> => {
  const base: Array<KnownErrorClass> = [KnownErrors.SchemaError]
  if (access === "none") return base
  base.push(KnownErrors.CurrentProjectNotFound, KnownErrors.InvalidPublishableClientKey, KnownErrors.PublishableClientKeyRequiredForProject)
  if (access === "server") base.push(KnownErrors.ServerAuthenticationRequired, KnownErrors.InvalidSecretServerKey)
  if (access === "admin") {
    base.push(
      KnownErrors.AdminAuthenticationRequired,
      KnownErrors.InvalidSuperSecretAdminKey,
      KnownErrors.UnparsableAdminAccessToken,
      KnownErrors.AdminAccessTokenExpired,
      KnownErrors.AdminAccessTokenIsNotAdmin,
      KnownErrors.InvalidProjectForAdminAccessToken
    )
  }
  return base
}

const sessionErrorClasses: ReadonlyArray<KnownErrorClass> = [
  KnownErrors.UnparsableAccessToken,
  KnownErrors.AccessTokenExpired,
  KnownErrors.InvalidProjectForAccessToken
]

/** Paths of the issues of a parse error, never the values (they may be tokens). */
export const issuePaths = (error: ParseResult.ParseError): string => {
  const paths = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
    issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")
  )
  return [...new Set(paths)].join(", ")
}

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text) as unknown)
  } catch {
    return Option.none()
  }
}

const invalid = (response: StackResponse, message: string) =>
  new InvalidResponse({ message, status: response.status, method: response.method, url: response.url })

/**
 * Decodes an answer: a 2xx by the success schema, a known error by its class (only when the
 * header names the same code as the body), anything else as `HttpError`.
 */
export const decodeResponse = <A>(
  name: string,
  response: StackResponse,
  success: Schema.Schema<A, any>,
  declared: ReadonlyArray<KnownErrorClass>
): Effect.Effect<A, unknown> => {
  const headerCode = response.headers["x-stack-known-error"] ?? response.headers["x-hexclave-known-error"]
  if (headerCode !== undefined) {
    const body = parseJson(response.text)
    if (Option.isNone(body) || typeof body.value !== "object" || body.value === null || !("code" in body.value)) {
      return Effect.fail(invalid(response, `${name}: known-error header ${headerCode} without a known-error body`))
    }
    const value = body.value as { code: unknown; error?: unknown; details?: unknown }
    if (value.code !== headerCode) {
      return Effect.fail(
        invalid(response, `${name}: known-error header ${headerCode} does not match the body's code ${String(value.code)}`)
      )
    }
    const message = typeof value.error === "string" ? value.error : headerCode
    const cls = declared.find((candidate) => candidate.code === headerCode)
    if (cls === undefined) {
      return Effect.fail(
        new UnsupportedKnownError({ message, code: headerCode, status: response.status, details: value.details ?? {} })
      )
    }
    return decoderOf(cls.detailsSchema)(value.details ?? {}).pipe(
      Effect.mapError((error) => invalid(response, `${name}: details of ${headerCode} did not match at ${issuePaths(error)}`)),
      Effect.flatMap((details) => Effect.fail(new cls({ message, details })))
    )
  }
  if (response.status >= 200 && response.status < 300) {
    const body = response.text.length === 0 ? Option.some<unknown>({}) : parseJson(response.text)
    if (Option.isNone(body)) {
      return Effect.fail(invalid(response, `${name}: the response body is not valid JSON`))
    }
    return decoderOf(success)(body.value).pipe(
      Effect.mapError((error) => invalid(response, `${name}: the response did not match its schema at ${issuePaths(error)}`))
    )
  }
  return Effect.fail(
    new HttpError({
      message: `Failed to send request to ${response.url}: ${response.status} ${response.text.slice(0, 500)}`,
      status: response.status,
      body: response.text,
      method: response.method,
      url: response.url
    })
  )
}

// Parsers built once per schema (not per call).
const decoders = /* @__PURE__ */ new WeakMap<Schema.Schema<any, any>, (u: unknown) => Effect.Effect<any, ParseResult.ParseError>>()
const encoders = /* @__PURE__ */ new WeakMap<Schema.Schema<any, any>, (u: unknown) => Effect.Effect<any, ParseResult.ParseError>>()

const decoderOf = <A>(schema: Schema.Schema<A, any>): ((u: unknown) => Effect.Effect<A, ParseResult.ParseError>) => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknown(schema)
    decoders.set(schema, decode)
  }
  return decode
}

const encoderOf = <A, I>(schema: Schema.Schema<A, I>): ((u: unknown) => Effect.Effect<I, ParseResult.ParseError>) => {
  let encode = encoders.get(schema)
  if (encode === undefined) {
    encode = Schema.encodeUnknown(schema)
    encoders.set(schema, encode)
  }
  return encode
}

const encodeInput = <A, I>(schema: Schema.Schema<A, I> | undefined, value: unknown, argument: string) =>
  schema === undefined
    ? Effect.succeed(undefined)
    : encoderOf(schema)(value).pipe(
        Effect.mapError(
          (error) => new InvalidArgument({ message: `Invalid ${argument}: ${issuePaths(error)}`, argument })
        )
      )

const queryString = (query: Readonly<Record<string, string | undefined>> | undefined): string => {
  if (query === undefined) return ""
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, value)
  const text = params.toString()
  return text.length === 0 ? "" : `?${text}`
}

// The error classes an endpoint can decode (declared + common + session), built once per endpoint.
const declaredByEndpoint = /* @__PURE__ */ new WeakMap<Any, ReadonlyArray<KnownErrorClass>>()

const declaredOf = (endpoint: Any): ReadonlyArray<KnownErrorClass> => {
  let declared = declaredByEndpoint.get(endpoint)
  if (declared === undefined) {
    declared = [...endpoint.errors, ...commonErrorClasses(endpoint.access), ...(endpoint.session === "none" ? [] : sessionErrorClasses)]
    declaredByEndpoint.set(endpoint, declared)
  }
  return declared
}

/** Whether a failure is one of the invalid-access-token codes (the call then refreshes and retries once). */
const isInvalidAccessToken = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "code" in error && KnownErrors.invalidAccessTokenCodes.has(String(error.code))

interface RequestParts {
  readonly path: string
  readonly body: StackRequest["body"]
}

/** Encodes the path parameters, query and payload (nothing to do for endpoints without them). */
const requestParts = (endpoint: Any, raw: RawInput): Effect.Effect<RequestParts, InvalidArgument> => {
  if (endpoint.params === undefined && endpoint.query === undefined && endpoint.payload === undefined && !endpoint.path.includes(":")) {
    return Effect.succeed({ path: endpoint.path, body: undefined })
  }
  return Effect.gen(function* () {
    const params = yield* encodeInput(endpoint.params, raw.params, "path parameters")
    const query = yield* encodeInput(endpoint.query, raw.query, "query")
    const payload = yield* encodeInput(endpoint.payload, raw.payload, "payload")
    const path = fillPath(endpoint.path, params ?? {}) + queryString(query)
    const body: StackRequest["body"] =
      endpoint.payload === undefined
        ? undefined
        : endpoint.payloadEncoding === "form"
          ? { _tag: "Form" as const, value: payload as Record<string, string> }
          : { _tag: "Json" as const, value: payload }
    return { path, body }
  })
}

const noKeys: Effect.Effect<RequestCredentials> = /* @__PURE__ */ Effect.sync(() => ({}))

/** The access level's own credentials (server key, admin key or admin access token). */
const accessKeys = (access: EndpointAccess): Effect.Effect<RequestCredentials, unknown, any> => {
  if (access === "server") return Effect.map(ServerAccess, (server) => ({ secretServerKey: server.secretServerKey }))
  if (access === "admin") {
    return Effect.map(
      Effect.flatMap(AdminAccess, (admin) => admin.credential),
      (credential): RequestCredentials =>
        credential._tag === "AdminKey"
          ? { superSecretAdminKey: credential.superSecretAdminKey }
          : { adminAccessToken: credential.accessToken }
    )
  }
  return noKeys
}

/** One attempt: tokens from the session (when the endpoint uses it), send, decode; an invalid access token refreshes and retries once. */
const attempt = (
  client: StackClientShape,
  endpoint: Any,
  parts: RequestParts,
  keys: RequestCredentials,
  declared: ReadonlyArray<KnownErrorClass>,
  retried: boolean
): Effect.Effect<unknown, unknown, Session> => {
  if (endpoint.session === "none") {
    return Effect.flatMap(
      client.send({ method: endpoint.method, path: parts.path, access: endpoint.access, body: parts.body, credentials: { ...keys } }),
      (response) => decodeResponse(endpoint.name, response, endpoint.success, declared)
    )
  }
  return Effect.flatMap(Session, (session) =>
    Effect.flatMap(session.requestTokens, (tokens) => {
      if (endpoint.session === "required" && Option.isNone(tokens.accessToken)) return Effect.fail(UserNotSignedIn.make())
      const credentials: RequestCredentials = {
        ...keys,
        accessToken: Option.getOrUndefined(tokens.accessToken),
        refreshToken: Option.getOrUndefined(tokens.refreshToken)
      }
      const sent = tokens.accessToken
      return Effect.flatMap(
        client.send({ method: endpoint.method, path: parts.path, access: endpoint.access, body: parts.body, credentials }),
        (response) => {
          const decoded = decodeResponse(endpoint.name, response, endpoint.success, declared)
          if (retried || Option.isNone(sent)) return decoded
          return Effect.catchIf(decoded, isInvalidAccessToken, () =>
            Effect.zipRight(session.markAccessTokenExpired(sent.value), attempt(client, endpoint, parts, keys, declared, true))
          )
        }
      )
    })
  )
}

type RawInput = { readonly params?: unknown; readonly query?: unknown; readonly payload?: unknown }

/** Calls an endpoint. See `Endpoint.call`. */
export const call = <E extends Any>(
  endpoint: E,
  input: InputOf<E>
): Effect.Effect<SuccessOf<E>, ErrorOf<E>, RequirementsOf<E>> => {
  const declared = declaredOf(endpoint)
  const raw = input as RawInput
  // No span per call here: the public functions (`Effect.fn`) carry the spans.
  return Effect.flatMap(StackClient, (client) =>
    Effect.flatMap(requestParts(endpoint, raw), (parts) =>
      Effect.flatMap(accessKeys(endpoint.access), (keys) => attempt(client, endpoint, parts, keys, declared, false))
    )
  ) as any
}
