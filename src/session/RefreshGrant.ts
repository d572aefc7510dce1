/**
 * The OAuth token endpoint's answer and the refresh grant (PROTOCOL.md §2.1, §2.6, §2.7): what the
 * session sends to renew an access token. It lives with the session (docs/ARCHITECTURE.md: the
 * session may not import the auth domain); the CLI login and the OAuth code grant use it too, and
 * `Tokens` re-exports everything here under the public `Tokens` namespace.
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
import { defaultedField, field, optionalField, publicClientSentinel, RedactedToken } from "../core/Wire.js"

/** `token_type` of an OAuth token response: bearer or dpop, any case. */
export const TokenType = Schema.String.pipe(
  Schema.filter((value) => /^(bearer|dpop)$/i.test(value), { message: () => "token_type must be bearer or dpop" })
)

/** Answer of `POST /auth/oauth/token`. */
export const OAuthTokenResponse = Schema.Struct({
  accessToken: field("access_token", RedactedToken),
  tokenType: field("token_type", TokenType),
  expiresIn: optionalField("expires_in", Schema.Number.pipe(Schema.positive())),
  scope: optionalField("scope", Schema.String),
  /** Only on the code grant: the refresh grant keeps the old refresh token. */
  refreshToken: optionalField("refresh_token", RedactedToken),
  isNewUser: optionalField("is_new_user", Schema.Boolean),
  afterCallbackRedirectUrl: defaultedField("after_callback_redirect_url", Schema.NullOr(Schema.String), () => null)
})

/** A token-endpoint answer in the domain. */
export type OAuthTokenResponse = typeof OAuthTokenResponse.Type

/** The refresh grant's form fields. */
export const RefreshGrant = Schema.Struct({
  grantType: field("grant_type", Schema.Literal("refresh_token")),
  refreshToken: field("refresh_token", Schema.Redacted(Schema.String)),
  clientId: field("client_id", Schema.String),
  clientSecret: field("client_secret", Schema.Redacted(Schema.String))
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
