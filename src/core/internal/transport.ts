/**
 * The transport behind `StackClient`: one logical request as HTTP exchanges with the service,
 * through the app's `HttpClient` (`effect/http`), retried by the `RetryPolicy`'s schedule with
 * `Effect.retry`, each attempt bounded by `Effect.timeoutOrElse`.
 *
 * @module
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import { ConnectivityError, HttpError, InvalidResponse, RateLimited } from "../Errors.js"
import { defaultAttemptTimeout, defaultMaxResponseBytes, defaultMaxRetryAfter, RetryPolicy } from "../RetryPolicy.js"
import type { RetrySignal } from "../RetryPolicy.js"
import { StackConfig } from "../StackConfig.js"
import { secretHeaderNames, secretQueryParamNames } from "./exchange.js"
import type { SendError, StackClientShape, StackRequest, StackResponse } from "./exchange.js"
import { isHeaderSafe } from "./headerText.js"
import { randomNonce } from "./nonce.js"
import { utf8Text } from "./utf8.js"

const idempotentMethods: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])

/** The marker of a hosting platform's loop glitch in a 508 body. */
export const infiniteLoopMarker = "INFINITE_LOOP_DETECTED"

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/**
 * The three forms of an HTTP-date (RFC 9110 §5.6.7), always GMT: IMF-fixdate
 * (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
 * and asctime's (`Sun Nov  6 08:49:37 1994`).
 */
const imfFixdate = /^[A-Z][a-z]{2}, (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/
const rfc850Date = /^[A-Z][a-z]+, (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/
const asctimeDate = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/

/**
 * The epoch milliseconds of an HTTP-date; `undefined` for any other text or an impossible date.
 * `nowMillis` places an RFC 850 date's two-digit year.
 */
export const parseHttpDate = (text: string, nowMillis: number): number | undefined => {
  const parts = (() => {
    const imf = imfFixdate.exec(text)
    if (imf !== null) return { day: imf[1]!, month: imf[2]!, year: Number(imf[3]), time: [imf[4]!, imf[5]!, imf[6]!] }
    const rfc850 = rfc850Date.exec(text)
    if (rfc850 !== null) {
      // two-digit years: the most recent year with those digits, no more than 50 years ahead (RFC 9110 §5.6.7)
      const twoDigits = Number(rfc850[3])
      const thisYear = new Date(nowMillis).getUTCFullYear()
      let year = thisYear - (thisYear % 100) + twoDigits
      if (year > thisYear + 50) year -= 100
      return { day: rfc850[1]!, month: rfc850[2]!, year, time: [rfc850[4]!, rfc850[5]!, rfc850[6]!] }
    }
    const asctime = asctimeDate.exec(text)
    if (asctime !== null) return { day: asctime[2]!.trim(), month: asctime[1]!, year: Number(asctime[6]), time: [asctime[3]!, asctime[4]!, asctime[5]!] }
    return undefined
  })()
  if (parts === undefined) return undefined
  const month = months.indexOf(parts.month)
  const day = Number(parts.day)
  const [hours, minutes, seconds] = parts.time.map(Number) as [number, number, number]
  if (month < 0 || day < 1 || day > 31 || hours > 23 || minutes > 59 || seconds > 60) return undefined
  const millis = Date.UTC(parts.year, month, day, hours, minutes, Math.min(seconds, 59))
  // a day past the month's end (31 Feb) would roll over: refused
  return new Date(millis).getUTCDate() === day ? millis : undefined
}

/**
 * A `Retry-After` value in seconds: delay-seconds as they are; an HTTP-date as the seconds from
 * `nowMillis` (Effect's `Clock`) to it, rounded up, 0 for a date already past; `undefined` for
 * anything else (the header is then ignored).
 */
export const parseRetryAfter = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text === "") return undefined
  const seconds = Number(text)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined
  const date = parseHttpDate(text, nowMillis)
  return date === undefined ? undefined : Math.max(0, Math.ceil((date - nowMillis) / 1000))
}

const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined => headers[`x-stack-${name}`] ?? headers[`x-hexclave-${name}`]

/** Restores the actual status of a response sent under `x-stack-override-error-status`. */
export const actualStatus = (status: number, headers: Readonly<Record<string, string>>): number => {
  const actual = header(headers, "actual-status")
  if (actual === undefined) return status
  const parsed = Number(actual)
  return Number.isInteger(parsed) && parsed >= 100 && parsed <= 599 ? parsed : status
}

/** A URL whose secret query values are replaced by `<redacted>` (for spans, errors, messages). */
export const redactUrl = (url: string, secretNames: ReadonlySet<string>): string => {
  const question = url.indexOf("?")
  if (question < 0) return url
  const hash = url.indexOf("#", question)
  const query = url.slice(question + 1, hash < 0 ? undefined : hash)
  const masked = query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=")
      if (eq < 0) return pair
      let name = pair.slice(0, eq)
      try {
        name = decodeURIComponent(name.replace(/\+/g, " "))
      } catch {
        // a malformed name is compared as it is
      }
      return secretNames.has(name) ? `${pair.slice(0, eq)}=<redacted>` : pair
    })
    .join("&")
  return `${url.slice(0, question)}?${masked}${hash < 0 ? "" : url.slice(hash)}`
}

/** The texts under which a secret can appear in a recorded value: as is and URL-encoded. */
const secretForms = (secrets: ReadonlyArray<string>): ReadonlyArray<string> => {
  const forms = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < 4) continue
    forms.add(secret)
    forms.add(encodeURIComponent(secret))
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2))
  }
  return [...forms].sort((a, b) => b.length - a.length)
}

const maskIn = (value: unknown, forms: ReadonlyArray<string>): unknown => {
  if (typeof value !== "string") return value
  let masked = value
  for (const form of forms) if (masked.includes(form)) masked = masked.split(form).join("<redacted>")
  return masked
}

/** A failed exit as a plain error whose text (the pretty cause) is masked; a success as it is. */
const maskExit = (exit: Exit.Exit<unknown, unknown>, forms: ReadonlyArray<string>): Exit.Exit<unknown, unknown> =>
  Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? exit : Exit.fail(new Error(String(maskIn(Cause.pretty(exit.cause), forms))))

/**
 * The current tracer, with every string attribute, event attribute and failure (the exit a span
 * ends with) of the spans it makes masked as `<redacted>` for the given secret texts. Used around
 * a request whose URL holds secrets (the OAuth authorize call's `client_secret` and `token`): the
 * HTTP client's span records `url.full` and `url.query`, and redacts only the parameters named in
 * `UrlParams.CurrentRedactedNames`, as `REDACTED`; the SDK's spans show `<redacted>` for every
 * secret, as its errors and messages do.
 */
const maskingTracer = (tracer: Tracer.Tracer, secrets: ReadonlyArray<string>): Tracer.Tracer => {
  const forms = secretForms(secrets)
  return Tracer.make({
    span: (options) => {
      const span = tracer.span(options)
      return new Proxy(span, {
        get: (target, property) => {
          if (property === "attribute") return (key: string, value: unknown) => target.attribute(key, maskIn(value, forms))
          if (property === "event") {
            return (eventName: string, time: bigint, attributes?: Record<string, unknown>) =>
              target.event(
                eventName,
                time,
                attributes === undefined
                  ? undefined
                  : Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, maskIn(value, forms)]))
              )
          }
          // the HTTP client's span ends with its own error, whose message holds the full URL
          if (property === "end") return (endTime: bigint, exit: Exit.Exit<unknown, unknown>) => target.end(endTime, maskExit(exit, forms))
          const value: unknown = Reflect.get(target, property, target)
          return typeof value === "function" ? (value as (...args: Array<unknown>) => unknown).bind(target) : value
        }
      })
    },
    ...(tracer.context === undefined ? {} : { context: tracer.context })
  })
}

/** The secret values of a request's query (the parameters named secret). */
const querySecrets = (url: string, secretNames: ReadonlySet<string>): ReadonlyArray<string> => {
  const question = url.indexOf("?")
  if (question < 0) return []
  const values: Array<string> = []
  for (const [name, value] of new URLSearchParams(url.slice(question + 1))) if (secretNames.has(name) && value.length > 0) values.push(value)
  return values
}

/** An answer larger than the policy allows. */
interface TooLarge {
  readonly _tag: "TooLarge"
  readonly bytes: number
  readonly declared: boolean
}

/**
 * An answer whose status and headers arrived but whose body could not be read to its end: cut
 * short (a reset or a close before its `content-length`), not matching its `Content-Encoding`, or
 * a failing body stream. The service answered (and may have acted on the request): never a
 * network failure, never retried.
 */
interface Unreadable {
  readonly _tag: "Unreadable"
  readonly cause: unknown
}

/** A redirect (3xx, or a browser's opaque redirect with status 0): refused unread, never followed. */
interface Redirect {
  readonly _tag: "Redirect"
}

/** What one attempt's exchange ends with: the response and its text, or why the text was refused. */
interface Exchanged {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: Result.Result<string, Redirect | TooLarge | Unreadable>
}

/**
 * Reads a body as UTF-8 text, at most `limit` bytes (decoded: a compressed answer is counted as it
 * expands): once more arrived the reading stops, the body stream is cancelled (the connection
 * dropped) and the answer is refused. A body that fails while it is read (cut short, not matching
 * its `Content-Encoding`, a failing stream) is {@link Unreadable}, in the success channel: the
 * answer arrived, so it is never a network failure of the attempt.
 */
const readBody = (
  response: HttpClientResponse.HttpClientResponse,
  limit: number
): Effect.Effect<Result.Result<string, TooLarge | Unreadable>> => {
  const declared = Number(response.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) return Effect.succeed(Result.fail({ _tag: "TooLarge", bytes: declared, declared: true }))
  return Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let total = 0
    return Stream.runForEachWhile(response.stream, (chunk) =>
      Effect.sync(() => {
        total += chunk.byteLength
        if (total > limit) return false
        chunks.push(chunk)
        return true
      })).pipe(
        Effect.map((): Result.Result<string, TooLarge | Unreadable> =>
          total > limit ? Result.fail({ _tag: "TooLarge", bytes: total, declared: false }) : Result.succeed(decodeUtf8(chunks, total))
        ),
        Effect.catch((error) =>
          Effect.succeed<Result.Result<string, TooLarge | Unreadable>>(
            reasonOf(error)?._tag === "EmptyBodyError" ? Result.succeed("") : Result.fail({ _tag: "Unreadable", cause: underlying(error) })
          )
        )
      )
  })
}

const decodeUtf8 = (chunks: ReadonlyArray<Uint8Array>, total: number): string => {
  if (chunks.length === 1) return utf8Text(chunks[0]!)
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return utf8Text(bytes)
}

/** A failure of the attempt that is final (no retry): travels in the success channel, so the schedule sees only signals. */
type FinalFailure = ConnectivityError | HttpError | InvalidResponse | RateLimited

/** The query parameters every request treats as secret (built once, not per request). */
const defaultSecretNames: ReadonlySet<string> = new Set(secretQueryParamNames)

/** The redacted header names with the SDK's secret ones added, by the app's names (made once per array, not per request). */
const withSecretNames = new WeakMap<ReadonlyArray<string | RegExp>, ReadonlyArray<string | RegExp>>()

/**
 * The redacted header names with the SDK's secret ones added (the app's own names kept, none
 * twice): the same array when it names them all already (e.g. under `Stack.layerServer`).
 */
const withSecretHeaderNames = (names: ReadonlyArray<string | RegExp>): ReadonlyArray<string | RegExp> => {
  let merged = withSecretNames.get(names)
  if (merged === undefined) {
    const missing = secretHeaderNames.filter((name) => !names.includes(name))
    merged = missing.length === 0 ? names : [...names, ...missing]
    withSecretNames.set(names, merged)
  }
  return merged
}

/**
 * The caller's context as the SDK's exchanges run in it (see {@link asSdkRequest}); the same
 * context when it needs no change.
 */
const sdkContext = <R>(context: Context.Context<R>): Context.Context<R> => {
  let next = context
  const names = Context.getUnsafe(context, Headers.CurrentRedactedNames)
  const redacted = withSecretHeaderNames(names)
  if (redacted !== names) next = Context.add(next, Headers.CurrentRedactedNames, redacted)
  if (Context.getUnsafe(context, HttpClient.TracerPropagationEnabled)) next = Context.add(next, HttpClient.TracerPropagationEnabled, false)
  const init = Context.getOrUndefined(context, FetchHttpClient.RequestInit)
  if (init !== undefined && init.redirect !== "manual") next = Context.add(next, FetchHttpClient.RequestInit, { ...init, redirect: "manual" })
  return next
}

/**
 * Runs one exchange as the SDK's requests need it: the SDK's secret headers added to the HTTP
 * client's redacted header names (`Headers.CurrentRedactedNames`, the app's own names kept), and
 * no tracer propagation (no b3 / traceparent headers: the service's CORS allow-list does not
 * include them, PROTOCOL.md §1.1). The HTTP client's span (request headers redacted) is kept.
 *
 * A `fetch` client given the app's `RequestInit` in the call's context follows redirects unless
 * told not to: `redirect: "manual"` is forced on it. (`StackClient.layerFetch` sets it already; a
 * client built elsewhere must not follow redirects itself.)
 *
 * One context update for all three (each `Effect.provideService` copies the context and keeps a
 * finalizer while the request is in flight).
 */
const asSdkRequest = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.updateContext(effect, sdkContext<R>)

/**
 * Builds the transport (see `StackClient.make`): each logical request is one attempt effect —
 * the request built, sent through the `HttpClient`, its body read within `maxResponseBytes`, all
 * within `attemptTimeout` — retried with `Effect.retry` on the policy's schedule for the retry
 * signals only (429, the 508 loop marker, a network failure of an idempotent request); every other
 * outcome is final and travels in the success channel as a `Result`, so the schedule never sees it.
 */
export const makeTransport: Effect.Effect<StackClientShape, never, StackConfig | HttpClient.HttpClient | RetryPolicy> = Effect.gen(function* () {
  const config = yield* StackConfig
  const client = yield* HttpClient.HttpClient
  const policy = yield* RetryPolicy
  const attemptTimeout = policy.attemptTimeout === "none" ? undefined : Duration.fromInputUnsafe(policy.attemptTimeout ?? defaultAttemptTimeout)
  const maxResponseBytes = policy.maxResponseBytes ?? defaultMaxResponseBytes
  const retryAfterCeiling = policy.maxRetryAfter ?? defaultMaxRetryAfter
  // The longest Retry-After waited for, in seconds (Infinity: every one is waited for).
  const maxRetryAfterSeconds = retryAfterCeiling === "none" ? Infinity : Duration.toSeconds(Duration.fromInputUnsafe(retryAfterCeiling))

  const buildHeaders = (request: StackRequest, nonce: string): Record<string, string> => {
    if (request.access === "none") {
      return request.body?._tag === "Form"
        ? { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8", Accept: "application/json" }
        : {}
    }
    const headers: Record<string, string> = {
      "X-Stack-Project-Id": config.projectId,
      "X-Stack-Access-Type": request.access,
      "X-Stack-Client-Version": config.clientVersion,
      "X-Stack-Allow-Anonymous-User": "true",
      "X-Stack-Random-Nonce": nonce,
      "X-Stack-Override-Error-Status": "true"
    }
    if (config.branchId !== undefined) headers["X-Stack-Branch-Id"] = config.branchId
    if (Option.isSome(config.publishableClientKey)) {
      headers["X-Stack-Publishable-Client-Key"] = Redacted.value(config.publishableClientKey.value)
    }
    const credentials = request.credentials
    if (credentials?.accessToken !== undefined) headers["X-Stack-Access-Token"] = Redacted.value(credentials.accessToken)
    if (credentials?.refreshToken !== undefined) headers["X-Stack-Refresh-Token"] = Redacted.value(credentials.refreshToken)
    if (credentials?.secretServerKey !== undefined) {
      headers["X-Stack-Secret-Server-Key"] = Redacted.value(credentials.secretServerKey)
    }
    if (credentials?.superSecretAdminKey !== undefined) {
      headers["X-Stack-Super-Secret-Admin-Key"] = Redacted.value(credentials.superSecretAdminKey)
    }
    if (credentials?.adminAccessToken !== undefined) {
      headers["X-Stack-Admin-Access-Token"] = Redacted.value(credentials.adminAccessToken)
    }
    Object.assign(headers, config.extraHeaders)
    return headers
  }

  const send = (request: StackRequest): Effect.Effect<StackResponse, SendError> => {
    const url = `${config.baseUrl}/api/v1${request.path}`.replace(/\/(?=\?|$)/, "")
    const method = request.method
    const idempotent = idempotentMethods.has(method)
    const secretNames = request.secretQueryParams === undefined || request.secretQueryParams.length === 0
      ? defaultSecretNames
      : new Set([...secretQueryParamNames, ...request.secretQueryParams])
    // The URL every span, error and message shows: secret query values masked.
    const shownUrl = redactUrl(url, secretNames)
    const secretsInQuery = shownUrl === url ? [] : querySecrets(url, secretNames)

    const built = (message: string, cause: string): Effect.Effect<Result.Result<never, FinalFailure>> =>
      Effect.succeed(
        Result.fail(
          new ConnectivityError({ message: `Could not build the request ${method} ${shownUrl}: ${message}; nothing was sent.`, method, url: shownUrl, cause })
        )
      )

    // No complete answer (or none in time): retried when the request may be repeated.
    const networkFailure = (cause: unknown): Effect.Effect<Result.Result<never, FinalFailure>, RetrySignal> =>
      isLocalFailure(cause)
        ? Effect.succeed(Result.fail(notBuilt(method, shownUrl, cause)))
        : idempotent
        ? Effect.fail<RetrySignal>({ _tag: "NetworkFailureSignal", cause: underlying(cause) })
        : Effect.succeed(Result.fail(connectivity(method, shownUrl, cause)))

    // An attempt's answer as the attempt's outcome (a retry signal for 429 and 508 loops).
    const outcomeOf = (result: Exchanged): Effect.Effect<Result.Result<StackResponse, FinalFailure>, RetrySignal> => {
      const responseHeaders: Record<string, string> = {}
      for (const [name, value] of Object.entries(result.response.headers)) responseHeaders[name.toLowerCase()] = value
      const status = actualStatus(result.response.status, responseHeaders)
      if (Result.isFailure(result.text)) {
        const refusal = result.text.failure
        switch (refusal._tag) {
          case "Redirect": {
            const location = responseHeaders["location"]
            const target = location === undefined ? "" : ` to ${redactUrl(location.slice(0, 300), secretNames)}`
            const where = result.response.status === 0 ? "an opaque redirect" : `${result.response.status}${target}`
            return Effect.succeed(Result.fail(
              new HttpError({
                message:
                  `Failed to send request to ${shownUrl}: the answer was a redirect (${where}); the Stack Auth API never redirects the SDK's calls, so it was not followed and nothing further was sent.`,
                status: result.response.status,
                body: "",
                method,
                url: shownUrl
              })
            ))
          }
          case "Unreadable":
            return Effect.succeed(Result.fail(
              new InvalidResponse({
                message: `The answer to ${method} ${shownUrl} (status ${status}) arrived, but its body could not be read (${
                  bodyFailure(refusal.cause)
                }): it was cut short or does not match its Content-Encoding. The service answered, so this is not a network failure; the request was not sent again.`,
                status,
                method,
                url: shownUrl
              })
            ))
          case "TooLarge":
            return Effect.succeed(Result.fail(
              new InvalidResponse({
                message: `The answer to ${method} ${shownUrl} is larger than ${maxResponseBytes} bytes (${
                  refusal.declared ? `declared ${refusal.bytes}` : `more than ${maxResponseBytes} read`
                }); it was not read further.`,
                status,
                method,
                url: shownUrl
              })
            ))
        }
      }
      const text = result.text.success
      if (status === 429) {
        // an HTTP-date is read against Effect's clock (the TestClock in tests)
        return Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const retryAfterSeconds = parseRetryAfter(responseHeaders["retry-after"], now)
          // A wait longer than the policy's ceiling is not slept on: the caller decides.
          if (retryAfterSeconds !== undefined && retryAfterSeconds > maxRetryAfterSeconds) {
            return Effect.succeed(Result.fail(
              new RateLimited({
                message:
                  `Rate limited by the service (429) on ${method} ${shownUrl}; its Retry-After of ${retryAfterSeconds} s is above the retry policy's maxRetryAfter of ${maxRetryAfterSeconds} s, so it was not waited for.`,
                method,
                url: shownUrl,
                retryAfterSeconds
              })
            ))
          }
          return Effect.fail<RetrySignal>({ _tag: "RateLimitedSignal", retryAfterSeconds })
        })
      }
      if (status === 508 && text.includes(infiniteLoopMarker)) return Effect.fail<RetrySignal>({ _tag: "LoopDetectedSignal" })
      return Effect.succeed(Result.succeed({ status, headers: responseHeaders, text, method, url: shownUrl }))
    }

    // One exchange: the request, then its body (a redirect is refused unread and never followed).
    const exchange = (httpRequest: HttpClientRequest.HttpClientRequest): Effect.Effect<Exchanged, unknown> =>
      Effect.flatMap(
        client.execute(httpRequest),
        (response): Effect.Effect<Exchanged> =>
          response.status === 0 || (response.status >= 300 && response.status < 400)
            ? Effect.succeed({ response, text: Result.fail({ _tag: "Redirect" }) })
            : Effect.map(readBody(response, maxResponseBytes), (text) => ({ response, text }))
      )

    // The exchange as the SDK sends it, within the attempt's time limit (a stalled answer is a network failure).
    const bounded = (httpRequest: HttpClientRequest.HttpClientRequest): Effect.Effect<Exchanged, unknown> => {
      const sent = asSdkRequest(exchange(httpRequest))
      // The HTTP client's span records `url.full` with the query: mask the secret query values in it.
      const traced = secretsInQuery.length === 0
        ? sent
        : Effect.flatMap(Effect.tracer, (tracer) => Effect.withTracer(sent, maskingTracer(tracer, secretsInQuery)))
      return attemptTimeout === undefined
        ? traced
        : Effect.timeoutOrElse(traced, {
          duration: attemptTimeout,
          orElse: () => Effect.fail(new Error(`no complete answer within ${Duration.toMillis(attemptTimeout)} ms`))
        })
    }

    // Final outcomes travel in the success channel, so the schedule sees only retry signals.
    const attempt: Effect.Effect<Result.Result<StackResponse, FinalFailure>, RetrySignal> = Effect.flatMap(randomNonce, (nonce) => {
      const headers = buildHeaders(request, nonce)
      // A header fetch cannot carry (a token with CR/LF or text above U+00FF) is a local failure:
      // nothing is sent, nothing is retried, and the value is never shown.
      const unsendable = Object.entries(headers).find(([, value]) => !isHeaderSafe(value))
      if (unsendable !== undefined) {
        return built(
          `the ${unsendable[0]} header holds characters a request header cannot carry (control characters or text above U+00FF)`,
          `invalid ${unsendable[0]} header value`
        )
      }
      let httpRequest = HttpClientRequest.make(method)(url, { headers })
      const body = request.body
      if (body?._tag === "Json") {
        const text = Result.try(() => JSON.stringify(body.value))
        if (Result.isFailure(text)) return built("the payload cannot be serialised as JSON", "unserialisable payload")
        httpRequest = HttpClientRequest.bodyText(httpRequest, text.success ?? "null", "application/json")
      } else if (body?._tag === "Form") {
        httpRequest = HttpClientRequest.bodyText(
          httpRequest,
          new URLSearchParams(body.value as Record<string, string>).toString(),
          "application/x-www-form-urlencoded;charset=UTF-8"
        )
      }
      return Effect.matchEffect(bounded(httpRequest), { onFailure: networkFailure, onSuccess: outcomeOf })
    })

    // The first attempt runs on its own; the retry (its schedule's state, the metadata it
    // provides to each attempt) is set up only once an attempt asked for one. The schedule sees
    // the same signals in the same order: the first one is handed to it as the first failure.
    const retried = (signal: RetrySignal): Effect.Effect<Result.Result<StackResponse, FinalFailure>, RetrySignal> => {
      let first: RetrySignal | undefined = signal
      const again = Effect.suspend(() => {
        if (first === undefined) return attempt
        const failure = first
        first = undefined
        return Effect.fail(failure)
      })
      return Effect.retry(again, policy.schedule)
    }

    return attempt.pipe(
      Effect.catch(retried),
      Effect.catch((signal) => Effect.fail(gaveUp(signal))),
      Effect.flatMap(Effect.fromResult)
    )

    /** The failure of a request whose retry signals outlasted the policy. */
    function gaveUp(signal: RetrySignal): FinalFailure {
      switch (signal._tag) {
        case "NetworkFailureSignal":
          return connectivity(method, shownUrl, signal.cause)
        case "RateLimitedSignal":
          return new RateLimited({
            message: `Rate limited by the service (429) on ${method} ${shownUrl}; the retry policy gave up.`,
            method,
            url: shownUrl,
            retryAfterSeconds: signal.retryAfterSeconds
          })
        case "LoopDetectedSignal":
          return new HttpError({
            message: `Failed to send request to ${shownUrl}: 508 ${infiniteLoopMarker}`,
            status: 508,
            body: infiniteLoopMarker,
            method,
            url: shownUrl
          })
      }
    }
  }

  return { config, send } satisfies StackClientShape
})

/** The reason of an `HttpClientError` (what failed: `TransportError`, `InvalidUrlError`, …), if `cause` is one. */
const reasonOf = (cause: unknown): { readonly _tag: string; readonly cause?: unknown } | undefined =>
  typeof cause === "object" && cause !== null && "_tag" in cause && cause._tag === "HttpClientError" && "reason" in cause &&
    typeof cause.reason === "object" && cause.reason !== null && "_tag" in cause.reason && typeof cause.reason._tag === "string"
    ? (cause.reason as { readonly _tag: string; readonly cause?: unknown })
    : undefined

/** A client failure that happened before anything was sent (a bad URL, a body that could not be encoded). */
const isLocalFailure = (cause: unknown): boolean => {
  const reason = reasonOf(cause)
  return reason !== undefined && (reason._tag === "InvalidUrlError" || reason._tag === "EncodeError")
}

const notBuilt = (method: string, url: string, cause: unknown) =>
  new ConnectivityError({
    message: `Could not build the request ${method} ${url} (${describe(cause)}); nothing was sent. Check the API base URL.`,
    method,
    url,
    cause: describe(cause)
  })

const connectivity = (method: string, url: string, cause: unknown) =>
  new ConnectivityError({
    message: `Could not reach the Stack Auth API: ${method} ${url} failed (${describe(cause)}). Check the network connection and the API base URL.`,
    method,
    url,
    cause: underlying(cause)
  })

/**
 * The client's error carries the request, headers (tokens, keys) included: keep only the
 * underlying failure (e.g. fetch's `TypeError`), never the request.
 */
const underlying = (cause: unknown): unknown => {
  const reason = reasonOf(cause)
  if (reason !== undefined) return reason.cause ?? reason._tag
  return cause
}

/**
 * Why a body could not be read, without free text that could quote a request: the error's name
 * and the codes of it and its cause (e.g. `TypeError (Z_DATA_ERROR)`, `TypeError (UND_ERR_SOCKET)`).
 */
const bodyFailure = (cause: unknown): string => {
  const codeOf = (value: unknown): string | undefined =>
    typeof value === "object" && value !== null && "code" in value && typeof value.code === "string" ? value.code.slice(0, 40) : undefined
  const name = cause instanceof Error
    ? cause.name.slice(0, 40)
    : typeof cause === "object" && cause !== null && "_tag" in cause
    ? String(cause._tag).slice(0, 40)
    : "read failure"
  const nested = typeof cause === "object" && cause !== null && "cause" in cause ? cause.cause : undefined
  const codes = [codeOf(cause), codeOf(nested)].filter((code): code is string => code !== undefined)
  return codes.length === 0 ? name : `${name} (${codes.join(", ")})`
}

const describe = (cause: unknown): string => {
  if (typeof cause === "string") return cause
  const reason = reasonOf(cause)
  if (reason !== undefined) return `HttpClientError/${reason._tag}`
  if (cause instanceof Error) return cause.name.slice(0, 40)
  return "network failure"
}
