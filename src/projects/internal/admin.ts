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

const counts = Schema.Record(Schema.String, Schema.Number)

/** The daily active users or teams split by kind of activity (`total`, `new`, `retained`, `reactivated`). */
export const ActivitySplit = wireStruct({
  total: optionalField("total", Schema.Array(DailyActivity)),
  new: optionalField("new", Schema.Array(DailyActivity)),
  retained: optionalField("retained", Schema.Array(DailyActivity)),
  reactivated: optionalField("reactivated", Schema.Array(DailyActivity))
})

/** `auth_overview`: users by verification, anonymous users, teams, monthly active users, activity splits. */
export const AuthOverview = wireStruct({
  verifiedUsers: optionalField("verified_users", Schema.Number),
  unverifiedUsers: optionalField("unverified_users", Schema.Number),
  anonymousUsers: optionalField("anonymous_users", Schema.Number),
  totalTeams: optionalField("total_teams", Schema.Number),
  mau: optionalField("mau", Schema.Number),
  dailyActiveUsersSplit: optionalField("daily_active_users_split", ActivitySplit),
  dailyActiveTeamsSplit: optionalField("daily_active_teams_split", ActivitySplit),
  totalUsersFiltered: optionalField("total_users_filtered", Schema.Number)
})

/** `payments_overview`: subscriptions, one-time purchases and revenue (cents). */
export const PaymentsOverview = wireStruct({
  subscriptionsByStatus: optionalField("subscriptions_by_status", counts),
  activeSubscriptionCount: optionalField("active_subscription_count", Schema.Number),
  totalOneTimePurchases: optionalField("total_one_time_purchases", Schema.Number),
  dailySubscriptions: optionalField("daily_subscriptions", Schema.Array(DailyActivity)),
  revenueCents: optionalField("revenue_cents", Schema.Number),
  mrrCents: optionalField("mrr_cents", Schema.Number),
  totalOrders: optionalField("total_orders", Schema.Number),
  checkoutConversionRate: optionalField("checkout_conversion_rate", Schema.Number)
})

/** One of the latest e-mails of `email_overview` (`status` is the outbox status, e.g. `"SENT"`). */
export const RecentEmail = wireStruct({
  id: optionalField("id", Schema.String),
  status: optionalField("status", Schema.String),
  subject: optionalField("subject", Schema.String),
  createdAtMillis: optionalField("created_at_millis", Schema.Number)
})

/** One day of e-mails by simple status. */
export const DailyEmailStatus = wireStruct({
  date: optionalField("date", Schema.String),
  ok: optionalField("ok", Schema.Number),
  error: optionalField("error", Schema.Number),
  inProgress: optionalField("in_progress", Schema.Number)
})

/** `email_overview`: e-mails by status, per day, the latest ones, delivery rates (percent). */
export const EmailOverview = wireStruct({
  emailsByStatus: optionalField("emails_by_status", counts),
  totalEmails: optionalField("total_emails", Schema.Number),
  dailyEmails: optionalField("daily_emails", Schema.Array(DailyActivity)),
  dailyEmailsByStatus: optionalField("daily_emails_by_status", Schema.Array(DailyEmailStatus)),
  emailsSent: optionalField("emails_sent", Schema.Number),
  recentEmails: optionalField("recent_emails", Schema.Array(RecentEmail)),
  deliverabilityStatus: optionalField(
    "deliverability_status",
    wireStruct({
      delivered: optionalField("delivered", Schema.Number),
      bounced: optionalField("bounced", Schema.Number),
      error: optionalField("error", Schema.Number),
      inProgress: optionalField("in_progress", Schema.Number)
    })
  ),
  deliverabilityRate: optionalField("deliverability_rate", Schema.Number),
  bounceRate: optionalField("bounce_rate", Schema.Number),
  clickRate: optionalField("click_rate", Schema.Number)
})

/** One day of revenue (cents). */
export const DailyRevenue = wireStruct({
  date: optionalField("date", Schema.String),
  newCents: optionalField("new_cents", Schema.Number),
  refundCents: optionalField("refund_cents", Schema.Number)
})

/** `analytics_overview`: page views, clicks, visitors, revenue, session replays, top referrers and region. */
export const AnalyticsOverview = wireStruct({
  dailyPageViews: optionalField("daily_page_views", Schema.Array(DailyActivity)),
  dailyClicks: optionalField("daily_clicks", Schema.Array(DailyActivity)),
  dailyVisitors: optionalField("daily_visitors", Schema.Array(DailyActivity)),
  dailyRevenue: optionalField("daily_revenue", Schema.Array(DailyRevenue)),
  totalRevenueCents: optionalField("total_revenue_cents", Schema.Number),
  totalReplays: optionalField("total_replays", Schema.Number),
  recentReplays: optionalField("recent_replays", Schema.Number),
  visitors: optionalField("visitors", Schema.Number),
  avgSessionSeconds: optionalField("avg_session_seconds", Schema.Number),
  onlineLive: optionalField("online_live", Schema.Number),
  revenuePerVisitor: optionalField("revenue_per_visitor", Schema.Number),
  topReferrers: optionalField("top_referrers", Schema.Array(Schema.Struct({ referrer: Schema.String, visitors: Schema.Number }))),
  topRegion: optionalField(
    "top_region",
    Schema.NullOr(
      wireStruct({
        countryCode: optionalField("country_code", Schema.NullOr(Schema.String)),
        regionCode: optionalField("region_code", Schema.NullOr(Schema.String)),
        count: optionalField("count", Schema.Number)
      })
    )
  ),
  bounceRate: optionalField("bounce_rate", Schema.Number),
  conversionRate: optionalField("conversion_rate", Schema.Number)
})

/**
 * The dashboard metrics: a large object the service builds from several stores. The well-known
 * keys are decoded where present (camelCase), the four overviews too (each of their keys
 * optional, so a service that leaves one out still decodes); other keys are dropped. The recent
 * users stay loose JSON objects (the service's user objects).
 */
export const Metrics = wireStruct({
  totalUsers: optionalField("total_users", Schema.Number),
  dailyUsers: optionalField("daily_users", Schema.Array(DailyActivity)),
  dailyActiveUsers: optionalField("daily_active_users", Schema.Array(DailyActivity)),
  usersByCountry: optionalField("users_by_country", Schema.Record(Schema.String, Schema.Number)),
  recentlyRegistered: optionalField("recently_registered", Schema.Array(AnyObject)),
  recentlyActive: optionalField("recently_active", Schema.Array(AnyObject)),
  loginMethods: optionalField("login_methods", Schema.Array(LoginMethodCount)),
  authOverview: optionalField("auth_overview", AuthOverview),
  paymentsOverview: optionalField("payments_overview", PaymentsOverview),
  emailOverview: optionalField("email_overview", EmailOverview),
  analyticsOverview: optionalField("analytics_overview", AnalyticsOverview)
})

/** The dashboard metrics. */
export type Metrics = typeof Metrics.Type

/** The daily activity split of {@link AuthOverview}. */
export type ActivitySplit = typeof ActivitySplit.Type

/** `auth_overview` of the metrics. */
export type AuthOverview = typeof AuthOverview.Type

/** `payments_overview` of the metrics. */
export type PaymentsOverview = typeof PaymentsOverview.Type

/** One of the latest e-mails of {@link EmailOverview}. */
export type RecentEmail = typeof RecentEmail.Type

/** One day of e-mails by simple status. */
export type DailyEmailStatus = typeof DailyEmailStatus.Type

/** `email_overview` of the metrics. */
export type EmailOverview = typeof EmailOverview.Type

/** One day of revenue. */
export type DailyRevenue = typeof DailyRevenue.Type

/** `analytics_overview` of the metrics. */
export type AnalyticsOverview = typeof AnalyticsOverview.Type

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
