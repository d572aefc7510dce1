/**
 * Sessions: sign-out (`DELETE /auth/sessions/current`, from the SDK's definition) and anonymous
 * sign-up (`POST /auth/anonymous/sign-up`).
 *
 * @module
 */
import { Effect } from "effect"
import { deleteCurrentEndpoint } from "../../auth/Sessions.js"
import { RefreshTokenNotFoundOrExpired } from "../../core/KnownErrors.js"
import * as Endpoints from "../Endpoints.js"
import { accessTokenExpired } from "../ProjectAuth.js"
import { randomUuid } from "../Random.js"
import { projectOf } from "../RequestContext.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import { makeUser } from "../State.js"

/** The session routes. */
export const routes = [
  route(
    deleteCurrentEndpoint,
    (_input, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        const claims = context.auth?.accessToken
        if (claims === undefined) {
          // The service answers this way when the request carries no session to delete.
          return yield* Effect.fail(
            accessTokenExpired({ expired_at_millis: context.nowMillis, project_id: null, user_id: null, refresh_token_id: null })
          )
        }
        if (!project.sessions.delete(claims.refresh_token_id)) {
          return yield* Effect.fail(RefreshTokenNotFoundOrExpired.make({}))
        }
        return { success: true }
      }),
    { emptyBody: {} }
  ),
  route(Endpoints.anonymousSignUp, (_input, context) =>
    Effect.suspend(() => {
      const project = projectOf(context)
      const user = makeUser(randomUuid(), context.nowMillis)
      user.isAnonymous = true
      project.users.set(user.id, user)
      return signIn(context, project, user)
    })
  )
]
