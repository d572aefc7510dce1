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
import { InvalidTotpCode, VerificationCodeNotFound } from "../../core/KnownErrors.js"
import { projectOf } from "../RequestContext.js"
import { route } from "../Router.js"
import { signIn } from "../SessionTokens.js"
import { totpWindow } from "../SecondFactor.js"
import * as VerificationCodes from "../VerificationCodes.js"

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
      const valid = secret !== undefined &&
        secret.length > 0 &&
        (yield* Totp.verifyAt(secret, payload.totp, context.nowMillis, { window: totpWindow }).pipe(
          Effect.orElseSucceed(() => false)
        ))
      if (!valid) return yield* Effect.fail(InvalidTotpCode.make({}))
      attempt.usedAtMillis = context.nowMillis
      const tokens = yield* signIn(context, project, user)
      return { ...tokens, isNewUser: false }
    }))
]
