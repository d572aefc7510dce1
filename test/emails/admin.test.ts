/** Admin metrics, Svix token and feature-support report through the SDK against the in-process emulator. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { Admin, Anonymous, Password } from "../../src/index.js"
import type * as Emulator from "../../src/emulator/index.js"
import { setup } from "./support.js"

describe("Admin", () => {
  it.effect("getMetrics: real counts from the state; anonymous users only with includeAnonymous", () =>
    Effect.gen(function* () {
      const { admin, client, emulator } = yield* setup(false)
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 12))
      const before = (yield* Admin.getMetrics().pipe(Effect.provide(admin))).totalUsers!
      yield* Password.signUpWithPassword({ email: "m1@example.com", password: "correct horse battery", noVerificationCallback: true }).pipe(
        Effect.provide(client)
      )
      yield* Anonymous.signUp().pipe(Effect.provide(client))
      const metrics = yield* Admin.getMetrics({ includeAnonymous: false }).pipe(Effect.provide(admin))
      expect(metrics.totalUsers).toBe(before + 1)
      const withAnonymous = yield* Admin.getMetrics({ includeAnonymous: true }).pipe(Effect.provide(admin))
      expect(withAnonymous.totalUsers).toBe(before + 2)
      expect(metrics.dailyUsers).toHaveLength(31)
      expect(metrics.dailyUsers!.at(-1)).toEqual({ date: "2026-11-20", activity: signedUpOn(emulator, "2026-11-20") })
      expect(signedUpOn(emulator, "2026-11-20")).toBeGreaterThanOrEqual(1)
      expect(metrics.recentlyRegistered![0]).toMatchObject({ primary_email: "m1@example.com" })
      expect(metrics.loginMethods!.find((entry) => entry.method === "password")!.count).toBeGreaterThanOrEqual(1)
      // the service's eight auth_overview keys (issue 16 item 9; values: test/emulator/fidelityMetrics.test.ts)
      expect(Object.keys(metrics.authOverview!).sort()).toEqual([
        "anonymousUsers",
        "dailyActiveTeamsSplit",
        "dailyActiveUsersSplit",
        "mau",
        "totalTeams",
        "totalUsersFiltered",
        "unverifiedUsers",
        "verifiedUsers"
      ])
    }))

  it.effect("createSvixToken: a token (201)", () =>
    Effect.gen(function* () {
      const { admin } = yield* setup(false)
      const token = yield* Admin.createSvixToken().pipe(Effect.provide(admin))
      expect(token.token.length).toBeGreaterThan(10)
      expect(token.url).toBeUndefined()
    }))

  it.effect("checkFeatureSupport: the service's text, echoing feature_name", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(false)
      expect(yield* Admin.checkFeatureSupport({ feature_name: "teleport" }).pipe(Effect.provide(client))).toBe(
        "teleport is not yet supported. Please reach out to Stack support for more information."
      )
      expect(yield* Admin.checkFeatureSupport({ name: "x" }).pipe(Effect.provide(client))).toBe(
        "This feature is not yet supported. Please reach out to Stack support for more information."
      )
    }))
})

/** Non-anonymous users of the demo project who signed up on `date` (UTC). */
const signedUpOn = (emulator: Emulator.Emulator, date: string) =>
  [...emulator.state.projects.get(emulator.demo.projectId)!.users.values()].filter(
    (user) => !user.isAnonymous && new Date(user.signedUpAtMillis).toISOString().slice(0, 10) === date
  ).length
