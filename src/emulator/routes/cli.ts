/**
 * CLI login (PROTOCOL.md §3.0 "CLI auth attempt", §3.1, §6 #18), from the SDK's definitions in
 * `auth/Cli.ts`:
 *
 * - `POST /auth/cli` creates an attempt: polling code and login code (45 characters each),
 *   expiry `expires_in_millis` (default 2 h, at most 24 h), optionally the CLI's anonymous
 *   session (`anon_refresh_token`, else 400 text).
 * - `POST /auth/cli/poll`: unknown code → `INVALID_POLLING_CODE`; past expiry → 200 `expired`;
 *   handed out before → 200 `used`; completed → **201** `success` with the refresh token (once);
 *   else 200 `waiting`.
 * - `POST /auth/cli/complete`: mode `complete` (default) stores the browser's refresh token;
 *   `check` tells whether the CLI brought an anonymous session; `claim-anon-session` hands that
 *   session's tokens to the browser. Failures are 400 texts, as the service answers.
 *
 * @module
 */
import { Effect, Redacted, Schema } from "effect"
import { defaultExpiresInMillis } from "../../auth/internal/cli.js"
import {
  checkEndpoint,
  claimAnonymousSessionEndpoint,
  completeEndpoint,
  initiateEndpoint,
  PollAnswer,
  pollEndpoint,
  PollPayload
} from "../../auth/internal/cli.js"
import * as Endpoint from "../../core/Endpoint.js"
import { InvalidPollingCode } from "../../core/KnownErrors.js"
import { randomToken45 } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { jsonResponse, TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { accessTokenFor } from "../SessionTokens.js"
import type { CliAttemptRecord, ProjectRecord, SessionRecord } from "../State.js"
import { findLiveSession } from "../State.js"

/** The poll route: the SDK's definition, answered as a `Response` (201 on success, 200 otherwise). */
const pollRoute = Endpoint.make({
  name: "Emulator.cliPoll",
  method: pollEndpoint.method,
  path: pollEndpoint.path,
  access: pollEndpoint.access,
  session: pollEndpoint.session,
  payload: PollPayload,
  success: Schema.instanceOf(Response),
  errors: pollEndpoint.errors
})

const invalidLoginCode = () => new TextFailure({ status: 400, text: "Invalid login code or the code has expired" })

/** The live session of an anonymous user holding this refresh token, if any. */
const anonymousSession = (project: ProjectRecord, refreshToken: string, nowMillis: number): SessionRecord | undefined => {
  const session = findLiveSession(project, refreshToken, nowMillis)
  return session !== undefined && project.users.get(session.userId)?.isAnonymous === true ? session : undefined
}

/** The open attempt of a login code: this project's, not expired, not completed or handed out yet. */
const openAttempt = (context: RequestContext, project: ProjectRecord, loginCode: string): Effect.Effect<CliAttemptRecord, TextFailure> => {
  for (const attempt of context.env.state.cliAttempts.values()) {
    if (attempt.projectId === project.id && attempt.loginCode === loginCode) {
      const open = attempt.expiresAtMillis > context.nowMillis && attempt.refreshToken === null && attempt.usedAtMillis === undefined
      return open ? Effect.succeed(attempt) : Effect.fail(invalidLoginCode())
    }
  }
  return Effect.fail(invalidLoginCode())
}

const encodePoll = Schema.encodeEffect(PollAnswer)

/** The CLI routes. */
export const routes = [
  route(
    initiateEndpoint,
    ({ payload }, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        let anonRefreshToken: string | null = null
        if (payload.anonRefreshToken !== undefined) {
          const token = Redacted.value(payload.anonRefreshToken)
          if (anonymousSession(project, token, context.nowMillis) === undefined) {
            return yield* Effect.fail(new TextFailure({ status: 400, text: "Invalid anon refresh token" }))
          }
          anonRefreshToken = token
        }
        const attempt: CliAttemptRecord = {
          projectId: project.id,
          pollingCode: randomToken45(),
          loginCode: randomToken45(),
          createdAtMillis: context.nowMillis,
          expiresAtMillis: context.nowMillis + (payload.expiresInMillis ?? defaultExpiresInMillis),
          anonRefreshToken,
          refreshToken: null,
          usedAtMillis: undefined
        }
        context.env.state.cliAttempts.set(attempt.pollingCode, attempt)
        return {
          pollingCode: Redacted.make(attempt.pollingCode),
          loginCode: attempt.loginCode,
          expiresAt: new Date(attempt.expiresAtMillis)
        }
      }),
    // the body may be omitted (auth/38)
    { emptyBody: {} }
  ),
  route(pollRoute, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const attempt = context.env.state.cliAttempts.get(Redacted.value(payload.pollingCode))
      if (attempt === undefined || attempt.projectId !== project.id) return yield* Effect.fail(InvalidPollingCode.make({}))
      const answer = (status: number, body: PollAnswer) => Effect.map(Effect.orDie(encodePoll(body)), (wire) => jsonResponse(status, wire))
      if (attempt.expiresAtMillis <= context.nowMillis) return yield* answer(200, { status: "expired" })
      if (attempt.usedAtMillis !== undefined) return yield* answer(200, { status: "used" })
      if (attempt.refreshToken === null) return yield* answer(200, { status: "waiting" })
      attempt.usedAtMillis = context.nowMillis
      return yield* answer(201, { status: "success", refreshToken: Redacted.make(attempt.refreshToken) })
    })),
  route(completeEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      if (payload.refreshToken === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "refresh_token is required when mode is 'complete'" }))
      }
      const attempt = yield* openAttempt(context, project, payload.loginCode)
      const refreshToken = Redacted.value(payload.refreshToken)
      if (findLiveSession(project, refreshToken, context.nowMillis) === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "Invalid refresh token" }))
      }
      attempt.refreshToken = refreshToken
      return { success: true as const }
    })),
  route(checkEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const attempt = yield* openAttempt(context, project, payload.loginCode)
      const anonymous = attempt.anonRefreshToken !== null && anonymousSession(project, attempt.anonRefreshToken, context.nowMillis) !== undefined
      return { cliSessionState: anonymous ? ("anonymous" as const) : ("none" as const) }
    })),
  route(claimAnonymousSessionEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const attempt = yield* openAttempt(context, project, payload.loginCode)
      const session = attempt.anonRefreshToken === null ? undefined : anonymousSession(project, attempt.anonRefreshToken, context.nowMillis)
      const user = session === undefined ? undefined : project.users.get(session.userId)
      if (session === undefined || user === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: "No anonymous session associated with this code" }))
      }
      const accessToken = yield* accessTokenFor(context, project, user, session)
      return { accessToken: Redacted.make(accessToken), refreshToken: Redacted.make(session.refreshToken) }
    }))
]
