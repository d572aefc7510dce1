/**
 * The wire definitions of `Cli` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Cli.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { InvalidPollingCode } from "../../core/KnownErrors.js"
import { field, optionalField, RedactedToken, SuccessTrue, wireStruct, withMessage } from "../../core/Wire.js"

/** Default lifetime of an attempt: 2 hours. */
export const defaultExpiresInMillis = 7_200_000

/** Longest lifetime of an attempt: 24 hours. */
export const maxExpiresInMillis = 86_400_000

/** Payload of `POST /auth/cli` (the body may be omitted: defaults). */
export const InitiatePayload = wireStruct({
  expiresInMillis: optionalField(
    "expires_in_millis",
    Schema.Number.check(
      withMessage(
        (value: number) => Number.isInteger(value) && value > 0 && value <= maxExpiresInMillis,
        `must be an integer from 1 to ${maxExpiresInMillis}`
      )
    )
  ),
  /** The refresh token of the CLI's anonymous session, for the confirmation page to claim. */
  anonRefreshToken: optionalField("anon_refresh_token", RedactedToken)
})

/** A CLI login attempt. */
export const Attempt = wireStruct({
  /** Secret: whoever polls with it gets the refresh token. */
  pollingCode: field("polling_code", RedactedToken),
  /** Goes into the confirmation URL. */
  loginCode: field("login_code", Schema.String),
  /** An ISO date-time on the wire. */
  expiresAt: field("expires_at", Schema.DateFromString)
})

/** A CLI login attempt. */
export type Attempt = typeof Attempt.Type

/** `POST /auth/cli`. */
export const initiateEndpoint = Endpoint.make({
  name: "Cli.initiate",
  method: "POST",
  path: "/auth/cli",
  access: "client",
  session: "none",
  payload: InitiatePayload,
  success: Attempt,
  errors: []
})

/** The poll answer: `{status}`, with `refresh_token` on `success` (status kept open: unknown ones are `CliAuthError`). */
export const PollAnswer = wireStruct({
  status: Schema.String,
  refreshToken: optionalField("refresh_token", RedactedToken)
})

/** A poll answer. */
export type PollAnswer = typeof PollAnswer.Type

/** Payload of `POST /auth/cli/poll`. */
export const PollPayload = wireStruct({ pollingCode: field("polling_code", RedactedToken) })

/** `POST /auth/cli/poll`: 201 with the refresh token once, else 200 with the status. */
export const pollEndpoint = Endpoint.make({
  name: "Cli.poll",
  method: "POST",
  path: "/auth/cli/poll",
  access: "client",
  session: "none",
  payload: PollPayload,
  success: PollAnswer,
  errors: [InvalidPollingCode]
})

/** `POST /auth/cli/complete` in mode `complete` (default): the browser hands its refresh token over. */
export const completeEndpoint = Endpoint.make({
  name: "Cli.complete",
  method: "POST",
  path: "/auth/cli/complete",
  access: "client",
  session: "required",
  payload: wireStruct({
    loginCode: field("login_code", Schema.String),
    mode: optionalField("mode", Schema.Literal("complete")),
    /** Required in this mode (the service answers 400 text without it). */
    refreshToken: optionalField("refresh_token", RedactedToken)
  }),
  success: SuccessTrue,
  errors: []
})

/** `POST /auth/cli/complete` in mode `check`: whether the CLI brought an anonymous session. */
export const checkEndpoint = Endpoint.make({
  name: "Cli.checkSessionState",
  method: "POST",
  path: "/auth/cli/complete",
  access: "client",
  session: "optional",
  payload: wireStruct({ loginCode: field("login_code", Schema.String), mode: Schema.Literal("check") }),
  success: wireStruct({ cliSessionState: field("cli_session_state", Schema.Literals(["anonymous", "none"])) }),
  errors: []
})

/** `POST /auth/cli/complete` in mode `claim-anon-session`: the CLI's anonymous session, for the browser. */
export const claimAnonymousSessionEndpoint = Endpoint.make({
  name: "Cli.claimAnonymousSession",
  method: "POST",
  path: "/auth/cli/complete",
  access: "client",
  session: "optional",
  payload: wireStruct({ loginCode: field("login_code", Schema.String), mode: Schema.Literal("claim-anon-session") }),
  success: wireStruct({ accessToken: field("access_token", RedactedToken), refreshToken: field("refresh_token", RedactedToken) }),
  errors: []
})

/** The service's answer (400, plain text, no known-error code) to an unknown or expired login code. */
export const invalidLoginCodeText = "Invalid login code or the code has expired"
