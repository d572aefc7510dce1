import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { ConnectivityError, HttpError, RateLimited } from "../Errors.js"
import { defaultAttemptTimeout, RetryPolicy } from "../RetryPolicy.js"
import type { RetrySignal } from "../RetryPolicy.js"
import { secretHeaderNames } from "../StackClient.js"
import type { StackClientShape, StackRequest, StackResponse } from "../StackClient.js"
import { StackConfig } from "../StackConfig.js"
import { randomNonce } from "./nonce.js"

const idempotentMethods: ReadonlySet<string> = /* @__PURE__ */ new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])

/** The marker of a hosting platform's loop glitch in a 508 body. */
export const infiniteLoopMarker = "INFINITE_LOOP_DETECTED"

const parseRetryAfter = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  const seconds = Number(value.trim())
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined
}

const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined =>
  headers[`x-stack-${name}`] ?? headers[`x-hexclave-${name}`]

/** Restores the actual status of a response sent under `x-stack-override-error-status`. */
export const actualStatus = (status: number, headers: Readonly<Record<string, string>>): number => {
  const actual = header(headers, "actual-status")
  if (actual === undefined) return status
  const parsed = Number(actual)
  return Number.isInteger(parsed) && parsed >= 100 && parsed <= 599 ? parsed : status
}

export const makeTransport = /* @__PURE__ */ Effect.gen(function* () {
  const config = yield* StackConfig
  // No b3 / traceparent headers: the service's CORS allow-list does not include them (PROTOCOL.md
  // §1.1). The HTTP client's span (request headers redacted) is kept.
  const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)
  const policy = yield* RetryPolicy
  const attemptTimeout = policy.attemptTimeout === "none" ? undefined : Duration.decode(policy.attemptTimeout ?? defaultAttemptTimeout)

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

  const send = (request: StackRequest): Effect.Effect<StackResponse, ConnectivityError | RateLimited | HttpError> => {
    const url = `${config.baseUrl}/api/v1${request.path}`.replace(/\/(?=\?|$)/, "")
    const method = request.method
    const idempotent = idempotentMethods.has(method)

    // Non-retryable outcomes travel in the success channel so the schedule sees only signals.
    const attempt: Effect.Effect<Either.Either<StackResponse, ConnectivityError>, RetrySignal> = Effect.gen(function* () {
      const nonce = yield* randomNonce
      let httpRequest = HttpClientRequest.make(method)(url).pipe(HttpClientRequest.setHeaders(buildHeaders(request, nonce)))
      const body = request.body
      if (body?._tag === "Json") {
        httpRequest = HttpClientRequest.bodyUnsafeJson(httpRequest, body.value)
      } else if (body?._tag === "Form") {
        httpRequest = HttpClientRequest.bodyText(
          httpRequest,
          new URLSearchParams(body.value as Record<string, string>).toString(),
          "application/x-www-form-urlencoded;charset=UTF-8"
        )
      }
      const networkFailure = (cause: unknown) =>
        idempotent
          ? Effect.fail<RetrySignal>({ _tag: "NetworkFailureSignal", cause: underlying(cause) })
          : Effect.succeed(Either.left(connectivity(method, url, cause)))
      const exchange = Effect.gen(function* () {
        const response: HttpClientResponse.HttpClientResponse = yield* client.execute(httpRequest)
        const text = yield* response.text
        return Either.right({ response, text })
      })
      const limited = Effect.scoped(exchange)
      const outcome = yield* (
        attemptTimeout === undefined
          ? limited
          : Effect.timeoutFail(limited, {
              duration: attemptTimeout,
              onTimeout: () => new Error(`no complete answer within ${Duration.toMillis(attemptTimeout)} ms`)
            })
      ).pipe(Effect.catchAll(networkFailure))
      if (Either.isLeft(outcome)) return Either.left(outcome.left)
      const result = outcome.right
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(result.response.headers)) headers[name.toLowerCase()] = value
      const status = actualStatus(result.response.status, headers)
      if (status === 429) {
        return yield* Effect.fail<RetrySignal>({
          _tag: "RateLimitedSignal",
          retryAfterSeconds: parseRetryAfter(headers["retry-after"])
        })
      }
      if (status === 508 && result.text.includes(infiniteLoopMarker)) {
        return yield* Effect.fail<RetrySignal>({ _tag: "LoopDetectedSignal" })
      }
      return Either.right({ status, headers, text: result.text, method, url } satisfies StackResponse)
    })

    return attempt.pipe(
      Effect.retry(policy.schedule),
      Effect.catchAll((failure): Effect.Effect<never, ConnectivityError | RateLimited | HttpError> => {
        switch (failure._tag) {
          case "NetworkFailureSignal":
            return Effect.fail(connectivity(method, url, failure.cause))
          case "RateLimitedSignal":
            return Effect.fail(
              new RateLimited({
                message: `Rate limited by the service (429) on ${method} ${url}; the retry policy gave up.`,
                method,
                url,
                retryAfterSeconds: failure.retryAfterSeconds
              })
            )
          case "LoopDetectedSignal":
            return Effect.fail(
              new HttpError({
                message: `Failed to send request to ${url}: 508 ${infiniteLoopMarker}`,
                status: 508,
                body: infiniteLoopMarker,
                method,
                url
              })
            )
        }
      }),
      Effect.flatMap((outcome) => outcome),
      Effect.locally(Headers.currentRedactedNames, secretHeaderNames)
    )
  }

  return { config, send } satisfies StackClientShape
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
const underlying = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null && "_tag" in cause && "cause" in cause ? cause.cause : cause

const describe = (cause: unknown): string => {
  if (typeof cause === "string") return cause
  if (typeof cause === "object" && cause !== null && "_tag" in cause) {
    const reason = "reason" in cause ? `/${String(cause.reason)}` : ""
    return `${String(cause._tag)}${reason}`
  }
  return "network failure"
}
