/**
 * Token responses and the OAuth token endpoint (PROTOCOL.md §2.1, §2.6). Token responses are
 * validated before anything is stored (SPEC.md §5): a non-empty access token, `token_type`
 * bearer or dpop in any case, a positive `expires_in` where present, never the text `undefined`.
 *
 * The token endpoint's answer and the public-client secret are wire values shared by the
 * session's refresh grant, this domain's grants and the emulator; the answer is re-exported
 * here. The grant itself (its descriptor and form fields) is wire-only and not exported.
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { InvalidArgument } from "../core/Errors.js"
import { Session } from "../core/Session.js"
import { accessTokenExpiry } from "../session/Session.js"
import { authHeaders, authorizationHeader } from "../session/RequestTokenStore.js"

export {
  /** Answer of `POST /auth/oauth/token`. */
  OAuthTokenResponse,
  /** `token_type` of an OAuth token response: bearer or dpop, any case. */
  TokenType
} from "../session/RefreshGrant.js"

/** The domain's schemas, defined with its wire definitions (`internal/tokens.ts`). */
export { SignInTokens } from "./internal/tokens.js"

/** The longest remaining lifetime {@link getAccessToken} accepts to ask for (SPEC.md §9: 60 s). */
export const maxMinMillisUntilExpiration = 60_000

/** Options of {@link getAccessToken}. */
export interface GetAccessTokenOptions {
  /**
   * The token must stay valid at least this long (0 to {@link maxMinMillisUntilExpiration}
   * ms); a stored token with less left is refreshed first. Default: the session's 20 s.
   */
  readonly minMillisUntilExpiration?: number | undefined
}

/**
 * The signed-in user's access token for a request (the official `getAccessToken()`), or
 * `Option.none()` when signed out. The session refreshes a token with less than 20 s left; with
 * `minMillisUntilExpiration` a token with less than that left is refreshed too (the answer is the
 * refreshed token, whatever lifetime the service gave it). Fails with `InvalidArgument` (nothing
 * sent) for a minimum outside 0…60000 ms (SPEC.md §9: a requested lifetime over 60 s is refused),
 * and with the refresh's errors.
 */
export const getAccessToken = Effect.fn("Tokens.getAccessToken")(function* (options: GetAccessTokenOptions = {}) {
  const minimum = options.minMillisUntilExpiration
  if (minimum !== undefined && !(Number.isFinite(minimum) && minimum >= 0 && minimum <= maxMinMillisUntilExpiration)) {
    return yield* Effect.fail(
      new InvalidArgument({
        argument: "minMillisUntilExpiration",
        message: `The minimum remaining lifetime must be 0 to ${maxMinMillisUntilExpiration} ms, not ${minimum}.`
      })
    )
  }
  const session = yield* Session
  const tokens = yield* session.requestTokens
  if (Option.isNone(tokens.accessToken) || minimum === undefined) return tokens.accessToken
  const expiry = accessTokenExpiry(tokens.accessToken.value)
  const now = yield* Clock.currentTimeMillis
  if (expiry === undefined || Option.isNone(expiry) || expiry.value - now >= minimum) return tokens.accessToken
  return yield* session.refresh
})

/**
 * The `Authorization` value that hands the signed-in user's tokens to the app's own backend (the
 * official `getAuthorizationHeader()`): `Bearer stackauth_` + base64 of
 * `{"accessToken","refreshToken"}`, or `Option.none()` when signed out. The backend reads it with
 * `RequestTokenStore` / `ServerUsers.fromRequest` / `RequestAuth` (this SDK) or the official SDK's
 * request token store. The session's access token is refreshed first when it is about to expire.
 * The value reveals the tokens: send it only over HTTPS to your own servers, never log it.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import { Tokens } from "stack-auth-effect"
 *
 * const callBackend = Effect.gen(function* () {
 *   const authorization = yield* Tokens.getAuthorizationHeader()
 *   const headers: Record<string, string> = Option.isSome(authorization) ? { authorization: authorization.value } : {}
 *   return yield* Effect.promise(() => fetch("/api/orders", { headers }))
 * })
 * ```
 */
export const getAuthorizationHeader = Effect.fn("Tokens.getAuthorizationHeader")(function* () {
  const session = yield* Session
  return authorizationHeader(yield* session.requestTokens)
})

/**
 * The header object that hands the signed-in user's tokens to the app's own backend in the
 * `x-stack-auth` form (the official `getAuthHeaders()`): `{ "x-stack-auth": JSON }`, absent
 * tokens as `null`. Prefer {@link getAuthorizationHeader} for new code.
 */
export const getAuthHeaders = Effect.fn("Tokens.getAuthHeaders")(function* () {
  const session = yield* Session
  return authHeaders(yield* session.requestTokens)
})
