/**
 * Password sign-up and sign-in (PROTOCOL.md §3.1). A successful call stores the tokens in the
 * `Session`; the caller gets the user id.
 *
 * @module
 */
import { Effect, Option, Schema } from "effect"
import * as Endpoint from "../core/Endpoint.js"
import {
  BotChallengeFailed,
  BotChallengeRequired,
  EmailPasswordMismatch,
  MultiFactorAuthenticationRequired,
  PasswordAuthenticationNotEnabled,
  PasswordTooLong,
  PasswordTooShort,
  RedirectUrlNotWhitelisted,
  SignUpNotEnabled,
  SignUpRejected,
  UserEmailAlreadyExists
} from "../core/KnownErrors.js"
import { optionalField } from "../core/Wire.js"
import { Session } from "../session/Session.js"
import { SignInTokens } from "./Tokens.js"

/** Payload of `POST /auth/password/sign-in`. */
export const SignInPayload = Schema.Struct({
  email: Schema.String.pipe(Schema.minLength(1)),
  password: Schema.String.pipe(Schema.maxLength(70))
})

/** Payload of `POST /auth/password/sign-up`. */
export const SignUpPayload = Schema.Struct({
  email: Schema.String.pipe(Schema.minLength(1)),
  password: Schema.String,
  verificationCallbackUrl: optionalField("verification_callback_url", Schema.String),
  botChallengeToken: optionalField("bot_challenge_token", Schema.String),
  botChallengePhase: optionalField("bot_challenge_phase", Schema.Literal("invisible", "visible")),
  botChallengeUnavailable: optionalField("bot_challenge_unavailable", Schema.Literal("true"))
})

/** `POST /auth/password/sign-in`. */
export const signInEndpoint = Endpoint.make({
  name: "Auth.signInWithPassword",
  method: "POST",
  path: "/auth/password/sign-in",
  access: "client",
  session: "none",
  payload: SignInPayload,
  success: SignInTokens,
  errors: [PasswordAuthenticationNotEnabled, EmailPasswordMismatch, MultiFactorAuthenticationRequired]
})

/** `POST /auth/password/sign-up`. */
export const signUpEndpoint = Endpoint.make({
  name: "Auth.signUpWithPassword",
  method: "POST",
  path: "/auth/password/sign-up",
  access: "client",
  // a current anonymous user is upgraded in place, so its tokens are sent when present
  session: "optional",
  payload: SignUpPayload,
  success: SignInTokens,
  errors: [
    PasswordAuthenticationNotEnabled,
    RedirectUrlNotWhitelisted,
    SignUpNotEnabled,
    PasswordTooShort,
    PasswordTooLong,
    UserEmailAlreadyExists,
    SignUpRejected,
    BotChallengeRequired,
    BotChallengeFailed,
    MultiFactorAuthenticationRequired
  ]
})

const store = (tokens: SignInTokens) =>
  Effect.flatMap(Session, (session) =>
    session.signIn({ accessToken: tokens.accessToken, refreshToken: Option.some(tokens.refreshToken) })
  ).pipe(Effect.as({ userId: tokens.userId }))

/**
 * Signs in with e-mail and password and stores the tokens. `POST /auth/password/sign-in`.
 * Fails with `EmailPasswordMismatch`, `PasswordAuthenticationNotEnabled`, or
 * `MultiFactorAuthenticationRequired` (its `details.attempt_code` continues with the TOTP code).
 */
export const signInWithPassword = Effect.fn("Auth.signInWithPassword")(function* (credentials: {
  readonly email: string
  readonly password: string
}) {
  const tokens = yield* Endpoint.call(signInEndpoint, { payload: credentials })
  return yield* store(tokens)
})

/**
 * Creates a user with e-mail and password, signs it in and stores the tokens.
 * `POST /auth/password/sign-up`. A verification code is sent to the e-mail, linking to
 * `verificationCallbackUrl` when given.
 */
export const signUpWithPassword = Effect.fn("Auth.signUpWithPassword")(function* (input: {
  readonly email: string
  readonly password: string
  readonly verificationCallbackUrl?: string
}) {
  const tokens = yield* Endpoint.call(signUpEndpoint, { payload: input })
  return yield* store(tokens)
})
