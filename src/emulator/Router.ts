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
import { Effect, Result, Schema, SchemaParser } from "effect"
import type { SchemaAST, SchemaIssue } from "effect"
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
import { describeProblems, parseOptions } from "./SchemaProblems.js"
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
  `404 — this page does not exist in Stack Auth's API.\n\nPlease see the API documentation at https://docs.stack-auth.com, or visit the Stack Auth dashboard at https://app.stack-auth.com.\n\nURL: ${url}`

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

/** The service's problem lines of a failed decode (`SchemaProblems.ts`). */
export { describeProblems }

const decodeWith = (
  schema: Schema.Codec<unknown, unknown>,
  input: unknown,
  options: SchemaAST.ParseOptions
): Result.Result<unknown, SchemaIssue.Issue> => SchemaParser.decodeUnknownResult(schema)(input, options)

const levelOf = (access: Endpoint.EndpointAccess): number => access === "none" ? -1 : (accessTypes as ReadonlyArray<string>).indexOf(access)

/** Picks the entries for the request's access type: equal, else the highest below; `"none"` entries take anything. */
const selectByAccess = (
  entries: ReadonlyArray<Route>,
  auth: Auth | null
): Result.Result<ReadonlyArray<Route>, KnownErrorInstance> => {
  const open = entries.filter((entry) => entry.endpoint.access === "none")
  if (open.length > 0) return Result.succeed(open)
  if (auth === null) return Result.fail(new AccessTypeRequired({ message: accessTypeRequiredText, details: {} }))
  const level = levelOf(auth.type)
  const exact = entries.filter((entry) => entry.endpoint.access === auth.type)
  if (exact.length > 0) return Result.succeed(exact)
  const below = entries.filter((entry) => levelOf(entry.endpoint.access) < level)
  if (below.length > 0) {
    const best = Math.max(...below.map((entry) => levelOf(entry.endpoint.access)))
    return Result.succeed(below.filter((entry) => levelOf(entry.endpoint.access) === best))
  }
  const lowest = Math.min(...entries.map((entry) => levelOf(entry.endpoint.access)))
  const allowed = accessTypes.filter((_, index) => index >= lowest)
  return Result.fail(
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
      const read = yield* Effect.result(readBody(request, method, environment.env.settings.maxRequestBodyBytes))
      if (Result.isFailure(read)) return answer(knownErrorResponse(read.failure))
      if (read.success._tag === "TooLarge") return answer(textResponse(413, bodyTooLargeText(read.success.limit)))
      if (read.success._tag === "TooDeep") {
        return answer(knownErrorResponse(schemaError({ method, path: pathname }, [`body is nested more than ${maxJsonDepth} levels deep`])))
      }
      const body: Body = read.success

      // from authentication to the answer, one request at a time (Store.serialized): what a
      // handler checks is still true when it writes, even when it yields in between
      const permit = <A, E2, R>(effect: Effect.Effect<A, E2, R>) =>
        first.options.withoutWritePermit === true ? effect : serialized(environment.env.state, effect)
      return yield* permit(
        Effect.gen(function* () {
          let auth: Auth | null = null
          if (first.options.skipProjectAuth !== true) {
            const resolved = yield* Effect.result(
              resolveProjectAuth({ header, state: environment.env.state, nowMillis: environment.nowMillis })
            )
            if (Result.isFailure(resolved)) return answer(failureResponse(resolved.failure))
            auth = resolved.success
          }

          const selected = selectByAccess(
            withMethod.map((m) => m.entry),
            auth
          )
          if (Result.isFailure(selected)) return answer(knownErrorResponse(selected.failure))

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
          for (const entry of selected.success) {
            const { endpoint, options } = entry
            const reject = options.rejectUnknownKeys !== false
            const decodeOptions = parseOptions(reject)
            const problems: Array<string> = []
            const decodedParams = endpoint.params === undefined ? Result.succeed(undefined) : decodeWith(endpoint.params, params, decodeOptions)
            if (Result.isFailure(decodedParams)) problems.push(...describeProblems("params", params, decodedParams.failure, decodeOptions))
            // an empty Struct accepts any key, so a route without a query schema checks the keys itself
            const decodedQuery = endpoint.query === undefined ? Result.succeed(undefined) : decodeWith(endpoint.query, query, decodeOptions)
            if (Result.isFailure(decodedQuery)) problems.push(...describeProblems("query", query, decodedQuery.failure, decodeOptions))
            const queryKeys = Object.keys(query)
            if (endpoint.query === undefined && reject && queryKeys.length > 0) {
              problems.push(`query contains unknown properties: ${queryKeys.join(", ")}`)
            }
            let decodedPayload: Result.Result<unknown, SchemaIssue.Issue> = Result.succeed(undefined)
            let payloadInput: unknown = undefined
            if (endpoint.payload !== undefined) {
              payloadInput = body._tag === "Value" ? body.value : options.emptyBody
              decodedPayload = decodeWith(endpoint.payload, payloadInput, decodeOptions)
              if (Result.isFailure(decodedPayload)) problems.push(...describeProblems("body", payloadInput, decodedPayload.failure, decodeOptions))
            }
            if (problems.length > 0 || Result.isFailure(decodedParams) || Result.isFailure(decodedQuery) || Result.isFailure(decodedPayload)) {
              firstFailure ??= problems
              continue
            }
            const input: RouteInput<unknown, unknown, unknown> = {
              params: decodedParams.success,
              query: decodedQuery.success,
              payload: decodedPayload.success
            }
            const outcome = yield* Effect.result(entry.handler(input, context))
            if (Result.isFailure(outcome)) return answer(failureResponse(outcome.failure), entry)
            if (outcome.success instanceof Response) return answer(outcome.success, entry)
            const encoded = yield* Schema.encodeUnknownEffect(endpoint.success)(outcome.success).pipe(Effect.orDie)
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
          return answer(knownErrorResponse(schemaError(context, firstFailure ?? ["invalid request"])), selected.success[0])
        })
      )
    })
  return { routes, dispatch }
}
