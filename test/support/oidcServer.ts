/**
 * A tiny OpenID Connect server on 127.0.0.1 for tests, standing in for the service's
 * `apps/mock-oauth-server` (`oidc-provider`: clients `github`, `google`… with secret
 * `MOCK-SERVER-SECRET`): discovery, an authorization endpoint that approves at once (303 to
 * `redirect_uri?code&state&iss`, the account's `sub` being {@link OidcServer.nextSub}), a token
 * endpoint (client_secret_basic, one-use codes, `redirect_uri` and PKCE S256 checked, an RS256
 * `id_token`), a userinfo endpoint and the JWKS. Every request is recorded; `discoveryAnswer`,
 * `tokenAnswer`, `userinfoAnswer` and `idTokenKey` replace an answer for failure tests.
 */
import { createHash, randomBytes } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as jose from "jose"

/** A recorded request. */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly headers: http.IncomingHttpHeaders
  readonly form: Readonly<Record<string, string>>
}

interface CodeRecord {
  readonly clientId: string
  readonly redirectUri: string
  readonly challenge: string
  readonly sub: string
}

/** A running test OpenID Connect server. */
export interface OidcServer {
  /** Its base URL (the issuer), e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  readonly requests: Array<RecordedRequest>
  /** The account the next authorization approves. */
  nextSub: string
  /** Its userinfo `name` and `picture`. */
  nextProfile: { readonly name?: string; readonly picture?: string }
  /** Replaces the token endpoint's next answer (status and JSON). */
  tokenAnswer: { readonly status: number; readonly json: unknown } | undefined
  /** Replaces the userinfo endpoint's answers. */
  userinfoAnswer: { readonly status: number; readonly json: unknown } | undefined
  /** Replaces the discovery document. */
  discoveryAnswer: { readonly status: number; readonly json: unknown } | undefined
  /** Signs id tokens with this key instead of the published one. */
  idTokenKey: jose.CryptoKey | undefined
  readonly close: () => Promise<void>
}

const clients = ["github", "google", "microsoft", "facebook", "spotify", "discord", "gitlab", "bitbucket", "x"]
const clientSecret = "MOCK-SERVER-SECRET"

const readBody = (request: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => resolve(body))
    request.on("error", reject)
  })

const json = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

/** Starts the server on a free port of 127.0.0.1. */
export const startOidcServer = async (): Promise<OidcServer> => {
  const { privateKey, publicKey } = await jose.generateKeyPair("RS256")
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" }
  const codes = new Map<string, CodeRecord>()
  const accessTokens = new Map<string, string>()
  const server = http.createServer()
  const state: OidcServer = {
    url: "",
    requests: [],
    nextSub: "ada@example.com",
    nextProfile: {},
    tokenAnswer: undefined,
    userinfoAnswer: undefined,
    discoveryAnswer: undefined,
    idTokenKey: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    void (async () => {
      const url = new URL(request.url ?? "/", state.url)
      const body = await readBody(request)
      const form = request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded") ? Object.fromEntries(new URLSearchParams(body)) : {}
      state.requests.push({ method: request.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers, form })
      const issuer = state.url
      switch (`${request.method} ${url.pathname}`) {
        case "GET /.well-known/openid-configuration":
          if (state.discoveryAnswer !== undefined) return json(response, state.discoveryAnswer.status, state.discoveryAnswer.json)
          return json(response, 200, {
            issuer,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${issuer}/token`,
            userinfo_endpoint: `${issuer}/me`,
            jwks_uri: `${issuer}/jwks`,
            authorization_response_iss_parameter_supported: true,
            response_types_supported: ["code"],
            id_token_signing_alg_values_supported: ["RS256"]
          })
        case "GET /jwks":
          return json(response, 200, { keys: [jwk] })
        case "GET /auth": {
          const query = url.searchParams
          const clientId = query.get("client_id") ?? ""
          if (!clients.includes(clientId) || query.get("response_type") !== "code" || query.get("code_challenge_method") !== "S256") {
            return json(response, 400, { error: "invalid_request" })
          }
          const code = randomBytes(16).toString("hex")
          codes.set(code, { clientId, redirectUri: query.get("redirect_uri") ?? "", challenge: query.get("code_challenge") ?? "", sub: state.nextSub })
          const target = new URL(query.get("redirect_uri") ?? "")
          target.searchParams.set("code", code)
          target.searchParams.set("state", query.get("state") ?? "")
          target.searchParams.set("iss", issuer)
          response.writeHead(303, { location: target.href })
          return response.end()
        }
        case "POST /token": {
          if (state.tokenAnswer !== undefined) return json(response, state.tokenAnswer.status, state.tokenAnswer.json)
          const [scheme, credentials] = (request.headers.authorization ?? "").split(" ")
          const [clientId, secret] = Buffer.from(credentials ?? "", "base64").toString().split(":").map(decodeURIComponent)
          if (scheme !== "Basic" || secret !== clientSecret || !clients.includes(clientId ?? "")) return json(response, 401, { error: "invalid_client" })
          const record = codes.get(form["code"] ?? "")
          codes.delete(form["code"] ?? "")
          const challenge = createHash("sha256").update(form["code_verifier"] ?? "").digest("base64url")
          if (
            form["grant_type"] !== "authorization_code" || record === undefined || record.clientId !== clientId ||
            record.redirectUri !== form["redirect_uri"] || record.challenge !== challenge
          ) {
            return json(response, 400, { error: "invalid_grant", error_description: "grant request is invalid" })
          }
          const accessToken = randomBytes(24).toString("base64url")
          accessTokens.set(accessToken, record.sub)
          const idToken = await new jose.SignJWT({})
            .setProtectedHeader({ alg: "RS256", kid: "test-key" })
            .setIssuer(issuer)
            .setAudience(clientId!)
            .setSubject(record.sub)
            .setIssuedAt()
            .setExpirationTime("1h")
            .sign(state.idTokenKey ?? privateKey)
          return json(response, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken, scope: "openid offline_access" })
        }
        case "GET /me": {
          if (state.userinfoAnswer !== undefined) return json(response, state.userinfoAnswer.status, state.userinfoAnswer.json)
          const sub = accessTokens.get((request.headers.authorization ?? "").replace(/^Bearer /, ""))
          if (sub === undefined) return json(response, 401, { error: "invalid_token" })
          return json(response, 200, { sub, ...state.nextProfile })
        }
        default:
          return json(response, 404, { error: "not_found" })
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  ;(state as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}
