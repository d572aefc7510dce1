/**
 * Routes derived from endpoint definitions. A route is `route(endpoint, handler, options?)`: the
 * router matches the endpoint's method and path pattern, resolves project authentication, picks
 * the entry for the request's access type (equal, else the highest one below it: admin ⊇ server ⊇
 * client), decodes path parameters, query and payload FROM THE WIRE with the endpoint's schemas
 * (unknown keys → SCHEMA_ERROR), calls the handler with the domain input, and encodes the
 * handler's domain result with the endpoint's success schema, answering `successStatus`.
 *
 * Several entries with the same method, path and access are overloads: the first whose input
 * decodes handles the request.
 *
 * @module
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import type * as Endpoint from "../core/Endpoint.js"
import { matchPath } from "../core/Endpoint.js"
import type { KnownErrorInstance } from "../core/KnownError.js"
import { AccessTypeRequired, BodyParsingError, InsufficientAccessType } from "../core/KnownErrors.js"
import { maxJsonDepth, parseJson } from "./Json.js"
import type { AccessType, Auth } from "./ProjectAuth.js"
import { accessTypes, headerReader, resolveProjectAuth } from "./ProjectAuth.js"
import type { EmulatorEnv, RequestContext } from "./RequestContext.js"
import { schemaError } from "./RequestContext.js"
import type { HandlerFailure, JsonFailure, TextFailure } from "./Responses.js"
import { failureResponse, jsonResponse, knownErrorResponse, textResponse } from "./Responses.js"
import { serialized } from "./Store.js"

/** How a route answers and decodes beyond its endpoint definition. */
export interface RouteOptions {
  /** Reject unknown keys in body, query and path parameters (default true). */
  readonly rejectUnknownKeys?: boolean
  /** Apply the override-error-status rewrite when asked (default true). */
  readonly overrideErrorStatus?: boolean
  /** `cache-control` of a successful answer (default `no-store, max-age=0`). */
  readonly cacheControl?: string
  /** Extra headers of a successful answer. */
  readonly headers?: Readonly<Record<string, string>>
  /** `"text"`: the encoded success is a string answered as `text/plain`. Default JSON. */
  readonly responseType?: "json" | "text"
  /** The payload decoded when the request has no body (e.g. `{}` where the body is optional). */
  readonly emptyBody?: unknown
  /** Skip project authentication (emulator-only routes). */
  readonly skipProjectAuth?: boolean
  /**
   * Run without the state's write permit (default false): only for a handler that waits on the
   * outside world (a network check) and writes nothing but an atomic append, so that it does not
   * hold every other request back meanwhile.
   */
  readonly withoutWritePermit?: boolean
}

/** The decoded input of a handler. */
export interface RouteInput<Params, Query, Payload> {
  readonly params: Params
  readonly query: Query
  readonly payload: Payload
}

/**
 * What the handler of an endpoint may fail with: the endpoint's declared errors, the common errors
 * of its access level (`SCHEMA_ERROR`, wrong keys…), `INVALID_ACCESS_TOKEN` when it uses the
 * session, and the plain (text or JSON) failures the service answers without a known-error code.
 * A route that answers a known error its endpoint does not declare does not compile: the SDK's
 * endpoint lacks an `errors:` entry, or the route serves another access level through it.
 */
export type RouteFailure<E extends Endpoint.Any> = E extends Endpoint.Endpoint<any, infer Access, infer Use, any, any, any, any, infer Errors>
  ? InstanceType<Errors> | Endpoint.CommonErrors<Access> | Endpoint.SessionErrors<Use> | TextFailure | JsonFailure
  : never

/** A handler for an endpoint: domain input in, domain success out, failures among {@link RouteFailure}. */
export type Handler<E extends Endpoint.Any> = E extends Endpoint.Endpoint<any, any, any, infer Params, infer Query, infer Payload, infer Success, any>
  ? (input: RouteInput<Params, Query, Payload>, context: RequestContext) => Effect.Effect<Success, RouteFailure<E>>
  : never

/** One route entry. */
export interface Route {
  readonly endpoint: Endpoint.Any
  readonly handler: (input: RouteInput<any, any, any>, context: RequestContext) => Effect.Effect<unknown, HandlerFailure>
  readonly options: RouteOptions
}

/** Declares the route of an endpoint. */
export const route = <E extends Endpoint.Any>(endpoint: E, handler: Handler<E>, options: RouteOptions = {}): Route => ({
  endpoint,
  handler: handler as Route["handler"],
  options
})

/** The result of dispatching a request: the response, and the route that answered (if any). */
export interface Dispatched {
  readonly response: Response
  readonly route: Route | undefined
}

/** A request body after content-type handling. */
type Body = { readonly _tag: "None" } | { readonly _tag: "Value"; readonly value: unknown }

const apiPrefix = "/api/v1"

/** The service serves `/api/latest/*` as an alias of `/api/v1/*`. */
const latestPrefix = "/api/latest"

/**
 * The `/api/v1` path of a request path: `/api/latest…` (an alias the service serves) becomes
 * `/api/v1…`; any other path is returned unchanged. Access checks read this path, so the alias
 * reaches nothing the `/api/v1` path does not.
 */
export const canonicalApiPath = (pathname: string): string =>
  pathname === latestPrefix || pathname.startsWith(`${latestPrefix}/`) ? `${apiPrefix}${pathname.slice(latestPrefix.length)}` : pathname

/**
 * The service's ACCESS_TYPE_REQUIRED message, word for word (wire sample users/17: "…for this
 * Stack project…").
 */
export const accessTypeRequiredText =
  "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication"

/** The 404 text of an unknown path. */
export const notFoundText = (url: string): string =>
  `404 — this page does not exist in Stack Auth's API.\n\nPlease see the API documentation at https://docs.stack-auth.com, or visit the Stack Auth dashboard at https://app.stack-auth.com\n\nURL: ${url}`

/** How many levels of arrays and objects a JSON request body may nest (deeper: SCHEMA_ERROR); the bound of every JSON the emulator reads (`Json.ts`). */
export { maxJsonDepth }

/** Why a body was not read: too many bytes (answered 413) or nested too deeply (SCHEMA_ERROR). */
type BodyRefusal = { readonly _tag: "TooLarge"; readonly limit: number } | { readonly _tag: "TooDeep" }

/**
 * Reads at most `limit` bytes of a body as UTF-8 text; undefined when it is longer (a declared
 * `content-length` over the limit is refused without reading).
 */
const readLimitedText = (request: Request, limit: number): Effect.Effect<string | undefined, KnownErrorInstance> =>
  Effect.tryPromise({
    try: async () => {
      const declared = Number(request.headers.get("content-length") ?? "")
      if (Number.isFinite(declared) && declared > limit) return undefined
      if (request.body === null) return ""
      const reader = request.body.getReader()
      const chunks: Array<Uint8Array> = []
      let size = 0
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > limit) {
          await reader.cancel().catch(() => undefined)
          return undefined
        }
        chunks.push(value)
      }
      const bytes = new Uint8Array(size)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.byteLength
      }
      return new TextDecoder().decode(bytes)
    },
    catch: () => new BodyParsingError({ message: "The request body could not be read", details: {} }) as KnownErrorInstance
  })

const readBody = (
  request: Request,
  method: string,
  limit: number
): Effect.Effect<Body | BodyRefusal, KnownErrorInstance> =>
  Effect.gen(function* () {
    if (method === "GET" || method === "HEAD") return { _tag: "None" } as const
    const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase()
    const text = yield* readLimitedText(request, limit)
    if (text === undefined) return { _tag: "TooLarge", limit } as const
    if (contentType === undefined || contentType === "") return { _tag: "None" } as const
    switch (contentType) {
      case "application/json": {
        if (text.trim() === "") return { _tag: "None" } as const
        // bounded before parsing: deeply nested values overflow the stack of whoever walks them
        const parsed = parseJson(text)
        if (parsed._tag === "Invalid") return yield* Effect.fail(new BodyParsingError({ message: "Invalid JSON in request body", details: {} }))
        return parsed
      }
      case "application/x-www-form-urlencoded":
        // own properties whatever the key (`__proto__`, `constructor`): no prototype lookups
        return { _tag: "Value", value: Object.fromEntries(new URLSearchParams(text)) } as const
      case "text/plain":
      case "application/octet-stream":
        return text === "" ? ({ _tag: "None" } as const) : ({ _tag: "Value", value: text } as const)
      default:
        return yield* Effect.fail(
          new BodyParsingError({ message: `Unknown content type in request body: ${contentType}`, details: {} })
        )
    }
  })

/** The 413 text of a request body over the emulator's limit. */
export const bodyTooLargeText = (limit: number): string =>
  `Request body too large: the emulator accepts at most ${limit} bytes (EmulatorOptions.maxRequestBodyBytes).`

const typeNames: Readonly<Record<string, string>> = {
  string: "string",
  number: "number",
  boolean: "boolean",
  null: "null"
}

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current = root
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

const showPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string =>
  [prefix, ...path.map((key) => (typeof key === "number" ? `[${key}]` : String(key)))].join(".").replace(/\.\[/g, "[")

/** Turns a parse error into the service's problem lines (`body contains unknown properties: x`, `body.x must be …`). */
export const describeProblems = (prefix: string, input: unknown, error: ParseResult.ParseError): ReadonlyArray<string> => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const problems: Array<string> = []
  const unknownByParent = new Map<string, Array<string>>()
  const typeByPath = new Map<string, { path: ReadonlyArray<PropertyKey>; expected: Array<string> }>()
  for (const issue of issues) {
    if (issue._tag === "Unexpected") {
      const parent = showPath(prefix, issue.path.slice(0, -1))
      const list = unknownByParent.get(parent) ?? []
      list.push(String(issue.path[issue.path.length - 1]))
      unknownByParent.set(parent, list)
    } else if (issue._tag === "Missing") {
      problems.push(`${showPath(prefix, issue.path)} must be defined`)
    } else if (issue._tag === "Type") {
      const key = showPath(prefix, issue.path)
      const entry = typeByPath.get(key) ?? { path: issue.path, expected: [] }
      const match = /^Expected (.+?), actual/.exec(issue.message)
      entry.expected.push(match?.[1] ?? issue.message)
      typeByPath.set(key, entry)
    } else if (/^Expected a string at least 1 character\(s\) long/.test(issue.message)) {
      // the service's wording for an empty string where one is required (`body.email must not be empty`)
      problems.push(`${showPath(prefix, issue.path)} must not be empty`)
    } else {
      const separator = issue.message.startsWith("must ") ? " " : ": "
      problems.push(`${showPath(prefix, issue.path)}${separator}${issue.message}`)
    }
  }
  for (const [key, entry] of typeByPath) {
    const value = valueAt(input, entry.path)
    if (value === undefined && entry.path.length === 0) {
      problems.push(`${key} must be defined`)
      continue
    }
    const expected = entry.expected.filter((e) => e !== "undefined")
    const primary = expected.find((e) => e !== "null") ?? expected[0] ?? "value"
    const name = typeNames[primary] ?? (primary.startsWith("{") || primary.startsWith("Struct") ? "object" : primary)
    problems.push(`${key} must be a \`${name}\` type, but the final value was: \`${JSON.stringify(value)}\`.`)
  }
  const unknownProblems = [...unknownByParent].map(([parent, keys]) => `${parent} contains unknown properties: ${keys.join(", ")}`)
  return [...unknownProblems, ...problems]
}

const decodeWith = (
  schema: Schema.Schema<any, any, never>,
  input: unknown,
  rejectUnknownKeys: boolean
): Either.Either<unknown, ParseResult.ParseError> =>
  Schema.decodeUnknownEither(schema)(input, { onExcessProperty: rejectUnknownKeys ? "error" : "ignore", errors: "all" })

const levelOf = (access: Endpoint.EndpointAccess): number => access === "none" ? -1 : (accessTypes as ReadonlyArray<string>).indexOf(access)

/** Picks the entries for the request's access type: equal, else the highest below; `"none"` entries take anything. */
const selectByAccess = (
  entries: ReadonlyArray<Route>,
  auth: Auth | null
): Either.Either<ReadonlyArray<Route>, KnownErrorInstance> => {
  const open = entries.filter((entry) => entry.endpoint.access === "none")
  if (open.length > 0) return Either.right(open)
  if (auth === null) return Either.left(new AccessTypeRequired({ message: accessTypeRequiredText, details: {} }))
  const level = levelOf(auth.type)
  const exact = entries.filter((entry) => entry.endpoint.access === auth.type)
  if (exact.length > 0) return Either.right(exact)
  const below = entries.filter((entry) => levelOf(entry.endpoint.access) < level)
  if (below.length > 0) {
    const best = Math.max(...below.map((entry) => levelOf(entry.endpoint.access)))
    return Either.right(below.filter((entry) => levelOf(entry.endpoint.access) === best))
  }
  const lowest = Math.min(...entries.map((entry) => levelOf(entry.endpoint.access)))
  const allowed = accessTypes.filter((_, index) => index >= lowest)
  return Either.left(
    InsufficientAccessType.make({ actual_access_type: auth.type, allowed_access_types: allowed as Array<AccessType> })
  )
}

/** Dispatches requests to a fixed set of routes. */
export interface Router {
  readonly routes: ReadonlyArray<Route>
  /** Answers one request (never fails; unexpected defects are left to the caller's 500 handler). */
  readonly dispatch: (
    request: Request,
    environment: { readonly env: EmulatorEnv; readonly nowMillis: number; readonly requestId: string }
  ) => Effect.Effect<Dispatched>
}

/** Builds a router over routes (order matters only among overloads). */
export const make = (routes: ReadonlyArray<Route>): Router => {
  const dispatch: Router["dispatch"] = (request, environment) =>
    Effect.gen(function* () {
      const url = new URL(request.url)
      const method = request.method.toUpperCase()
      let pathname = url.pathname
      const canonical = canonicalApiPath(pathname)
      if (canonical !== apiPrefix && !canonical.startsWith(`${apiPrefix}/`)) {
        return { response: textResponse(404, notFoundText(url.href)), route: undefined }
      }
      let subPath = canonical.slice(apiPrefix.length)
      if (subPath.length > 1 && subPath.endsWith("/")) subPath = subPath.slice(0, -1)
      if (subPath === "") subPath = "/"
      if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1)

      const candidates = routes
        .map((entry) => ({ entry, params: matchPath(entry.endpoint.path, subPath) }))
        .filter((m): m is { entry: Route; params: Record<string, string> } => m.params !== undefined)
      if (candidates.length === 0) return { response: textResponse(404, notFoundText(url.href)), route: undefined }
      // a literal segment beats a parameter: `/users/me` is not `/users/:user_id`
      const specificity = (pattern: string) => pattern.split("/").filter((part) => !part.startsWith(":")).length
      const best = Math.max(...candidates.map((m) => specificity(m.entry.endpoint.path)))
      const matching = candidates.filter((m) => specificity(m.entry.endpoint.path) === best)
      const withMethod = matching.filter((m) => m.entry.endpoint.method === method)
      if (withMethod.length === 0) {
        const allow = [...new Set(matching.map((m) => m.entry.endpoint.method))].join(", ")
        return { response: new Response(null, { status: 405, headers: { allow } }), route: undefined }
      }
      const first = withMethod[0]!.entry
      const answer = (response: Response, route: Route = first): Dispatched => ({ response, route })

      const header = headerReader(request.headers)
      const read = yield* Effect.either(readBody(request, method, environment.env.settings.maxRequestBodyBytes))
      if (Either.isLeft(read)) return answer(knownErrorResponse(read.left))
      if (read.right._tag === "TooLarge") return answer(textResponse(413, bodyTooLargeText(read.right.limit)))
      if (read.right._tag === "TooDeep") {
        return answer(knownErrorResponse(schemaError({ method, path: pathname }, [`body is nested more than ${maxJsonDepth} levels deep`])))
      }
      const body: Body = read.right

      // from authentication to the answer, one request at a time (Store.serialized): what a
      // handler checks is still true when it writes, even when it yields in between
      const permit = <A, E2, R>(effect: Effect.Effect<A, E2, R>) =>
        first.options.withoutWritePermit === true ? effect : serialized(environment.env.state, effect)
      return yield* permit(
        Effect.gen(function* () {
          let auth: Auth | null = null
          if (first.options.skipProjectAuth !== true) {
            const resolved = yield* Effect.either(
              resolveProjectAuth({ header, state: environment.env.state, nowMillis: environment.nowMillis })
            )
            if (Either.isLeft(resolved)) return answer(failureResponse(resolved.left))
            auth = resolved.right
          }

          const selected = selectByAccess(
            withMethod.map((m) => m.entry),
            auth
          )
          if (Either.isLeft(selected)) return answer(knownErrorResponse(selected.left))

          const context: RequestContext = {
            request,
            url,
            method,
            path: pathname,
            apiBase: environment.env.settings.baseUrl ?? url.origin,
            nowMillis: environment.nowMillis,
            requestId: environment.requestId,
            header,
            auth,
            env: environment.env
          }

          // own properties whatever the key (`__proto__`, `constructor`): no prototype lookups
          const query: Record<string, string> = Object.fromEntries(url.searchParams)
          const params = withMethod[0]!.params

          let firstFailure: ReadonlyArray<string> | undefined
          for (const entry of selected.right) {
            const { endpoint, options } = entry
            const reject = options.rejectUnknownKeys !== false
            const problems: Array<string> = []
            const decodedParams = endpoint.params === undefined ? Either.right(undefined) : decodeWith(endpoint.params, params, reject)
            if (Either.isLeft(decodedParams)) problems.push(...describeProblems("params", params, decodedParams.left))
            // an empty Struct accepts any key, so a route without a query schema checks the keys itself
            const decodedQuery = endpoint.query === undefined ? Either.right(undefined) : decodeWith(endpoint.query, query, reject)
            if (Either.isLeft(decodedQuery)) problems.push(...describeProblems("query", query, decodedQuery.left))
            const queryKeys = Object.keys(query)
            if (endpoint.query === undefined && reject && queryKeys.length > 0) {
              problems.push(`query contains unknown properties: ${queryKeys.join(", ")}`)
            }
            let decodedPayload: Either.Either<unknown, ParseResult.ParseError> = Either.right(undefined)
            let payloadInput: unknown = undefined
            if (endpoint.payload !== undefined) {
              payloadInput = body._tag === "Value" ? body.value : options.emptyBody
              decodedPayload = decodeWith(endpoint.payload, payloadInput, reject)
              if (Either.isLeft(decodedPayload)) problems.push(...describeProblems("body", payloadInput, decodedPayload.left))
            }
            if (problems.length > 0 || Either.isLeft(decodedParams) || Either.isLeft(decodedQuery) || Either.isLeft(decodedPayload)) {
              firstFailure ??= problems
              continue
            }
            const input: RouteInput<unknown, unknown, unknown> = {
              params: decodedParams.right,
              query: decodedQuery.right,
              payload: decodedPayload.right
            }
            const outcome = yield* Effect.either(entry.handler(input, context))
            if (Either.isLeft(outcome)) return answer(failureResponse(outcome.left), entry)
            if (outcome.right instanceof Response) return answer(outcome.right, entry)
            const encoded = yield* Schema.encodeUnknown(endpoint.success)(outcome.right).pipe(Effect.orDie)
            const pretty = (request.headers.get("accept") ?? "").includes("text/html")
            const headers = {
              ...options.headers,
              ...(options.cacheControl !== undefined ? { "cache-control": options.cacheControl } : {})
            }
            const response = options.responseType === "text"
              ? textResponse(endpoint.successStatus, String(encoded), headers)
              : jsonResponse(endpoint.successStatus, encoded, { pretty, headers })
            return answer(response, entry)
          }
          return answer(knownErrorResponse(schemaError(context, firstFailure ?? ["invalid request"])), selected.right[0])
        })
      )
    })
  return { routes, dispatch }
}
