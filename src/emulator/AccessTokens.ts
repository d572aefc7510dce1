/**
 * Access tokens (PROTOCOL.md §2.3) and the JWKS (§2.4): per project and audience two ES256 key
 * pairs (the first signs, both are published, as the service does), tokens with exactly the
 * service's claims, and verification against the time of Effect's `Clock`.
 *
 * @module
 */
import { Effect, Result } from "effect"
import * as Base64Url from "effect/encoding/Base64Url"
import * as jose from "jose"
import { parseJson } from "./Json.js"
import { randomBase64Url } from "./Random.js"
import type { ProjectRecord, SessionRecord, UserRecord } from "./State.js"
import { restrictionOf } from "./State.js"
import type { Audience, ProjectSigningKeys, PublicJwk, SigningKey } from "./SigningKeys.js"

/** The key types (audience, public JWK, key pair, a project's keys), defined in a leaf module the state uses too. */
export type { Audience, ProjectSigningKeys, PublicJwk, SigningKey } from "./SigningKeys.js"

/** The claims of an access token, in the order the service writes them. */
export interface AccessTokenClaims {
  readonly sub: string
  readonly project_id: string
  readonly branch_id: string
  readonly refresh_token_id: string
  readonly role: "authenticated"
  readonly name: string | null
  readonly email: string | null
  readonly email_verified: boolean
  readonly selected_team_id: string | null
  /** Seconds. */
  readonly signed_up_at: number
  readonly is_anonymous: boolean
  readonly is_restricted: boolean
  readonly restricted_reason: { readonly type: string } | null
  readonly requires_totp_mfa: boolean
  readonly iss: string
  readonly iat: number
  readonly aud: string
  readonly exp: number
}

/** Why a token was rejected: not a token of a known project with a valid signature, or expired. */
export type VerifyFailure =
  | { readonly _tag: "Unparsable" }
  | {
    readonly _tag: "Expired"
    readonly expiredAtMillis: number | null
    readonly projectId: string | null
    readonly userId: string | null
    readonly refreshTokenId: string | null
  }

/** A verified token. */
export interface VerifiedToken {
  readonly claims: AccessTokenClaims
  /** The project the token was issued by (may differ from the request's project). */
  readonly project: ProjectRecord
}

const audiences: ReadonlyArray<Audience> = ["normal", "restricted", "anonymous"]

const generateKey = (audience: Audience): Effect.Effect<SigningKey> =>
  Effect.promise(async () => {
    const { privateKey, publicKey } = await jose.generateKeyPair("ES256", { extractable: true })
    const jwk = await jose.exportJWK(publicKey)
    const kid = randomBase64Url(9)
    return {
      kid,
      audience,
      privateKey,
      publicKey,
      publicJwk: { kty: "EC", crv: "P-256", alg: "ES256", kid, x: jwk.x!, y: jwk.y! }
    }
  })

/** Generates a project's six key pairs. */
export const generateSigningKeys: Effect.Effect<ProjectSigningKeys> = Effect.gen(function* () {
  const pairs = yield* Effect.forEach(audiences, (audience) => Effect.all([generateKey(audience), generateKey(audience)]))
  return { normal: pairs[0]!, restricted: pairs[1]!, anonymous: pairs[2]! }
})

/** The JWKS body: normal keys, then restricted keys (`includeRestricted` or `includeAnonymous`), then anonymous keys. */
export const publicKeySet = (
  keys: ProjectSigningKeys,
  options: { readonly includeRestricted: boolean; readonly includeAnonymous: boolean }
): { readonly keys: ReadonlyArray<PublicJwk> } => ({
  keys: [
    ...keys.normal,
    ...(options.includeRestricted || options.includeAnonymous ? keys.restricted : []),
    ...(options.includeAnonymous ? keys.anonymous : [])
  ].map((key) => key.publicJwk)
})

/** The audience a user's tokens are signed for. */
export const audienceOfUser = (project: ProjectRecord, user: UserRecord): Audience =>
  user.isAnonymous ? "anonymous" : restrictionOf(user, project.config) !== null ? "restricted" : "normal"

/** `iss` of a project's tokens for an audience. */
export const issuer = (apiBase: string, projectId: string, audience: Audience): string =>
  `${apiBase}/api/v1/${
    audience === "anonymous" ? "projects-anonymous-users" : audience === "restricted" ? "projects-restricted-users" : "projects"
  }/${projectId}`

/** `aud` of a project's tokens for an audience. */
export const audienceClaim = (projectId: string, audience: Audience): string =>
  audience === "anonymous" ? `${projectId}:anon` : audience === "restricted" ? `${projectId}:restricted` : projectId

/** The claims of a new access token for a session. */
export const claimsFor = (input: {
  readonly apiBase: string
  readonly project: ProjectRecord
  readonly user: UserRecord
  readonly session: SessionRecord
  readonly nowMillis: number
  readonly lifetimeSeconds: number
}): AccessTokenClaims => {
  const { project, user } = input
  const audience = audienceOfUser(project, user)
  const restriction = restrictionOf(user, project.config)
  const iat = Math.floor(input.nowMillis / 1000)
  return {
    sub: user.id,
    project_id: project.id,
    branch_id: "main",
    refresh_token_id: input.session.id,
    role: "authenticated",
    name: user.displayName,
    email: user.primaryEmail,
    email_verified: user.primaryEmailVerified,
    selected_team_id: user.selectedTeamId,
    signed_up_at: Math.floor(user.signedUpAtMillis / 1000),
    is_anonymous: user.isAnonymous,
    is_restricted: restriction !== null,
    restricted_reason: restriction,
    requires_totp_mfa: user.totpSecretBase64 !== null,
    iss: issuer(input.apiBase, project.id, audience),
    iat,
    aud: audienceClaim(project.id, audience),
    exp: iat + input.lifetimeSeconds
  }
}

/** Mints an access token for a session (ES256, header `{alg, kid}`). */
export const mintAccessToken = (input: Parameters<typeof claimsFor>[0]): Effect.Effect<string> => {
  const claims = claimsFor(input)
  const key = input.project.signingKeys[audienceOfUser(input.project, input.user)][0]
  return Effect.promise(() =>
    new jose.SignJWT({ ...claims } as unknown as jose.JWTPayload)
      .setProtectedHeader({ alg: "ES256", kid: key.kid })
      .sign(key.privateKey)
  )
}

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null)

/** Reads the claims of a verified payload; legacy camelCase `branchId`/`refreshTokenId` are accepted. */
const readClaims = (payload: jose.JWTPayload): AccessTokenClaims | undefined => {
  const record = payload as Record<string, unknown>
  const refreshTokenId = record["refresh_token_id"] ?? record["refreshTokenId"]
  if (typeof payload.sub !== "string" || typeof refreshTokenId !== "string" || typeof payload.aud !== "string") return undefined
  const projectId = stringOrNull(record["project_id"]) ?? payload.aud.replace(/:(anon|restricted)$/, "")
  const restricted = record["restricted_reason"]
  return {
    sub: payload.sub,
    project_id: projectId,
    branch_id: stringOrNull(record["branch_id"] ?? record["branchId"]) ?? "main",
    refresh_token_id: refreshTokenId,
    role: "authenticated",
    name: stringOrNull(record["name"]),
    email: stringOrNull(record["email"]),
    email_verified: record["email_verified"] === true,
    selected_team_id: stringOrNull(record["selected_team_id"]),
    signed_up_at: typeof record["signed_up_at"] === "number" ? record["signed_up_at"] : 0,
    is_anonymous: record["is_anonymous"] === true,
    is_restricted: record["is_restricted"] === true,
    restricted_reason: typeof restricted === "object" && restricted !== null && typeof (restricted as { type?: unknown }).type === "string"
      ? { type: (restricted as { type: string }).type }
      : null,
    requires_totp_mfa: record["requires_totp_mfa"] === true,
    iss: typeof payload.iss === "string" ? payload.iss : "",
    iat: typeof payload.iat === "number" ? payload.iat : 0,
    aud: payload.aud,
    exp: typeof payload.exp === "number" ? payload.exp : 0
  }
}

/**
 * The JSON object of a base64url part of a JWT (its header or payload), read with the emulator's
 * bounded parser (`Json.ts`) before the JWT library sees the token; undefined when it is not one.
 */
const jsonObjectPart = (part: string): Record<string, unknown> | undefined => {
  const text = Base64Url.decodeString(part)
  if (Result.isFailure(text)) return undefined
  const json = parseJson(text.success)
  return json._tag === "Value" && typeof json.value === "object" && json.value !== null && !Array.isArray(json.value)
    ? (json.value as Record<string, unknown>)
    : undefined
}

/**
 * Verifies an access token: a JWT signed by a key of the project named in its claims, for the
 * key's audience, not expired at `nowMillis`. Which project the request is for is checked by the caller.
 */
export const verifyAccessToken = (
  token: string,
  options: { readonly projectOf: (projectId: string) => ProjectRecord | undefined; readonly nowMillis: number }
): Effect.Effect<VerifiedToken, VerifyFailure> =>
  Effect.gen(function* () {
    const unparsable: VerifyFailure = { _tag: "Unparsable" }
    const parts = token.split(".")
    const header = parts.length === 3 ? jsonObjectPart(parts[0]!) : undefined
    const claimed = parts.length === 3 ? jsonObjectPart(parts[1]!) : undefined
    if (header === undefined || claimed === undefined) return yield* Effect.fail(unparsable)
    const aud = claimed["aud"]
    const claimedProject = typeof claimed["project_id"] === "string"
      ? claimed["project_id"]
      : typeof aud === "string"
      ? aud.replace(/:(anon|restricted)$/, "")
      : undefined
    const project = claimedProject === undefined ? undefined : options.projectOf(claimedProject)
    if (project === undefined || header["alg"] !== "ES256") return yield* Effect.fail(unparsable)
    const key = audiences.flatMap((audience) => project.signingKeys[audience]).find((k) => k.kid === header["kid"])
    if (key === undefined) return yield* Effect.fail(unparsable)
    const payload = yield* Effect.tryPromise({
      try: () =>
        jose.jwtVerify(token, key.publicKey, {
          algorithms: ["ES256"],
          audience: audienceClaim(project.id, key.audience),
          currentDate: new Date(options.nowMillis)
        }),
      catch: (error): VerifyFailure => {
        if (error instanceof jose.errors.JWTExpired) {
          const p = error.payload as Record<string, unknown>
          return {
            _tag: "Expired",
            expiredAtMillis: typeof p["exp"] === "number" ? p["exp"] * 1000 : null,
            projectId: stringOrNull(p["project_id"]),
            userId: stringOrNull(p["sub"]),
            refreshTokenId: stringOrNull(p["refresh_token_id"] ?? p["refreshTokenId"])
          }
        }
        return unparsable
      }
    })
    const claims = readClaims(payload.payload)
    if (claims === undefined || claims.project_id !== project.id) return yield* Effect.fail(unparsable)
    return { claims, project }
  })
