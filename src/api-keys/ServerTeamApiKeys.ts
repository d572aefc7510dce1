/**
 * Checking a presented team API key value with server access (PROTOCOL.md §3.6): the key behind it,
 * or why it is not valid. The team's own keys (create, list, revoke) are in `TeamApiKeys`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import { isApiKeyNotValid } from "../core/KnownErrors.js"
import { checkEndpoint, teamApiKeysNotEnabledText } from "./internal/teamApiKeys.js"
import * as TeamApiKeys from "./TeamApiKeys.js"

/**
 * The key behind a team API key value (server side). `POST /team-api-keys/check`; needs
 * `ServerAccess`. Fails with the API_KEY_NOT_VALID family, in the service's order: `ApiKeyNotFound`,
 * `WrongApiKeyType` (a user key), `ApiKeyRevoked`, `ApiKeyExpired`; `TeamApiKeys.TeamApiKeysNotEnabled`.
 */
export const check = Effect.fn("ServerTeamApiKeys.check")(function* (apiKey: string | Redacted.Redacted<string>) {
  return yield* Endpoint.call(checkEndpoint, { payload: { apiKey: Redacted.isRedacted(apiKey) ? apiKey : Redacted.make(apiKey) } }).pipe(
    catchPlainText(400, teamApiKeysNotEnabledText, () => TeamApiKeys.TeamApiKeysNotEnabled.make())
  )
})

/** Like {@link check}, but any API_KEY_NOT_VALID error gives `Option.none()`. `POST /team-api-keys/check`; needs `ServerAccess`. */
export const checkOrNone = Effect.fn("ServerTeamApiKeys.checkOrNone")(function* (apiKey: string | Redacted.Redacted<string>) {
  return yield* check(apiKey).pipe(
    Effect.map(Option.some),
    Effect.catchIf(isApiKeyNotValid, () => Effect.succeed(Option.none<TeamApiKeys.TeamApiKey>()))
  )
})
