/**
 * Server-to-client hydration: a server-rendered page hands the signed-in user and the session's
 * tokens to the browser, so the app's first render there already shows the user (no "loading",
 * and one `GET /users/me` fewer per page load).
 *
 * 1. On the server, for the request's session (`RequestSession.layerSession` of
 *    `stack-auth-effect/next`, or any `Session`): {@link dehydrate} reads the tokens (refreshed if
 *    needed) and the user (`Users.getCurrent`, through the cache) and returns a JSON-safe
 *    {@link Dehydrated} value; {@link serialize} turns it into text safe inside a `<script>`.
 * 2. In the browser, `StackProvider`'s `initialState` prop (React) or {@link hydrate} (any UI)
 *    stores the tokens when the browser's store has none (a store the server could not write,
 *    e.g. memory) and seeds the cache entry of `Users.getCurrent` with the user, once.
 *
 * The value holds the user's tokens: put it only in a page served to that user, over HTTPS, never
 * in a shared cache.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as QueryCache from "../cache/QueryCache.js"
import { isUsableToken } from "../core/Wire.js"
import { Session } from "../session/Session.js"
import { CurrentUser } from "./User.js"
import * as Users from "./Users.js"
import { describeIssues } from "./internal/issues.js"

/** The JSON handed from the server to the browser: the user (wire form) and the tokens. */
export const Dehydrated = Schema.Struct({
  /** Format version (1). */
  version: Schema.Literal(1),
  /** The signed-in user as `GET /users/me` answers it, `null` when signed out. */
  user: Schema.NullOr(CurrentUser),
  /** The access token the server used (fresh), `null` when signed out. */
  accessToken: Schema.NullOr(Schema.String),
  /** The refresh token, `null` when signed out. */
  refreshToken: Schema.NullOr(Schema.String)
})

/** The decoded hand-over: the user and the tokens. */
export type Hydration = typeof Dehydrated.Type

/** The JSON-safe hand-over (what {@link dehydrate} returns and `initialState` takes). */
export type Dehydrated = typeof Dehydrated.Encoded

const encode = Schema.encodeSync(Dehydrated)
const decodeResult = Schema.decodeUnknownResult(Dehydrated)

/**
 * The hand-over for the current session: its tokens (`Session.requestTokens`: refreshed when
 * fewer than 20 s remain) and its user (`Users.getCurrent`). Fails as those do.
 */
export const dehydrate = Effect.fn("Hydration.dehydrate")(function* () {
  const session = yield* Session
  const tokens = yield* session.requestTokens
  const user = yield* Users.getCurrent()
  const value: Hydration = {
    version: 1,
    user: Option.getOrNull(user),
    accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
    refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
  }
  return encode(value)
})

/**
 * {@link Dehydrated} as text to embed in a page's `<script>` (`<`, `>`, `&`, U+2028 and U+2029
 * escaped, so the text cannot close the script element); `JSON.parse` reads it back.
 */
export const serialize = (value: Dehydrated): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** A hand-over that is not a {@link Dehydrated} value (another version, a tampered page). */
export class InvalidHydration extends Schema.TaggedError<InvalidHydration>()("InvalidHydration", {
  message: Schema.String
}) {}

/**
 * Reads a hand-over (the parsed JSON) without effects; a bad one is {@link InvalidHydration},
 * whose message names the wrong fields and how they are wrong (`user.primary_email_verified:
 * Type`), never their values: a hand-over holds tokens and the user's personal data, and the
 * message may reach logs or an alert.
 */
export const decode = (input: unknown): Result.Result<Hydration, InvalidHydration> =>
  Result.mapError(decodeResult(input), (error) => new InvalidHydration({ message: `Invalid hydration: ${describeIssues(error, "(root)")}` }))

/**
 * Applies a hand-over in the browser: when the session holds no refresh token and the hand-over
 * has both tokens, stores them (`Session.signIn`); then, when the session's refresh token is the
 * hand-over's, seeds the cache entry of `Users.getCurrent` with its user (a later read within the
 * cache's 5 s is answered from memory). Run it once, before the first read.
 */
export const hydrate = Effect.fn("Hydration.hydrate")(function* (hydration: Hydration) {
  const session = yield* Session
  const stored = yield* session.current
  const { accessToken, refreshToken } = hydration
  if (Option.isNone(stored.refreshToken) && accessToken !== null && refreshToken !== null && isUsableToken(accessToken) && isUsableToken(refreshToken)) {
    yield* session.signIn({ accessToken: Redacted.make(accessToken), refreshToken: Option.some(Redacted.make(refreshToken)) })
  }
  const current = yield* session.current
  const sameSession = Option.getOrNull(Option.map(current.refreshToken, Redacted.value)) === refreshToken
  if (!sameSession) return false
  yield* QueryCache.cached(Users.currentUserCacheKey, Effect.succeed(Option.fromNullishOr(hydration.user)))
  return true
})
