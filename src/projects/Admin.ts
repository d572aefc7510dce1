/**
 * Admin odds and ends of the current project (PROTOCOL.md §3.6, §3.7): the dashboard metrics, a
 * Svix token for the webhook portal, and the feature-support report.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { StackClient } from "../core/StackClient.js"
import { metricsEndpoint, svixTokenEndpoint } from "./internal/admin.js"

/** The domain's schemas, defined with its wire definitions (`internal/admin.ts`). */
export { DailyActivity, LoginMethodCount, Metrics, SvixToken } from "./internal/admin.js"

/**
 * The dashboard metrics of the project (users, daily series, countries, recent users, login
 * methods, overviews). `GET /internal/metrics?include_anonymous=`; needs `AdminAccess`. May be slow.
 */
export const getMetrics = Effect.fn("Admin.getMetrics")(function* (options: { readonly includeAnonymous?: boolean } = {}) {
  return yield* Endpoint.call(metricsEndpoint, {
    query: options.includeAnonymous === undefined ? {} : { includeAnonymous: options.includeAnonymous }
  })
})

/** A token for the Svix webhook portal. `POST /webhooks/svix-token` (201); needs `AdminAccess`. */
export const createSvixToken = Effect.fn("Admin.createSvixToken")(function* () {
  return yield* Endpoint.call(svixTokenEndpoint, { payload: {} })
})

/**
 * Reports that a feature is not supported and returns the service's answer text, e.g.
 * `"<feature_name> is not yet supported. Please reach out to Stack support for more information."`.
 * `POST /check-feature-support` with any JSON object (e.g. `{ feature_name }`), sent with client
 * access as the official SDK does (the service accepts it without authentication too). The answer
 * is `text/plain`, so this goes through `StackClient.send` rather than a JSON endpoint. Fails with
 * `HttpError` on a non-2xx answer.
 */
export const checkFeatureSupport = Effect.fn("Admin.checkFeatureSupport")(function* (
  body: Readonly<Record<string, unknown>>
) {
  const client = yield* StackClient
  const response = yield* client.send({
    method: "POST",
    path: "/check-feature-support",
    access: "client",
    body: { _tag: "Json", value: body }
  })
  if (response.status >= 200 && response.status < 300) return response.text
  return yield* Effect.fail(
    new HttpError({
      message: `Failed to send request to ${response.url}: ${response.status} ${response.text.slice(0, 500)}`,
      status: response.status,
      body: response.text,
      method: response.method,
      url: response.url
    })
  )
})
