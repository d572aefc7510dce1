/**
 * Magic-link and OTP sign-in by e-mail (PROTOCOL.md §3.1). `sendMagicLinkEmail` e-mails a link
 * `callback_url?code=<45 chars>` that also shows a 6-character code, and returns a `nonce` (the
 * last 39 characters of the code). The user either opens the link (its `code` query parameter
 * signs in: {@link signInWithMagicLinkCallback}, {@link signInWithMagicLinkCode}) or types the
 * 6 characters ({@link signInWithOtp}: the code lower-cased, followed by the nonce).
 * A new e-mail creates the user (`isNewUser: true`).
 *
 * The callback URL defaults to the app's `magicLinkCallback` handler page
 * (`/handler/magic-link-callback`, see `HandlerUrls`).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText, InvalidArgument } from "../core/Errors.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import { storeSignIn } from "./Password.js"
import { checkSignInCodeEndpoint, otpNotEnabledText, sendSignInCodeEndpoint, signInEndpoint } from "./internal/magicLink.js"

/** The project does not allow magic-link / OTP sign-in (the service answers 403 text). */
export class MagicLinkNotEnabled extends Data.TaggedError("MagicLinkNotEnabled")<{ readonly message: string }> {
  /** The error with the service's message. */
  static readonly make = () => new MagicLinkNotEnabled({ message: otpNotEnabledText })
}

/** A magic-link callback URL without a `code` query parameter. */
export class MagicLinkCodeMissing extends Data.TaggedError("MagicLinkCodeMissing")<{ readonly message: string }> {
  /** The error with its standard message. */
  static readonly make = () => new MagicLinkCodeMissing({ message: "The magic link callback URL has no code query parameter." })
}

/**
 * E-mails a magic link (with a 6-character code) to `email` and returns the `nonce` that
 * completes a typed code. `POST /auth/otp/send-sign-in-code`. Fails with
 * {@link MagicLinkNotEnabled}, `UserEmailAlreadyExists` (an unverified e-mail of an existing
 * user), `SignUpNotEnabled` (a new e-mail while sign-up is off), `RedirectUrlNotWhitelisted`, or
 * the bot-challenge errors. `callbackUrl` defaults to the `magicLinkCallback` handler page
 * (`CallbackUrlRequired` when it cannot be resolved).
 */
export const sendMagicLinkEmail = Effect.fn("MagicLink.sendMagicLinkEmail")(function* (input: {
  readonly email: string
  readonly callbackUrl?: string | URL
}) {
  const url = yield* callbackUrl("magicLinkCallback", "callbackUrl", input.callbackUrl)
  return yield* Endpoint.call(sendSignInCodeEndpoint, { payload: { email: input.email, callbackUrl: url } }).pipe(
    catchPlainText(403, otpNotEnabledText, () => MagicLinkNotEnabled.make())
  )
})

/**
 * Signs in with a magic-link code (the `code` query parameter of the e-mailed link, 45
 * characters) and stores the tokens. `POST /auth/otp/sign-in`. Returns the user id and whether
 * the user was created now. Fails with a verification-code error, `MultiFactorAuthenticationRequired`,
 * `SignUpNotEnabled`, `SignUpRejected`, `UserEmailAlreadyExists`, or `InvalidArgument` for a code
 * that is not 45 characters (nothing sent).
 */
export const signInWithMagicLinkCode = Effect.fn("MagicLink.signInWithMagicLinkCode")(function* (code: string) {
  const tokens = yield* Endpoint.call(signInEndpoint, { payload: { code } })
  const { userId } = yield* storeSignIn(tokens)
  return { userId, isNewUser: tokens.isNewUser ?? false }
})

/** The `code` query parameter of a magic-link callback URL; {@link MagicLinkCodeMissing} without one. */
export const codeFromCallbackUrl = (url: URL | string): Effect.Effect<string, MagicLinkCodeMissing | InvalidArgument> =>
  Effect.suspend((): Effect.Effect<string, MagicLinkCodeMissing | InvalidArgument> => {
    let parsed: URL
    try {
      parsed = typeof url === "string" ? new URL(url) : url
    } catch {
      return Effect.fail(new InvalidArgument({ message: "The magic link callback URL is not a valid URL.", argument: "url" }))
    }
    const code = parsed.searchParams.get("code")
    return code === null || code === "" ? Effect.fail(MagicLinkCodeMissing.make()) : Effect.succeed(code)
  })

/**
 * Signs in with the code in a magic-link callback URL (the page the e-mailed link opened).
 * See {@link signInWithMagicLinkCode}; fails with {@link MagicLinkCodeMissing} when the URL has
 * no `code`.
 */
export const signInWithMagicLinkCallback = Effect.fn("MagicLink.signInWithMagicLinkCallback")(function* (url: URL | string) {
  const code = yield* codeFromCallbackUrl(url)
  return yield* signInWithMagicLinkCode(code)
})

/** The sign-in code of a typed OTP: the 6 characters lower-cased, followed by the nonce. */
export const otpSignInCode = (input: { readonly otp: string; readonly nonce: string }): Effect.Effect<string, InvalidArgument> => {
  const otp = input.otp.trim()
  return otp.length === 6
    ? Effect.succeed(`${otp.toLowerCase()}${input.nonce}`)
    : Effect.fail(new InvalidArgument({ message: "The one-time code must be 6 characters.", argument: "otp" }))
}

/**
 * Signs in with the 6-character code shown in the e-mail and the `nonce` that
 * {@link sendMagicLinkEmail} returned. See {@link signInWithMagicLinkCode}.
 */
export const signInWithOtp = Effect.fn("MagicLink.signInWithOtp")(function* (input: { readonly otp: string; readonly nonce: string }) {
  const code = yield* otpSignInCode(input)
  return yield* signInWithMagicLinkCode(code)
})

/**
 * Checks a magic-link code without using it (counts as an attempt).
 * `POST /auth/otp/sign-in/check-code`.
 */
export const checkMagicLinkCode = Effect.fn("MagicLink.checkMagicLinkCode")(function* (code: string) {
  yield* Endpoint.call(checkSignInCodeEndpoint, { payload: { code } })
})
