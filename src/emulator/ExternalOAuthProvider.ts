/**
 * An external OAuth 2.0 / OpenID Connect server standing in for every OAuth provider
 * (`EmulatorOptions.oauthMockUrl`, CLI `--oauth-mock-url` or `STACK_OAUTH_MOCK_URL`), as the
 * service does in development: with `STACK_OAUTH_MOCK_URL` set and a shared provider's keys set to
 * `MOCK`, its `MockProvider` (`apps/backend/src/oauth/providers/mock.tsx` and `index.tsx`, over
 * `providers/base.tsx` and `openid-client` 5.6.4, at stack-auth/stack-auth 2f719903) talks to the
 * OpenID Connect server at that URL (the repository's `apps/mock-oauth-server`, `oidc-provider`):
 *
 * - discovery: `GET {url}/.well-known/openid-configuration` (a URL already under
 *   `/.well-known/` is read as it is), on authorize and again on the callback;
 * - the client: id the provider's kind (`github`, `google`…), secret `MOCK-SERVER-SECRET` sent as
 *   HTTP Basic (`client_secret_basic`), redirect URI the emulator's OAuth callback;
 * - authorize: the discovered `authorization_endpoint` with `client_id`, `scope` (`openid
 *   offline_access` and the requested extra scopes), `response_type=code`, `redirect_uri`, PKCE
 *   S256, `state`, `access_type=offline`, `prompt=consent`;
 * - the callback: an `iss` parameter must name the discovered issuer (and is required when the
 *   server says `authorization_response_iss_parameter_supported`); the code is exchanged at the
 *   `token_endpoint` (`grant_type=authorization_code`, `code`, `redirect_uri`, `code_verifier`);
 *   the answer must hold an `access_token` and an `id_token`, which is checked as `openid-client`
 *   checks it (RS256 signature from the server's `jwks_uri`, `iss`, `aud` holding the client id,
 *   `sub`, `exp`, `iat`, no `nonce`); the account is the `userinfo_endpoint`'s answer to the
 *   access token: `sub` is the account id AND the e-mail (which must be an e-mail address),
 *   `name` the display name, `picture` the profile image.
 *
 * Failures, as the service's `getCallback` answers them: `invalid_grant` → 400 text,
 * `invalid_client` → 400 text, `access_denied` / `consent_required` →
 * `OAUTH_PROVIDER_ACCESS_DENIED`, a network failure, a 429 / 5xx or `server_error` /
 * `temporarily_unavailable` → `OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE`; anything else the server
 * answers wrong → 500 text (the service's assertion). Every call is bounded by
 * {@link requestTimeout}.
 *
 * @module
 */
import { Data, Duration, Effect } from "effect"
import * as jose from "jose"
import { parseJson } from "./Json.js"
import { authorizationParameters } from "./OAuthProvider.js"
import type { ProviderRequest } from "./State.js"

/** The client secret the service's `MockProvider` uses for every provider. */
export const mockClientSecret = "MOCK-SERVER-SECRET"

/** The scope the service's `MockProvider` always asks for (`baseScope`). */
export const baseScope = "openid offline_access"

/** How long one call to the external server may take. */
export const requestTimeout = Duration.seconds(10)

/** What discovery tells about the external server. */
export interface Discovery {
  readonly issuer: string
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
  readonly userinfoEndpoint: string | undefined
  readonly jwksUri: string | undefined
  /** `authorization_response_iss_parameter_supported`: the callback must carry `iss`. */
  readonly issParameterSupported: boolean
}

/** Why a call to the external server failed, in the service's terms (see the module's notes). */
export class ExternalOAuthFailure extends Data.TaggedError("ExternalOAuthFailure")<{
  readonly kind: "invalid_grant" | "invalid_client" | "access_denied" | "unavailable" | "invalid_answer"
  readonly message: string
}> {}

/** The account behind an exchanged code. */
export interface ExternalAccount {
  /** `sub`, the account id. */
  readonly accountId: string
  /** `sub` again, as the service's `MockProvider` reads it. */
  readonly email: string
  readonly displayName: string | null
  readonly profileImageUrl: string | null
}

const failure = (kind: ExternalOAuthFailure["kind"], message: string) => new ExternalOAuthFailure({ kind, message })

const isHttpUrl = (text: string): boolean => {
  try {
    const { protocol } = new URL(text)
    return protocol === "http:" || protocol === "https:"
  } catch {
    return false
  }
}

/** The discovery document's URL (`openid-client`'s `Issuer.discover`). */
export const wellKnownUrl = (url: string): string => {
  const parsed = new URL(url)
  if (parsed.pathname.includes("/.well-known/")) return parsed.href
  parsed.pathname = `${parsed.pathname.replace(/\/$/, "")}/.well-known/openid-configuration`
  return parsed.href
}

/** One HTTP call to the external server: its status and the body parsed as JSON (undefined when it is not JSON). */
const call = (url: string, init: RequestInit): Effect.Effect<{ readonly status: number; readonly json: unknown }, ExternalOAuthFailure> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, { ...init, signal, redirect: "manual" })
      const parsed = parseJson(await response.text())
      return { status: response.status, json: parsed._tag === "Value" ? parsed.value : undefined }
    },
    catch: (cause) => failure("unavailable", `The OAuth server at ${url} could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`)
  }).pipe(
    Effect.timeoutOrElse({
      duration: requestTimeout,
      orElse: () => Effect.fail(failure("unavailable", `The OAuth server at ${url} did not answer within ${Duration.format(requestTimeout)}.`))
    })
  )

const stringMember = (value: unknown, key: string): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const member = (value as Record<string, unknown>)[key]
  return typeof member === "string" ? member : undefined
}

/** A failed answer of the external server in the service's terms (`getCallback`'s catch). */
const refusal = (status: number, json: unknown, what: string): ExternalOAuthFailure => {
  const error = stringMember(json, "error")
  const description = stringMember(json, "error_description")
  const text = `${what} answered ${status}${error === undefined ? "" : ` ${error}`}${description === undefined ? "" : `: ${description}`}`
  if (error === "invalid_grant") return failure("invalid_grant", text)
  if (error === "invalid_client") return failure("invalid_client", text)
  if (error === "access_denied" || error === "consent_required") return failure("access_denied", text)
  if (status === 429 || status >= 500 || error === "server_error" || error === "temporarily_unavailable" || error === "timeout") {
    return failure("unavailable", text)
  }
  return failure("invalid_answer", text)
}

/** Reads the external server's discovery document. */
export const discover = (url: string): Effect.Effect<Discovery, ExternalOAuthFailure> =>
  Effect.gen(function* () {
    const target = wellKnownUrl(url)
    const answer = yield* call(target, { method: "GET", headers: { accept: "application/json" } })
    if (answer.status !== 200) return yield* Effect.fail(refusal(answer.status, answer.json, `The OAuth server's discovery document (${target})`))
    const issuer = stringMember(answer.json, "issuer")
    const authorizationEndpoint = stringMember(answer.json, "authorization_endpoint")
    const tokenEndpoint = stringMember(answer.json, "token_endpoint")
    if (issuer === undefined || authorizationEndpoint === undefined || tokenEndpoint === undefined) {
      return yield* Effect.fail(
        failure("invalid_answer", `The OAuth server's discovery document (${target}) lacks issuer, authorization_endpoint or token_endpoint.`)
      )
    }
    const endpoints = [authorizationEndpoint, tokenEndpoint, stringMember(answer.json, "userinfo_endpoint"), stringMember(answer.json, "jwks_uri")]
    const notUrl = endpoints.find((endpoint) => endpoint !== undefined && !isHttpUrl(endpoint))
    if (notUrl !== undefined) {
      return yield* Effect.fail(
        failure("invalid_answer", `The OAuth server's discovery document (${target}) names an endpoint that is not an http(s) URL: ${notUrl}`)
      )
    }
    const issParameter = (answer.json as Record<string, unknown>)["authorization_response_iss_parameter_supported"]
    return {
      issuer,
      authorizationEndpoint,
      tokenEndpoint,
      userinfoEndpoint: stringMember(answer.json, "userinfo_endpoint"),
      jwksUri: stringMember(answer.json, "jwks_uri"),
      issParameterSupported: issParameter === true
    }
  })

/** The scopes of a request to the external server: {@link baseScope} and the extra scopes, each once. */
export const scopesOf = (extraScopes: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set([...baseScope.split(" "), ...extraScopes])]

/** The authorization URL of a request (`openid-client`'s `authorizationUrl`, parameters in its order). */
export const authorizationUrl = (discovery: Discovery, request: ProviderRequest): string => {
  const target = new URL(discovery.authorizationEndpoint)
  for (const [name, value] of Object.entries(authorizationParameters(request))) target.searchParams.set(name, value)
  return target.href
}

/** `openid-client`'s `client_secret_basic`: the form-encoded id and secret, base64. */
const basicAuthorization = (clientId: string): string => {
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, "+")
  return `Basic ${btoa(`${encode(clientId)}:${encode(mockClientSecret)}`)}`
}

/** Checks an id token as `openid-client`'s `validateIdToken` does for a code exchange without nonce. */
const checkIdToken = (discovery: Discovery, idToken: string, clientId: string, nowMillis: number): Effect.Effect<void, ExternalOAuthFailure> =>
  Effect.gen(function* () {
    if (discovery.jwksUri === undefined) {
      return yield* Effect.fail(failure("invalid_answer", "The OAuth server's discovery document has no jwks_uri to check the id_token with."))
    }
    const keys = yield* call(discovery.jwksUri, { method: "GET", headers: { accept: "application/json" } })
    if (keys.status !== 200) return yield* Effect.fail(refusal(keys.status, keys.json, `The OAuth server's JWKS (${discovery.jwksUri})`))
    const verified = yield* Effect.tryPromise({
      try: () =>
        jose.jwtVerify(idToken, jose.createLocalJWKSet(keys.json as jose.JSONWebKeySet), {
          algorithms: ["RS256"],
          issuer: discovery.issuer,
          audience: clientId,
          requiredClaims: ["iss", "sub", "aud", "exp", "iat"],
          currentDate: new Date(nowMillis)
        }),
      catch: (cause) => failure("invalid_answer", `The OAuth server's id_token was refused: ${cause instanceof Error ? cause.message : String(cause)}`)
    })
    if (verified.payload.nonce !== undefined) {
      return yield* Effect.fail(failure("invalid_answer", "The OAuth server's id_token carries a nonce the authorization request did not send."))
    }
  })

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * The callback's work with the external server: checks `iss`, exchanges the code, checks the id
 * token and reads the account from the userinfo endpoint.
 */
export const exchangeCode = (input: {
  readonly discovery: Discovery
  readonly request: ProviderRequest
  readonly code: string
  readonly iss: string | undefined
  readonly codeVerifier: string
  readonly nowMillis: number
}): Effect.Effect<ExternalAccount, ExternalOAuthFailure> =>
  Effect.gen(function* () {
    const { discovery, request } = input
    if (input.iss === undefined && discovery.issParameterSupported) {
      return yield* Effect.fail(failure("invalid_answer", "The OAuth server's callback has no iss although it says it sends one."))
    }
    if (input.iss !== undefined && input.iss !== discovery.issuer) {
      return yield* Effect.fail(failure("invalid_answer", `The callback's iss (${input.iss}) is not the OAuth server's issuer (${discovery.issuer}).`))
    }
    const tokens = yield* call(discovery.tokenEndpoint, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded", authorization: basicAuthorization(request.clientId) },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: input.code,
        redirect_uri: request.redirectUri,
        code_verifier: input.codeVerifier
      }).toString()
    })
    if (tokens.status !== 200) return yield* Effect.fail(refusal(tokens.status, tokens.json, "The OAuth server's token endpoint"))
    const accessToken = stringMember(tokens.json, "access_token")
    const idToken = stringMember(tokens.json, "id_token")
    if (accessToken === undefined) return yield* Effect.fail(failure("invalid_answer", "The OAuth server's token answer has no access_token."))
    if (idToken === undefined) {
      return yield* Effect.fail(failure("invalid_answer", "The OAuth server's token answer has no id_token (id_token not present in TokenSet)."))
    }
    yield* checkIdToken(discovery, idToken, request.clientId, input.nowMillis)
    if (discovery.userinfoEndpoint === undefined) {
      return yield* Effect.fail(failure("invalid_answer", "The OAuth server's discovery document has no userinfo_endpoint."))
    }
    const userinfo = yield* call(discovery.userinfoEndpoint, { method: "GET", headers: { accept: "application/json", authorization: `Bearer ${accessToken}` } })
    if (userinfo.status !== 200) return yield* Effect.fail(refusal(userinfo.status, userinfo.json, "The OAuth server's userinfo endpoint"))
    const sub = stringMember(userinfo.json, "sub")
    if (sub === undefined || sub.length === 0) return yield* Effect.fail(failure("invalid_answer", "The OAuth server's userinfo has no sub."))
    // the service's MockProvider: `email: rawUserInfo.sub`, validated as an e-mail address
    if (!emailPattern.test(sub)) return yield* Effect.fail(failure("invalid_answer", `The OAuth server's userinfo sub (${sub}) is not an e-mail address.`))
    return {
      accountId: sub,
      email: sub,
      displayName: stringMember(userinfo.json, "name") ?? null,
      profileImageUrl: stringMember(userinfo.json, "picture") ?? null
    }
  })
