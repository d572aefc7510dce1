/**
 * `GET /internal/metrics` as the service builds it (issue 27, item 9), read from the backend's
 * source at stack-auth/stack-auth commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/internal/metrics/route.tsx` (the handler's eleven keys;
 * `getMetricsWindowBounds` and `METRICS_WINDOW_DAYS = 30`: every daily series runs from 30 days
 * before today (UTC) to today, 31 points; `loadPaymentsOverview`, `loadEmailOverview`,
 * `loadAnalyticsOverview` with `daily_revenue` stitched in from `loadDailyRevenue`;
 * `recently_registered` from `usersCrudHandlers.adminList` with `limit: 100`) and its response
 * schema `packages/stack-shared/src/interface/admin-metrics.ts` (`MetricsResponseBodySchema`),
 * transcribed below key for key. Where the emulator has no such data (payments, page views,
 * session replays, delivery tracking) the values are what those queries give over no rows.
 * E-mails: every outbox e-mail is one the service would hold as `SENT` through SMTP (simple
 * status `OK`, `finishedSendingAt` set, no `deliveredAt`, `bouncedAt` or `clickedAt`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const Integer = Schema.Number.check(Schema.isInt())
const DataPoints = Schema.Array(Schema.Struct({ date: Schema.String, activity: Schema.Number }))
const ActivitySplit = Schema.Struct({ total: DataPoints, new: DataPoints, retained: DataPoints, reactivated: DataPoints })
const Counts = Schema.Record(Schema.String, Schema.Number)

/** `MetricsRecentUserSchema` (`.noUnknown(false)`: the user object's other keys pass). */
const RecentUser = Schema.StructWithRest(
  Schema.Struct({
    id: Schema.String,
    display_name: Schema.NullOr(Schema.String),
    primary_email: Schema.NullOr(Schema.String),
    profile_image_url: Schema.NullOr(Schema.String),
    signed_up_at_millis: Schema.Number,
    last_active_at_millis: Schema.NullOr(Schema.Number)
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

/** `MetricsResponseBodySchema`. */
const MetricsBody = Schema.Struct({
  total_users: Integer,
  daily_users: DataPoints,
  daily_active_users: DataPoints,
  users_by_country: Counts,
  recently_registered: Schema.Array(RecentUser),
  recently_active: Schema.Array(RecentUser),
  login_methods: Schema.Array(Schema.Struct({ method: Schema.String, count: Integer })),
  auth_overview: Schema.Struct({
    verified_users: Integer,
    unverified_users: Integer,
    anonymous_users: Integer,
    total_teams: Integer,
    mau: Integer,
    daily_active_users_split: ActivitySplit,
    daily_active_teams_split: ActivitySplit,
    total_users_filtered: Integer
  }),
  payments_overview: Schema.Struct({
    subscriptions_by_status: Counts,
    active_subscription_count: Integer,
    total_one_time_purchases: Integer,
    daily_subscriptions: DataPoints,
    revenue_cents: Integer,
    mrr_cents: Integer,
    total_orders: Integer,
    checkout_conversion_rate: Schema.Number
  }),
  email_overview: Schema.Struct({
    emails_by_status: Counts,
    total_emails: Integer,
    daily_emails: DataPoints,
    daily_emails_by_status: Schema.Array(Schema.Struct({ date: Schema.String, ok: Integer, error: Integer, in_progress: Integer })),
    emails_sent: Integer,
    recent_emails: Schema.Array(Schema.Struct({ id: Schema.String, status: Schema.String, subject: Schema.String, created_at_millis: Schema.Number })),
    deliverability_status: Schema.Struct({ delivered: Integer, bounced: Integer, error: Integer, in_progress: Integer }),
    deliverability_rate: Schema.Number,
    bounce_rate: Schema.Number,
    click_rate: Schema.Number
  }),
  analytics_overview: Schema.Struct({
    daily_page_views: DataPoints,
    daily_clicks: DataPoints,
    daily_visitors: DataPoints,
    daily_revenue: Schema.Array(Schema.Struct({ date: Schema.String, new_cents: Integer, refund_cents: Integer })),
    total_revenue_cents: Integer,
    total_replays: Integer,
    recent_replays: Integer,
    visitors: Integer,
    avg_session_seconds: Schema.Number,
    online_live: Integer,
    revenue_per_visitor: Schema.Number,
    top_referrers: Schema.Array(Schema.Struct({ referrer: Schema.String, visitors: Integer })),
    top_region: Schema.NullOr(Schema.Struct({ country_code: Schema.NullOr(Schema.String), region_code: Schema.NullOr(Schema.String), count: Integer }))
  })
})

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const metrics = (emulator: Emulator.Emulator, includeAnonymous = false) =>
  Effect.gen(function* () {
    const answer = yield* send(emulator, { path: `/api/v1/internal/metrics?include_anonymous=${includeAnonymous}`, headers: adminHeaders(emulator.demo) })
    expect(answer.status, answer.text).toBe(200)
    // exactly the service's keys, at every level (the recent users aside)
    return Schema.decodeUnknownSync(MetricsBody, { onExcessProperty: "error" })(answer.json)
  })

const now = Date.UTC(2026, 10, 20, 12)
const windowDates = Array.from({ length: 31 }, (_, index) => new Date(Date.UTC(2026, 10, 20) - (30 - index) * 86_400_000).toISOString().slice(0, 10))

describe("GET /internal/metrics: the service's keys and shapes (internal/metrics/route.tsx at 2f719903)", () => {
  it.effect("every key of MetricsResponseBodySchema; every daily series is the 31-day window ending today", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const emulator = yield* makeEmulator({ demo: { user: false } })
      yield* signUp(emulator, emulator.demo, "shape@example.com")
      const body = yield* metrics(emulator)
      const series = [
        body.daily_users,
        body.daily_active_users,
        ...Object.values(body.auth_overview.daily_active_users_split),
        ...Object.values(body.auth_overview.daily_active_teams_split),
        body.payments_overview.daily_subscriptions,
        body.email_overview.daily_emails,
        body.email_overview.daily_emails_by_status,
        body.analytics_overview.daily_page_views,
        body.analytics_overview.daily_clicks,
        body.analytics_overview.daily_visitors,
        body.analytics_overview.daily_revenue
      ]
      for (const points of series) expect(points.map((point) => point.date)).toEqual(windowDates)
      expect(body.daily_users.at(-1)!.activity).toBe(1)
    }))

  it.effect("no payments, page views or replays: the queries' answers over no rows", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const body = yield* metrics(emulator)
      const zeros = windowDates.map((date) => ({ date, activity: 0 }))
      expect(body.payments_overview).toEqual({
        subscriptions_by_status: {},
        active_subscription_count: 0,
        total_one_time_purchases: 0,
        daily_subscriptions: zeros,
        revenue_cents: 0,
        mrr_cents: 0,
        total_orders: 0,
        checkout_conversion_rate: 0
      })
      expect(body.analytics_overview).toEqual({
        daily_page_views: zeros,
        daily_clicks: zeros,
        daily_visitors: zeros,
        daily_revenue: windowDates.map((date) => ({ date, new_cents: 0, refund_cents: 0 })),
        total_revenue_cents: 0,
        total_replays: 0,
        recent_replays: 0,
        visitors: 0,
        avg_session_seconds: 0,
        online_live: 0,
        revenue_per_visitor: 0,
        top_referrers: [],
        top_region: null
      })
      expect(body.email_overview).toMatchObject({ emails_by_status: {}, total_emails: 0, emails_sent: 0, recent_emails: [] })
    }))

  it.effect("email_overview counts the project's outbox as sent e-mails, newest first", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const emulator = yield* makeEmulator({ demo: { user: false } })
      yield* signUp(emulator, emulator.demo, "mail-1@example.com", undefined, { verification_callback_url: "http://localhost:3000/verify" })
      yield* signUp(emulator, emulator.demo, "mail-2@example.com", undefined, { verification_callback_url: "http://localhost:3000/verify" })
      const sent = emulator.outbox({ projectId: emulator.demo.projectId })
      expect(sent.length).toBe(2)
      const { email_overview } = yield* metrics(emulator)
      expect(email_overview).toMatchObject({
        // emailsByStatus keeps only statuses with rows; total_emails sums it
        emails_by_status: { ok: 2 },
        total_emails: 2,
        // finished sending, no delivery/bounce/click information (SMTP): the rates' numerators are 0
        emails_sent: 2,
        deliverability_status: { delivered: 0, bounced: 0, error: 0, in_progress: 0 },
        deliverability_rate: 0,
        bounce_rate: 0,
        click_rate: 0
      })
      expect(email_overview.daily_emails.at(-1)).toEqual({ date: "2026-11-20", activity: 2 })
      expect(email_overview.daily_emails_by_status.at(-1)).toEqual({ date: "2026-11-20", ok: 2, error: 0, in_progress: 0 })
      // ORDER BY "createdAt" DESC; the raw status column
      expect(email_overview.recent_emails.map((email) => [email.id, email.status, email.subject, email.created_at_millis])).toEqual(
        [...sent].reverse().map((email) => [email.id, "SENT", email.subject, now])
      )
    }))

  it.effect("recently_registered / recently_active are the users' objects (newest first; 5 most recently active)", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const ids: Array<string> = []
      for (let index = 0; index < 7; index++) {
        yield* TestClock.adjust("1 minute")
        ids.push((yield* signUp(emulator, emulator.demo, `recent-${index}@example.com`)).user_id)
      }
      const body = yield* metrics(emulator)
      expect(body.recently_registered.map((user) => user.id)).toEqual([...ids].reverse())
      expect(body.recently_active.map((user) => user.id)).toEqual([...ids].reverse().slice(0, 5))
      // the user CRUD object (server read), passed through
      const read = yield* send(emulator, { path: `/api/v1/users/${ids[6]}`, headers: serverHeaders(emulator.demo) })
      expect(body.recently_registered[0]).toEqual(read.json)
    }))

  it.effect("online_live and top_region: users active in the last 5 minutes / most common country in the window", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const first = yield* signUp(emulator, emulator.demo, "region-1@example.com")
      const second = yield* signUp(emulator, emulator.demo, "region-2@example.com")
      yield* signUp(emulator, emulator.demo, "region-3@example.com")
      for (const user of [first, second]) {
        const patched = yield* send(emulator, {
          method: "PATCH",
          path: `/api/v1/users/${user.user_id}`,
          headers: serverHeaders(emulator.demo),
          body: { country_code: "DE" }
        })
        expect(patched.status, patched.text).toBe(200)
      }
      const anonymous = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(emulator.demo) })
      expect(anonymous.status).toBe(200)
      const fresh = yield* metrics(emulator)
      expect(fresh.analytics_overview.online_live).toBe(3)
      expect(fresh.analytics_overview.top_region).toEqual({ country_code: "DE", region_code: null, count: 2 })
      expect((yield* metrics(emulator, true)).analytics_overview.online_live).toBe(4)
      yield* TestClock.adjust("10 minutes")
      expect((yield* metrics(emulator)).analytics_overview.online_live).toBe(0)
    }))
})
