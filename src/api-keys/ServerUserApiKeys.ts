/**
 * Checking a presented user API key value with server access (PROTOCOL.md §3.6): the key behind it,
 * or why it is not valid. The user's own keys (create, list, revoke) are in `UserApiKeys`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Endpoint from "../core/Endpoint.js"
import { catchPlainText } from "../core/Errors.js"
import { isApiKeyNotValid } from "../core/KnownErrors.js"
import { checkEndpoint, userApiKeysNotEnabledText } from "./internal/userApiKeys.js"
import * as UserApiKeys from "./UserApiKeys.js"

/**
 * The key behind a user API key value (server side). `POST /user-api-keys/check`; needs
 * `ServerAccess`. Fails with the API_KEY_NOT_VALID family, in the service's order: `ApiKeyNotFound`,
 * `WrongApiKeyType` (a team key), `ApiKeyRevoked`, `ApiKeyExpired`; `UserApiKeys.UserApiKeysNotEnabled`.
 */
export const check = Effect.fn("ServerUserApiKeys.check")(function* (apiKey: string | Redacted.Redacted<string>) {
  return yield* Endpoint.call(checkEndpoint, { payload: { apiKey: Redacted.isRedacted(apiKey) ? apiKey : Redacted.make(apiKey) } }).pipe(
    catchPlainText(400, userApiKeysNotEnabledText, () => UserApiKeys.UserApiKeysNotEnabled.make())
  )
})

/** Like {@link check}, but any API_KEY_NOT_VALID error gives `Option.none()`. `POST /user-api-keys/check`; needs `ServerAccess`. */
export const checkOrNone = Effect.fn("ServerUserApiKeys.checkOrNone")(function* (apiKey: string | Redacted.Redacted<string>) {
  return yield* check(apiKey).pipe(
    Effect.map(Option.some),
    Effect.catchIf(isApiKeyNotValid, () => Effect.succeed(Option.none<UserApiKeys.UserApiKey>()))
  )
})
