/**
 * Signing in a command-line tool through the browser (PROTOCOL.md §3.0 "CLI auth attempt",
 * §3.1, §5.6; SPEC.md §4 "CLI login polling").
 *
 * 1. The CLI creates an attempt ({@link initiate}, `POST /auth/cli`): a secret polling code, a
 *    login code and an expiry (default 2 h, at most 24 h).
 * 2. It shows or opens {@link confirmationUrl} — `{appUrl}/handler/cli-auth-confirm?login_code=…`.
 * 3. There the signed-in user confirms: {@link complete} hands the browser session's refresh
 *    token to the attempt (`POST /auth/cli/complete`).
 * 4. Meanwhile the CLI polls ({@link waitForLogin}, `POST /auth/cli/poll`, every 2 s by default):
 *    `waiting` → poll again; `success` (201, once) → the refresh token, stored in the CLI's
 *    session; `expired` / `used` / anything else → `CliAuthExpiredError` / `CliAuthUsedError` /
 *    `CliAuthError`; running out of attempts → `CliAuthError` "Timed out waiting for CLI
 *    authentication.".
 *
 * @example
 * ```ts
 * import { Console, Effect } from "effect"
 * import { Cli } from "stack-auth-effect"
 *
 * const login = Cli.login({
 *   appUrl: "https://app.example.com",
 *   open: (url) => Console.log(`Open ${url} to sign in`)
 * })
 * ```
 *
 * @module
 */
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText, UserNotSignedIn } from "../core/Errors.js"
import { CliAuthError, CliAuthExpiredError, CliAuthUsedError } from "../core/KnownErrors.js"
import * as Schedules from "../core/Schedules.js"
import { StackClient } from "../core/StackClient.js"
import { Session } from "../session/Session.js"
import { makeRefreshGrant, refreshGrant } from "../session/RefreshGrant.js"
import { checkEndpoint, claimAnonymousSessionEndpoint, completeEndpoint, initiateEndpoint, invalidLoginCodeText, pollEndpoint } from "./internal/cli.js"

/** The domain's schemas, defined with its wire definitions (`internal/cli.ts`). */
export { Attempt, defaultExpiresInMillis, maxExpiresInMillis } from "./internal/cli.js"

/** The path of the confirmation page (fixed by the official SDK). */
export const confirmationPath = "/handler/cli-auth-confirm"

/** The page where the user confirms the CLI login: `{appUrl}/handler/cli-auth-confirm?login_code=<url-encoded>`. */
export const confirmationUrl = (appUrl: string, loginCode: string): string =>
  `${appUrl.replace(/\/+$/, "")}${confirmationPath}?login_code=${encodeURIComponent(loginCode)}`

/**
 * Creates a CLI login attempt. `POST /auth/cli`. `expiresInMillis` defaults to 2 hours on the
 * service (at most 24 h: a larger value fails with `InvalidArgument` before sending).
 */
export const initiate = Effect.fn("Cli.initiate")(function* (
  options: { readonly expiresInMillis?: number; readonly anonRefreshToken?: Redacted.Redacted<string> } = {}
) {
  return yield* Endpoint.call(initiateEndpoint, { payload: options })
})

/** Polls once. `POST /auth/cli/poll`. Fails with `InvalidPollingCode` for an unknown code. */
export const poll = Effect.fn("Cli.poll")(function* (pollingCode: Redacted.Redacted<string>) {
  return yield* Endpoint.call(pollEndpoint, { payload: { pollingCode } })
})

/** How {@link waitForLogin} polls. */
export interface PollOptions {
  /** Time between polls (default 2000 ms). */
  readonly interval?: Duration.Input
  /** Polls in all before giving up (default: no limit; the attempt's expiry ends it). */
  readonly maxAttempts?: number
  /** A schedule of your own (replaces `interval` and `maxAttempts`). */
  readonly schedule?: Schedule.Schedule<unknown, unknown>
}

const timedOut = () => new CliAuthError({ message: "Timed out waiting for CLI authentication.", details: {} })

/** Trades the refresh token for an access token (refresh grant) and stores both in the session. */
const storeRefreshToken = (refreshToken: Redacted.Redacted<string>) =>
  Effect.gen(function* () {
    const client = yield* StackClient
    const response = yield* Endpoint.call(refreshGrant, {
      payload: makeRefreshGrant({
        projectId: client.config.projectId,
        branchId: client.config.branchId,
        publishableClientKey: Option.getOrUndefined(client.config.publishableClientKey),
        refreshToken
      })
    })
    const session = yield* Session
    yield* session.signIn({ accessToken: response.accessToken, refreshToken: Option.some(refreshToken) })
  })

/**
 * Polls an attempt until the browser confirms it, on `Schedules.cliPoll` (every 2 s, no limit)
 * unless told otherwise; on success stores the refresh token in the session (refreshing once for
 * an access token) and returns it. Fails with `CliAuthExpiredError`, `CliAuthUsedError`,
 * `CliAuthError` (unknown status, or "Timed out waiting for CLI authentication." when the
 * schedule ends), `InvalidPollingCode`, or the refresh's errors.
 */
export const waitForLogin = Effect.fn("Cli.waitForLogin")(function* (
  pollingCode: Redacted.Redacted<string>,
  options: PollOptions = {}
) {
  const schedule = options.schedule ??
    Schedules.cliPoll({
      ...(options.interval !== undefined ? { interval: options.interval } : {}),
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {})
    })
  // polls while the answer is `waiting`; the last answer is still `waiting` when the schedule ended
  const answer = yield* poll(pollingCode).pipe(Effect.repeat({ schedule, while: (answer) => answer.status === "waiting" }))
  switch (answer.status) {
    case "success": {
      if (answer.refreshToken === undefined) return yield* Effect.fail(CliAuthError.make({}))
      yield* storeRefreshToken(answer.refreshToken)
      return { refreshToken: answer.refreshToken }
    }
    case "waiting":
      return yield* Effect.fail(timedOut())
    case "expired":
      return yield* Effect.fail(CliAuthExpiredError.make({}))
    case "used":
      return yield* Effect.fail(CliAuthUsedError.make({}))
    default:
      return yield* Effect.fail(CliAuthError.make({}))
  }
})

/**
 * The whole CLI side: creates an attempt, hands the confirmation URL to `open` (print it, open a
 * browser…), then {@link waitForLogin}. Returns the refresh token, also stored in the session.
 */
export const login = Effect.fn("Cli.login")(function* <E, R>(
  options: {
    readonly appUrl: string
    readonly open: (url: string) => Effect.Effect<void, E, R>
    readonly expiresInMillis?: number
  } & PollOptions
) {
  const attempt = yield* initiate(options.expiresInMillis === undefined ? {} : { expiresInMillis: options.expiresInMillis })
  yield* options.open(confirmationUrl(options.appUrl, attempt.loginCode))
  return yield* waitForLogin(attempt.pollingCode, options)
})

/**
 * The login code of the confirmation page is unknown or has expired: the service's 400 text
 * answer {@link invalidLoginCodeText} to `POST /auth/cli/complete`, typed. The CLI has to start
 * the login again.
 */
export class CliInvalidLoginCode extends Data.TaggedError("CliInvalidLoginCode")<{
  readonly message: string
}> {
  /** The error with the service's text. */
  static readonly make = () => new CliInvalidLoginCode({ message: invalidLoginCodeText })
}

/**
 * On the confirmation page: hands the signed-in user's refresh token to the attempt of
 * `loginCode`, `POST /auth/cli/complete {login_code, refresh_token}`. Fails with
 * `UserNotSignedIn` without a refresh token, and with {@link CliInvalidLoginCode} for an unknown
 * or expired login code.
 */
export const complete = Effect.fn("Cli.complete")(function* (loginCode: string) {
  const session = yield* Session
  const tokens = yield* session.current
  if (Option.isNone(tokens.refreshToken)) return yield* Effect.fail(UserNotSignedIn.make())
  yield* Endpoint.call(completeEndpoint, { payload: { loginCode, refreshToken: tokens.refreshToken.value } }).pipe(
    catchPlainText(400, invalidLoginCodeText, CliInvalidLoginCode.make)
  )
})

/**
 * On the confirmation page: whether the CLI that made the attempt has an anonymous session
 * (`"anonymous"`) the browser may claim, or none. `POST /auth/cli/complete` with `mode: "check"`.
 */
export const checkSessionState = Effect.fn("Cli.checkSessionState")(function* (loginCode: string) {
  const answer = yield* Endpoint.call(checkEndpoint, { payload: { loginCode, mode: "check" } })
  return answer.cliSessionState
})

/**
 * On the confirmation page: takes over the CLI's anonymous session (signs the browser in as that
 * anonymous user and stores the tokens), so a sign-up there upgrades the same user.
 * `POST /auth/cli/complete` with `mode: "claim-anon-session"`.
 */
export const claimAnonymousSession = Effect.fn("Cli.claimAnonymousSession")(function* (loginCode: string) {
  const tokens = yield* Endpoint.call(claimAnonymousSessionEndpoint, { payload: { loginCode, mode: "claim-anon-session" } })
  const session = yield* Session
  yield* session.signIn({ accessToken: tokens.accessToken, refreshToken: Option.some(tokens.refreshToken) })
})
