/**
 * `Session.makeForRequest`: the light session over one request's tokens (no store, no watcher
 * fiber, no scope). Its token rules are the full session's (one implementation), checked against
 * both in `sessionRules.contract.test.ts`; here only what differs: sign-in stays in the session and
 * `changes` emits nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Stream } from "effect"
import * as SessionModule from "../../src/session/Session.js"
import { Session } from "../../src/session/Session.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"
import { accessToken, refreshTokenText, tokens, transportLayer } from "../support/fixtures.js"

/** Transport + the light session over fixed tokens. */
const requestSession = (initial: StoredTokens) => Layer.effect(Session, SessionModule.makeForRequest(initial)).pipe(Layer.provideMerge(transportLayer()))

const current = Effect.flatMap(Session, (session) => session.current)
const text = (token: Option.Option<Redacted.Redacted<string>>) => Option.getOrUndefined(Option.map(token, Redacted.value))

describe("Session.makeForRequest", () => {
  it.effect("sign-in stores new tokens in the session; changes emit nothing", () =>
    Effect.gen(function* () {
      const session = yield* Session
      yield* session.signIn({ accessToken: Redacted.make(accessToken(500)), refreshToken: Option.none() })
      const after = yield* current
      expect(text(after.accessToken)).toBe(accessToken(500))
      expect(Option.isNone(after.refreshToken)).toBe(true)
      expect((yield* Stream.runCollect(session.changes)).length).toBe(0)
      yield* session.clear
      const cleared = yield* current
      expect(Option.isNone(cleared.accessToken) && Option.isNone(cleared.refreshToken)).toBe(true)
    }).pipe(Effect.provide(requestSession(tokens(accessToken(60), refreshTokenText)))))
})
