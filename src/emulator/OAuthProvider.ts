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
export const issuerOf = (apiBase: string, providerId: string): string => `${apiBase}/api/v1/emulator/oauth-provider/${encodeURIComponent(providerId)}`

/** An authorization request to the mock provider (the service's side of the inner flow). */
export type ProviderRequest = StateProviderRequest

/**
 * The query parameters of an authorization request, in the order the service's OAuth library
 * (`openid-client`'s `authorizationUrl`) writes them: the mock provider's and an external one's.
 */
export const authorizationParameters = (request: ProviderRequest): Record<string, string> => ({
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

/** The mock provider's authorization URL for a request (the shape of the recorded `location`). */
export const authorizationUrl = (apiBase: string, providerId: string, request: ProviderRequest): string => {
  const query = new URLSearchParams(authorizationParameters(request))
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
  /** The provider's name for the account (an external OAuth server's userinfo `name`), for a new user. */
  readonly displayName?: string | null
  /** The provider's picture of the account (userinfo `picture`), for a new user. */
  readonly profileImageUrl?: string | null
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
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Sign in with ${name} (emulator)</title>
    <style>
      body { margin: 0; min-height: 100vh; display: grid; place-items: start center; padding: 3rem 1rem; box-sizing: border-box;
        font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f6f7fb; color: #1b1f2a; }
      main { width: 100%; max-width: 400px; background: #fff; border: 1px solid #e3e6ef; border-radius: 10px; padding: 1.75rem; box-sizing: border-box; }
      h1 { font-size: 1.4rem; margin: 0 0 0.5rem; text-align: center; }
      p { color: #475467; margin: 0 0 1rem; }
      .note { font-size: 0.85rem; text-align: center; }
      [role="alert"] { color: #912018; background: #fef3f2; border: 1px solid #fecdca; border-radius: 8px; padding: 0.6rem 0.8rem; }
      label { display: grid; gap: 0.35rem; font-weight: 500; margin-bottom: 1rem; }
      input[type="email"] { font: inherit; padding: 0.6rem 0.75rem; border: 1px solid #d0d5dd; border-radius: 8px; }
      .actions { display: grid; gap: 0.5rem; }
      button { font: inherit; font-weight: 600; padding: 0.6rem 1rem; border-radius: 8px; border: 1px solid #d0d5dd; background: #fff; color: #1b1f2a; cursor: pointer; }
      button[value="authorize"] { background: #4f46e5; border-color: #4f46e5; color: #fff; }
      :focus-visible { outline: 3px solid #4f46e5; outline-offset: 2px; }
    </style>
  </head>
  <body>
    <main>
      <h1>Sign in with ${name}</h1>
      <p class="note">The emulator's mock ${name} provider: any e-mail address is accepted, no password is needed. Deny goes back to the app without signing in.</p>
${problem === undefined ? "" : `      <p role="alert">${escapeHtml(problem)}</p>\n`}      <form method="post" action="${escapeHtml(authorizePath(providerId))}">
${hidden}
        <label>E-mail <input type="email" name="email" value="${escapeHtml(parameters["email"] ?? "")}" autocomplete="email" required autofocus></label>
        <div class="actions">
          <button type="submit" name="action" value="authorize">Authorize</button>
          <button type="submit" name="action" value="deny" formnovalidate>Deny</button>
        </div>
      </form>
      <div id="answered" role="alert" hidden>
        <p>You already answered this sign-in request. Start the sign-in again from the app.</p>
        <p><a href="#" id="back-to-app">Back to the app</a></p>
      </div>
    </main>
    <script>
      // Reached again with Back after answering: the request is used up (its state is spent), so
      // a second answer could only fail; offer the way back instead.
      addEventListener("pageshow", (event) => {
        const entry = performance.getEntriesByType("navigation")[0]
        if (!event.persisted && (entry === undefined || entry.type !== "back_forward")) return
        for (const button of document.querySelectorAll("form button")) button.disabled = true
        document.querySelector("form").hidden = true
        document.getElementById("answered").hidden = false
      })
      document.getElementById("back-to-app").addEventListener("click", (event) => {
        event.preventDefault()
        history.back()
      })
    </script>
  </body>
</html>
`
}
