/**
 * Multi-factor sign-in with TOTP (PROTOCOL.md §2.6, §3.1, §7 "MFA"): a sign-in route of a user
 * with a TOTP secret calls {@link requireSecondFactor}, which answers
 * `MULTI_FACTOR_AUTHENTICATION_REQUIRED` with a fresh attempt code (45 characters, 5 minutes);
 * `POST /auth/mfa/sign-in {code, type: "totp", totp}` then opens the session.
 *
 * The attempt code is checked like every verification code (`VerificationCodes.redeem`: not
 * found, expired, used, too many attempts); a wrong TOTP answers `INVALID_TOTP_CODE` and leaves
 * the attempt code usable. TOTP: RFC 6238, HMAC-SHA1, 30 s steps, 6 digits, one step of clock
 * drift accepted either way (`src/auth/Totp.ts`, WebCrypto only).
 *
 * @module
 */
import { Effect } from "effect"
import { signInEndpoint } from "../../auth/internal/mfa.js"
import * as Totp from "../../auth/Totp.js"
import {
  InvalidTotpCode,
  MultiFactorAuthenticationRequired,
  VerificationCodeAlreadyUsed,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import type { ProjectRecord, UserRecord } from "../State.js"
import * as VerificationCodes from "../VerificationCodes.js"

/** Clock drift accepted for a TOTP code, in 30 s steps either way. */
export const totpWindow = 1

/**
 * For sign-in routes, after the first factor succeeded: a user with TOTP enabled gets
 * `MULTI_FACTOR_AUTHENTICATION_REQUIRED` with a new attempt code instead of tokens; others pass.
 */
export const requireSecondFactor = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord
): Effect.Effect<void, MultiFactorAuthenticationRequired> =>
  Effect.suspend(() => {
    if (user.totpSecretBase64 === null) return Effect.void
    const { code } = VerificationCodes.create(context, project, {
      purpose: "mfa_attempt",
      userId: user.id,
      email: null,
      lifetimeMillis: context.env.settings.mfaAttemptLifetimeMillis
    })
    return Effect.fail(MultiFactorAuthenticationRequired.make({ attempt_code: code }))
  })

/** The MFA routes. */
export const routes = [
  route(signInEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const attempt = yield* VerificationCodes.redeem(context, project, payload.attemptCode, "mfa_attempt", "check")
      const user = attempt.userId === null ? undefined : project.users.get(attempt.userId)
      if (user === undefined) return yield* Effect.fail(VerificationCodeNotFound.make({}))
      // TOTP turned off meanwhile: no second factor can match (the service keeps the attempt open)
      const secret = user.totpSecretBase64 === null ? undefined : Totp.fromBase64(user.totpSecretBase64)
      const valid =
        secret !== undefined &&
        secret.length > 0 &&
        (yield* Totp.verifyAt(secret, payload.totp, context.nowMillis, { window: totpWindow }).pipe(
          Effect.orElseSucceed(() => false)
        ))
      if (!valid) return yield* Effect.fail(InvalidTotpCode.make({}))
      // checking the code yielded: a concurrent request may have used the attempt meanwhile
      if (attempt.usedAtMillis !== undefined) return yield* Effect.fail(VerificationCodeAlreadyUsed.make({}))
      attempt.usedAtMillis = context.nowMillis
      const tokens = yield* signIn(context, project, user)
      return { ...tokens, isNewUser: false }
    })
  )
]
