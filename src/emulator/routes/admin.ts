/**
 * Admin odds and ends (PROTOCOL.md §3.6, §3.7; wire samples metrics/*, check-feature-support/*):
 *
 * - `GET /internal/metrics`: the keys of the service's route
 *   (`apps/backend/src/app/api/latest/internal/metrics/route.tsx` at stack-auth/stack-auth
 *   2f719903, its schema `packages/stack-shared/src/interface/admin-metrics.ts`), filled from the
 *   emulator's state; the daily series cover the service's window, the 30 days before today (UTC)
 *   and today (31 points). `total_users`, `daily_users` (sign-ups per day), `daily_active_users`
 *   (users last active that day), `users_by_country` (by `country_code`), `recently_registered`
 *   (up to 100 newest users, restricted ones only with `include_anonymous`) and `recently_active`
 *   (the 5 most recently active) as server user objects, `login_methods` (auth methods of every
 *   user: password, otp, passkey, each OAuth account by provider config id). Anonymous users count
 *   only with `include_anonymous=true`. `auth_overview`: `verified_users` / `unverified_users` /
 *   `anonymous_users` (by the primary e-mail's verification; anonymous users counted whatever
 *   `include_anonymous` says), `total_teams`, `mau` (users active in the window),
 *   `daily_active_users_split` and `daily_active_teams_split` (`total` / `new` / `retained` /
 *   `reactivated`: the emulator keeps only each user's last activity, so an active user who
 *   signed up that day is `new`, any other `retained`, and `reactivated` stays 0),
 *   `total_users_filtered`. `payments_overview`: the emulator has no payments (zeros, empty
 *   records, a series of zeros). `email_overview`: from the outbox, every e-mail counted as the
 *   service counts one sent through SMTP (status `SENT`, simple status `ok`, no delivery, bounce or
 *   click information, so the rates are 0). `analytics_overview`: no page views, clicks, replays
 *   or revenue (series of zeros), `online_live` (users active in the last 5 minutes) and
 *   `top_region` (the most common `country_code` among the users active in the window, no
 *   region) from the users' last activity.
 * - `POST /webhooks/svix-token`: 201 with a random token (the emulator has no Svix portal, so no `url`).
 * - `POST /check-feature-support`: 200 text, authentication optional.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import { Metrics } from "../../projects/Admin.js"
import { ServerUser } from "../../users/User.js"
import { metricsEndpoint, svixTokenEndpoint } from "../../projects/internal/admin.js"
import * as Endpoints from "../Endpoints.js"
import { randomToken45 } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { jsonResponse } from "../Responses.js"
import { route } from "../Router.js"
import * as Outbox from "../Outbox.js"
import type { UserRecord } from "../State.js"
import { restrictionOf } from "../State.js"
import { serverUserView } from "../Teams.js"

const dayMillis = 86_400_000

/** The service's `METRICS_WINDOW_DAYS`: the series run from 30 days before today (UTC) to today, 31 points. */
const windowDays = 30

const dayOf = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** The service's `RECENT_LIST_PAGE_SIZE` (recently registered users, recent e-mails). */
const recentPageSize = 100

const encodeServerUser = Schema.encodeSync(ServerUser)

/**
 * Auth methods per login method, as the service's `loadLoginMethods` counts its `AuthMethod` rows
 * (every user of the project): an OAuth method per account used for sign-in (named by its provider
 * config id, lower-cased), `password`, `passkey`, `otp`; largest first.
 */
const loginMethods = (users: ReadonlyArray<UserRecord>) => {
  const counts = new Map<string, number>()
  const add = (method: string) => counts.set(method, (counts.get(method) ?? 0) + 1)
  for (const user of users) {
    if (user.passwordHash !== null) add("password")
    if (user.otpAuthEnabled) add("otp")
    if (user.passkeyAuthEnabled) add("passkey")
    for (const account of user.oauthAccounts) if (account.allowSignIn) add(account.providerConfigId.toLowerCase())
  }
  return [...counts].map(([method, count]) => ({ method, count })).sort((a, b) => b.count - a.count || a.method.localeCompare(b.method))
}

/**
 * `GET /internal/metrics` answered as a `Response`: `users_by_country` is keyed by what users
 * sent as `country_code`, and a record schema would drop a `__proto__` key on encoding, so the
 * table is written from its `Map` (own properties, any key).
 */
const metricsRoute = Endpoint.make({
  name: "Emulator.metrics",
  method: metricsEndpoint.method,
  path: metricsEndpoint.path,
  access: metricsEndpoint.access,
  session: metricsEndpoint.session,
  query: metricsEndpoint.query!,
  success: Schema.instanceOf(Response),
  errors: []
})

const encodeMetrics = Schema.encodeEffect(Metrics)

/** The metrics of the request's project; `users_by_country` also as the `Map` it was counted in. */
export const computeMetrics = (
  context: RequestContext,
  includeAnonymous: boolean
): Metrics & { readonly usersByCountryTable: ReadonlyMap<string, number> } => {
  const project = projectOf(context)
  const allUsers = [...project.users.values()]
  const users = allUsers.filter((user) => includeAnonymous || !user.isAnonymous)
  // getMetricsWindowBounds: todayUtc, since = todayUtc - 30 days, untilExclusive = todayUtc + 1 day
  const today = Math.floor(context.nowMillis / dayMillis) * dayMillis
  const since = today - windowDays * dayMillis
  const untilExclusive = today + dayMillis
  const days = Array.from({ length: windowDays + 1 }, (_, index) => dayOf(since + index * dayMillis))
  const zeros = () => days.map((date) => ({ date, activity: 0 }))
  const series = (at: (user: UserRecord) => number) => days.map((date) => ({ date, activity: users.filter((user) => dayOf(at(user)) === date).length }))
  const activeOn = (date: string) => users.filter((user) => dayOf(user.lastActiveAtMillis) === date)
  const inWindow = (millis: number) => millis >= since && millis < untilExclusive
  const split = (total: (date: string) => number, fresh: (date: string) => number) => ({
    total: days.map((date) => ({ date, activity: total(date) })),
    new: days.map((date) => ({ date, activity: fresh(date) })),
    retained: days.map((date) => ({ date, activity: total(date) - fresh(date) })),
    reactivated: days.map((date) => ({ date, activity: 0 }))
  })
  const teams = [...project.teams.values()]
  const activeTeamsOn = (date: string) => {
    const active = new Set(activeOn(date).map((user) => user.id))
    return teams.filter((team) => [...team.memberUserIds].some((userId) => active.has(userId)))
  }
  const authOverview = {
    verifiedUsers: allUsers.filter((user) => !user.isAnonymous && user.primaryEmailVerified).length,
    unverifiedUsers: allUsers.filter((user) => !user.isAnonymous && !user.primaryEmailVerified).length,
    anonymousUsers: allUsers.filter((user) => user.isAnonymous).length,
    totalTeams: teams.length,
    mau: users.filter((user) => inWindow(user.lastActiveAtMillis)).length,
    dailyActiveUsersSplit: split(
      (date) => activeOn(date).length,
      (date) => activeOn(date).filter((user) => dayOf(user.signedUpAtMillis) === date).length
    ),
    dailyActiveTeamsSplit: split(
      (date) => activeTeamsOn(date).length,
      (date) => activeTeamsOn(date).filter((team) => dayOf(team.createdAtMillis) === date).length
    ),
    totalUsersFiltered: users.length
  }
  const usersByCountry = new Map<string, number>()
  for (const user of users) {
    if (user.countryCode !== null) usersByCountry.set(user.countryCode, (usersByCountry.get(user.countryCode) ?? 0) + 1)
  }
  // the service's `usersCrudHandlers.adminList` (signed_up_at desc, include_anonymous as asked,
  // restricted users only with it) and `loadRecentlyActiveUsers` (5 by last activity): user objects
  const listed = users.filter((user) => includeAnonymous || restrictionOf(user, project.config) === null)
  const byNewest = (a: UserRecord, b: UserRecord) => b.signedUpAtMillis - a.signedUpAtMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  const userObject = (user: UserRecord) => encodeServerUser(serverUserView(project, user)) as unknown as Readonly<Record<string, unknown>>
  // the emulator has no payments: the service's loadPaymentsOverview / loadDailyRevenue over no rows
  const paymentsOverview = {
    subscriptionsByStatus: {},
    activeSubscriptionCount: 0,
    totalOneTimePurchases: 0,
    dailySubscriptions: zeros(),
    revenueCents: 0,
    mrrCents: 0,
    totalOrders: 0,
    checkoutConversionRate: 0
  }
  // every outbox e-mail is one the service would hold as SENT (simple status OK) through SMTP:
  // finished sending, no delivery, bounce or click information
  const emails = Outbox.list(context.env.state, { projectId: project.id })
  const emailsOn = (date: string) => emails.filter((email) => dayOf(email.sentAtMillis) === date).length
  const emailOverview = {
    emailsByStatus: emails.length > 0 ? { ok: emails.length } : {},
    totalEmails: emails.length,
    dailyEmails: days.map((date) => ({ date, activity: emailsOn(date) })),
    dailyEmailsByStatus: days.map((date) => ({ date, ok: emailsOn(date), error: 0, inProgress: 0 })),
    emailsSent: emails.length,
    recentEmails: [...emails].reverse().slice(0, recentPageSize).map((email) => ({
      id: email.id,
      status: "SENT",
      subject: email.subject,
      createdAtMillis: email.sentAtMillis
    })),
    deliverabilityStatus: { delivered: 0, bounced: 0, error: 0, inProgress: 0 },
    deliverabilityRate: 0,
    bounceRate: 0,
    clickRate: 0
  }
  // no page views, clicks or session replays; the top region and the users online are the
  // service's token-refresh aggregates, read from each user's last activity (no region known)
  const regions = new Map<string | null, number>()
  for (const user of users) {
    if (inWindow(user.lastActiveAtMillis)) regions.set(user.countryCode, (regions.get(user.countryCode) ?? 0) + 1)
  }
  const topRegion = [...regions].sort((a, b) => b[1] - a[1])[0]
  const analyticsOverview = {
    dailyPageViews: zeros(),
    dailyClicks: zeros(),
    dailyVisitors: zeros(),
    dailyRevenue: days.map((date) => ({ date, newCents: 0, refundCents: 0 })),
    totalRevenueCents: 0,
    totalReplays: 0,
    recentReplays: 0,
    visitors: 0,
    avgSessionSeconds: 0,
    onlineLive: users.filter((user) => user.lastActiveAtMillis >= context.nowMillis - 5 * 60_000 && user.lastActiveAtMillis < untilExclusive).length,
    revenuePerVisitor: 0,
    topReferrers: [],
    topRegion: topRegion === undefined ? null : { countryCode: topRegion[0], regionCode: null, count: topRegion[1] }
  }
  return {
    totalUsers: users.length,
    dailyUsers: series((user) => user.signedUpAtMillis),
    dailyActiveUsers: series((user) => user.lastActiveAtMillis),
    usersByCountry: Object.fromEntries(usersByCountry),
    usersByCountryTable: usersByCountry,
    recentlyRegistered: [...listed].sort(byNewest).slice(0, recentPageSize).map(userObject),
    recentlyActive: [...users].sort((a, b) => b.lastActiveAtMillis - a.lastActiveAtMillis).slice(0, 5).map(userObject),
    loginMethods: loginMethods(allUsers),
    authOverview,
    paymentsOverview,
    emailOverview,
    analyticsOverview
  }
}

/** The feature-support answer text. */
export const featureSupportText = (body: Readonly<Record<string, unknown>>) =>
  `${typeof body.feature_name === "string" ? body.feature_name : "This feature"} is not yet supported. Please reach out to Stack support for more information.`

/** The admin routes. */
export const routes = [
  route(metricsRoute, ({ query }, context) =>
    Effect.gen(function* () {
      const { usersByCountryTable, ...metrics } = computeMetrics(context, query.includeAnonymous === true)
      const wire = yield* Effect.orDie(encodeMetrics(metrics))
      return jsonResponse(200, { ...wire, users_by_country: Object.fromEntries(usersByCountryTable) })
    })),
  route(svixTokenEndpoint, () => Effect.sync(() => ({ token: `emulator_svix_${randomToken45()}` }))),
  route(Endpoints.checkFeatureSupport, ({ payload }) => Effect.succeed(featureSupportText(payload)), { responseType: "text" })
]
