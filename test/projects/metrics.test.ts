/**
 * The SDK's decoding of `GET /internal/metrics` (`Admin.Metrics`): the four overviews of the
 * service's answer (`packages/stack-shared/src/interface/admin-metrics.ts` at stack-auth/stack-auth
 * 2f719903) are decoded into typed camelCase objects; a service answer without some of their keys
 * still decodes, and unknown keys are dropped.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Admin } from "../../src/index.js"

const points = [{ date: "2026-11-20", activity: 3 }]

/** A service-shaped answer, every key of `MetricsResponseBodySchema`. */
const serviceBody = {
  total_users: 3,
  daily_users: points,
  daily_active_users: points,
  users_by_country: { DE: 2 },
  recently_registered: [{
    id: "u1",
    display_name: null,
    primary_email: "a@example.com",
    profile_image_url: null,
    signed_up_at_millis: 1,
    last_active_at_millis: 2
  }],
  recently_active: [],
  login_methods: [{ method: "github", count: 1 }],
  auth_overview: {
    verified_users: 1,
    unverified_users: 2,
    anonymous_users: 4,
    total_teams: 5,
    mau: 3,
    daily_active_users_split: { total: points, new: points, retained: points, reactivated: points },
    daily_active_teams_split: { total: points, new: points, retained: points, reactivated: points },
    total_users_filtered: 3
  },
  payments_overview: {
    subscriptions_by_status: { active: 1 },
    active_subscription_count: 1,
    total_one_time_purchases: 2,
    daily_subscriptions: points,
    revenue_cents: 1000,
    mrr_cents: 500,
    total_orders: 3,
    checkout_conversion_rate: 66.67
  },
  email_overview: {
    emails_by_status: { ok: 2, "in-progress": 1 },
    total_emails: 3,
    daily_emails: points,
    daily_emails_by_status: [{ date: "2026-11-20", ok: 2, error: 0, in_progress: 1 }],
    emails_sent: 2,
    recent_emails: [{ id: "e1", status: "SENT", subject: "Hi", created_at_millis: 5 }],
    deliverability_status: { delivered: 1, bounced: 0, error: 0, in_progress: 1 },
    deliverability_rate: 50,
    bounce_rate: 0,
    click_rate: 0
  },
  analytics_overview: {
    daily_page_views: points,
    daily_clicks: points,
    daily_visitors: points,
    daily_revenue: [{ date: "2026-11-20", new_cents: 1000, refund_cents: 0 }],
    total_revenue_cents: 1000,
    total_replays: 2,
    recent_replays: 1,
    visitors: 4,
    avg_session_seconds: 12.5,
    online_live: 1,
    revenue_per_visitor: 2.5,
    top_referrers: [{ referrer: "(direct)", visitors: 4 }],
    top_region: { country_code: "DE", region_code: "BE", count: 2 },
    a_key_from_a_later_service: true
  }
}

describe("Admin.Metrics", () => {
  it.effect("decodes the overviews into typed camelCase objects", () =>
    Effect.gen(function* () {
      const metrics = yield* Schema.decodeUnknownEffect(Admin.Metrics)(serviceBody)
      expect(metrics.authOverview).toMatchObject({ verifiedUsers: 1, anonymousUsers: 4, totalTeams: 5, mau: 3, totalUsersFiltered: 3 })
      expect(metrics.authOverview?.dailyActiveUsersSplit?.new).toEqual(points)
      expect(metrics.paymentsOverview).toMatchObject({ subscriptionsByStatus: { active: 1 }, revenueCents: 1000, checkoutConversionRate: 66.67 })
      expect(metrics.emailOverview?.emailsByStatus).toEqual({ ok: 2, "in-progress": 1 })
      expect(metrics.emailOverview?.dailyEmailsByStatus).toEqual([{ date: "2026-11-20", ok: 2, error: 0, inProgress: 1 }])
      expect(metrics.emailOverview?.recentEmails).toEqual([{ id: "e1", status: "SENT", subject: "Hi", createdAtMillis: 5 }])
      expect(metrics.emailOverview?.deliverabilityStatus).toEqual({ delivered: 1, bounced: 0, error: 0, inProgress: 1 })
      const analytics = metrics.analyticsOverview!
      expect(analytics.dailyRevenue).toEqual([{ date: "2026-11-20", newCents: 1000, refundCents: 0 }])
      expect(analytics.topRegion).toEqual({ countryCode: "DE", regionCode: "BE", count: 2 })
      expect([analytics.onlineLive, analytics.revenuePerVisitor, analytics.avgSessionSeconds]).toEqual([1, 2.5, 12.5])
      // unknown keys are dropped
      expect(Object.keys(analytics)).not.toContain("a_key_from_a_later_service")
      // and it encodes back to the service's keys
      const wire = yield* Schema.encodeEffect(Admin.Metrics)(metrics)
      const { a_key_from_a_later_service: _dropped, ...knownAnalytics } = serviceBody.analytics_overview
      expect((wire as { analytics_overview: unknown }).analytics_overview).toStrictEqual(knownAnalytics)
    }))

  it.effect("an answer without some overview keys (an older service, or no analytics) still decodes", () =>
    Effect.gen(function* () {
      const metrics = yield* Schema.decodeUnknownEffect(Admin.Metrics)({
        total_users: 0,
        auth_overview: { verified_users: 0 },
        analytics_overview: { top_region: null }
      })
      expect(metrics.authOverview).toEqual({ verifiedUsers: 0 })
      expect(metrics.analyticsOverview).toEqual({ topRegion: null })
      expect(metrics.paymentsOverview).toBeUndefined()
    }))

  it.effect("a malformed overview is a typed decoding failure, not a crash", () =>
    Effect.gen(function* () {
      const result = yield* Effect.result(Schema.decodeUnknownEffect(Admin.Metrics)({ auth_overview: { mau: "many" } }))
      expect(result._tag).toBe("Failure")
    }))
})
