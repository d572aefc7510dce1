/**
 * Admin odds and ends (PROTOCOL.md §3.6, §3.7; wire samples metrics/*, check-feature-support/*):
 *
 * - `GET /internal/metrics`: computed from the emulator's state — `total_users`, `daily_users`
 *   (sign-ups per day) and `daily_active_users` (users last active that day) over the 30 days up
 *   to today (UTC), `users_by_country` (by `country_code`), `recently_registered` /
 *   `recently_active` (the 5 newest / most recently active users: id, display name, primary
 *   e-mail, times), `login_methods` (users per method: password, otp, passkey, each OAuth
 *   provider). Anonymous users count only with `include_anonymous=true`. `auth_overview` has the
 *   service's eight keys (its schema in `@stackframe/stack-shared`'s `admin-metrics`):
 *   `verified_users` / `unverified_users` / `anonymous_users` (by the primary e-mail's
 *   verification; anonymous users counted whatever `include_anonymous` says), `total_teams`,
 *   `mau` (users active in the 30 days up to now), `daily_active_users_split` and
 *   `daily_active_teams_split` (30 days of `total` / `new` / `retained` / `reactivated`: the
 *   emulator keeps only each user's last activity, so an active user who signed up that day is
 *   `new`, any other `retained`, and `reactivated` stays 0), `total_users_filtered` (the users
 *   counted with the `include_anonymous` filter). The other overview blocks
 *   (`payments_overview`, `email_overview`, `analytics_overview`) are empty objects: the
 *   emulator has no payments, e-mail delivery or analytics statistics.
 * - `POST /webhooks/svix-token`: 201 with a random token (the emulator has no Svix portal, so no `url`).
 * - `POST /check-feature-support`: 200 text, authentication optional.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import { Metrics } from "../../projects/Admin.js"
import { metricsEndpoint, svixTokenEndpoint } from "../../projects/internal/admin.js"
import * as Endpoints from "../Endpoints.js"
import { randomToken45 } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { jsonResponse } from "../Responses.js"
import { route } from "../Router.js"
import type { UserRecord } from "../State.js"

const dayMillis = 86_400_000

const dayOf = (millis: number) => new Date(millis).toISOString().slice(0, 10)

const summary = (user: UserRecord) => ({
  id: user.id,
  display_name: user.displayName,
  primary_email: user.primaryEmail,
  signed_up_at_millis: user.signedUpAtMillis,
  last_active_at_millis: user.lastActiveAtMillis,
  is_anonymous: user.isAnonymous
})

/** Users per login method (password, otp, passkey, each OAuth provider), largest first. */
const loginMethods = (users: ReadonlyArray<UserRecord>) => {
  const counts = new Map<string, number>()
  const add = (method: string) => counts.set(method, (counts.get(method) ?? 0) + 1)
  for (const user of users) {
    if (user.passwordHash !== null) add("password")
    if (user.otpAuthEnabled) add("otp")
    if (user.passkeyAuthEnabled) add("passkey")
    for (const provider of new Set(user.oauthAccounts.map((account) => account.provider))) add(provider)
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
  const users = [...projectOf(context).users.values()].filter((user) => includeAnonymous || !user.isAnonymous)
  const today = Math.floor(context.nowMillis / dayMillis) * dayMillis
  const days = Array.from({ length: 30 }, (_, index) => dayOf(today - (29 - index) * dayMillis))
  const series = (at: (user: UserRecord) => number) => days.map((date) => ({ date, activity: users.filter((user) => dayOf(at(user)) === date).length }))
  const project = projectOf(context)
  const allUsers = [...project.users.values()]
  const activeOn = (date: string) => users.filter((user) => dayOf(user.lastActiveAtMillis) === date)
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
    verified_users: allUsers.filter((user) => !user.isAnonymous && user.primaryEmailVerified).length,
    unverified_users: allUsers.filter((user) => !user.isAnonymous && !user.primaryEmailVerified).length,
    anonymous_users: allUsers.filter((user) => user.isAnonymous).length,
    total_teams: teams.length,
    mau: users.filter((user) => user.lastActiveAtMillis > context.nowMillis - 30 * dayMillis).length,
    daily_active_users_split: split(
      (date) => activeOn(date).length,
      (date) => activeOn(date).filter((user) => dayOf(user.signedUpAtMillis) === date).length
    ),
    daily_active_teams_split: split(
      (date) => activeTeamsOn(date).length,
      (date) => activeTeamsOn(date).filter((team) => dayOf(team.createdAtMillis) === date).length
    ),
    total_users_filtered: users.length
  }
  const usersByCountry = new Map<string, number>()
  for (const user of users) {
    if (user.countryCode !== null) usersByCountry.set(user.countryCode, (usersByCountry.get(user.countryCode) ?? 0) + 1)
  }
  return {
    totalUsers: users.length,
    dailyUsers: series((user) => user.signedUpAtMillis),
    dailyActiveUsers: series((user) => user.lastActiveAtMillis),
    usersByCountry: Object.fromEntries(usersByCountry),
    usersByCountryTable: usersByCountry,
    recentlyRegistered: [...users].sort((a, b) => b.signedUpAtMillis - a.signedUpAtMillis).slice(0, 5).map(summary),
    recentlyActive: [...users].sort((a, b) => b.lastActiveAtMillis - a.lastActiveAtMillis).slice(0, 5).map(summary),
    loginMethods: loginMethods(users),
    authOverview,
    paymentsOverview: {},
    emailOverview: {},
    analyticsOverview: {}
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
