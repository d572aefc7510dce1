/**
 * Admin odds and ends of the current project (PROTOCOL.md §3.6, §3.7): the dashboard metrics, a
 * Svix token for the webhook portal, and the feature-support report.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { StackClient } from "../core/StackClient.js"
import { AnyObject, optionalField, QueryBoolean } from "../core/Wire.js"

/** One day of a daily series: `{ date: "YYYY-MM-DD", activity }`. */
export const DailyActivity = Schema.Struct({ date: Schema.String, activity: Schema.Number })

/** A login method and how many users use it. */
export const LoginMethodCount = Schema.Struct({ method: Schema.String, count: Schema.Number })

/**
 * The dashboard metrics: a large object the service treats as opaque. The well-known keys are
 * decoded where present (camelCase); the overview blocks stay loose JSON objects; other keys are
 * dropped.
 */
export const Metrics = Schema.Struct({
  totalUsers: optionalField("total_users", Schema.Number),
  dailyUsers: optionalField("daily_users", Schema.Array(DailyActivity)),
  dailyActiveUsers: optionalField("daily_active_users", Schema.Array(DailyActivity)),
  usersByCountry: optionalField("users_by_country", Schema.Record({ key: Schema.String, value: Schema.Number })),
  recentlyRegistered: optionalField("recently_registered", Schema.Array(AnyObject)),
  recentlyActive: optionalField("recently_active", Schema.Array(AnyObject)),
  loginMethods: optionalField("login_methods", Schema.Array(LoginMethodCount)),
  authOverview: optionalField("auth_overview", AnyObject),
  paymentsOverview: optionalField("payments_overview", AnyObject),
  emailOverview: optionalField("email_overview", AnyObject),
  analyticsOverview: optionalField("analytics_overview", AnyObject)
})

/** The dashboard metrics. */
export type Metrics = typeof Metrics.Type

/** `GET /internal/metrics` (admin access). */
export const metricsEndpoint = Endpoint.make({
  name: "Admin.getMetrics",
  method: "GET",
  path: "/internal/metrics",
  access: "admin",
  session: "none",
  query: Schema.Struct({ includeAnonymous: optionalField("include_anonymous", QueryBoolean) }),
  success: Metrics,
  errors: []
})

/** A Svix portal token (and the portal URL when the service gives one). */
export const SvixToken = Schema.Struct({ token: Schema.String, url: optionalField("url", Schema.String) })

/** A Svix portal token. */
export type SvixToken = typeof SvixToken.Type

/** `POST /webhooks/svix-token` (admin access, answers 201). */
export const svixTokenEndpoint = Endpoint.make({
  name: "Admin.createSvixToken",
  method: "POST",
  path: "/webhooks/svix-token",
  access: "admin",
  session: "none",
  payload: Schema.Struct({}),
  success: SvixToken,
  successStatus: 201,
  errors: []
})

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
