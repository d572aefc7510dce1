/**
 * Server-side verification of access tokens (PROTOCOL.md §2.3–2.4, SPEC.md §9): a backend that
 * receives a user's access token checks it locally against the project's JWKS instead of asking
 * the service (`GET /users/me`) on every request.
 *
 * - Keys come from `GET /api/v1/projects/{project_id}/.well-known/jwks.json` (with
 *   `include_restricted=true` / `include_anonymous=true` for tokens of restricted / anonymous
 *   users), fetched once per service and per key set and kept for the answer's
 *   `Cache-Control: max-age` (default one hour). An unknown `kid` triggers one refetch, at most
 *   one per {@link VerifierOptions.refetchCooldown} (default 30 s), so a flood of made-up key ids
 *   never floods the service.
 * - One fetch at a time per key set, shared by every verification waiting for it; it runs in its
 *   own fiber (a caller's interruption does not cancel it for the others) and is bounded by
 *   {@link VerifierOptions.fetchTimeout} (default 10 s, retries of the transport included).
 * - A failed fetch while no key set was ever fetched is remembered for
 *   {@link VerifierOptions.fetchFailureBackoff} (default 5 s): verifications in that window fail
 *   at once with the same `JwksUnavailable` and send nothing; after a failed refetch of a key set
 *   already held, the held keys keep serving and the next try waits for the refetch cooldown.
 * - Issuer and audience must be the project's: `{apiBase}/api/v1/projects/{id}` and `{id}` for
 *   normal users, `…/projects-restricted-users/{id}` and `{id}:restricted` for restricted users,
 *   `…/projects-anonymous-users/{id}` and `{id}:anon` for anonymous users. Tokens of restricted and
 *   anonymous users are refused unless the call allows them (`allowRestricted`,
 *   `allowAnonymous`, which implies restricted as anonymous users are always restricted).
 * - Expiry is checked against Effect's `Clock` with a 30 s tolerance, after the signature: only a
 *   token the project's key signed is ever `TokenExpired`.
 * - ES256 (P-256) is what the service signs with; RS256 keys are accepted only with a modulus of
 *   at least 2048 bits.
 * - A token seen again (same text) skips the signature check while the key set it was verified
 *   with is current ({@link VerifierOptions.verifiedTokenCacheSize}); expiry and allowances are
 *   checked on every call.
 * - Nothing is global: each service instance (each layer) has its own caches.
 *
 * Token text never appears in an error message.
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import { AccessTokenVerifier, Stack } from "stack-auth-effect"
 *
 * declare const projectId: string // your project's id
 * const VerifierLive = AccessTokenVerifier.layer().pipe(Layer.provide(Stack.layerClient({ projectId })))
 * const handler = (accessToken: string) =>
 *   AccessTokenVerifier.verifyAccessToken(accessToken).pipe(
 *     Effect.map((claims) => `hello ${claims.userId}`),
 *     Effect.catchTag("TokenExpired", () => Effect.succeed("please refresh"))
 *   )
 * ```
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
// jose by subpath: the modules used, not its whole entry (issue 14: files opened at import)
import { decode as decodeBase64Url } from "jose/base64url"
import { decodeProtectedHeader } from "jose/decode/protected_header"
import { compactVerify } from "jose/jws/compact/verify"
import type { JWK } from "jose"
import { importJWK } from "jose/key/import"
import type { TransportError } from "../core/Errors.js"
import { StackClient } from "../core/StackClient.js"
import { field, wireStruct } from "../core/Wire.js"
import { unverifiedClaims } from "./jwtClaims.js"

// ---------------------------------------------------------------------------------------------
// Claims
// ---------------------------------------------------------------------------------------------

/** Seconds since the epoch on the wire, a `Date` in the domain. */
export const DateFromSeconds = Schema.Number.pipe(
  Schema.decodeTo(
    Schema.Date,
    SchemaTransformation.transform({
      decode: (seconds: number) => new Date(seconds * 1000),
      encode: (date: Date) => Math.floor(date.getTime() / 1000)
    })
  )
)

/** Why a user is restricted. */
export const RestrictedReason = Schema.Struct({
  type: Schema.Literals(["anonymous", "email_not_verified", "restricted_by_administrator"])
})

/** The claims of a verified access token (PROTOCOL.md §2.3), wire names mapped to the domain. */
export const AccessTokenClaims = wireStruct({
  userId: field("sub", Schema.String),
  projectId: field("project_id", Schema.String),
  branchId: field("branch_id", Schema.String),
  /** The session (refresh token) that minted the token; equals the session id of `/auth/sessions`. */
  refreshTokenId: field("refresh_token_id", Schema.String),
  role: Schema.Literal("authenticated"),
  displayName: field("name", Schema.NullOr(Schema.String)),
  primaryEmail: field("email", Schema.NullOr(Schema.String)),
  primaryEmailVerified: field("email_verified", Schema.Boolean),
  selectedTeamId: field("selected_team_id", Schema.NullOr(Schema.String)),
  signedUpAt: field("signed_up_at", DateFromSeconds),
  isAnonymous: field("is_anonymous", Schema.Boolean),
  isRestricted: field("is_restricted", Schema.Boolean),
  restrictedReason: field("restricted_reason", Schema.NullOr(RestrictedReason)),
  requiresTotpMfa: field("requires_totp_mfa", Schema.Boolean),
  issuer: field("iss", Schema.String),
  audience: field("aud", Schema.String),
  issuedAt: field("iat", DateFromSeconds),
  expiresAt: field("exp", DateFromSeconds)
})

/** The claims of a verified access token. */
export type AccessTokenClaims = typeof AccessTokenClaims.Type

/** Which users a token is for, read from its audience. */
export type UserKind = "normal" | "restricted" | "anonymous"

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** Not a compact JWS with a JSON header and payload, an unsupported algorithm, or claims of the wrong shape. */
export class TokenMalformed extends Data.TaggedError("TokenMalformed")<{ readonly message: string }> {}

/** The signature does not verify with the key named by the token's `kid`. */
export class TokenSignatureInvalid extends Data.TaggedError("TokenSignatureInvalid")<{ readonly message: string }> {}

/**
 * The token expired (more than the 30 s tolerance ago). Only for a token whose signature verified
 * with the project's key: a forged or foreign token is refused for that, whatever its `exp`.
 */
export class TokenExpired extends Data.TaggedError("TokenExpired")<{
  readonly message: string
  readonly expiredAt: Date
}> {}

/** The audience is not this project's (another project's token, or a made-up one). */
export class TokenAudienceMismatch extends Data.TaggedError("TokenAudienceMismatch")<{
  readonly message: string
  readonly audience: string | null
}> {}

/** The issuer does not match the audience's expected issuer (other API base, other project). */
export class TokenIssuerMismatch extends Data.TaggedError("TokenIssuerMismatch")<{
  readonly message: string
  readonly expected: string
  readonly issuer: string | null
}> {}

/** A valid-looking token of an anonymous or restricted user, which this call does not allow. */
export class TokenUserNotAllowed extends Data.TaggedError("TokenUserNotAllowed")<{
  readonly message: string
  readonly userKind: "restricted" | "anonymous"
}> {}

/** The token's `kid` is not in the project's JWKS, even after a refetch (or within the refetch cooldown). */
export class TokenKeyUnknown extends Data.TaggedError("TokenKeyUnknown")<{
  readonly message: string
  readonly kid: string
}> {}

/** The key named by the token is an RSA key under 2048 bits (SPEC.md §9): refused. */
export class TokenKeyTooWeak extends Data.TaggedError("TokenKeyTooWeak")<{
  readonly message: string
  readonly kid: string
  readonly bits: number
}> {}

/** The JWKS could not be fetched or read (network, unknown project, malformed answer). */
export class JwksUnavailable extends Data.TaggedError("JwksUnavailable")<{
  readonly message: string
  readonly status: number | null
  readonly cause?: TransportError | undefined
}> {}

/** Every way {@link verifyAccessToken} can fail. */
export type VerifyAccessTokenError =
  | TokenMalformed
  | TokenSignatureInvalid
  | TokenExpired
  | TokenAudienceMismatch
  | TokenIssuerMismatch
  | TokenUserNotAllowed
  | TokenKeyUnknown
  | TokenKeyTooWeak
  | JwksUnavailable

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

/** Options of one verification. */
export interface VerifyOptions {
  /** Accept tokens of restricted users (e.g. e-mail not verified); default false. */
  readonly allowRestricted?: boolean | undefined
  /** Accept tokens of anonymous users (implies `allowRestricted`); default false. */
  readonly allowAnonymous?: boolean | undefined
}

/** Options of the service. */
export interface VerifierOptions {
  /**
   * The API base the service writes into `iss` (default: the `baseUrl` of `StackConfig`). Set it
   * when this server reaches the service under another address than the one clients use.
   */
  readonly issuerBaseUrl?: string | undefined
  /** Minimum time between two refetches caused by unknown key ids (default 30 s). */
  readonly refetchCooldown?: Duration.Input | undefined
  /** Clock tolerance for `exp` (default 30 s, SPEC.md §9). */
  readonly clockTolerance?: Duration.Input | undefined
  /**
   * The longest a JWKS fetch may take, the transport's retries included (default
   * {@link defaultJwksFetchTimeout}); past it the fetch fails with `JwksUnavailable`.
   */
  readonly fetchTimeout?: Duration.Input | undefined
  /**
   * After a failed fetch while no key set is held, how long verifications fail at once with that
   * failure instead of fetching again (default {@link defaultJwksFailureBackoff}).
   */
  readonly fetchFailureBackoff?: Duration.Input | undefined
  /**
   * How many verified tokens to remember (default {@link defaultVerifiedTokenCacheSize}; 0 turns
   * it off). A token seen again skips the signature check (its exact text was verified before);
   * expiry and the caller's allowances are still checked on every call, and the memory is dropped
   * whenever the key set is refetched, so a key removed from the JWKS stops verifying.
   */
  readonly verifiedTokenCacheSize?: number | undefined
}

/** The verifier service. */
export interface AccessTokenVerifierShape {
  /** Verifies an access token and returns its claims. */
  readonly verify: (
    token: string | Redacted.Redacted<string>,
    options?: VerifyOptions
  ) => Effect.Effect<AccessTokenClaims, VerifyAccessTokenError>
}

/** The verifier service (one JWKS cache per instance). */
export class AccessTokenVerifier extends Context.Service<AccessTokenVerifier, AccessTokenVerifierShape>()(
  "stack-auth-effect/AccessTokenVerifier"
) {}

/**
 * The claims of a JWT read without checking its signature (never a throw: `undefined` when the
 * token is not a compact JWS with a JSON object as payload). For routing and diagnostics only:
 * trust nothing in them before `verify` succeeds.
 */
export { unverifiedClaims }

/** Default clock tolerance: how far a token's `exp` / `nbf` may be off the local clock (30 s). */
export const defaultClockTolerance: Duration.Duration = Duration.seconds(30)

/** Default minimum time between refetches for unknown key ids. */
export const defaultRefetchCooldown: Duration.Duration = Duration.seconds(30)

/** Default bound on one JWKS fetch, retries included. */
export const defaultJwksFetchTimeout: Duration.Duration = Duration.seconds(10)

/** Default time a failed JWKS fetch (with no key set held) is answered from memory. */
export const defaultJwksFailureBackoff: Duration.Duration = Duration.seconds(5)

/** How long a JWKS is kept when the answer has no usable `max-age`. */
export const defaultJwksMaxAge: Duration.Duration = Duration.hours(1)

/** Default number of verified tokens remembered by a verifier. */
export const defaultVerifiedTokenCacheSize = 1000

/** The smallest RSA modulus accepted (SPEC.md §9). */
export const minimumRsaBits = 2048

type SupportedAlg = "ES256" | "RS256"

type KeyEntry =
  | { readonly _tag: "Usable"; readonly alg: SupportedAlg; readonly key: CryptoKey }
  | { readonly _tag: "Weak"; readonly bits: number }
  | { readonly _tag: "Unsupported"; readonly reason: string }

interface VerifiedEntry {
  /** The key set the token was verified with: the entry is used only while that set is current and fresh. */
  readonly keySet: KeySet
  readonly kind: UserKind
  readonly expSeconds: number
  readonly claims: AccessTokenClaims
}

interface KeySet {
  readonly keys: ReadonlyMap<string, KeyEntry> | undefined
  readonly fetchedAtMillis: number
  readonly expiresAtMillis: number
}

const JwksBody = Schema.Struct({ keys: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)) })

const kinds: ReadonlyArray<UserKind> = ["normal", "restricted", "anonymous"]

/** `iss` of a project's tokens for a kind of user. */
export const expectedIssuer = (apiBase: string, projectId: string, kind: UserKind): string =>
  `${apiBase}/api/v1/${kind === "anonymous" ? "projects-anonymous-users" : kind === "restricted" ? "projects-restricted-users" : "projects"}/${projectId}`

/** `aud` of a project's tokens for a kind of user. */
export const expectedAudience = (projectId: string, kind: UserKind): string =>
  kind === "anonymous" ? `${projectId}:anon` : kind === "restricted" ? `${projectId}:restricted` : projectId

/** Bits of an RSA modulus given as base64url (leading zero bits not counted). */
export const rsaModulusBits = (n: string): number => {
  const bytes = decodeBase64Url(n)
  let start = 0
  while (start < bytes.length && bytes[start] === 0) start++
  if (start === bytes.length) return 0
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(bytes[start]!))
}

const importKey = (jwk: Readonly<Record<string, unknown>>): Effect.Effect<KeyEntry> => {
  const unsupported = (reason: string): Effect.Effect<KeyEntry> => Effect.succeed({ _tag: "Unsupported", reason })
  if (jwk["kty"] === "EC") {
    if (jwk["crv"] !== "P-256" || (jwk["alg"] !== undefined && jwk["alg"] !== "ES256")) return unsupported("EC key other than ES256/P-256")
    return Effect.tryPromise(() => importJWK(jwk as JWK, "ES256")).pipe(
      Effect.map((key): KeyEntry => ({ _tag: "Usable", alg: "ES256", key: key as CryptoKey })),
      Effect.catch(() => unsupported("unreadable EC key"))
    )
  }
  if (jwk["kty"] === "RSA") {
    if (jwk["alg"] !== undefined && jwk["alg"] !== "RS256") return unsupported("RSA key other than RS256")
    if (typeof jwk["n"] !== "string") return unsupported("RSA key without modulus")
    const bits = Result.try(() => rsaModulusBits(jwk["n"] as string))
    if (Result.isFailure(bits)) return unsupported("unreadable RSA modulus")
    if (bits.success < minimumRsaBits) return Effect.succeed({ _tag: "Weak", bits: bits.success })
    return Effect.tryPromise(() => importJWK(jwk as JWK, "RS256")).pipe(
      Effect.map((key): KeyEntry => ({ _tag: "Usable", alg: "RS256", key: key as CryptoKey })),
      Effect.catch(() => unsupported("unreadable RSA key"))
    )
  }
  return unsupported("unsupported key type")
}

const maxAgeMillis = (cacheControl: string | undefined): number => {
  const match = cacheControl === undefined ? null : /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl)
  if (match === null) return Duration.toMillis(defaultJwksMaxAge)
  return Math.min(Number(match[1]) * 1000, Duration.toMillis(Duration.days(1)))
}

/**
 * A token's header (`jose`'s reader) and claims (the SDK's one claims reader, `jwtClaims.ts`, which
 * reads what `jose`'s `decodeJwt` reads), unverified; a failure for anything that is not a compact
 * JWS with a JSON object in both.
 */
const decodeSegment = (token: string) =>
  Result.flatMap(Result.try(() => decodeProtectedHeader(token)), (header) => {
    const payload = unverifiedClaims(token)
    return payload === undefined ? Result.fail(undefined) : Result.succeed({ header, payload })
  })

const decodeClaims = Schema.decodeUnknownResult(AccessTokenClaims)

/** Legacy tokens used camelCase `branchId` / `refreshTokenId` (PROTOCOL.md §2.3). */
const withCurrentNames = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const record: Record<string, unknown> = { ...payload }
  if (record["branch_id"] === undefined && record["branchId"] !== undefined) record["branch_id"] = record["branchId"]
  if (record["refresh_token_id"] === undefined && record["refreshTokenId"] !== undefined) {
    record["refresh_token_id"] = record["refreshTokenId"]
  }
  return record
}

/**
 * Builds a verifier over the transport: the JWKS comes from the configured project and API base.
 * The cache lives as long as the returned service.
 */
export const make = (options: VerifierOptions = {}): Effect.Effect<AccessTokenVerifierShape, never, StackClient> =>
  Effect.gen(function* () {
    const client = yield* StackClient
    const projectId = client.config.projectId
    const apiBase = (options.issuerBaseUrl ?? client.config.baseUrl).replace(/\/+$/, "")
    const cooldownMillis = Duration.toMillis(Duration.fromInputUnsafe(options.refetchCooldown ?? defaultRefetchCooldown))
    const toleranceSeconds = Duration.toMillis(Duration.fromInputUnsafe(options.clockTolerance ?? defaultClockTolerance)) / 1000
    const cacheSize = Math.max(0, Math.floor(options.verifiedTokenCacheSize ?? defaultVerifiedTokenCacheSize))
    const fetchTimeout = Duration.fromInputUnsafe(options.fetchTimeout ?? defaultJwksFetchTimeout)
    const backoffMillis = Duration.toMillis(Duration.fromInputUnsafe(options.fetchFailureBackoff ?? defaultJwksFailureBackoff))
    // token text → verified claims; insertion order is recency (a hit moves the entry to the end)
    const verified = new Map<string, VerifiedEntry>()
    const empty: KeySet = { keys: undefined, fetchedAtMillis: 0, expiresAtMillis: 0 }
    // the current key set per kind; replaced (never mutated) by the fetch of that kind
    const sets: Record<UserKind, KeySet> = { normal: empty, restricted: empty, anonymous: empty }
    // the fetch in flight per kind, shared by every verification that needs it
    const inFlight: Record<UserKind, Deferred.Deferred<KeySet, JwksUnavailable> | undefined> = {
      normal: undefined,
      restricted: undefined,
      anonymous: undefined
    }
    // the last failed fetch per kind while no key set is held: answered until `retryAtMillis`
    const lastFailure: Record<UserKind, { readonly error: JwksUnavailable; readonly retryAtMillis: number } | undefined> = {
      normal: undefined,
      restricted: undefined,
      anonymous: undefined
    }
    const expected = Object.fromEntries(
      kinds.map((kind) => [kind, { issuer: expectedIssuer(apiBase, projectId, kind), audience: expectedAudience(projectId, kind) }])
    ) as Record<UserKind, { readonly issuer: string; readonly audience: string }>

    const jwksPath = (kind: UserKind) =>
      `/projects/${encodeURIComponent(projectId)}/.well-known/jwks.json${
        kind === "anonymous" ? "?include_anonymous=true" : kind === "restricted" ? "?include_restricted=true" : ""
      }`

    const fetchKeys = (kind: UserKind, nowMillis: number): Effect.Effect<KeySet, JwksUnavailable> =>
      Effect.gen(function* () {
        const response = yield* client.send({ method: "GET", path: jwksPath(kind), access: "none" }).pipe(
          Effect.mapError(
            (cause) => new JwksUnavailable({ message: `Could not fetch the JWKS of project ${projectId}: ${cause.message}`, status: null, cause })
          )
        )
        if (response.status !== 200) {
          return yield* new JwksUnavailable({
            message: `The JWKS of project ${projectId} answered ${response.status}`,
            status: response.status
          })
        }
        const body = Result.try(() => JSON.parse(response.text) as unknown).pipe(Result.flatMap(Schema.decodeUnknownResult(JwksBody)))
        if (Result.isFailure(body)) {
          return yield* new JwksUnavailable({ message: `The JWKS of project ${projectId} is not a key set`, status: response.status })
        }
        const keys = new Map<string, KeyEntry>()
        for (const jwk of body.success.keys) {
          const kid = jwk["kid"]
          if (typeof kid !== "string" || keys.has(kid)) continue
          keys.set(kid, yield* importKey(jwk))
        }
        verified.clear()
        return { keys, fetchedAtMillis: nowMillis, expiresAtMillis: nowMillis + maxAgeMillis(response.headers["cache-control"]) }
      }).pipe(Effect.withSpan("AccessTokenVerifier.fetchJwks", { attributes: { "stack.user_kind": kind } }))

    /** Stores the outcome of a fetch: the new set, the held set kept for a cooldown, or the failure for the back-off. */
    const settle = (kind: UserKind, fetched: Result.Result<KeySet, JwksUnavailable>): Effect.Effect<KeySet, JwksUnavailable> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (Result.isSuccess(fetched)) {
          sets[kind] = fetched.success
          lastFailure[kind] = undefined
          return Effect.succeed(fetched.success)
        }
        const current = sets[kind]
        if (current.keys === undefined) {
          lastFailure[kind] = { error: fetched.failure, retryAtMillis: now + backoffMillis }
          return Effect.fail(fetched.failure)
        }
        // keep serving the keys we have; try again after the cooldown
        const kept: KeySet = {
          ...current,
          fetchedAtMillis: now,
          expiresAtMillis: Math.max(current.expiresAtMillis, now + cooldownMillis)
        }
        sets[kind] = kept
        return Effect.succeed(kept)
      })

    /**
     * The key set after a fetch: the fetch in flight for this kind (its `Deferred`), or a new one.
     * The fetch runs in a detached fiber (`Effect.forkDetach`) bounded by the fetch timeout, so no
     * waiter's interruption cancels it for the others and no fiber outlives it. Check and start
     * happen in one synchronous step.
     */
    const refetch = (kind: UserKind): Effect.Effect<KeySet, JwksUnavailable> =>
      Effect.flatMap(
        Effect.uninterruptible(
          Effect.suspend(() => {
            const running = inFlight[kind]
            if (running !== undefined) return Effect.succeed(running)
            const deferred = Deferred.makeUnsafe<KeySet, JwksUnavailable>()
            inFlight[kind] = deferred
            const fetch = Clock.currentTimeMillis.pipe(
              Effect.flatMap((now) => fetchKeys(kind, now)),
              Effect.timeoutOrElse({
                duration: fetchTimeout,
                orElse: () =>
                  Effect.fail(
                    new JwksUnavailable({
                      message: `The JWKS of project ${projectId} did not answer within ${Duration.format(fetchTimeout)}`,
                      status: null
                    })
                  )
              }),
              Effect.result,
              Effect.flatMap((fetched) => settle(kind, fetched)),
              Effect.onExit((exit) =>
                Effect.suspend(() => {
                  if (inFlight[kind] === deferred) inFlight[kind] = undefined
                  return Deferred.done(deferred, exit)
                })
              ),
              Effect.ignore
            )
            return Effect.as(Effect.forkDetach(fetch), deferred)
          })
        ),
        Deferred.await
      )

    /** The key for `kid`: from the cache, else after a shared, rate-limited fetch. */
    const keyFor = (kind: UserKind, kid: string): Effect.Effect<readonly [Option.Option<KeyEntry>, KeySet], JwksUnavailable> =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const cached = sets[kind]
        const fresh = cached.keys !== undefined && now < cached.expiresAtMillis
        const hit = cached.keys?.get(kid)
        if (fresh && hit !== undefined) return [Option.some(hit), cached] as const
        // a fresh set without this kid: refetch only once the cooldown has passed
        if (fresh && now - cached.fetchedAtMillis < cooldownMillis) return [Option.none<KeyEntry>(), cached] as const
        // no key set yet and the last fetch failed: answer that failure until the back-off has passed
        const failed = lastFailure[kind]
        if (cached.keys === undefined && failed !== undefined && now < failed.retryAtMillis) return yield* Effect.fail(failed.error)
        const set = yield* refetch(kind)
        return [Option.fromNullishOr(set.keys?.get(kid)), set] as const
      })

    const notAllowed = (kind: UserKind, verifyOptions: VerifyOptions): TokenUserNotAllowed | undefined => {
      const allowAnonymous = verifyOptions.allowAnonymous === true
      const allowRestricted = allowAnonymous || verifyOptions.allowRestricted === true
      return (kind === "anonymous" && !allowAnonymous) || (kind === "restricted" && !allowRestricted)
        ? new TokenUserNotAllowed({
          message: `The access token belongs to ${kind === "anonymous" ? "an anonymous" : "a restricted"} user, which this call does not allow.`,
          userKind: kind
        })
        : undefined
    }

    const expired = (expSeconds: number, nowMillis: number): TokenExpired | undefined =>
      expSeconds + toleranceSeconds <= nowMillis / 1000
        ? new TokenExpired({ message: "The access token has expired.", expiredAt: new Date(expSeconds * 1000) })
        : undefined

    const remember = (text: string, entry: VerifiedEntry): void => {
      if (cacheSize === 0) return
      if (verified.size >= cacheSize) {
        const oldest = verified.keys().next()
        if (oldest.done !== true) verified.delete(oldest.value)
      }
      verified.set(text, entry)
    }

    /** A token verified before with the key set still current: no signature check, no span. */
    const fromMemory = (
      text: string,
      seen: VerifiedEntry,
      verifyOptions: VerifyOptions
    ): Effect.Effect<AccessTokenClaims, VerifyAccessTokenError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (sets[seen.kind] !== seen.keySet || now >= seen.keySet.expiresAtMillis) {
          verified.delete(text)
          return verifyFully(text, verifyOptions)
        }
        verified.delete(text)
        verified.set(text, seen)
        const failure = notAllowed(seen.kind, verifyOptions) ?? expired(seen.expSeconds, now)
        return failure === undefined ? Effect.succeed(seen.claims) : Effect.fail(failure)
      })

    const verify = (
      token: string | Redacted.Redacted<string>,
      verifyOptions: VerifyOptions = {}
    ): Effect.Effect<AccessTokenClaims, VerifyAccessTokenError> =>
      Effect.suspend(() => {
        const text = Redacted.isRedacted(token) ? Redacted.value(token) : token
        const seen = typeof text === "string" ? verified.get(text) : undefined
        return seen !== undefined ? fromMemory(text, seen, verifyOptions) : verifyFully(text, verifyOptions)
      })

    const verifyFully = (text: string, verifyOptions: VerifyOptions): Effect.Effect<AccessTokenClaims, VerifyAccessTokenError> =>
      Effect.gen(function* () {
        const decoded = typeof text === "string" && text.length > 0 ? decodeSegment(text) : Result.fail(undefined)
        if (Result.isFailure(decoded)) {
          return yield* new TokenMalformed({ message: "The access token is not a JWT (compact JWS with a JSON header and payload)." })
        }
        const { header, payload } = decoded.success
        const alg = header.alg
        if (alg !== "ES256" && alg !== "RS256") {
          return yield* new TokenMalformed({ message: `The access token uses the unsupported algorithm ${String(alg).slice(0, 32)}.` })
        }
        if (typeof header.kid !== "string" || header.kid.length === 0 || header.kid.length > 256) {
          return yield* new TokenMalformed({ message: "The access token's header has no usable key id (kid)." })
        }
        const kid = header.kid

        // audience and issuer first: no network for another project's tokens
        const audience = typeof payload["aud"] === "string" ? payload["aud"] : null
        const kind = kinds.find((candidate) => expected[candidate].audience === audience)
        if (kind === undefined) {
          return yield* new TokenAudienceMismatch({
            message: `The access token's audience is not project ${projectId}.`,
            audience
          })
        }
        const issuer = typeof payload["iss"] === "string" ? payload["iss"] : null
        if (issuer !== expected[kind].issuer) {
          return yield* new TokenIssuerMismatch({
            message: `The access token's issuer is not ${expected[kind].issuer}.`,
            expected: expected[kind].issuer,
            issuer
          })
        }
        const refused = notAllowed(kind, verifyOptions)
        if (refused !== undefined) return yield* refused
        const exp = payload["exp"]
        if (typeof exp !== "number") {
          return yield* new TokenMalformed({ message: "The access token has no expiry (exp)." })
        }

        const [entry, keySet] = yield* keyFor(kind, kid)
        if (Option.isNone(entry) || entry.value._tag === "Unsupported") {
          return yield* new TokenKeyUnknown({ message: `No usable key ${kid} in the JWKS of project ${projectId}.`, kid })
        }
        if (entry.value._tag === "Weak") {
          return yield* new TokenKeyTooWeak({
            message: `Key ${kid} is an RSA key of ${entry.value.bits} bits; at least ${minimumRsaBits} are required.`,
            kid,
            bits: entry.value.bits
          })
        }
        const key = entry.value
        if (key.alg !== alg) {
          return yield* new TokenSignatureInvalid({ message: `Key ${kid} is not a ${alg} key.` })
        }
        yield* Effect.tryPromise({
          try: () => compactVerify(text, key.key, { algorithms: [alg] }),
          catch: () => new TokenSignatureInvalid({ message: "The access token's signature does not verify." })
        })
        // expiry only once the signature checked: a forged token is never "expired" (a client told
        // so would refresh and retry, and an attack would count as an expiry)
        const late = expired(exp, yield* Clock.currentTimeMillis)
        if (late !== undefined) return yield* late
        const claims = decodeClaims(withCurrentNames(payload))
        if (Result.isFailure(claims)) {
          return yield* new TokenMalformed({ message: "The access token's claims do not have the service's shape." })
        }
        remember(text, { keySet, kind, expSeconds: exp, claims: claims.success })
        return claims.success
      }).pipe(Effect.withSpan("AccessTokenVerifier.verify"))

    return { verify } satisfies AccessTokenVerifierShape
  })

/** The verifier as a layer (its own JWKS cache); needs the transport (`StackClient`). */
export const layer = (options: VerifierOptions = {}): Layer.Layer<AccessTokenVerifier, never, StackClient> => Layer.effect(AccessTokenVerifier, make(options))

/**
 * Verifies a user's access token locally against the project's JWKS (cached by the
 * {@link AccessTokenVerifier} service; `GET /api/v1/projects/{id}/.well-known/jwks.json` only on
 * the first use, an unknown key id, or when the cached set is older than its `max-age`) and
 * returns its claims. Fails with `TokenMalformed`, `TokenSignatureInvalid`, `TokenExpired`
 * (30 s tolerance), `TokenAudienceMismatch`, `TokenIssuerMismatch`, `TokenUserNotAllowed`
 * (restricted / anonymous users unless allowed), `TokenKeyUnknown`, `TokenKeyTooWeak` (RSA under
 * 2048 bits) or `JwksUnavailable`.
 */
export const verifyAccessToken = (
  token: string | Redacted.Redacted<string>,
  options?: VerifyOptions
): Effect.Effect<AccessTokenClaims, VerifyAccessTokenError, AccessTokenVerifier> =>
  // not an `Effect.fn`: a remembered token is answered without a span (the hot path of a backend);
  // the full verification has its own span, `AccessTokenVerifier.verify`
  Effect.flatMap(AccessTokenVerifier, (verifier) => verifier.verify(token, options))
