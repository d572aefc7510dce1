/**
 * Anonymous users (PROTOCOL.md §3.1, §6 #1 and #8): a user without any credential, signed in at
 * once. Its tokens work only with `X-Stack-Allow-Anonymous-User: true` (the SDK always sends it).
 * A later password sign-up (or another sign-in method) upgrades the same user in place: the id
 * stays, so data the app stored for it stays attached.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Endpoint from "../core/Endpoint.js"
import { Session } from "../session/Session.js"
import { signUpEndpoint } from "./internal/anonymous.js"

/**
 * Creates an anonymous user, signs it in and stores the tokens; returns its id.
 * `POST /auth/anonymous/sign-up`. Replaces whatever session was stored before.
 */
export const signUp = Effect.fn("Anonymous.signUp")(function* () {
  const tokens = yield* Endpoint.call(signUpEndpoint, {})
  const session = yield* Session
  yield* session.signIn({ accessToken: tokens.accessToken, refreshToken: Option.some(tokens.refreshToken) })
  return { userId: tokens.userId }
})
