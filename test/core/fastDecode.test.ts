/**
 * The compiled fast path of answer decoding (src/core/internal/fastDecode.ts) answers only what
 * `effect/Schema` answers: for every recorded answer of a real instance (test/fixtures/wire-samples)
 * against every success schema of the endpoints below, either it declines (the full decoder then
 * decides) or it gives the full decoder's own value, keys in the same order. Bad input still ends
 * in the typed error, by the full decoder.
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type * as Endpoint from "../../src/core/Endpoint.js"
import { decodeResponse } from "../../src/core/internal/call.js"
import { compile, miss } from "../../src/core/internal/fastDecode.js"
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

const schemas: ReadonlyArray<Schema.Schema<unknown, unknown>> = [
  ...[Sessions, Password, ServerUsers, Users, Teams, ServerTeams, Permissions, UserApiKeys, ContactChannels].flatMap((module) =>
    Object.values(module)
      .filter((value): value is Endpoint.Any => typeof value === "object" && value !== null && "method" in value && "success" in value && "errors" in value)
      .map((endpoint) => endpoint.success as Schema.Schema<unknown, unknown>)
  ),
  ...[...KnownErrors.byCode.values()].map((cls) => cls.detailsSchema as Schema.Schema<unknown, unknown>)
]

/** The decoded value as text, keys in order, dates as their time. */
const shown = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (v instanceof Date ? `Date(${v.getTime()})` : v))

/** A server view of a user, as recorded (`GET /users/me` with server access). */
const userBody = bodies.find((sample) => sample.file === "users/03-me-get-server.json")!.body as Record<string, unknown>

describe("fast decoding of answers", () => {
  it("the user and user-list schemas are compiled (the fast path covers them)", () => {
    expect(compile(ServerUser.ast)).toBeDefined()
    expect(compile(CurrentUser.ast)).toBeDefined()
    expect(compile(UserPage.ast)).toBeDefined()
  })

  it("every recorded answer, against every schema: the fast path declines or answers effect/Schema's own value, keys in the same order", () => {
    let answered = 0
    for (const schema of schemas) {
      const fast = compile(schema.ast)
      if (fast === undefined) continue
      const full = ParseResult.decodeUnknownEither(schema)
      for (const sample of bodies) {
        const value = fast(structuredClone(sample.body))
        if (value === miss) continue
        const expected = full(structuredClone(sample.body))
        expect(Either.isRight(expected), `${sample.file} answered by the fast path but refused by Schema`).toBe(true)
        expect(shown(value)).toBe(shown(Either.getOrThrow(expected)))
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
    const value = compile(ServerUser.ast)!(input)
    expect(value).not.toBe(miss)
    expect(shown(value)).toBe(shown(Schema.decodeUnknownSync(ServerUser)(input)))
    expect(JSON.stringify(input)).toBe(before)
  })

  it("a user with a wrong member, a missing required key or an invalid date is declined, and the answer still ends in InvalidResponse naming the path", () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [{ ...userBody, primary_email_verified: "yes" }, "primary_email_verified"],
      [Object.fromEntries(Object.entries(userBody).filter(([key]) => key !== "id")), "id"],
      [{ ...userBody, signed_up_at_millis: Number.NaN }, "signed_up_at_millis"],
      [{ ...userBody, oauth_providers: [{ id: "x" }] }, "oauth_providers.0.account_id"]
    ]
    for (const [body, path] of cases) {
      expect(compile(ServerUser.ast)!(body)).toBe(miss)
      const exit = Effect.runSync(
        Effect.either(decodeResponse("test", { status: 200, headers: {}, text: JSON.stringify(body), method: "GET", url: "/users/me" }, ServerUser, []))
      )
      expect(Either.isLeft(exit) && (exit.left as { _tag?: string })._tag).toBe("InvalidResponse")
      if (Either.isLeft(exit)) expect((exit.left as { message: string }).message).toContain(path)
    }
  })

  it("a union with two structured members is not compiled (Effect's member order is its own)", () => {
    const union = Schema.Union(Schema.Struct({ a: Schema.String }), Schema.Struct({ a: Schema.String, b: Schema.optional(Schema.Number) }))
    expect(compile(union.ast)).toBeUndefined()
    expect(compile(Schema.NullOr(Schema.Struct({ a: Schema.String })).ast)).toBeDefined()
  })
})
