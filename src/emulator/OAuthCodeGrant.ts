/**
 * The code grant of `POST /auth/oauth/token` (PROTOCOL.md §2.1), for a project whose client
 * id/secret were checked: the OAuth authorization codes handed out by the callback
 * (`routes/oauth.ts`) are in the state's `oauthCodes` table.
 *
 * @module
 */
import { Effect } from "effect"
import { InvalidAuthorizationCode, MultiFactorAuthenticationRequired } from "../core/KnownErrors.js"
import * as MockProvider from "./OAuthProvider.js"
import type { RequestContext } from "./RequestContext.js"
import { TextFailure } from "./Responses.js"
import { accessTokenFor, createSession } from "./SessionTokens.js"
import type { ProjectRecord } from "./State.js"
import * as VerificationCodes from "./VerificationCodes.js"

/** How long an authorization code for the token endpoint lives (the OAuth library's default, 5 minutes). */
export const authorizationCodeLifetimeMillis = 5 * 60 * 1000

/** The 400 text of a code exchange with another `redirect_uri` than at authorize time. */
export const redirectUriMismatchText = "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code."

/** The token endpoint's answer to the code grant (wire keys, deprecated duplicates included). */
export interface CodeGrantAnswer {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly scope: string
  readonly refresh_token: string
  readonly is_new_user: boolean
  readonly newUser: boolean
  readonly after_callback_redirect_url: string | null
  readonly afterCallbackRedirectUrl: string | null
}

/**
 * The code grant of `POST /auth/oauth/token` for a project whose client id/secret were checked:
 * unknown, used, expired or foreign code → `INVALID_AUTHORIZATION_CODE`; another `redirect_uri`
 * → 400 text; a wrong PKCE verifier → `INVALID_AUTHORIZATION_CODE` (the code stays usable); a TOTP
 * user → `MULTI_FACTOR_AUTHENTICATION_REQUIRED` (the code is used). Else a new session, or for a
 * cross-domain hand-over code the live session it was issued from (its refresh token).
 */
export const exchangeAuthorizationCode = (
  context: RequestContext,
  project: ProjectRecord,
  grant: { readonly code: string; readonly redirect_uri?: string | undefined; readonly code_verifier?: string | undefined }
): Effect.Effect<CodeGrantAnswer, InvalidAuthorizationCode | MultiFactorAuthenticationRequired | TextFailure> =>
  Effect.gen(function* () {
    const record = context.env.state.oauthCodes.get(grant.code)
    if (record === undefined || record.projectId !== project.id || record.used || record.expiresAtMillis <= context.nowMillis) {
      return yield* Effect.fail(InvalidAuthorizationCode.make({}))
    }
    if (grant.redirect_uri !== record.redirectUri) {
      return yield* Effect.fail(new TextFailure({ status: 400, text: redirectUriMismatchText }))
    }
    const challenge = grant.code_verifier === undefined
      ? undefined
      : record.codeChallengeMethod === "plain"
      ? grant.code_verifier
      : yield* MockProvider.challengeOf(grant.code_verifier)
    if (challenge === undefined || challenge !== record.codeChallenge) {
      return yield* Effect.fail(InvalidAuthorizationCode.make({}))
    }
    record.used = true
    const user = project.users.get(record.userId)
    if (user === undefined) return yield* Effect.fail(InvalidAuthorizationCode.make({}))
    if (user.totpSecretBase64 !== null) {
      const attempt = VerificationCodes.create(context, project, {
        purpose: "mfa_attempt",
        userId: user.id,
        email: null,
        lifetimeMillis: context.env.settings.mfaAttemptLifetimeMillis
      })
      return yield* Effect.fail(MultiFactorAuthenticationRequired.make({ attempt_code: attempt.code }))
    }
    // a cross-domain hand-over continues the session it was issued from (a new one once that ended)
    const granted = record.grantedSessionId === undefined ? undefined : project.sessions.get(record.grantedSessionId)
    const session = granted !== undefined && granted.userId === user.id && granted.expiresAtMillis > context.nowMillis
      ? granted
      : createSession(context, project, user)
    user.lastActiveAtMillis = context.nowMillis
    const accessToken = yield* accessTokenFor(context, project, user, session)
    return {
      access_token: accessToken,
      token_type: "Bearer",
      // the OAuth library's default lifetime as recorded (oauth/06), not the JWT's: read `exp`
      expires_in: 3599,
      scope: "legacy",
      refresh_token: session.refreshToken,
      is_new_user: record.isNewUser,
      newUser: record.isNewUser,
      after_callback_redirect_url: record.afterCallbackRedirectUrl,
      afterCallbackRedirectUrl: record.afterCallbackRedirectUrl
    }
  })
