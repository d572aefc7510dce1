/**
 * Issue 16 item 9: `GET /internal/metrics`'s `auth_overview` has the service's eight keys, filled
 * from the emulator's state. The keys and their types are the service's own schema
 * (`MetricsAuthOverviewSchema` of `@stackframe/stack-shared` 2.8.108, `interface/admin-metrics`):
 * `verified_users`, `unverified_users`, `anonymous_users`, `total_teams`, `mau` (integers),
 * `daily_active_users_split` and `daily_active_teams_split` (`{total, new, retained, reactivated}`,
 * each a list of `{date, activity}`), `total_users_filtered` (integer).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const DataPoints = Schema.Array(Schema.Struct({ date: Schema.String, activity: Schema.Number }))
const ActivitySplit = Schema.Struct({ total: DataPoints, new: DataPoints, retained: DataPoints, reactivated: DataPoints })
const Integer = Schema.Number.check(Schema.isInt())

/** The service's `auth_overview` (exactly these keys). */
const AuthOverview = Schema.Struct({
  verified_users: Integer,
  unverified_users: Integer,
  anonymous_users: Integer,
  total_teams: Integer,
  mau: Integer,
  daily_active_users_split: ActivitySplit,
  daily_active_teams_split: ActivitySplit,
  total_users_filtered: Integer
})

const adminHeaders = (credentials: Emulator.ProjectCredentials) => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": credentials.superSecretAdminKey
})

const overview = (emulator: Emulator.Emulator, includeAnonymous: boolean) =>
  Effect.gen(function* () {
    const answer = yield* send(emulator, { path: `/api/v1/internal/metrics?include_anonymous=${includeAnonymous}`, headers: adminHeaders(emulator.demo) })
    expect(answer.status).toBe(200)
    return Schema.decodeUnknownSync(AuthOverview, { onExcessProperty: "error" })(answer.json.auth_overview)
  })

const last = (points: ReadonlyArray<{ readonly activity: number }>) => points[points.length - 1]!.activity

describe("item 9: auth_overview", () => {
  it.effect("has the service's eight keys, counted from the project's users and teams", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { user: false } })
      const demo = emulator.demo
      const ada = yield* signUp(emulator, demo, "ada.metrics@example.com")
      yield* signUp(emulator, demo, "bob.metrics@example.com")
      const verified = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/users/${ada.user_id}`,
        headers: serverHeaders(demo),
        body: { primary_email_verified: true }
      })
      expect(verified.status).toBe(200)
      const anonymous = yield* send(emulator, { method: "POST", path: "/api/v1/auth/anonymous/sign-up", headers: clientHeaders(demo) })
      expect(anonymous.status).toBe(200)
      const team = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/teams",
        headers: serverHeaders(demo),
        body: { display_name: "Metrics", creator_user_id: ada.user_id }
      })
      expect(team.status).toBe(201)

      const without = yield* overview(emulator, false)
      expect(without).toMatchObject({ verified_users: 1, unverified_users: 1, anonymous_users: 1, total_teams: 1, mau: 2, total_users_filtered: 2 })
      // everyone signed up and was active today: today's active users are all new
      expect(last(without.daily_active_users_split.total)).toBe(2)
      expect(last(without.daily_active_users_split.new)).toBe(2)
      expect(last(without.daily_active_users_split.retained)).toBe(0)
      expect(last(without.daily_active_teams_split.total)).toBe(1)
      // the service's window: METRICS_WINDOW_DAYS = 30 days before today, and today (internal/metrics/route.tsx at 2f719903)
      expect(without.daily_active_users_split.total.length).toBe(31)

      const withAnonymous = yield* overview(emulator, true)
      expect(withAnonymous).toMatchObject({ anonymous_users: 1, mau: 3, total_users_filtered: 3 })
    }))
})
