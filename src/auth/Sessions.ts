/**
 * The current session on the server side: sign-out (PROTOCOL.md §3.1, §5.1).
 *
 * @module
 */
import { Effect, Option } from "effect"
import * as Endpoint from "../core/Endpoint.js"
import { RefreshTokenNotFoundOrExpired } from "../core/KnownErrors.js"
import { AnyObject } from "../core/Wire.js"
import { Session } from "../session/Session.js"

/** `DELETE /auth/sessions/current`. */
export const deleteCurrentEndpoint = Endpoint.make({
  name: "Auth.signOut",
  method: "DELETE",
  path: "/auth/sessions/current",
  access: "client",
  session: "required",
  payload: AnyObject,
  success: AnyObject,
  errors: [RefreshTokenNotFoundOrExpired]
})

/**
 * Signs out: deletes the current session on the server, then clears the tokens. A refresh-token
 * error (the session is already gone) or an expired access token is ignored, as the spec says;
 * with no token there is nothing to delete and the tokens are cleared. Other failures leave the
 * tokens in place, so the caller can retry.
 */
export const signOut = Effect.fn("Auth.signOut")(function* () {
  const session = yield* Session
  const tokens = yield* session.current
  if (Option.isSome(tokens.accessToken) || Option.isSome(tokens.refreshToken)) {
    yield* Endpoint.call(deleteCurrentEndpoint, { payload: {} }).pipe(
      Effect.catchTags({
        RefreshTokenNotFoundOrExpired: () => Effect.void,
        AccessTokenExpired: () => Effect.void,
        UnparsableAccessToken: () => Effect.void,
        UserNotSignedIn: () => Effect.void
      })
    )
  }
  yield* session.clear
})
