/**
 * The wire definitions of `OAuth` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `OAuth.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import {
  AccessTokenExpired,
  InvalidAuthorizationCode,
  InvalidOauthClientIdOrSecret,
  InvalidPublishableClientKey,
  InvalidScope,
  MultiFactorAuthenticationRequired,
  OauthExtraScopeNotAvailableWithSharedOauthKeys,
  OauthProviderNotFoundOrNotEnabled,
  PublishableClientKeyRequiredForProject,
  RedirectUrlNotWhitelisted,
  UnparsableAccessToken
} from "../../core/KnownErrors.js"
import { field, OAuthTokenResponse, optionalField, wireStruct, withMessage } from "../../core/Wire.js"

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** Query of `GET /auth/oauth/authorize/{provider_id}` (PROTOCOL.md §3.1.1); required keys first. */
export const AuthorizeQuery = wireStruct({
  clientId: field("client_id", Schema.String),
  /** The publishable key, or `__stack_public_client__`. */
  clientSecret: field("client_secret", Schema.RedactedFromValue(Schema.String)),
  /** The callback page, without `code`/`state`. */
  redirectUri: field("redirect_uri", Schema.String),
  scope: Schema.Literal("legacy"),
  state: Schema.String,
  grantType: field("grant_type", Schema.Literal("authorization_code")),
  codeChallenge: field("code_challenge", Schema.String),
  codeChallengeMethod: field("code_challenge_method", Schema.Literal("S256")),
  responseType: field("response_type", Schema.Literal("code")),
  type: optionalField("type", Schema.Literals(["authenticate", "link"])),
  /** The current access token (required for `link`). */
  token: optionalField("token", Schema.RedactedFromValue(Schema.String)),
  /** Space-separated extra provider scopes. */
  providerScope: optionalField("provider_scope", Schema.String),
  errorRedirectUrl: optionalField("error_redirect_url", Schema.String),
  afterCallbackRedirectUrl: optionalField("after_callback_redirect_url", Schema.String),
  stackResponseMode: optionalField("stack_response_mode", Schema.Literals(["json", "redirect"]))
})

/** The authorize query in the domain. */
export type AuthorizeQuery = typeof AuthorizeQuery.Type

/** Whether a text is an absolute `http:` or `https:` URL. */
const isHttpUrl = (text: string): boolean => {
  try {
    const protocol = new URL(text).protocol
    return protocol === "https:" || protocol === "http:"
  } catch {
    return false
  }
}

/**
 * `{ location }`: where the browser goes next (the provider). Only an absolute `http(s):` URL is
 * accepted: the page navigates there, and a `javascript:` or `data:` location from a hostile
 * answer would run in the app's origin, where the token cookies are readable.
 */
export const AuthorizeAnswer = Schema.Struct({
  location: Schema.String.check(withMessage(isHttpUrl, "not an absolute http(s) URL"))
})

/** `GET /auth/oauth/authorize/{provider_id}` in JSON mode (no x-stack headers; keys in the query). */
export const authorizeEndpoint = Endpoint.make({
  name: "OAuth.authorize",
  method: "GET",
  path: "/auth/oauth/authorize/:provider_id",
  access: "none",
  session: "none",
  params: wireStruct({ providerId: field("provider_id", Schema.String) }),
  query: AuthorizeQuery,
  success: AuthorizeAnswer,
  errors: [
    InvalidOauthClientIdOrSecret,
    InvalidPublishableClientKey,
    PublishableClientKeyRequiredForProject,
    OauthProviderNotFoundOrNotEnabled,
    RedirectUrlNotWhitelisted,
    OauthExtraScopeNotAvailableWithSharedOauthKeys,
    UnparsableAccessToken,
    AccessTokenExpired
  ]
})

/** The code grant's form fields (in the order the official client sends them). */
export const AuthorizationCodeGrant = wireStruct({
  redirectUri: field("redirect_uri", Schema.String),
  codeVerifier: field("code_verifier", Schema.RedactedFromValue(Schema.String)),
  code: Schema.RedactedFromValue(Schema.String),
  grantType: field("grant_type", Schema.Literal("authorization_code")),
  clientId: field("client_id", Schema.String),
  clientSecret: field("client_secret", Schema.RedactedFromValue(Schema.String))
})

/** The code grant in the domain. */
export type AuthorizationCodeGrant = typeof AuthorizationCodeGrant.Type

/** `POST /auth/oauth/token` with the authorization-code grant (form-encoded, no x-stack headers). */
export const codeGrantEndpoint = Endpoint.make({
  name: "OAuth.exchangeCode",
  method: "POST",
  path: "/auth/oauth/token",
  access: "none",
  session: "none",
  payload: AuthorizationCodeGrant,
  payloadEncoding: "form",
  success: OAuthTokenResponse,
  errors: [
    InvalidAuthorizationCode,
    MultiFactorAuthenticationRequired,
    InvalidOauthClientIdOrSecret,
    InvalidPublishableClientKey,
    PublishableClientKeyRequiredForProject,
    InvalidScope
  ]
})

/** Query parameters the callback carries for an error (stripped before the error is raised). */
export const callbackErrorParams = ["error", "error_description", "errorCode", "message", "details"] as const

/** A copy of `url` without the query parameters `names`. */
export const withoutParams = (url: URL, names: ReadonlyArray<string>): URL => {
  const copy = new URL(url.href)
  for (const name of names) copy.searchParams.delete(name)
  return copy
}
