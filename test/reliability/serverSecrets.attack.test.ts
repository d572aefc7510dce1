/**
 * Attacker's review of the server-side functions added with issue 15: API key values
 * (`ServerUsers.getByApiKey`, `ServerTeams.getByApiKey`, `ServerUserApiKeys.create`) and provider
 * access tokens (`ServerConnectedAccounts.getAccessToken`) never appear in a URL, a span, a log
 * line or an error, whether the call succeeds or fails. (The service takes the key in the body of
 * `POST /user-api-keys/check`: PROTOCOL.md.)
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Logger, Option, Redacted, References, Result, Tracer } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { ServerTeams, ServerUserApiKeys, ServerUsers, TeamApiKeys, Teams, UserApiKeys } from "../../src/index.js"
import { setup, within } from "../teams/support.js"

const recorded: Array<string> = []

const recordingTracer = Tracer.make({
  span: ({ annotations, kind, links, name, parent, startTime }) => {
    const attributes = new Map<string, unknown>()
    const span: Tracer.Span = {
      _tag: "Span",
      name,
      spanId: `span-${recorded.length}`,
      traceId: "trace",
      parent,
      annotations,
      status: { _tag: "Started", startTime },
      attributes,
      links,
      sampled: true,
      kind,
      end: (_endTime, exit) => {
        recorded.push(`${name} ${JSON.stringify([...attributes])}`)
        if (Exit.isFailure(exit)) recorded.push(Cause.pretty(exit.cause))
      },
      attribute: (key, value) => void attributes.set(key, value),
      event: (eventName, _time, eventAttributes) => void recorded.push(`${eventName} ${JSON.stringify(eventAttributes ?? {})}`),
      addLinks: () => {}
    }
    return span
  }
})

const captureLogger = Logger.make((options) => {
  recorded.push(Logger.formatLogFmt.log(options))
  recorded.push(Logger.formatJson.log(options))
})

/** Runs a call with every log line and span recorded; its failure or value is logged too. */
const observed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.tapCause((cause) => Effect.logError("call failed", cause)),
    Effect.tap((value) => Effect.logDebug("call succeeded", value)),
    Effect.result,
    Effect.tap((outcome) => Effect.sync(() => void recorded.push(String(outcome), JSON.stringify(outcome)))),
    Effect.provide(Logger.layer([captureLogger])),
    Effect.provideService(References.MinimumLogLevel, "All"),
    Effect.withTracer(recordingTracer),
    // every request and response header recorded (effect 4 records none unless asked), as in an app that turns it on
    Effect.provideService(HttpClient.TracerHeaderFilter, () => true)
  )

describe("server API-key functions keep key values secret", () => {
  it.effect("getByApiKey (user and team; valid, revoked, unknown, malformed) and ServerUserApiKeys.create leave no key value in spans (URLs included), logs or errors", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ clientTeamCreationEnabled: true, allowTeamApiKeys: true, allowUserApiKeys: true })
      const ada = yield* signUp("ada@example.com")
      const key = yield* within(ada.client)(UserApiKeys.create({ owner: { userId: "me" }, description: "cli", expiresAt: null }))
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const teamKey = yield* within(ada.client)(TeamApiKeys.create({ owner: { teamId: team.id }, description: "ci", expiresAt: null }))
      const userKeyValue = Redacted.value(key.value)
      const teamKeyValue = Redacted.value(teamKey.value)
      const unknown = "sk_unknownvalue0123456789abcdefghijklmnop"
      const malformed = `sk_${"x".repeat(5_000)}\n?token=leak`
      recorded.length = 0

      expect(Option.isSome(yield* within(server)(ServerUsers.getByApiKey(key.value)))).toBe(true)
      yield* within(server)(observed(ServerUsers.getByApiKey(userKeyValue)))
      yield* within(server)(observed(ServerTeams.getByApiKey(teamKeyValue)))
      yield* within(server)(observed(ServerUsers.getByApiKey(teamKeyValue)))
      yield* within(server)(observed(ServerUsers.getByApiKey(unknown)))
      yield* within(server)(observed(ServerUsers.getByApiKey(malformed)))
      yield* within(server)(observed(ServerUserApiKeys.checkOrNone(malformed)))
      const created = yield* within(server)(observed(ServerUserApiKeys.create(ada.userId, { description: "server-made", expiresAt: null })))
      const createdValue = Redacted.value(Result.getOrThrow(created).value)
      yield* within(ada.client)(UserApiKeys.revoke(key.id))
      yield* within(server)(observed(ServerUsers.getByApiKey(userKeyValue)))

      const text = recorded.join("\n")
      expect(text).toContain("ServerUsers.getByApiKey")
      expect(text).toContain("/user-api-keys/check")
      for (const secret of [userKeyValue, teamKeyValue, unknown, "x".repeat(100), "?token=leak", createdValue]) {
        expect(text).not.toContain(secret)
      }
    }))
})
