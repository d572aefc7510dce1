/**
 * The OAuth token endpoint's answer and the refresh grant (PROTOCOL.md §2.1, §2.6, §2.7): what the
 * session sends to renew an access token. It lives with the session (docs/ARCHITECTURE.md: the
 * session may not import the auth domain); the CLI login uses it too, and `Tokens` re-exports the
 * answer's schemas under the public `Tokens` namespace. The answer itself (`OAuthTokenResponse`,
 * `TokenType`) is a wire value in `core/Wire.ts`, re-exported here: the OAuth code grant and the
 * emulator read it without the session.
 *
 * Token responses are validated before anything is stored (SPEC.md §5): a non-empty access token,
 * `token_type` bearer or dpop in any case, a positive `expires_in` where present, never the text
 * `undefined`.
 *
 * @module
 */
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Endpoint from "../core/Endpoint.js"
import {
  CannotDeleteCurrentSession,
  InvalidOauthClientIdOrSecret,
  InvalidPublishableClientKey,
  InvalidScope,
  ProviderRejected,
  PublishableClientKeyRequiredForProject,
  RefreshTokenNotFoundOrExpired
} from "../core/KnownErrors.js"
import { oauthClientId } from "../core/StackConfig.js"
import { field, OAuthTokenResponse, publicClientSentinel, wireStruct } from "../core/Wire.js"

export {
  /** Answer of `POST /auth/oauth/token`. */
  OAuthTokenResponse,
  /** `token_type` of an OAuth token response: bearer or dpop, any case. */
  TokenType
} from "../core/Wire.js"

/** The refresh grant's form fields. */
export const RefreshGrant = wireStruct({
  grantType: field("grant_type", Schema.Literal("refresh_token")),
  refreshToken: field("refresh_token", Schema.RedactedFromValue(Schema.String)),
  clientId: field("client_id", Schema.String),
  clientSecret: field("client_secret", Schema.RedactedFromValue(Schema.String))
})

/** The refresh grant in the domain. */
export type RefreshGrant = typeof RefreshGrant.Type

/** `POST /auth/oauth/token` with the refresh grant (form-encoded, no x-stack headers). */
export const refreshGrant = Endpoint.make({
  name: "Auth.refreshAccessToken",
  method: "POST",
  path: "/auth/oauth/token",
  access: "none",
  session: "none",
  payload: RefreshGrant,
  payloadEncoding: "form",
  success: OAuthTokenResponse,
  errors: [
    // the REFRESH_TOKEN_ERROR family: each ends the session
    RefreshTokenNotFoundOrExpired,
    CannotDeleteCurrentSession,
    ProviderRejected,
    InvalidOauthClientIdOrSecret,
    InvalidPublishableClientKey,
    PublishableClientKeyRequiredForProject,
    InvalidScope
  ]
})

/** Builds the refresh grant for a project. */
export const makeRefreshGrant = (options: {
  readonly projectId: string
  /** The project's branch, when one is chosen: the client id becomes `<projectId>#<branchId>`. */
  readonly branchId?: string | undefined
  readonly publishableClientKey: Redacted.Redacted<string> | undefined
  readonly refreshToken: Redacted.Redacted<string>
}): RefreshGrant => ({
  grantType: "refresh_token",
  refreshToken: options.refreshToken,
  clientId: oauthClientId(options),
  clientSecret: options.publishableClientKey ?? Redacted.make(publicClientSentinel)
})
