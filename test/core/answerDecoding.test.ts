/**
 * Answer decoding (`decodeResponse`, over effect/Schema's compiled parsers) answers what
 * `effect/Schema` answers: for every recorded answer of a real instance (test/fixtures/wire-samples)
 * against every success schema of the endpoints below, the value Schema decodes, keys in the same
 * order. Bad input ends in the typed error naming the path. (These were the tests of the SDK's own
 * fast decoder, removed with the port to effect 4: the assertions now hold for the answer decoding.)
 */
import { Effect, Result, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type * as Endpoint from "../../src/core/Endpoint.js"
import { decodeResponse } from "../../src/core/internal/call.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import * as Sessions from "../../src/auth/internal/sessions.js"
import * as Password from "../../src/auth/internal/password.js"
import * as ServerUsers from "../../src/users/internal/serverUsers.js"
import * as Users from "../../src/users/internal/users.js"
import * as Teams from "../../src/teams/internal/teams.js"
import * as ServerTeams from "../../src/teams/internal/serverTeams.js"
import * as Permissions from "../../src/permissions/internal/permissions.js"
import * as UserApiKeys from "../../src/api-keys/internal/userApiKeys.js"
import * as ContactChannels from "../../src/contact-channels/internal/contactChannels.js"
import { CurrentUser, ServerUser } from "../../src/users/User.js"
import { UserPage } from "../../src/users/internal/serverUsers.js"

const samplesRoot = new URL("../fixtures/wire-samples/", import.meta.url).pathname

const bodies: ReadonlyArray<{ readonly file: string; readonly body: unknown }> = readdirSync(samplesRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(samplesRoot, dir.name))
      .filter((file) => file.endsWith(".json"))
      .map((file) => ({
        file: `${dir.name}/${file}`,
        body: (JSON.parse(readFileSync(join(samplesRoot, dir.name, file), "utf8")) as { response: { body?: unknown } }).response.body
      }))
  )
  .filter((sample) => sample.body !== undefined)

const schemas: ReadonlyArray<Schema.Codec<unknown, unknown>> = [
  ...[Sessions, Password, ServerUsers, Users, Teams, ServerTeams, Permissions, UserApiKeys, ContactChannels].flatMap((module) =>
    Object.values(module)
      .filter((value): value is Endpoint.Any => typeof value === "object" && value !== null && "method" in value && "success" in value && "errors" in value)
      .map((endpoint) => endpoint.success as Schema.Codec<unknown, unknown>)
  ),
  ...[...KnownErrors.byCode.values()].map((cls) => cls.detailsSchema as Schema.Codec<unknown, unknown>)
]

/** The decoded value as text, keys in order, dates as their time. */
const shown = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (v instanceof Date ? `Date(${v.getTime()})` : v))

/** A server view of a user, as recorded (`GET /users/me` with server access). */
const userBody = bodies.find((sample) => sample.file === "users/03-me-get-server.json")!.body as Record<string, unknown>

/** An answer decoded by the SDK's answer decoding, as the call's `Result`. */
const decodeAnswer = (body: unknown, schema: Schema.Codec<unknown, unknown>) =>
  Effect.runSync(
    Effect.result(decodeResponse("test", { status: 200, headers: {}, text: JSON.stringify(body), method: "GET", url: "/users/me" }, schema, []))
  )

describe("decoding of answers", () => {
  it("the user and user-list schemas decode their recorded answers", () => {
    expect(Result.isSuccess(decodeAnswer(userBody, ServerUser))).toBe(true)
    const currentUser = bodies.find((sample) => sample.file === "users/01-me-get-client.json")!.body
    expect(Result.isSuccess(decodeAnswer(currentUser, CurrentUser))).toBe(true)
    expect(Result.isSuccess(decodeAnswer({ items: [userBody], is_paginated: true, pagination: { next_cursor: null } }, UserPage))).toBe(true)
  })

  it("every recorded answer, against every schema: the answer decoding gives effect/Schema's own value, keys in the same order", () => {
    let answered = 0
    for (const schema of schemas) {
      const full = Schema.decodeUnknownResult(schema)
      for (const sample of bodies) {
        const expected = full(structuredClone(sample.body))
        if (Result.isFailure(expected)) continue
        const value = decodeAnswer(sample.body, schema)
        expect(Result.isSuccess(value), `${sample.file} decoded by Schema but refused by the answer decoding`).toBe(true)
        expect(shown(Result.getOrThrow(value))).toBe(shown(Result.getOrThrow(expected)))
        answered++
      }
    }
    expect(answered).toBeGreaterThan(20)
  })

  it("excess keys are dropped, missing defaulted keys take their defaults, and the input is left as it was", () => {
    const input: Record<string, unknown> = { ...userBody, an_excess_key: 1 }
    delete input["is_anonymous"]
    delete input["server_metadata"]
    const before = JSON.stringify(input)
    const value = decodeAnswer(input, ServerUser)
    expect(Result.isSuccess(value)).toBe(true)
    expect(shown(Result.getOrThrow(value))).toBe(shown(Schema.decodeUnknownSync(ServerUser)(input)))
    expect(JSON.stringify(input)).toBe(before)
  })

  it("a user with a wrong member, a missing required key or an invalid date ends in InvalidResponse naming the path", () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [{ ...userBody, primary_email_verified: "yes" }, "primary_email_verified"],
      [Object.fromEntries(Object.entries(userBody).filter(([key]) => key !== "id")), "id"],
      [{ ...userBody, signed_up_at_millis: Number.NaN }, "signed_up_at_millis"],
      [{ ...userBody, oauth_providers: [{ id: "x" }] }, "oauth_providers.0.account_id"]
    ]
    for (const [body, path] of cases) {
      const exit = decodeAnswer(body, ServerUser)
      expect(Result.isFailure(exit) && (exit.failure as { _tag?: string })._tag).toBe("InvalidResponse")
      if (Result.isFailure(exit)) expect((exit.failure as { message: string }).message).toContain(path)
    }
  })
})
