import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import { AdminAccess, ServerAccess } from "../Access.js"
import type { Any, DecodedErrorOf, Endpoint, EndpointAccess, ErrorOf, InputOf, RequirementsOf, SuccessOf } from "./definition.js"
import { fillPathChecked } from "./path.js"
import {
  ConfigurationError,
  HttpError,
  InvalidArgument,
  InvalidResponse,
  SessionError,
  UnexpectedKnownError,
  UnsupportedKnownError,
  UserNotSignedIn
} from "../Errors.js"
import type { ConfigurationReason, SessionRejection } from "../Errors.js"
import type { KnownErrorClass } from "../KnownError.js"
import * as KnownErrors from "../KnownErrors.js"
import { StackClient } from "../StackClient.js"
import type { RequestCredentials, StackClientShape, StackRequest, StackResponse } from "../StackClient.js"
import { Session } from "../Session.js"
import type { SessionShape } from "../Session.js"

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

const sessionErrorClasses: ReadonlyArray<KnownErrorClass> = KnownErrors.invalidAccessTokenClasses

/** `_tag`s of the known errors grouped into a `ConfigurationError` (see `ConfigurationReason`). */
const configurationTags: ReadonlySet<string> = new Set(
  [...KnownErrors.projectAuthenticationErrorClasses, KnownErrors.CurrentProjectNotFound, KnownErrors.InvalidOauthClientIdOrSecret].map(
    (cls) => cls.tag
  )
)

/** `_tag`s of the known errors grouped into a `SessionError` (see `SessionRejection`). */
const sessionRejectionTags: ReadonlySet<string> = new Set(
  [...KnownErrors.invalidAccessTokenClasses, KnownErrors.RefreshTokenNotFoundOrExpired, KnownErrors.ProviderRejected].map((cls) => cls.tag)
)

const tagOf = (error: unknown): unknown => (typeof error === "object" && error !== null ? (error as { readonly _tag?: unknown })._tag : undefined)

/**
 * A call's failure as its error channel shows it: a configuration reason inside a
 * `ConfigurationError`, a session rejection inside a `SessionError`, anything else unchanged.
 * Applied once, after the retry on a rejected access token (which must see the known error itself).
 */
export const groupError = (error: unknown): unknown => {
  const tag = tagOf(error)
  if (typeof tag !== "string") return error
  if (configurationTags.has(tag)) return ConfigurationError.make(error as ConfigurationReason)
  if (sessionRejectionTags.has(tag)) return SessionError.make(error as SessionRejection, "rejected")
  return error
}

/** At most this many issue paths are named in a message. */
const maxIssuePaths = 20

/**
 * Paths of the issues of a schema failure, never the values (they may be tokens): `a.b, c` for
 * the failing properties, `(root)` for the value itself. Walks `SchemaIssue`'s tree without
 * formatting anything: Effect's formatters print the actual value, which for a hostile answer
 * (`[[[…]]]` 3000 levels deep) could be huge and holds whatever secret the value carried.
 */
export const issuePaths = (issue: SchemaIssue.Issue): string => {
  const paths = new Set<string>()
  const stack: Array<{ readonly issue: SchemaIssue.Issue; readonly path: ReadonlyArray<PropertyKey> }> = [{ issue, path: [] }]
  while (stack.length > 0 && paths.size < maxIssuePaths) {
    const { issue, path } = stack.pop()!
    switch (issue._tag) {
      case "Pointer":
        stack.push({ issue: issue.issue, path: path.concat(issue.path) })
        break
      case "Composite":
      case "AnyOf":
        if (issue.issues.length === 0) paths.add(pathText(path))
        for (let i = issue.issues.length - 1; i >= 0; i--) stack.push({ issue: issue.issues[i]!, path })
        break
      case "Filter":
      case "Encoding":
        stack.push({ issue: issue.issue, path })
        break
      default:
        paths.add(pathText(path))
    }
  }
  return [...paths].join(", ")
}

const pathText = (path: ReadonlyArray<PropertyKey>): string => (path.length === 0 ? "(root)" : path.map(String).join("."))

/**
 * How deeply an answer may nest arrays and objects. The service's answers nest a few levels
 * (user metadata a few more); a deeper document is refused before anything walks it.
 */
export const maxJsonDepth = 512

/**
 * Whether a JSON text nests arrays and objects more than `max` levels deep, read from the text
 * (brackets outside strings) without walking the parsed value again.
 */
export const jsonNestsDeeperThan = (text: string, max: number): boolean => {
  // fewer than `max` + 1 opening brackets cannot nest deeper: counted with the native search
  // (a list of 100 users has about 400), the character walk only for texts with more
  let opening = 0
  for (const bracket of ["{", "["]) {
    for (let at = text.indexOf(bracket); at >= 0 && opening <= max; at = text.indexOf(bracket, at + 1)) opening++
  }
  if (opening <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i++ // backslash: skip the escaped character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) {
      inString = true
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true
    } else if (char === 0x5d || char === 0x7d) {
      depth--
    }
  }
  return false
}

/** Why a JSON text is refused: not JSON, or nested deeper than {@link maxJsonDepth}. */
type JsonProblem = "not valid JSON" | "nested too deeply"

/** Parses JSON text of an untrusted source, refusing documents nested deeper than {@link maxJsonDepth}. */
export const parseJsonBounded = (text: string): Result.Result<unknown, JsonProblem> => {
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch {
    return Result.fail("not valid JSON")
  }
  return jsonNestsDeeperThan(text, maxJsonDepth) ? Result.fail("nested too deeply") : Result.succeed(value)
}

const problemText = (problem: JsonProblem): string =>
  problem === "not valid JSON" ? "is not valid JSON" : `nests arrays/objects deeper than ${maxJsonDepth} levels`

const invalid = (response: StackResponse, message: string) =>
  new InvalidResponse({ message, status: response.status, method: response.method, url: response.url })

/**
 * Decodes an answer: a 2xx by the success schema, a known error by its class (only when the
 * header names the same code as the body; a catalogued code the call does not declare as an
 * `UnexpectedKnownError` carrying its class, an unknown one as `UnsupportedKnownError`), anything
 * else as `HttpError`.
 */
export const decodeResponse = <A>(
  name: string,
  response: StackResponse,
  success: Schema.Codec<A, unknown>,
  declared: ReadonlyArray<KnownErrorClass>
): Effect.Effect<A, unknown> => {
  const headerCode = response.headers["x-stack-known-error"] ?? response.headers["x-hexclave-known-error"]
  if (headerCode !== undefined) {
    const body = parseJsonBounded(response.text)
    if (Result.isFailure(body) && body.failure === "nested too deeply") {
      return Effect.fail(invalid(response, `${name}: the known-error body ${problemText(body.failure)}`))
    }
    if (Result.isFailure(body) || typeof body.success !== "object" || body.success === null || !("code" in body.success)) {
      return Effect.fail(invalid(response, `${name}: known-error header ${headerCode} without a known-error body`))
    }
    const value = body.success as { code: unknown; error?: unknown; details?: unknown }
    if (value.code !== headerCode) {
      return Effect.fail(
        invalid(response, `${name}: known-error header ${headerCode} does not match the body's code ${String(value.code)}`)
      )
    }
    const message = typeof value.error === "string" ? value.error : headerCode
    const details = value.details ?? {}
    const cls = declared.find((candidate) => candidate.code === headerCode)
    if (cls !== undefined) return Effect.flatMap(knownErrorOf(name, response, cls, message, details), Effect.fail)
    // A catalogued code the call does not declare: its class, wrapped so the declared union stays exact.
    const catalogued = KnownErrors.byCode.get(headerCode)
    if (catalogued === undefined) {
      return Effect.fail(new UnsupportedKnownError({ message, code: headerCode, status: response.status, details }))
    }
    return Effect.flatMap(
      knownErrorOf(name, response, catalogued, message, details),
      (error) => Effect.fail(new UnexpectedKnownError({ message, code: error.code, status: response.status, error }))
    )
  }
  if (response.status >= 200 && response.status < 300) {
    const body = response.text.length === 0 ? Result.succeed<unknown>({}) : parseJsonBounded(response.text)
    if (Result.isFailure(body)) {
      return Effect.fail(invalid(response, `${name}: the response body ${problemText(body.failure)}`))
    }
    const decoded = decoderOf(success)(body.success)
    return Result.isSuccess(decoded)
      ? Effect.succeed(decoded.success)
      : Effect.fail(invalid(response, `${name}: the response did not match its schema at ${issuePaths(decoded.failure)}`))
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

/** The instance of a known error's class, its details decoded (an `InvalidResponse` when they do not match). */
const knownErrorOf = <Instance>(
  name: string,
  response: StackResponse,
  cls: KnownErrorClass<string, any, Instance>,
  message: string,
  details: unknown
): Effect.Effect<Instance, InvalidResponse> => {
  const decoded = decoderOf(cls.detailsSchema)(details)
  return Result.isSuccess(decoded)
    ? Effect.succeed(new cls({ message, details: decoded.success }))
    : Effect.fail(invalid(response, `${name}: details of ${cls.code} did not match at ${issuePaths(decoded.failure)}`))
}

// Effect's compiled parsers, made once per schema (not per call). Decoding is synchronous (the
// SDK's schemas need no services), so an answer is decoded without an effect per call.
const decoders = new WeakMap<Schema.Top, (u: unknown) => Result.Result<unknown, SchemaIssue.Issue>>()
const encoders = new WeakMap<Schema.Top, (u: unknown) => Result.Result<unknown, SchemaIssue.Issue>>()

const decoderOf = <A>(schema: Schema.Codec<A, unknown>): (u: unknown) => Result.Result<A, SchemaIssue.Issue> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = SchemaParser.decodeUnknownResult(schema)
    decoders.set(schema, decode)
  }
  return decode as (u: unknown) => Result.Result<A, SchemaIssue.Issue>
}

const encoderOf = <A, I>(schema: Schema.Codec<A, I>): (u: unknown) => Result.Result<I, SchemaIssue.Issue> => {
  let encode = encoders.get(schema)
  if (encode === undefined) {
    encode = SchemaParser.encodeUnknownResult(schema)
    encoders.set(schema, encode)
  }
  return encode as (u: unknown) => Result.Result<I, SchemaIssue.Issue>
}

const encodeInput = <A, I>(
  schema: Schema.Codec<A, I> | undefined,
  value: unknown,
  argument: string
): Effect.Effect<I | undefined, InvalidArgument> => {
  if (schema === undefined) return Effect.succeed(undefined)
  const encoded = encoderOf(schema)(value)
  return Result.isSuccess(encoded)
    ? Effect.succeed(encoded.success)
    : Effect.fail(new InvalidArgument({ message: `Invalid ${argument}: ${issuePaths(encoded.failure)}`, argument }))
}

const queryString = (query: Readonly<Record<string, string | undefined>> | undefined): string => {
  if (query === undefined) return ""
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, value)
  const text = params.toString()
  return text.length === 0 ? "" : `?${text}`
}

// The error classes an endpoint can decode (declared + common + session), built once per endpoint.
const declaredByEndpoint = new WeakMap<Any, ReadonlyArray<KnownErrorClass>>()

const declaredOf = (endpoint: Any): ReadonlyArray<KnownErrorClass> => {
  let declared = declaredByEndpoint.get(endpoint)
  if (declared === undefined) {
    declared = [...endpoint.errors, ...commonErrorClasses(endpoint.access), ...(endpoint.session === "none" ? [] : sessionErrorClasses)]
    declaredByEndpoint.set(endpoint, declared)
  }
  return declared
}

interface RequestParts {
  readonly path: string
  readonly body: StackRequest["body"]
  /** Query parameters whose values are secrets (a `Redacted` input): never shown in a span, log or error. */
  readonly secretQueryParams: ReadonlyArray<string>
}

/** The wire names of query parameters given as `Redacted` values (compared by their encoded text). */
const secretQueryNames = (raw: unknown, encoded: Readonly<Record<string, string | undefined>> | undefined): ReadonlyArray<string> => {
  if (encoded === undefined || typeof raw !== "object" || raw === null) return []
  const secrets = new Set<string>()
  for (const value of Object.values(raw)) if (Redacted.isRedacted(value)) secrets.add(String(Redacted.value(value)))
  if (secrets.size === 0) return []
  return Object.entries(encoded).flatMap(([key, value]) => (value !== undefined && secrets.has(value) ? [key] : []))
}

/** A JSON payload the transport can serialise: no cycles, no `BigInt`, not absurdly deep. */
const serialisable = (payload: unknown): Effect.Effect<void, InvalidArgument> => {
  try {
    JSON.stringify(payload)
    return Effect.void
  } catch {
    return Effect.fail(
      new InvalidArgument({ message: "Invalid payload: it cannot be serialised as JSON (a cycle, a BigInt or too deep)", argument: "payload" })
    )
  }
}

// The parts of endpoints without parameters, query or payload: the same for every call, made once.
const fixedPartsByEndpoint = new WeakMap<Any, RequestParts | null>()

/** The request parts of an endpoint without path parameters, query or payload; `null` for the others. */
const fixedParts = (endpoint: Any): RequestParts | null => {
  let parts = fixedPartsByEndpoint.get(endpoint)
  if (parts === undefined) {
    parts = endpoint.params === undefined && endpoint.query === undefined && endpoint.payload === undefined && !endpoint.path.includes(":")
      ? { path: endpoint.path, body: undefined, secretQueryParams: [] }
      : null
    fixedPartsByEndpoint.set(endpoint, parts)
  }
  return parts
}

/** Encodes the path parameters, query and payload (of an endpoint that has some, see {@link fixedParts}). */
const requestParts = (endpoint: Any, raw: RawInput): Effect.Effect<RequestParts, InvalidArgument> =>
  Effect.gen(function* () {
    const params = yield* encodeInput(endpoint.params, raw.params, "path parameters")
    const filled = fillPathChecked(endpoint.path, params ?? {})
    if (Result.isFailure(filled)) {
      return yield* Effect.fail(
        new InvalidArgument({
          message: `Invalid path parameters: ${filled.failure.name} ${filled.failure.reason}; nothing was sent`,
          argument: "path parameters"
        })
      )
    }
    const query = yield* encodeInput(endpoint.query, raw.query, "query")
    const payload = yield* encodeInput(endpoint.payload, raw.payload, "payload")
    if (endpoint.payload !== undefined && endpoint.payloadEncoding === "json") yield* serialisable(payload)
    const body: StackRequest["body"] = endpoint.payload === undefined
      ? undefined
      : endpoint.payloadEncoding === "form"
      ? { _tag: "Form" as const, value: payload as Record<string, string> }
      : { _tag: "Json" as const, value: payload }
    return { path: filled.success + queryString(query), body, secretQueryParams: secretQueryNames(raw.query, query) }
  })

const noKeys: Effect.Effect<RequestCredentials> = Effect.succeed({})

const serverKeys: Effect.Effect<RequestCredentials, never, ServerAccess> = Effect.map(ServerAccess, (server) => ({ secretServerKey: server.secretServerKey }))

const adminKeys: Effect.Effect<RequestCredentials, unknown, AdminAccess> = Effect.map(
  Effect.flatMap(AdminAccess, (admin) => admin.credential),
  (credential): RequestCredentials =>
    credential._tag === "AdminKey"
      ? { superSecretAdminKey: credential.superSecretAdminKey }
      : { adminAccessToken: credential.accessToken }
)

/** The access level's own credentials (server key, admin key or admin access token); the effects are made once. */
const accessKeys = (access: EndpointAccess): Effect.Effect<RequestCredentials, unknown, any> =>
  access === "server" ? serverKeys : access === "admin" ? adminKeys : noKeys

const sendParts = (endpoint: Any, parts: RequestParts, credentials: RequestCredentials): StackRequest =>
  parts.secretQueryParams.length > 0
    ? { method: endpoint.method, path: parts.path, access: endpoint.access, body: parts.body, credentials, secretQueryParams: parts.secretQueryParams }
    : { method: endpoint.method, path: parts.path, access: endpoint.access, body: parts.body, credentials }

/**
 * One attempt: tokens from the session (when the endpoint uses it: `given`, else the context's),
 * send, decode; an invalid access token refreshes and retries once.
 */
const attempt = (
  client: StackClientShape,
  endpoint: Any,
  parts: RequestParts,
  keys: RequestCredentials,
  declared: ReadonlyArray<KnownErrorClass>,
  retried: boolean,
  given: SessionShape | undefined
): Effect.Effect<unknown, unknown, Session> => {
  if (endpoint.session === "none") {
    return Effect.flatMap(
      client.send(sendParts(endpoint, parts, { ...keys })),
      (response) => decodeResponse(endpoint.name, response, endpoint.success, declared)
    )
  }
  const inSession = (session: SessionShape): Effect.Effect<unknown, unknown, Session> =>
    Effect.flatMap(session.requestTokens, (tokens) => {
      if (endpoint.session === "required" && Option.isNone(tokens.accessToken)) return Effect.fail(UserNotSignedIn.make())
      const credentials: RequestCredentials = {
        ...keys,
        accessToken: Option.getOrUndefined(tokens.accessToken),
        refreshToken: Option.getOrUndefined(tokens.refreshToken)
      }
      const sent = tokens.accessToken
      return Effect.flatMap(
        client.send(sendParts(endpoint, parts, credentials)),
        (response) => {
          const decoded = decodeResponse(endpoint.name, response, endpoint.success, declared)
          if (retried || Option.isNone(sent)) return decoded
          // INVALID_ACCESS_TOKEN: mark the token expired, refresh and retry once.
          return Effect.catchIf(decoded, KnownErrors.isInvalidAccessToken, () =>
            Effect.andThen(session.markAccessTokenExpired(sent.value), attempt(client, endpoint, parts, keys, declared, true, session)))
        }
      )
    })
  return given === undefined ? Effect.flatMap(Session, inSession) : inSession(given)
}

type RawInput = { readonly params?: unknown; readonly query?: unknown; readonly payload?: unknown }

/** The call without grouping: known errors as their own classes; the session `given`, else the context's. */
const callKnown = (endpoint: Any, input: unknown, given?: SessionShape): Effect.Effect<unknown, unknown, any> => {
  const declared = declaredOf(endpoint)
  const raw = input as RawInput
  const keys = accessKeys(endpoint.access)
  const fixed = fixedParts(endpoint)
  // No span per call here: the public functions (`Effect.fn`) carry the spans.
  return Effect.flatMap(
    StackClient,
    (client) =>
      fixed !== null
        ? Effect.flatMap(keys, (keys) => attempt(client, endpoint, fixed, keys, declared, false, given))
        : Effect.flatMap(
          requestParts(endpoint, raw),
          (parts) => Effect.flatMap(keys, (keys) => attempt(client, endpoint, parts, keys, declared, false, given))
        )
  )
}

/** Calls an endpoint. See `Endpoint.call`. */
export const call = <E extends Any>(
  endpoint: E,
  input: InputOf<E>
): Effect.Effect<SuccessOf<E>, ErrorOf<E>, RequirementsOf<E>> => Effect.mapError(callKnown(endpoint, input), groupError) as any

/**
 * {@link call} in the given session instead of the context's `Session` (no service provided per
 * call: `Effect.provideService` copies the context and sets it twice). See `Endpoint.callInSession`.
 */
export const callInSession = <E extends Any>(
  endpoint: E,
  input: InputOf<E>,
  session: SessionShape
): Effect.Effect<SuccessOf<E>, ErrorOf<E>, Exclude<RequirementsOf<E>, Session>> => Effect.mapError(callKnown(endpoint, input, session), groupError) as any

/**
 * Calls an endpoint that does not use the session and fails with its known errors as their own
 * classes, not grouped: for the session's refresh grant, which must tell a rejected refresh token
 * (sign out) from the rest (`RefreshError`).
 */
export const callDecoded = <E extends Endpoint<string, EndpointAccess, "none", any, any, any, any, KnownErrorClass>>(
  endpoint: E,
  input: InputOf<E>
): Effect.Effect<SuccessOf<E>, DecodedErrorOf<E>, RequirementsOf<E>> => callKnown(endpoint, input) as any
