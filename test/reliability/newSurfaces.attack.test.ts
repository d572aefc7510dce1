/**
 * Attacker's review of the surfaces added with issue 15 (server-to-client hydration, schema-typed
 * metadata, server API keys): user-controlled text cannot break out of the page's `<script>`, a
 * hand-over is made for the request's own session only, and no error message echoes a token or a
 * stored value (which may hold personal data) — errors name the field and the owner instead.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted, Result, Schema } from "effect"
import { Metadata, QueryCache, ServerUsers, Users } from "../../src/index.js"
import { Session } from "../../src/session/Session.js"
import * as SessionModule from "../../src/session/Session.js"
import * as Hydration from "../../src/users/Hydration.js"
import { setup, within } from "../teams/support.js"

/** The session's tokens as text. */
const tokensOf = Effect.gen(function* () {
  const session = yield* Session
  const tokens = yield* session.current
  return {
    accessToken: Redacted.value(Option.getOrThrow(tokens.accessToken)),
    refreshToken: Redacted.value(Option.getOrThrow(tokens.refreshToken))
  }
})

const hostileName = "</script><script>alert(document.cookie)</script><!-- \u2028\u2029 & >"

describe("hydration hand-over under attack", () => {
  it.effect("a display name with </script>, <!-- and U+2028/U+2029 cannot close the page's script: serialize escapes it and JSON.parse gives it back", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      yield* within(ada.client)(Users.updateCurrent({ displayName: hostileName, clientMetadata: { bio: hostileName } }))
      const handOver = yield* within(ada.client)(Hydration.dehydrate())
      const text = Hydration.serialize(handOver)
      for (const forbidden of ["<", ">", "&", "\u2028", "\u2029"]) expect(text.includes(forbidden)).toBe(false)
      const parsed = JSON.parse(text) as Hydration.Dehydrated
      expect(parsed).toEqual(handOver)
      expect(parsed.user?.display_name).toBe(hostileName)
    }))

  it.effect("on one server runtime (one cache), each request's hand-over holds that request's tokens and user (client view: no server metadata), never the previous or a concurrent visitor's", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      // server-only data the user must not see in their page
      yield* within(server)(ServerUsers.update(ada.userId, { serverMetadata: { internalNote: "server-only-note-4711" } }))
      expect((yield* within(server)(ServerUsers.getById(ada.userId))).serverMetadata).toEqual({ internalNote: "server-only-note-4711" })
      const adaTokens = yield* within(ada.client)(tokensOf)
      const bobTokens = yield* within(bob.client)(tokensOf)
      /** What a page handler does: the request's own session, then dehydrate on the shared runtime. */
      const page = (tokens: { readonly accessToken: string; readonly refreshToken: string }) =>
        within(server)(
          Effect.flatMap(
            SessionModule.makeForRequest({
              accessToken: Option.some(Redacted.make(tokens.accessToken)),
              refreshToken: Option.some(Redacted.make(tokens.refreshToken))
            }),
            (session) => Effect.provideService(Hydration.dehydrate(), Session, session)
          )
        )
      const first = yield* page(adaTokens)
      const second = yield* page(bobTokens)
      const [third, fourth] = yield* Effect.all([page(bobTokens), page(adaTokens)], { concurrency: 2 })
      for (
        const [handOver, tokens, email] of [
          [first, adaTokens, "ada@example.com"],
          [second, bobTokens, "bob@example.com"],
          [third, bobTokens, "bob@example.com"],
          [fourth, adaTokens, "ada@example.com"]
        ] as const
      ) {
        expect(handOver.refreshToken).toBe(tokens.refreshToken)
        expect(handOver.user?.primary_email).toBe(email)
        expect(Hydration.serialize(handOver)).not.toContain("server-only-note-4711")
      }
    }))

  it.effect("a hand-over with forged tokens falls back cleanly: the first read the service answers ends signed out (typed none), no defect", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const genuine = yield* within(ada.client)(Hydration.dehydrate())
      const forged = Result.getOrThrow(
        Hydration.decode({
          ...genuine,
          accessToken: `${genuine.accessToken!.slice(0, -4)}AAAA`,
          refreshToken: "forged-refresh-token-0123456789abcdef"
        })
      )
      // a browser whose store is empty takes the hand-over's tokens
      const browser = yield* signUp("browser-owner@example.com")
      yield* within(browser.client)(Effect.flatMap(Session, (session) => session.clear))
      yield* within(browser.client)(Hydration.hydrate(forged))
      // the service refuses them at the first read that reaches it
      yield* within(browser.client)(QueryCache.invalidate(Users.currentUserCacheKey))
      const user = yield* within(browser.client)(Users.getCurrent())
      expect(Option.isNone(user)).toBe(true)
      const after = yield* within(browser.client)(Effect.flatMap(Session, (session) => session.current))
      expect(Option.isNone(after.refreshToken)).toBe(true)
    }))

  it.effect("InvalidHydration names the bad field, never its value: no token, no e-mail address in the message", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const genuine = yield* within(ada.client)(Hydration.dehydrate())
      const refresh = genuine.refreshToken!
      const cases: ReadonlyArray<[unknown, string]> = [
        [{ ...genuine, refreshToken: [refresh] }, "refreshToken"],
        [{ ...genuine, accessToken: { token: genuine.accessToken } }, "accessToken"],
        [{ ...genuine, user: { ...genuine.user, primary_email_verified: "yes" } }, "user"],
        [{ ...genuine, version: 2 }, "version"]
      ]
      for (const [input, field] of cases) {
        const decoded = Hydration.decode(input)
        expect(Result.isFailure(decoded)).toBe(true)
        const message = Result.isFailure(decoded) ? decoded.failure.message : ""
        expect(message).toContain(field)
        expect(message).not.toContain(refresh)
        expect(message).not.toContain(genuine.accessToken!)
        expect(message).not.toContain("ada@example.com")
        expect(JSON.stringify(Result.isFailure(decoded) ? decoded.failure : {})).not.toContain("ada@example.com")
      }
    }))
})

describe("schema-typed metadata errors under attack", () => {
  const AppMetadata = Metadata.make({
    user: {
      clientReadOnly: Schema.NullOr(Schema.Struct({ plan: Schema.Literals(["free", "pro"]) })),
      server: Schema.NullOr(Schema.Struct({ taxId: Schema.Number }))
    }
  })

  it.effect("MetadataDecodeError names the owner, its id and the field, never the stored value (personal data)", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const personal = "Ada Lovelace, 12 St James's Square, London"
      yield* within(server)(ServerUsers.update(ada.userId, { serverMetadata: { taxId: personal } }))
      const error = yield* Effect.flip(within(server)(AppMetadata.ServerUsers.getById(ada.userId)))
      expect(error).toMatchObject({ _tag: "MetadataDecodeError", owner: "user", id: ada.userId, field: "serverMetadata" })
      expect(error.message).toContain("taxId")
      expect(error.message).not.toContain(personal)
      expect(JSON.stringify(error)).not.toContain(personal)
      expect(String(error)).not.toContain(personal)
    }))

  it.effect("an update whose metadata does not encode is InvalidArgument naming the field, without the value", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const personal = "Ada Lovelace, 12 St James's Square, London"
      const error = yield* Effect.flip(
        within(server)(
          AppMetadata.ServerUsers.update(ada.userId, { serverMetadata: { taxId: personal as unknown as number } })
        )
      )
      expect(error).toMatchObject({ _tag: "InvalidArgument", argument: "serverMetadata" })
      expect(error.message).toContain("taxId")
      expect(error.message).not.toContain(personal)
    }))
})
