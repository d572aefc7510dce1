/**
 * The second factor of sign-in: after the first factor succeeded, a user with TOTP enabled gets
 * an MFA attempt code instead of tokens (`POST /auth/mfa/sign-in` completes it).
 *
 * @module
 */
import { Effect } from "effect"
import { MultiFactorAuthenticationRequired } from "../core/KnownErrors.js"
import type { RequestContext } from "./RequestContext.js"
import type { ProjectRecord, UserRecord } from "./State.js"
import * as VerificationCodes from "./VerificationCodes.js"

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
