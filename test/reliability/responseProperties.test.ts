/**
 * Property tests (effect/Arbitrary): random answers — status, override header, known-error header,
 * content type, body (valid wire bodies from each success schema, mutated ones, known-error
 * envelopes, truncated JSON, random text, empty) — for EVERY endpoint's response schema end in a
 * success or a typed error, never a defect.
 *
 * Two levels: the decoder (`decodeResponse`, many cases) and the whole call path (`Endpoint.call`
 * through the transport, the retry policy, the session and its refresh) over a fake HttpClient.
 */
import { Arbitrary, Effect, Exit, Layer, Schedule, Schema } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import * as Tokens from "../../src/session/RefreshGrant.js"
import * as Access from "../../src/core/Access.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import { commonErrorClasses, decodeResponse } from "../../src/core/internal/call.js"
import { actualStatus } from "../../src/core/internal/transport.js"
import type { KnownErrorClass } from "../../src/core/KnownError.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import { projectId, publishableClientKey, secretServerKey, superSecretAdminKey } from "../support/fixtures.js"
import { collectEndpoints } from "./endpoints.js"
import { signedIn } from "./faults.js"
import * as fc from "./arbitraries.js"
import { classify, count, showOutcome, timeout, watchUnhandledRejections } from "./support.js"

const unhandled = watchUnhandledRejections()
const { endpoints, importFailures } = await collectEndpoints()

const decoderRuns = count(1_200, 10_000)
const callRuns = count(200, 2_500)

/** Failures of any request, whatever the endpoint. */
const transportTags = new Set(["InvalidResponse", "HttpError", "UnsupportedKnownError", "UnexpectedKnownError", "ConnectivityError", "RateLimited"])
const sessionErrorClasses = [KnownErrors.UnparsableAccessToken, KnownErrors.AccessTokenExpired, KnownErrors.InvalidProjectForAccessToken]

const declaredOf = (endpoint: Endpoint.Any): ReadonlyArray<KnownErrorClass> => [
  ...endpoint.errors,
  ...commonErrorClasses(endpoint.access),
  ...(endpoint.session === "none" ? [] : sessionErrorClasses)
]

/**
 * A failure is typed when it is a transport error or an instance of a class the call declares; a
 * grouped error (`ConfigurationError`, `SessionError`) when its `reason` is (a `SessionError`'s may
 * also be a failure of the session's refresh grant).
 */
const isTypedFailure = (error: unknown, declared: ReadonlyArray<KnownErrorClass>, extraTags: ReadonlySet<string>): boolean => {
  if (typeof error !== "object" || error === null || !("_tag" in error)) return false
  const tag = String(error._tag)
  if (tag === "ConfigurationError" && "reason" in error) return isTypedFailure(error.reason, declared, extraTags)
  if (tag === "SessionError" && "reason" in error) return isTypedFailure(error.reason, [...declared, ...Tokens.refreshGrant.errors], extraTags)
  if (transportTags.has(tag) || extraTags.has(tag)) return true
  return declared.some((cls) => error instanceof (cls as unknown as abstract new(...args: Array<never>) => unknown))
}

const json = fc.jsonValue({ maxDepth: 3 })
const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/)
const codes = KnownErrors.all.map((cls) => cls.code)

/** Valid wire bodies of a schema (its encoded side), or any JSON when no arbitrary can be derived. */
const wireBodyCache = new Map<Schema.Top, Arbitrary.Arbitrary<unknown>>()
const wireBodies = (schema: Schema.Top): Arbitrary.Arbitrary<unknown> => {
  const cachedArbitrary = wireBodyCache.get(schema)
  if (cachedArbitrary !== undefined) return cachedArbitrary
  let arbitrary: Arbitrary.Arbitrary<unknown>
  try {
    arbitrary = Arbitrary.schema(Schema.toEncoded(schema as Schema.Codec<unknown, unknown>))
    Effect.runSync(fc.sample(arbitrary, 1))
  } catch {
    arbitrary = json
  }
  wireBodyCache.set(schema, arbitrary)
  return arbitrary
}

/** A known-error body: a declared (or any catalogued, or unknown) code with details of its schema or random. */
const knownErrorBody = (declared: ReadonlyArray<KnownErrorClass>) =>
  fc
    .record({
      cls: fc.constantFrom(...declared, ...KnownErrors.all),
      unknownCode: fc.option(fc.stringMatching(/^[A-Z_]{1,30}$/), { freq: 4 }),
      message: fc.option(fc.string(), { freq: 5 }),
      randomDetails: fc.option(json, { freq: 3 })
    })
    .pipe(fc.chain(({ cls, message, randomDetails, unknownCode }) =>
      wireBodies(cls.detailsSchema).pipe(fc.map((details) => ({
        code: unknownCode ?? cls.code,
        ...(message === null ? {} : { error: message }),
        details: randomDetails ?? details
      })))
    ))

/** One random answer for an endpoint. */
interface RandomAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

const answerCache = new Map<Endpoint.Any, Arbitrary.Arbitrary<RandomAnswer>>()
const answers = (endpoint: Endpoint.Any): Arbitrary.Arbitrary<RandomAnswer> => {
  const cachedAnswers = answerCache.get(endpoint)
  if (cachedAnswers !== undefined) return cachedAnswers
  const built = buildAnswers(endpoint)
  answerCache.set(endpoint, built)
  return built
}

const buildAnswers = (endpoint: Endpoint.Any): Arbitrary.Arbitrary<RandomAnswer> => {
  const declared = declaredOf(endpoint)
  const valid = wireBodies(endpoint.success)
  const body = fc.oneof<string>(
    { weight: 5, arbitrary: valid.pipe(fc.map((value) => JSON.stringify(value) ?? "")) },
    { weight: 3, arbitrary: knownErrorBody(declared).pipe(fc.map((value) => JSON.stringify(value))) },
    { weight: 2, arbitrary: json.pipe(fc.map((value) => JSON.stringify(value))) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).pipe(fc.map(([value, cut]) => {
        const text = JSON.stringify(value) ?? ""
        return text.slice(0, cut % (text.length + 1))
      }))
    },
    { weight: 1, arbitrary: fc.string() },
    { weight: 1, arbitrary: fc.constantFrom("", "null", "[]", "{}", "<html><body>502 Bad Gateway</body></html>", "\u0000\uffff") }
  )
  return fc
    .record({
      status: fc.oneof<number>(
        { weight: 6, arbitrary: fc.constantFrom(200, 201) },
        { weight: 2, arbitrary: fc.constantFrom(400, 401, 403, 404, 409, 429, 500, 502, 503, 508) },
        { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) }
      ),
      actual: fc.option(fc.oneof(fc.integer({ min: 100, max: 599 }).pipe(fc.map(String)), printable), { freq: 3 }),
      knownErrorHeader: fc.option(fc.oneof<string>(fc.constantFrom(...declared.map((cls) => cls.code), ...codes), printable), { freq: 2 }),
      matchBodyCode: fc.boolean(),
      contentType: fc.constantFrom("application/json; charset=utf-8", "application/json", "text/plain; charset=utf-8", "text/html", "application/xml", ""),
      retryAfter: fc.option(fc.oneof(fc.nat({ max: 3 }).pipe(fc.map(String)), printable), { freq: 4 }),
      extra: fc.dictionary(fc.stringMatching(/^x-[a-z-]{1,12}$/), printable, { maxKeys: 3 }),
      body
    })
    .pipe(fc.map(({ actual, body, contentType, extra, knownErrorHeader, matchBodyCode, retryAfter, status }) => {
      const headers: Record<string, string> = { ...extra }
      if (contentType !== "") headers["content-type"] = contentType
      if (actual !== null) headers["x-stack-actual-status"] = actual
      if (retryAfter !== null) headers["retry-after"] = retryAfter
      if (knownErrorHeader !== null) {
        let code = knownErrorHeader
        if (matchBodyCode) {
          try {
            const parsed = JSON.parse(body) as unknown
            if (typeof parsed === "object" && parsed !== null && "code" in parsed && typeof parsed.code === "string") code = parsed.code
          } catch {
            // not JSON: keep the random header
          }
        }
        headers["x-stack-known-error"] = code
      }
      return { status, headers, body }
    }))
}

const endpointArbitrary = fc.constantFrom(...endpoints.map((entry) => entry.endpoint))
const answerFor = endpointArbitrary.pipe(fc.chain((endpoint) => answers(endpoint).pipe(fc.map((answer) => ({ endpoint, answer })))))

describe("the endpoint registry", () => {
  it("every module under src/ loads and the endpoints are found", () => {
    expect(importFailures).toEqual([])
    // 99 SDK definitions existed when this suite was written; more are added over time
    expect(endpoints.length).toBeGreaterThanOrEqual(99)
  })
})

describe("decoding random answers (decodeResponse)", () => {
  it(
    `${decoderRuns} random answers over ${endpoints.length} endpoints: success or a typed error, never a defect`,
    () => {
      const tally = { success: 0, failure: 0 }
      Effect.runSync(fc.check(
        answerFor,
        ({ endpoint, answer }) => {
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = value
          const response = {
            status: actualStatus(answer.status, headers),
            headers,
            text: answer.body,
            method: endpoint.method,
            url: `http://stack.test/api/v1${endpoint.path}`
          }
          const declared = declaredOf(endpoint)
          let exit: Exit.Exit<unknown, unknown>
          try {
            exit = Effect.runSyncExit(decodeResponse(endpoint.name, response, endpoint.success, declared))
          } catch (thrown) {
            throw new Error(`${endpoint.name}: decodeResponse threw ${String(thrown)}`)
          }
          const outcome = classify(exit)
          if (outcome._tag === "Success") tally.success++
          else tally.failure++
          if (outcome._tag === "Defect") throw new Error(`${endpoint.name}: ${showOutcome(outcome)}`)
          if (outcome._tag === "Failure" && !isTypedFailure(outcome.error, declared, new Set())) {
            throw new Error(`${endpoint.name}: untyped failure ${showOutcome(outcome)}`)
          }
          return true
        },
        { runs: decoderRuns }
      ))
      // the generator really produces decodable bodies, not only garbage
      expect(tally.success).toBeGreaterThan(decoderRuns / 50)
      expect(tally.success + tally.failure).toBe(decoderRuns)
    },
    timeout(120_000, 240_000)
  )
})

/** Zero-delay retries with the default decisions (429, 508 marker, idempotent network failures). */
const instantRetries = Layer.succeed(RetryPolicy.RetryPolicy, {
  schedule: Schedule.recurs(RetryPolicy.maxAttempts - 1)
})

/** A fake HttpClient answering every request with `next()`. */
const fakeHttpClient = (next: () => RandomAnswer, sent: { count: number }) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.sync(() => {
        sent.count++
        const answer = next()
        const nullBody = answer.status === 204 || answer.status === 205 || answer.status === 304
        return HttpClientResponse.fromWeb(request, new Response(nullBody ? null : answer.body, { status: answer.status, headers: answer.headers }))
      })
    )
  )

/**
 * The endpoint without input schemas: the call path is exercised without generating inputs. Path
 * parameters get a fixed segment (an empty one is refused before sending, as a dot segment is).
 */
const withoutInput = (endpoint: Endpoint.Any): Endpoint.Any => ({
  ...endpoint,
  path: endpoint.path.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, "x"),
  params: undefined,
  query: undefined,
  payload: undefined
})

describe("random answers through the whole call path (Endpoint.call over a fake HttpClient)", () => {
  it(
    `${callRuns} calls over ${endpoints.length} endpoints, each answered (and re-answered on retries and refreshes) at random`,
    async () => {
      let calls = 0
      let requests = 0
      // 16 answers per call: one more than the most requests a call may send (checked below)
      await Effect.runPromise(fc.check(
        fc.tuple(endpointArbitrary, fc.array(answerFor, { minLength: 16, maxLength: 16 })),
        ([endpoint, stream]) =>
          Effect.promise(async () => {
            calls++
            const sent = { count: 0 }
            const next = () => stream[sent.count % stream.length]!.answer
            const layer = Layer.mergeAll(
              Stack.layerClient({
                projectId,
                baseUrl: "http://stack.test",
                publishableClientKey,
                httpClient: fakeHttpClient(next, sent),
                retryPolicy: instantRetries,
                tokenStore: TokenStore.layerMemory(signedIn)
              }),
              Access.layerServer(secretServerKey),
              Access.layerAdminKey(superSecretAdminKey)
            ).pipe(Layer.orDie)
            const program = Endpoint.call(withoutInput(endpoint), {} as never) as Effect.Effect<unknown, unknown, Layer.Success<typeof layer>>
            const exit = await Effect.runPromiseExit(program.pipe(Effect.provide(layer)))
            requests += sent.count
            const outcome = classify(exit)
            if (outcome._tag === "Defect") throw new Error(`${endpoint.name}: ${showOutcome(outcome)}`)
            if (outcome._tag === "Failure") {
              const extra = new Set(["UserNotSignedIn", "InvalidArgument", "RefreshTokenNotFoundOrExpired"])
              if (!isTypedFailure(outcome.error, declaredOf(endpoint), extra)) throw new Error(`${endpoint.name}: untyped failure ${showOutcome(outcome)}`)
            }
            // at most: 5 attempts, a retry after an invalid token, and a refresh of 5 attempts
            if (sent.count > 15) throw new Error(`${endpoint.name}: ${sent.count} requests for one call`)
            return true
          }),
        { runs: callRuns }
      ))
      expect(calls).toBe(callRuns)
      expect(requests).toBeGreaterThanOrEqual(callRuns)
    },
    timeout(120_000, 240_000)
  )
})

describe("no unhandled rejection", () => {
  it("none was raised during the property runs", () => {
    expect(unhandled).toEqual([])
  })
})
