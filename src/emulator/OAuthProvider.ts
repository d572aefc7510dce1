/**
 * The emulator's mock OAuth provider: one small provider that stands in for every provider kind
 * (`github`, `google`, `microsoft`…), served by the emulator itself under
 * `/api/v1/emulator/oauth-provider/{provider_id}/authorize` (an emulator-only path). It plays the
 * part of the local OpenID Connect test server the wire samples were recorded against: any e-mail
 * is accepted without a password, and the account id is the e-mail.
 *
 * - `GET …/authorize?client_id&redirect_uri&state&code_challenge&code_challenge_method&scope…`
 *   shows a consent page (an e-mail field and an "Authorize" button posting back);
 *   with `auto=1&email=…` it approves at once.
 * - Approval redirects (303) to `redirect_uri?code=<provider code>&state=<state>&iss=<issuer>`;
 *   "Deny" redirects with `error=access_denied`.
 * - The service side (`routes/oauth.ts`) exchanges the provider code in process with
 *   {@link exchangeCode}: one use, 10 minutes, same `redirect_uri`, PKCE S256 checked.
 * - Provider access tokens (connected accounts) are random 43-character base64url strings.
 *
 * The provider's codes are the state's `providerCodes` table.
 *
 * @module
 */
import { Effect } from "effect"
import { bytesToBase64Url, randomBase64Url } from "./Random.js"
import type { EmulatorState, OAuthProviderConfig, ProviderRequest as StateProviderRequest } from "./State.js"

/** The providers the demo project enables (own keys, served by the mock provider). */
export const demoOAuthProviders: ReadonlyArray<OAuthProviderConfig> = [
  { id: "github", provider: "github", type: "standard" },
  { id: "google", provider: "google", type: "standard" },
  { id: "microsoft", provider: "microsoft", type: "standard" }
]

/** Scopes the mock provider grants every connection of a provider kind (besides requested extra scopes). */
export const baseScopes = (provider: string): ReadonlyArray<string> => {
  switch (provider) {
    case "github":
      return ["user:email"]
    case "microsoft":
      return ["openid", "email", "profile", "User.Read"]
    default:
      return ["openid", "email", "profile"]
  }
}

/** Lifetime of a provider code. */
export const providerCodeLifetimeMillis = 10 * 60 * 1000

/** The path of the mock provider's authorization page for a provider config id. */
export const authorizePath = (providerId: string): string => `/api/v1/emulator/oauth-provider/${encodeURIComponent(providerId)}/authorize`

/** The issuer the mock provider names in `iss`. */
export const issuerOf = (apiBase: string, providerId: string): string =>
  `${apiBase}/api/v1/emulator/oauth-provider/${encodeURIComponent(providerId)}`

/** An authorization request to the mock provider (the service's side of the inner flow). */
export type ProviderRequest = StateProviderRequest

/** The mock provider's authorization URL for a request (the shape of the recorded `location`). */
export const authorizationUrl = (apiBase: string, providerId: string, request: ProviderRequest): string => {
  const query = new URLSearchParams({
    client_id: request.clientId,
    scope: request.scopes.join(" "),
    response_type: "code",
    redirect_uri: request.redirectUri,
    code_challenge_method: "S256",
    code_challenge: request.codeChallenge,
    state: request.state,
    access_type: "offline",
    prompt: "consent"
  })
  return `${apiBase}${authorizePath(providerId)}?${query.toString().replace(/\+/g, "%20")}`
}

/** What approving a request needs besides the request. */
export interface Approval {
  readonly state: EmulatorState
  readonly apiBase: string
  readonly providerId: string
  readonly request: ProviderRequest
  readonly email: string
  readonly nowMillis: number
}

/** Approves a request: stores a provider code and returns the redirect back to the client. */
export const approve = (approval: Approval): string => {
  const code = randomBase64Url(32).slice(0, 43)
  approval.state.providerCodes.set(code, {
    providerId: approval.providerId,
    clientId: approval.request.clientId,
    redirectUri: approval.request.redirectUri,
    codeChallenge: approval.request.codeChallenge,
    email: approval.email,
    scopes: approval.request.scopes,
    expiresAtMillis: approval.nowMillis + providerCodeLifetimeMillis,
    used: false
  })
  const target = new URL(approval.request.redirectUri)
  target.searchParams.set("code", code)
  target.searchParams.set("state", approval.request.state)
  target.searchParams.set("iss", issuerOf(approval.apiBase, approval.providerId))
  return target.href
}

/** The redirect back to the client when the user denies consent. */
export const deny = (request: ProviderRequest): string => {
  const target = new URL(request.redirectUri)
  target.searchParams.set("error", "access_denied")
  target.searchParams.set("error_description", "The user denied the authorization request.")
  target.searchParams.set("state", request.state)
  return target.href
}

/** The account behind an exchanged provider code. */
export interface ProviderAccount {
  /** The provider's account id (the e-mail). */
  readonly accountId: string
  readonly email: string
  readonly scopes: ReadonlyArray<string>
}

/** Why a provider code was refused. */
export type ExchangeFailure = "invalid_grant"

const sha256Base64Url = (text: string): Effect.Effect<string> =>
  Effect.map(
    Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
    (digest) => bytesToBase64Url(new Uint8Array(digest))
  )

/** The S256 challenge of a verifier. */
export const challengeOf = sha256Base64Url

/**
 * Exchanges a provider code (the service's token request to the provider): unknown, used,
 * expired, another client or `redirect_uri`, or a wrong verifier → `invalid_grant`.
 */
export const exchangeCode = (input: {
  readonly state: EmulatorState
  readonly providerId: string
  readonly clientId: string
  readonly code: string
  readonly redirectUri: string
  readonly codeVerifier: string
  readonly nowMillis: number
}): Effect.Effect<ProviderAccount, ExchangeFailure> =>
  Effect.gen(function* () {
    const record = input.state.providerCodes.get(input.code)
    if (
      record === undefined ||
      record.used ||
      record.expiresAtMillis <= input.nowMillis ||
      record.providerId !== input.providerId ||
      record.clientId !== input.clientId ||
      record.redirectUri !== input.redirectUri
    ) {
      return yield* Effect.fail("invalid_grant" as const)
    }
    if ((yield* sha256Base64Url(input.codeVerifier)) !== record.codeChallenge) return yield* Effect.fail("invalid_grant" as const)
    record.used = true
    return { accountId: record.email, email: record.email, scopes: record.scopes }
  })

/** A provider access token for a connection (random, 43 base64url characters). */
export const issueAccessToken = (): string => randomBase64Url(32)

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** The consent page: the request's parameters as hidden fields, an e-mail field, Authorize and Deny. */
export const consentPage = (providerId: string, parameters: Readonly<Record<string, string>>, problem?: string): string => {
  const hidden = Object.entries(parameters)
    .filter(([name]) => name !== "email" && name !== "auto" && name !== "action")
    .map(([name, value]) => `      <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n")
  const name = escapeHtml(providerId)
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Sign in with ${name} (emulator)</title>
  </head>
  <body>
    <h1>Sign in with ${name}</h1>
    <p>This is the emulator's mock OAuth provider. Any e-mail address is accepted; no password is needed.</p>
${problem === undefined ? "" : `    <p role="alert">${escapeHtml(problem)}</p>\n`}    <form method="post" action="${escapeHtml(authorizePath(providerId))}">
${hidden}
      <label>E-mail <input type="email" name="email" value="${escapeHtml(parameters["email"] ?? "")}" required autofocus></label>
      <button type="submit" name="action" value="authorize">Authorize</button>
      <button type="submit" name="action" value="deny" formnovalidate>Deny</button>
    </form>
  </body>
</html>
`
}
