/**
 * The cross-domain sign-in hand-over, as the service answers it (backend
 * `apps/backend/src/app/api/latest/auth/oauth/cross-domain/authorize/route.tsx`, its OAuth model
 * `apps/backend/src/oauth/model.tsx`): `POST /auth/oauth/cross-domain/authorize` (client+ access,
 * a signed-in user) `{ redirect_uri, state, code_challenge, code_challenge_method?: "S256",
 * after_callback_redirect_url? }` → `{ redirect_url }`: `redirect_uri?code=<one-time code>&state=`.
 * The official SDK calls it when it sends a signed-in browser to another domain of the app.
 *
 * Checked in the service's order: a user (`USER_AUTHENTICATION_REQUIRED`), an access token bound
 * to a session (400 text), the current refresh token in `x-stack-refresh-token` (400 text when
 * missing), that token being the access token's session of this user (401 text) and still valid
 * (401 text), then `redirect_uri` and `after_callback_redirect_url` trusted by the project
 * (`REDIRECT_URL_NOT_WHITELISTED`). The code is an ordinary authorization code (5 minutes, one
 * use, PKCE S256, `is_new_user` false, `after_callback_redirect_url` answered by the exchange),
 * except that the exchange at `POST /auth/oauth/token` answers the session it was issued from:
 * the same refresh token, as the service does.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import { RedirectUrlNotWhitelisted, UserAuthenticationRequired } from "../../core/KnownErrors.js"
import { field, optionalField, wireStruct, withMessage } from "../../core/Wire.js"
import { headerReader } from "../ProjectAuth.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import type { Handler } from "../Router.js"
import { route } from "../Router.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import { isUrl } from "../Validation.js"
import { authorizationCodeLifetimeMillis } from "../OAuthCodeGrant.js"

/** The service's 400 text of an access token that is not bound to a session. */
export const sessionRequiredText = "Cross-domain auth handoff requires a refresh-token-bound session. Please sign in again."

/** The service's 400 text of a request without `x-stack-refresh-token`. */
export const refreshTokenRequiredText = "Cross-domain auth handoff requires passing the current refresh token."

/** The service's 401 text of a refresh token that is not the access token's session. */
export const refreshTokenMismatchText = "Cross-domain auth handoff refresh token does not match the authenticated session."

/** The service's 401 text of a refresh token whose session ended. */
export const refreshTokenInvalidText = "Cross-domain auth handoff refresh token is not valid."

// the service's `urlSchema` text (`packages/stack-shared/src/schema-fields.ts` at 2f719903)
const Url = Schema.String.check(withMessage(isUrl, "is not a valid URL"))

/** `POST /auth/oauth/cross-domain/authorize` (client+ access, a signed-in user). */
const crossDomainAuthorize = Endpoint.make({
  name: "Emulator.crossDomainAuthorize",
  method: "POST",
  path: "/auth/oauth/cross-domain/authorize",
  access: "client",
  session: "optional",
  payload: wireStruct({
    redirectUri: field("redirect_uri", Url),
    state: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512)),
    codeChallenge: field("code_challenge", Schema.String.check(Schema.isPattern(/^[A-Za-z0-9._~-]{43,128}$/))),
    codeChallengeMethod: optionalField("code_challenge_method", Schema.Literal("S256")),
    afterCallbackRedirectUrl: optionalField("after_callback_redirect_url", Url)
  }),
  success: wireStruct({ redirectUrl: field("redirect_url", Schema.String) }),
  errors: [UserAuthenticationRequired, RedirectUrlNotWhitelisted]
})

const randomHex = (bytes: number): string => {
  const buffer = new Uint8Array(bytes)
  globalThis.crypto.getRandomValues(buffer)
  return [...buffer].map((byte) => byte.toString(16).padStart(2, "0")).join("")
}

const handOver = ({ payload }: Parameters<Handler<typeof crossDomainAuthorize>>[0], context: RequestContext) =>
  Effect.gen(function* () {
    const project = projectOf(context)
    const user = context.auth?.user
    if (user === undefined) return yield* Effect.fail(UserAuthenticationRequired.make({}))
    const sessionId = context.auth?.accessToken?.refresh_token_id
    if (sessionId === undefined) return yield* Effect.fail(new TextFailure({ status: 400, text: sessionRequiredText }))
    const refreshToken = headerReader(context.request.headers)("refresh-token")
    if (refreshToken === undefined || refreshToken === "") {
      return yield* Effect.fail(new TextFailure({ status: 400, text: refreshTokenRequiredText }))
    }
    const session = project.sessions.get(sessionId)
    if (session === undefined || session.refreshToken !== refreshToken || session.userId !== user.id) {
      return yield* Effect.fail(new TextFailure({ status: 401, text: refreshTokenMismatchText }))
    }
    if (session.expiresAtMillis <= context.nowMillis) return yield* Effect.fail(new TextFailure({ status: 401, text: refreshTokenInvalidText }))
    for (const url of [payload.redirectUri, payload.afterCallbackRedirectUrl]) {
      if (url !== undefined && !isTrustedUrl(project, url)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
    }
    const code = randomHex(32)
    context.env.state.oauthCodes.set(code, {
      projectId: project.id,
      userId: user.id,
      isNewUser: false,
      redirectUri: payload.redirectUri,
      codeChallenge: payload.codeChallenge,
      codeChallengeMethod: "S256",
      afterCallbackRedirectUrl: payload.afterCallbackRedirectUrl ?? null,
      expiresAtMillis: context.nowMillis + authorizationCodeLifetimeMillis,
      used: false,
      grantedSessionId: session.id
    })
    const target = new URL(payload.redirectUri)
    target.searchParams.set("code", code)
    target.searchParams.set("state", payload.state)
    return { redirectUrl: target.href }
  })

/** The cross-domain hand-over route. */
export const routes = [route(crossDomainAuthorize, handOver)]
