/**
 * The wire definitions of `Admin` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Admin.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { AnyObject, optionalField, QueryBoolean, wireStruct } from "../../core/Wire.js"

/** One day of a daily series: `{ date: "YYYY-MM-DD", activity }`. */
export const DailyActivity = Schema.Struct({ date: Schema.String, activity: Schema.Number })

/** A login method and how many users use it. */
export const LoginMethodCount = Schema.Struct({ method: Schema.String, count: Schema.Number })

/**
 * The dashboard metrics: a large object the service treats as opaque. The well-known keys are
 * decoded where present (camelCase); the overview blocks stay loose JSON objects; other keys are
 * dropped.
 */
export const Metrics = wireStruct({
  totalUsers: optionalField("total_users", Schema.Number),
  dailyUsers: optionalField("daily_users", Schema.Array(DailyActivity)),
  dailyActiveUsers: optionalField("daily_active_users", Schema.Array(DailyActivity)),
  usersByCountry: optionalField("users_by_country", Schema.Record(Schema.String, Schema.Number)),
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
  query: wireStruct({ includeAnonymous: optionalField("include_anonymous", QueryBoolean) }),
  success: Metrics,
  errors: []
})

/** A Svix portal token (and the portal URL when the service gives one). */
export const SvixToken = wireStruct({ token: Schema.String, url: optionalField("url", Schema.String) })

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
