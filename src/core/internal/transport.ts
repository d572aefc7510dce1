import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as FiberId from "effect/FiberId"
import * as FiberRefs from "effect/FiberRefs"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import { ConnectivityError, HttpError, InvalidResponse, RateLimited } from "../Errors.js"
import { defaultAttemptTimeout, defaultMaxResponseBytes, defaultMaxRetryAfter, RetryPolicy } from "../RetryPolicy.js"
import type { RetrySignal } from "../RetryPolicy.js"
import { secretHeaderNames, secretQueryParamNames } from "./exchange.js"
import type { StackClientShape, StackRequest, StackResponse } from "./exchange.js"
import { StackConfig } from "../StackConfig.js"
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
  Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause) ? exit : Exit.fail(new Error(String(maskIn(Cause.pretty(exit.cause), forms))))

/**
 * The current tracer, with every string attribute, event attribute and failure (the exit a span
 * ends with) of the spans it makes masked for the given secret texts. Used around a request whose URL holds secrets: the platform
 * client's span records `url.full` and `url.query` verbatim.
 */
const maskingTracer = (tracer: Tracer.Tracer, secrets: ReadonlyArray<string>): Tracer.Tracer => {
  const forms = secretForms(secrets)
  return Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const span = tracer.span(name, parent, context, links, startTime, kind, options)
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
          // the platform's span ends with its own error, whose message holds the full URL
          if (property === "end") return (endTime: bigint, exit: Exit.Exit<unknown, unknown>) => target.end(endTime, maskExit(exit, forms))
          const value: unknown = Reflect.get(target, property, target)
          return typeof value === "function" ? (value as (...args: Array<unknown>) => unknown).bind(target) : value
        }
      })
    },
    context: (f, fiber) => tracer.context(f, fiber)
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

/** What one attempt's exchange ends with: the response and its text, or why the text was refused. */
interface Exchanged {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: Either.Either<string, "Redirect" | TooLarge | Unreadable>
}

/**
 * Reads a body as UTF-8 text, at most `limit` bytes (decoded: a compressed answer is counted as it
 * expands): once more arrived the reading stops, the stream is cancelled (the connection dropped)
 * and the answer is refused.
 *
 * A refusal is handed to `refuse` before the stream is cancelled, and the caller waits only for
 * that verdict, never for the cancellation: some `fetch` implementations (msw's mocked bodies)
 * never settle a `cancel()`.
 *
 * A body that fails while it is read (cut short, not matching its `Content-Encoding`, a failing
 * stream) is {@link Unreadable}, in the success channel: the answer arrived, so it is never a
 * network failure of the attempt.
 */
const readBody = (
  response: HttpClientResponse.HttpClientResponse,
  limit: number,
  refuse: (tooLarge: TooLarge) => void
): Effect.Effect<Either.Either<string, TooLarge | Unreadable>, unknown> => {
  const declared = Number(response.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) return Effect.succeed(Either.left({ _tag: "TooLarge", bytes: declared, declared: true }))
  const web = webAnswerOf(response)
  const text = limitedText(limit, refuse)
  if (web !== undefined) return readWebBody(web, text)
  return Stream.runForEachWhile(response.stream, (chunk) => Effect.sync(() => text.add(chunk))).pipe(
    Effect.map(text.result),
    Effect.catchAll((error) =>
      Effect.succeed<Either.Either<string, TooLarge | Unreadable>>(
        typeof error === "object" && error !== null && "reason" in error && error.reason === "EmptyBody"
          ? text.result()
          : Either.left({ _tag: "Unreadable", cause: underlying(error) })
      )
    )
  )
}

/**
 * A body's chunks kept up to `limit` bytes: `add` answers `false` once more arrived (the chunks
 * dropped, the refusal handed to `refuse`), `result` the text or the refusal. Both readers below
 * use it.
 */
const limitedText = (limit: number, refuse: (tooLarge: TooLarge) => void) => {
  const chunks: Array<Uint8Array> = []
  let total = 0
  let refused: TooLarge | undefined
  return {
    add: (chunk: Uint8Array): boolean => {
      total += chunk.byteLength
      if (total <= limit) {
        chunks.push(chunk)
        return true
      }
      chunks.length = 0
      refused = { _tag: "TooLarge", bytes: total, declared: false }
      refuse(refused)
      return false
    },
    result: (): Either.Either<string, TooLarge> => (refused === undefined ? Either.right(decodeUtf8(chunks, total)) : Either.left(refused))
  }
}

/** A web `Response` behind an answer, and how to abort its request. */
interface WebAnswer {
  readonly source: Response
  readonly abort: () => void
}

/**
 * The web `Response` behind an answer of a `fetch`-based client (the platform's, msw's, the
 * emulator's), if any: the answer's `source`, or its `original`'s when the platform's client wrapped
 * it with the request's `controller` (its `InterruptibleResponse`, which also aborts an unread
 * answer when it is garbage collected, or after 5 s where there is no `FinalizationRegistry`:
 * there the body is read through the platform's stream instead).
 */
const webAnswerOf = (response: HttpClientResponse.HttpClientResponse): WebAnswer | undefined => {
  if (typeof Response !== "function") return undefined
  const wrapper = response as { readonly source?: unknown; readonly original?: unknown; readonly controller?: unknown }
  if (wrapper.source instanceof Response) return { source: wrapper.source, abort: () => {} }
  if (typeof FinalizationRegistry !== "function" || typeof wrapper.original !== "object" || wrapper.original === null) return undefined
  const source: unknown = (wrapper.original as { readonly source?: unknown }).source
  if (!(source instanceof Response)) return undefined
  const controller = wrapper.controller
  return { source, abort: () => (controller instanceof AbortController ? controller.abort() : undefined) }
}

/**
 * {@link readBody} for an answer that wraps a web `Response` (every `fetch`-based client: the
 * platform's, msw's, the emulator's): its body read with its own reader in one promise, not
 * through a `Stream` (a channel and its fibers per chunk cost more than the rest of the call), and
 * awaited through one `Effect.async` (no `AbortController` of its own, which `Effect.tryPromise`
 * with a signal makes on every call). The same limit, refusal and outcomes: a failed read is
 * {@link Unreadable} (the reader's error as its cause), as the stream's reader reports it; a
 * refusal or an interruption cancels the body, then aborts the request.
 */
const readWebBody = (
  web: WebAnswer,
  text: ReturnType<typeof limitedText>
): Effect.Effect<Either.Either<string, TooLarge | Unreadable>, unknown> => {
  const body = web.source.body
  if (body === null) return Effect.succeed(Either.right(""))
  return Effect.async<Either.Either<string, TooLarge | Unreadable>, unknown>((resume) => {
    const reader = body.getReader()
    let ended = false
    // the body cancelled, then the request aborted (the connection dropped), as the platform's
    // stream does; never awaited here: some bodies (msw's) never settle a cancel()
    const cancel = () => {
      reader.cancel().then(web.abort, web.abort)
    }
    const next = (): void => {
      reader.read().then(
        (chunk) => {
          if (ended) return
          if (!chunk.done && text.add(chunk.value)) return next()
          ended = true
          if (!chunk.done) cancel()
          resume(Effect.succeed(text.result()))
        },
        (cause: unknown) => {
          if (ended) return
          ended = true
          resume(Effect.succeed(Either.left({ _tag: "Unreadable", cause })))
        }
      )
    }
    next()
    return Effect.sync(() => {
      if (ended) return
      ended = true
      cancel()
    })
  })
}

/** The constructor of Effect's default clock (`setTimeout`); a test clock is another class. */
const defaultClockClass: unknown = Clock.make().constructor

/**
 * Runs one attempt's exchange (`work`, given a way to report its verdict early) in one fiber of its
 * own and waits for its verdict, at most `timeout`: then the attempt fails with `onTimeout()` and
 * the fiber is interrupted (which aborts the request and cancels the body) without waiting for it;
 * an early report or an interruption of the caller interrupts it the same way. The worker is
 * started from the caller's runtime (its context, fiber refs and flags, as a daemon fork would be),
 * with `refs` applied to its own fiber refs, and is awaited through one `Effect.async` (no Deferred,
 * no `ensuring`, no fiber to interrupt it: each costs memory for as long as the call is in flight).
 * One fiber and one timer per attempt; under Effect's default clock the timer is a `setTimeout`,
 * under another clock (the `TestClock`) a sleeping fiber, so tests move it with the clock.
 */
const boundedAttempt = <A>(
  work: (report: (value: A) => void) => Effect.Effect<A, unknown>,
  timeout: Duration.Duration | undefined,
  onTimeout: () => unknown,
  refs: (refs: FiberRefs.FiberRefs, fiberId: FiberId.Runtime) => FiberRefs.FiberRefs
): Effect.Effect<A, unknown> =>
  Effect.clockWith((clock) =>
    Effect.withFiberRuntime<A, unknown>((caller, status) =>
      Effect.async<A, unknown>((resume) => {
        const runtime = Runtime.make({ context: caller.currentContext, fiberRefs: caller.getFiberRefs(), runtimeFlags: status.runtimeFlags })
        let settled = false
        let cancel: ReturnType<typeof setTimeout> | undefined
        let timer: Fiber.RuntimeFiber<void> | undefined
        // the worker never fails itself (its failure is the verdict's), so no unhandled error is logged
        const worker = Runtime.runFork(runtime, Effect.exit(work((value) => settle(Exit.succeed(value)))), { immediate: false, updateRefs: refs })
        const stop = () => {
          if (cancel !== undefined) clearTimeout(cancel)
          if (timer !== undefined && timer.unsafePoll() === null) timer.unsafeInterruptAsFork(caller.id())
          if (worker.unsafePoll() === null) worker.unsafeInterruptAsFork(caller.id())
        }
        function settle(exit: Exit.Exit<A, unknown>): void {
          if (settled) return
          settled = true
          stop()
          resume(exit)
        }
        worker.addObserver((exit) => settle(Exit.isSuccess(exit) ? exit.value : Exit.failCause(exit.cause)))
        if (timeout !== undefined) {
          const expire = () => settle(Exit.fail(onTimeout()))
          if (clock.constructor === defaultClockClass) cancel = setTimeout(expire, Duration.toMillis(timeout))
          else timer = Runtime.runFork(runtime, Effect.zipRight(clock.sleep(timeout), Effect.sync(expire)), { immediate: false })
        }
        return Effect.sync(() => {
          settled = true
          stop()
        })
      })
    )
  )

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

/** A failure of the attempt that is final (no retry): travels in the success channel. */
type FinalFailure = ConnectivityError | HttpError | InvalidResponse | RateLimited

/**
 * `Effect.matchEffect(Effect.retry(attempt, schedule), handlers)` whose schedule driver is made at
 * the first failure, not before every call (most calls never fail): the schedule sees the same
 * signals in the same order, and a first attempt that succeeds reaches `onSuccess` through one
 * continuation (one fewer held while the call is in flight).
 */
const retryThen = <A, E, R, B, E2, R2>(
  attempt: Effect.Effect<A, E, R>,
  schedule: Schedule.Schedule<unknown, E>,
  handlers: { readonly onFailure: (error: E) => Effect.Effect<B, E2, R2>; readonly onSuccess: (value: A) => Effect.Effect<B, E2, R2> }
): Effect.Effect<B, E2, R | R2> =>
  Effect.matchEffect(attempt, {
    onFailure: (first) =>
      Effect.matchEffect(
        Effect.flatMap(Schedule.driver(schedule), (driver) => {
          const next = (error: E): Effect.Effect<A, E, R> =>
            Effect.matchEffect(driver.next(error), { onFailure: () => Effect.fail(error), onSuccess: () => Effect.catchAll(attempt, next) })
          return next(first)
        }),
        handlers
      ),
    onSuccess: handlers.onSuccess
  })

/** The redacted header names of the fiber with the SDK's secret ones added (the last merge kept: the same names nearly always). */
let lastNames: ReadonlyArray<string | RegExp> | undefined
let lastMerged: ReadonlyArray<string | RegExp> = []
const withSecretHeaderNames = (names: ReadonlyArray<string | RegExp>): ReadonlyArray<string | RegExp> => {
  if (names !== lastNames) {
    lastMerged = [...names, ...secretHeaderNames]
    lastNames = names
  }
  return lastMerged
}

/**
 * An attempt's worker fiber refs: the SDK's secret headers added to the redacted header names (the
 * app's own names kept), and tracer propagation off (no b3 / traceparent headers). Set on the
 * worker, where the platform client reads them, instead of around the call
 * (`Effect.locallyWith`, `HttpClient.withTracerPropagation`: each holds several effects per call
 * in flight).
 */
const workerRefs = (refs: FiberRefs.FiberRefs, fiberId: FiberId.Runtime): FiberRefs.FiberRefs =>
  FiberRefs.updateManyAs(refs, {
    entries: [
      [Headers.currentRedactedNames, [[fiberId, withSecretHeaderNames(FiberRefs.getOrDefault(refs, Headers.currentRedactedNames))]]],
      [HttpClient.currentTracerPropagation, [[fiberId, false]]]
    ]
  })

/** The query parameters every request treats as secret (built once, not per request). */
const defaultSecretNames: ReadonlySet<string> = new Set(secretQueryParamNames)

export const makeTransport = Effect.gen(function* () {
  const config = yield* StackConfig
  // No b3 / traceparent headers (tracer propagation is off in each attempt's worker, see
  // `workerRefs`): the service's CORS allow-list does not include them (PROTOCOL.md §1.1). The HTTP
  // client's span (request headers redacted) is kept.
  const client = yield* HttpClient.HttpClient
  const policy = yield* RetryPolicy
  const attemptTimeout = policy.attemptTimeout === "none" ? undefined : Duration.decode(policy.attemptTimeout ?? defaultAttemptTimeout)
  const maxResponseBytes = policy.maxResponseBytes ?? defaultMaxResponseBytes
  const retryAfterCeiling = policy.maxRetryAfter ?? defaultMaxRetryAfter
  // The longest Retry-After waited for, in seconds (Infinity: every one is waited for).
  const maxRetryAfterSeconds = retryAfterCeiling === "none" ? Infinity : Duration.toSeconds(Duration.decode(retryAfterCeiling))

  // The failure of an attempt that had no complete answer in time.
  const timedOut = () => attemptTimeout === undefined ? undefined : new Error(`no complete answer within ${Duration.toMillis(attemptTimeout)} ms`)

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

  const send = (request: StackRequest): Effect.Effect<StackResponse, ConnectivityError | RateLimited | HttpError | InvalidResponse> => {
    const url = `${config.baseUrl}/api/v1${request.path}`.replace(/\/(?=\?|$)/, "")
    const method = request.method
    const idempotent = idempotentMethods.has(method)
    const secretNames = request.secretQueryParams === undefined || request.secretQueryParams.length === 0
      ? defaultSecretNames
      : new Set([...secretQueryParamNames, ...request.secretQueryParams])
    // The URL every span, error and message shows: secret query values masked.
    const shownUrl = redactUrl(url, secretNames)
    const secretsInQuery = shownUrl === url ? [] : querySecrets(url, secretNames)

    const networkFailure = (cause: unknown): Effect.Effect<Either.Either<never, FinalFailure>, RetrySignal> =>
      isLocalFailure(cause)
        ? Effect.succeed(Either.left(notBuilt(method, shownUrl, cause)))
        : idempotent
        ? Effect.fail<RetrySignal>({ _tag: "NetworkFailureSignal", cause: underlying(cause) })
        : Effect.succeed(Either.left(connectivity(method, shownUrl, cause)))

    // An attempt's answer as the attempt's outcome (a retry signal for 429 and 508 loops).
    const outcomeOf = (result: Exchanged): Effect.Effect<Either.Either<StackResponse, FinalFailure>, RetrySignal> => {
      const responseHeaders: Record<string, string> = {}
      for (const [name, value] of Object.entries(result.response.headers)) responseHeaders[name.toLowerCase()] = value
      if (Either.isLeft(result.text)) {
        const refusal = result.text.left
        if (refusal === "Redirect") {
          const status = result.response.status
          const location = responseHeaders["location"]
          const target = location === undefined ? "" : ` to ${redactUrl(location.slice(0, 300), secretNames)}`
          const where = status === 0 ? "an opaque redirect" : `${status}${target}`
          return Effect.succeed(
            Either.left(
              new HttpError({
                message:
                  `Failed to send request to ${shownUrl}: the answer was a redirect (${where}); the Stack Auth API never redirects the SDK's calls, so it was not followed and nothing further was sent.`,
                status,
                body: "",
                method,
                url: shownUrl
              })
            )
          )
        }
        if (refusal._tag === "Unreadable") {
          const status = actualStatus(result.response.status, responseHeaders)
          return Effect.succeed(
            Either.left(
              new InvalidResponse({
                message: `The answer to ${method} ${shownUrl} (status ${status}) arrived, but its body could not be read (${
                  bodyFailure(refusal.cause)
                }): it was cut short or does not match its Content-Encoding. The service answered, so this is not a network failure; the request was not sent again.`,
                status,
                method,
                url: shownUrl
              })
            )
          )
        }
        return Effect.succeed(
          Either.left(
            new InvalidResponse({
              message: `The answer to ${method} ${shownUrl} is larger than ${maxResponseBytes} bytes (${
                refusal.declared ? `declared ${refusal.bytes}` : `more than ${maxResponseBytes} read`
              }); it was not read further.`,
              status: actualStatus(result.response.status, responseHeaders),
              method,
              url: shownUrl
            })
          )
        )
      }
      const text = result.text.right
      const status = actualStatus(result.response.status, responseHeaders)
      if (status === 429) {
        // an HTTP-date is read against Effect's clock (the TestClock in tests)
        return Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const retryAfterSeconds = parseRetryAfter(responseHeaders["retry-after"], now)
          // A wait longer than the policy's ceiling is not slept on: the caller decides.
          if (retryAfterSeconds !== undefined && retryAfterSeconds > maxRetryAfterSeconds) {
            return Effect.succeed(
              Either.left(
                new RateLimited({
                  message:
                    `Rate limited by the service (429) on ${method} ${shownUrl}; its Retry-After of ${retryAfterSeconds} s is above the retry policy's maxRetryAfter of ${maxRetryAfterSeconds} s, so it was not waited for.`,
                  method,
                  url: shownUrl,
                  retryAfterSeconds
                })
              )
            )
          }
          return Effect.fail<RetrySignal>({ _tag: "RateLimitedSignal", retryAfterSeconds })
        })
      }
      if (status === 508 && text.includes(infiniteLoopMarker)) {
        return Effect.fail<RetrySignal>({ _tag: "LoopDetectedSignal" })
      }
      return Effect.succeed(Either.right({ status, headers: responseHeaders, text, method, url: shownUrl } satisfies StackResponse))
    }

    // Non-retryable outcomes travel in the success channel so the schedule sees only signals.
    // Plain flatMaps, no Effect.gen: a generator made per call is held (with its own prototype and
    // shape) for as long as the call is in flight.
    const attempt: Effect.Effect<Either.Either<StackResponse, FinalFailure>, RetrySignal> = Effect.flatMap(randomNonce, (nonce) => {
      const headers = buildHeaders(request, nonce)
      // A header fetch cannot carry (a token with CR/LF or text above U+00FF) is a local failure:
      // nothing is sent, nothing is retried, and the value is never shown.
      const unsendable = Object.entries(headers).find(([, value]) => !isHeaderSafe(value))
      if (unsendable !== undefined) {
        return Effect.succeed(
          Either.left(
            new ConnectivityError({
              message: `Could not build the request ${method} ${shownUrl}: the ${
                unsendable[0]
              } header holds characters a request header cannot carry (control characters or text above U+00FF); nothing was sent.`,
              method,
              url: shownUrl,
              cause: `invalid ${unsendable[0]} header value`
            })
          )
        )
      }
      let httpRequest = HttpClientRequest.make(method)(url).pipe(HttpClientRequest.setHeaders(headers))
      const body = request.body
      if (body?._tag === "Json") {
        const text = Either.try(() => JSON.stringify(body.value))
        if (Either.isLeft(text)) {
          return Effect.succeed(
            Either.left(
              new ConnectivityError({
                message: `Could not build the request ${method} ${shownUrl}: the payload cannot be serialised as JSON; nothing was sent.`,
                method,
                url: shownUrl,
                cause: "unserialisable payload"
              })
            )
          )
        }
        httpRequest = HttpClientRequest.bodyText(httpRequest, text.right ?? "null", "application/json")
      } else if (body?._tag === "Form") {
        httpRequest = HttpClientRequest.bodyText(
          httpRequest,
          new URLSearchParams(body.value as Record<string, string>).toString(),
          "application/x-www-form-urlencoded;charset=UTF-8"
        )
      }
      const sent = httpRequest
      const exchange = (report: (exchanged: Exchanged) => void): Effect.Effect<Exchanged, unknown> =>
        Effect.flatMap(
          Effect.suspend(() => client.execute(sent)),
          (response): Effect.Effect<Exchanged, unknown> =>
            // A redirect is refused without reading its body (and never followed: see `noRedirects`).
            response.status === 0 || (response.status >= 300 && response.status < 400)
              ? Effect.succeed({ response, text: Either.left("Redirect") })
              : Effect.map(readBody(response, maxResponseBytes, (tooLarge) => report({ response, text: Either.left(tooLarge) })), (text) => ({
                response,
                text: Either.mapLeft(text, (refusal): "Redirect" | TooLarge | Unreadable => refusal)
              }))
        )
      const limited = (report: (exchanged: Exchanged) => void) => noRedirects(exchange(report))
      // The platform client's span records `url.full` verbatim: mask the secret query values in it.
      const traced = secretsInQuery.length === 0
        ? limited
        : (report: (exchanged: Exchanged) => void) =>
          Effect.flatMap(Effect.tracer, (tracer) => Effect.withTracer(limited(report), maskingTracer(tracer, secretsInQuery)))
      return Effect.matchEffect(boundedAttempt(traced, attemptTimeout, timedOut, workerRefs), {
        onFailure: networkFailure,
        onSuccess: outcomeOf
      })
    })

    return retryThen(attempt, policy.schedule, {
      onFailure: (failure): Effect.Effect<never, ConnectivityError | RateLimited | HttpError> => {
        switch (failure._tag) {
          case "NetworkFailureSignal":
            return Effect.fail(connectivity(method, shownUrl, failure.cause))
          case "RateLimitedSignal":
            return Effect.fail(
              new RateLimited({
                message: `Rate limited by the service (429) on ${method} ${shownUrl}; the retry policy gave up.`,
                method,
                url: shownUrl,
                retryAfterSeconds: failure.retryAfterSeconds
              })
            )
          case "LoopDetectedSignal":
            return Effect.fail(
              new HttpError({
                message: `Failed to send request to ${shownUrl}: 508 ${infiniteLoopMarker}`,
                status: 508,
                body: infiniteLoopMarker,
                method,
                url: shownUrl
              })
            )
        }
      },
      onSuccess: (outcome) => outcome
    })
  }

  return { config, send } satisfies StackClientShape
})

/**
 * A `fetch` client given the app's `RequestInit` in the context (`FetchHttpClient.RequestInit`)
 * follows redirects unless told not to: force `redirect: "manual"` on it. (`StackClient.layerFetch`
 * sets it already; a client built elsewhere must not follow redirects itself.)
 */
const noRedirects = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.serviceOption(FetchHttpClient.RequestInit), (init) =>
    Option.isSome(init) && init.value.redirect !== "manual"
      ? Effect.provideService(effect, FetchHttpClient.RequestInit, { ...init.value, redirect: "manual" })
      : effect)

/** A platform failure that happened before anything was sent (a bad URL, a body that could not be encoded). */
const isLocalFailure = (cause: unknown): boolean =>
  typeof cause === "object" &&
  cause !== null &&
  "_tag" in cause &&
  cause._tag === "RequestError" &&
  "reason" in cause &&
  (cause.reason === "InvalidUrl" || cause.reason === "Encode")

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
 * The platform error carries the request, headers (tokens, keys) included: keep only the
 * underlying failure (e.g. fetch's `TypeError`), never the request.
 */
const underlying = (cause: unknown): unknown => typeof cause === "object" && cause !== null && "_tag" in cause && "cause" in cause ? cause.cause : cause

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
  if (typeof cause === "object" && cause !== null && "_tag" in cause) {
    const reason = "reason" in cause ? `/${String(cause.reason)}` : ""
    return `${String(cause._tag)}${reason}`
  }
  return "network failure"
}
