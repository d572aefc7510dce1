/**
 * Conformance of the e-mail, metrics and feature-support routes with the recorded wire samples
 * (email-templates/*, emails/*, check-feature-support/*; metrics/* recorded only a development 500,
 * so the emulator answers the documented 200 JSON instead). Each sample is replayed against a fresh
 * emulator seeded with the samples' project; compared (conformanceSupport.ts): status,
 * `x-stack-known-error`, content type, the body's shape (JSON) or text.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as Outbox from "../../src/emulator/Outbox.js"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import type { Answer } from "./helpers.js"
import { send } from "./helpers.js"
import { anyText, compare, load, makeSampleBench, projectId, sampleInstant } from "./conformanceSupport.js"

const conforms = (name: string, answer: Answer) => expect(compare(load(name).response, answer), name).toEqual([])

const bench = Effect.gen(function* () {
  yield* TestClock.setTime(sampleInstant)
  return yield* makeSampleBench()
})

describe("email-templates/* conformance", () => {
  for (
    const name of [
      "email-templates/02-patch-requires-custom-email-server",
      "email-templates/05-list-as-server",
      "email-templates/06-get-one-current-api"
    ]
  ) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        const { replay } = yield* bench
        conforms(name, yield* replay(name))
      }))
  }

  it.effect("email-templates/01: the list holds the service's default templates, same ids, names and sources", () =>
    Effect.gen(function* () {
      const { replay } = yield* bench
      const answer = yield* replay("email-templates/01-list")
      conforms("email-templates/01-list", answer)
      expect(answer.json).toEqual(load("email-templates/01-list").response.body)
      expect(defaultTemplates.length).toBe(7)
    }))

  for (const name of ["email-templates/03-legacy-list", "email-templates/04-legacy-get-one"]) {
    it.effect(`${name}: the legacy route is gone (404 text)`, () =>
      Effect.gen(function* () {
        const { replay } = yield* bench
        const answer = yield* replay(name)
        expect(compare(load(name).response, answer, { text: anyText }), name).toEqual([])
        expect(answer.text).toContain("404 — this page does not exist in Stack Auth's API.")
      }))
  }
})

describe("emails/* conformance", () => {
  it.effect("emails/01: the project's outbox, newest first, with the recorded keys", () =>
    Effect.gen(function* () {
      const { emulator, replay } = yield* bench
      for (const [index, to] of ["a@example.com", "b@example.com"].entries()) {
        Outbox.send(emulator.state, {
          projectId,
          to,
          subject: `Verify your email at SDK Test Project (${index})`,
          text: "",
          html: "",
          kind: "email_verification",
          code: null,
          link: null,
          sentAtMillis: sampleInstant + index
        })
      }
      const answer = yield* replay("emails/01-list")
      conforms("emails/01-list", answer)
      expect(answer.json.items.map((item: { to: Array<string> }) => item.to)).toEqual([["b@example.com"], ["a@example.com"]])
      expect(answer.json.items[0]).toMatchObject({ sent_at_millis: sampleInstant + 1, error: null })
    }))

  it.effect("emails/02: server access is INSUFFICIENT_ACCESS_TYPE", () =>
    Effect.gen(function* () {
      const { replay } = yield* bench
      conforms("emails/02-list-as-server", yield* replay("emails/02-list-as-server"))
    }))
})

describe("check-feature-support/* conformance", () => {
  for (
    const name of [
      "check-feature-support/01-sdk-shape",
      "check-feature-support/02-feature-name",
      "check-feature-support/03-no-auth"
    ]
  ) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        const { replay } = yield* bench
        conforms(name, yield* replay(name))
      }))
  }
})

describe("metrics (not golden: the recording is a development 500)", () => {
  it.effect("answers 200 JSON with the documented keys, computed from the state", () =>
    Effect.gen(function* () {
      const { emulator, project } = yield* bench
      const headers = {
        "x-stack-project-id": projectId,
        "x-stack-access-type": "admin",
        "x-stack-super-secret-admin-key": project.superSecretAdminKey
      }
      const answer = yield* send(emulator, { path: "/api/v1/internal/metrics?include_anonymous=false", headers })
      expect(answer.status).toBe(200)
      expect(answer.headers.get("content-type")).toContain("application/json")
      expect(Object.keys(answer.json).sort()).toEqual(
        [
          "analytics_overview",
          "auth_overview",
          "daily_active_users",
          "daily_users",
          "email_overview",
          "login_methods",
          "payments_overview",
          "recently_active",
          "recently_registered",
          "total_users",
          "users_by_country"
        ].sort()
      )
      expect(answer.json.total_users).toBe(emulator.state.projects.get(projectId)!.users.size)
      // 30 days before today and today (METRICS_WINDOW_DAYS in internal/metrics/route.tsx at 2f719903)
      expect(answer.json.daily_users).toHaveLength(31)
    }))
})
