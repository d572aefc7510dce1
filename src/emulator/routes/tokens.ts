/**
 * Token routes (PROTOCOL.md §2.1, §2.2): the OAuth token endpoint's refresh grant (form or JSON,
 * client_id / client_secret rules incl. the `__stack_public_client__` sentinel, real statuses, no
 * refresh-token rotation), its authorization-code grant (served by `oauth.ts`), and
 * `POST /auth/sessions/current/refresh`.
 *
 * @module
 */
import { Effect } from "effect"
import { publicClientSentinel } from "../../core/Wire.js"
import { InvalidOauthClientIdOrSecret, InvalidScope, PublishableClientKeyRequiredForProject, RefreshTokenNotFoundOrExpired } from "../../core/KnownErrors.js"
import * as Endpoints from "../Endpoints.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { JsonFailure } from "../Responses.js"
import { route } from "../Router.js"
import { accessTokenFor } from "../SessionTokens.js"
import type { ProjectRecord } from "../State.js"
import { findLiveSession, isKeySetValid } from "../State.js"
import { exchangeAuthorizationCode } from "../OAuthCodeGrant.js"

const invalidRequest = (parameter: string) =>
  new JsonFailure({ status: 400, body: { error: "invalid_request", error_description: `Missing parameter: \`${parameter}\`` } })

/** Refreshes an access token from a refresh token of a project: the session's user, now. */
const refreshAccessToken = (context: RequestContext, project: ProjectRecord, refreshToken: string) =>
  Effect.gen(function* () {
    const session = findLiveSession(project, refreshToken, context.nowMillis)
    const user = session === undefined ? undefined : project.users.get(session.userId)
    if (session === undefined || user === undefined) return yield* Effect.fail(RefreshTokenNotFoundOrExpired.make({}))
    session.lastUsedAtMillis = context.nowMillis
    user.lastActiveAtMillis = context.nowMillis
    return yield* accessTokenFor(context, project, user, session)
  })

/** The token routes. */
export const routes = [
  route(
    Endpoints.oauthToken,
    ({ payload }, context) =>
      Effect.gen(function* () {
        if (payload.client_id === undefined) return yield* Effect.fail(invalidRequest("client_id"))
        const [projectId = "", branchId = "main"] = payload.client_id.split("#")
        const project = context.env.state.projects.get(projectId)
        if (project === undefined || branchId !== "main") {
          return yield* Effect.fail(InvalidOauthClientIdOrSecret.make({ client_id: payload.client_id }))
        }
        const secret = payload.client_secret
        if (secret === undefined || secret === publicClientSentinel) {
          if (project.requiresPublishableClientKey) {
            return yield* Effect.fail(PublishableClientKeyRequiredForProject.make({ project_id: project.id }))
          }
          if (secret === undefined) return yield* Effect.fail(InvalidOauthClientIdOrSecret.make({ client_id: payload.client_id }))
        } else if (!project.keys.some((keys) => keys.publishableClientKey === secret && isKeySetValid(keys, context.nowMillis))) {
          return yield* Effect.fail(InvalidOauthClientIdOrSecret.make({ client_id: payload.client_id }))
        }
        if (payload.scope !== undefined && payload.scope !== "legacy") {
          return yield* Effect.fail(
            new InvalidScope({ message: `The scope "${payload.scope}" is not a valid OAuth scope for Stack.`, details: {} })
          )
        }
        if (payload.grant_type === "authorization_code") {
          if (payload.code === undefined) return yield* Effect.fail(invalidRequest("code"))
          // the codes handed out by the OAuth callback (routes/oauth.ts)
          return yield* exchangeAuthorizationCode(context, project, { ...payload, code: payload.code })
        }
        if (payload.refresh_token === undefined) return yield* Effect.fail(invalidRequest("refresh_token"))
        const accessToken = yield* refreshAccessToken(context, project, payload.refresh_token)
        return {
          access_token: accessToken,
          token_type: "Bearer" as const,
          // The service sends its OAuth library's default here, not the JWT's lifetime (PROTOCOL.md §2.1).
          expires_in: 3600,
          scope: "legacy",
          after_callback_redirect_url: null,
          afterCallbackRedirectUrl: null
        }
      }),
    {
      rejectUnknownKeys: false,
      overrideErrorStatus: false,
      cacheControl: "no-store",
      headers: { pragma: "no-cache" }
    }
  ),
  route(Endpoints.refreshCurrentSession, (_input, context) =>
    Effect.gen(function* () {
      const refreshToken = context.header("refresh-token")
      if (refreshToken === undefined || refreshToken === "") {
        return yield* Effect.fail(schemaError(context, ["headers.x-stack-refresh-token must be defined"]))
      }
      const accessToken = yield* refreshAccessToken(context, projectOf(context), refreshToken)
      return { access_token: accessToken }
    }))
]
