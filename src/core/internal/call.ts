import { Effect, Option, ParseResult, Schema } from "effect"
import { AdminAccess, ServerAccess } from "../Access.js"
import type { Any, EndpointAccess, ErrorOf, InputOf, RequirementsOf, SuccessOf } from "../Endpoint.js"
import { fillPath } from "./path.js"
import { HttpError, InvalidArgument, InvalidResponse, UnsupportedKnownError, UserNotSignedIn } from "../Errors.js"
import type { KnownErrorClass } from "../KnownError.js"
import * as KnownErrors from "../KnownErrors.js"
import { StackClient } from "../StackClient.js"
import type { RequestCredentials, StackResponse } from "../StackClient.js"
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
    return Schema.decodeUnknown(cls.detailsSchema)(value.details ?? {}).pipe(
      Effect.mapError((error) => invalid(response, `${name}: details of ${headerCode} did not match at ${issuePaths(error)}`)),
      Effect.flatMap((details) => Effect.fail(new cls({ message, details })))
    )
  }
  if (response.status >= 200 && response.status < 300) {
    const body = response.text.length === 0 ? Option.some<unknown>({}) : parseJson(response.text)
    if (Option.isNone(body)) {
      return Effect.fail(invalid(response, `${name}: the response body is not valid JSON`))
    }
    return Schema.decodeUnknown(success)(body.value).pipe(
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

const encodeInput = <A, I>(schema: Schema.Schema<A, I> | undefined, value: unknown, argument: string) =>
  schema === undefined
    ? Effect.succeed(undefined)
    : Schema.encodeUnknown(schema)(value).pipe(
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

/** Calls an endpoint. See `Endpoint.call`. */
export const call = <E extends Any>(
  endpoint: E,
  input: InputOf<E>
): Effect.Effect<SuccessOf<E>, ErrorOf<E>, RequirementsOf<E>> => {
  const declared = [...endpoint.errors, ...commonErrorClasses(endpoint.access), ...(endpoint.session === "none" ? [] : sessionErrorClasses)]
  const raw = input as { readonly params?: unknown; readonly query?: unknown; readonly payload?: unknown }
  const program = Effect.gen(function* () {
    const client = yield* StackClient
    const params = yield* encodeInput(endpoint.params, raw.params, "path parameters")
    const query = yield* encodeInput(endpoint.query, raw.query, "query")
    const payload = yield* encodeInput(endpoint.payload, raw.payload, "payload")
    const path = fillPath(endpoint.path, params ?? {}) + queryString(query)

    const keys: { -readonly [K in keyof RequestCredentials]: RequestCredentials[K] } = {}
    if (endpoint.access === "server") {
      keys.secretServerKey = (yield* ServerAccess).secretServerKey
    } else if (endpoint.access === "admin") {
      const credential = yield* (yield* AdminAccess).credential
      if (credential._tag === "AdminKey") keys.superSecretAdminKey = credential.superSecretAdminKey
      else keys.adminAccessToken = credential.accessToken
    }
    const body =
      endpoint.payload === undefined
        ? undefined
        : endpoint.payloadEncoding === "form"
          ? { _tag: "Form" as const, value: payload as Record<string, string> }
          : { _tag: "Json" as const, value: payload }

    const attempt = (retried: boolean): Effect.Effect<unknown, unknown, Session> =>
      Effect.gen(function* () {
        const credentials: RequestCredentials = { ...keys }
        let sentAccessToken: Option.Option<import("effect").Redacted.Redacted<string>> = Option.none()
        if (endpoint.session !== "none") {
          const session = yield* Session
          const tokens = yield* session.requestTokens
          if (endpoint.session === "required" && Option.isNone(tokens.accessToken)) {
            return yield* Effect.fail(UserNotSignedIn.make())
          }
          sentAccessToken = tokens.accessToken
          Object.assign(credentials, {
            accessToken: Option.getOrUndefined(tokens.accessToken),
            refreshToken: Option.getOrUndefined(tokens.refreshToken)
          })
        }
        const response = yield* client.send({ method: endpoint.method, path, access: endpoint.access, body, credentials })
        return yield* decodeResponse(endpoint.name, response, endpoint.success, declared).pipe(
          Effect.catchIf(
            (error) =>
              !retried &&
              Option.isSome(sentAccessToken) &&
              typeof error === "object" &&
              error !== null &&
              "code" in error &&
              KnownErrors.invalidAccessTokenCodes.has(String(error.code)),
            () =>
              Effect.gen(function* () {
                const session = yield* Session
                if (Option.isSome(sentAccessToken)) yield* session.markAccessTokenExpired(sentAccessToken.value)
                return yield* attempt(true)
              })
          )
        )
      })
    return yield* attempt(false)
  })
  return program.pipe(Effect.withSpan(endpoint.name, { attributes: { "stack.endpoint": `${endpoint.method} ${endpoint.path}` } })) as any
}
