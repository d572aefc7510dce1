/**
 * `AccessTokenVerifier.verifyAccessToken` against the in-process emulator: tokens it issues
 * verify; tampered, expired, other-project, wrong-issuer and not-allowed tokens fail with their
 * tag; the JWKS is fetched once for 1,000 verifications; an unknown kid costs one refetch per
 * cooldown; weak RSA keys are refused; a failing JWKS costs one request per back-off, shared by
 * every waiting verification, and a silent one is bounded by the fetch timeout. Time comes from
 * `TestClock`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option, Redacted } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import { TestClock } from "effect/testing"
import * as jose from "jose"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Password from "../../src/auth/Password.js"
import * as Emulator from "../../src/emulator/index.js"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { makeFiberCount } from "../support/fibers.js"

const apiBase = "https://api.stack-auth.com"

/** The emulator's in-process client, counting JWKS requests (by query). */
const countingEmulatorClient = (emulator: Emulator.Emulator) => {
  const fetches: Array<string> = []
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request) =>
        Effect.sync(() => {
          if (request.url.includes("/.well-known/jwks.json")) fetches.push(request.url)
        })))
  ).pipe(Layer.provide(Emulator.layerHttpClient(emulator)))
  return { layer, fetches }
}

const setup = (options: { readonly projectId?: string; readonly verifier?: AccessTokenVerifier.VerifierOptions } = {}) =>
  Effect.gen(function* () {
    const emulator = yield* Emulator.make({ passwordHashIterations: 1000 })
    const http = countingEmulatorClient(emulator)
    const stack = Stack.layerServer({
      projectId: options.projectId ?? emulator.demo.projectId,
      secretServerKey: emulator.demo.secretServerKey,
      httpClient: http.layer
    })
    const layer = Layer.provideMerge(AccessTokenVerifier.layer(options.verifier), stack)
    return { emulator, layer, fetches: http.fetches }
  })

const currentAccessToken = Effect.gen(function* () {
  const session = yield* Session
  const tokens = yield* session.current
  return Redacted.value(Option.getOrThrow(tokens.accessToken))
})

let counter = 0
const signUp = Effect.gen(function* () {
  counter += 1
  const { userId } = yield* Password.signUpWithPassword({
    email: `verify-${counter}@example.com`,
    password: "correct horse battery",
    noVerificationCallback: true
  })
  return { userId, token: yield* currentAccessToken }
})

const verifyFlip = (token: string, options?: AccessTokenVerifier.VerifyOptions) => Effect.flip(AccessTokenVerifier.verifyAccessToken(token, options))

describe("verifyAccessToken with the emulator's tokens", () => {
  it.effect("a token the emulator issued verifies and yields its typed claims", () =>
    Effect.gen(function* () {
      const { emulator, layer, fetches } = yield* setup()
      yield* Effect.gen(function* () {
        const { userId, token } = yield* signUp
        const claims = yield* AccessTokenVerifier.verifyAccessToken(token)
        expect(claims.userId).toBe(userId)
        expect(claims.projectId).toBe(emulator.demo.projectId)
        expect(claims.audience).toBe(emulator.demo.projectId)
        expect(claims.issuer).toBe(`${apiBase}/api/v1/projects/${emulator.demo.projectId}`)
        expect(claims.branchId).toBe("main")
        expect(claims.role).toBe("authenticated")
        expect(claims.primaryEmail).toBe(`verify-${counter}@example.com`)
        expect(claims.isAnonymous).toBe(false)
        expect(claims.isRestricted).toBe(false)
        expect(claims.restrictedReason).toBeNull()
        expect(claims.expiresAt).toBeInstanceOf(Date)
        expect(claims.expiresAt.getTime() - claims.issuedAt.getTime()).toBe(600_000)
        // a Redacted token works the same way
        const again = yield* AccessTokenVerifier.verifyAccessToken(Redacted.make(token))
        expect(again.refreshTokenId).toBe(claims.refreshTokenId)
      }).pipe(Effect.provide(layer))
      expect(fetches).toEqual([`${apiBase}/api/v1/projects/${emulator.demo.projectId}/.well-known/jwks.json`])
    }))

  it.effect("a tampered payload is TokenSignatureInvalid; garbage and alg none are TokenMalformed; no token text in messages", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      yield* Effect.gen(function* () {
        const { token } = yield* signUp
        const [header, payload, signature] = token.split(".") as [string, string, string]
        const claims = JSON.parse(new TextDecoder().decode(jose.base64url.decode(payload))) as Record<string, unknown>
        const forged = `${header}.${jose.base64url.encode(JSON.stringify({ ...claims, sub: "00000000-0000-4000-8000-000000000000" }))}.${signature}`
        const tampered = yield* verifyFlip(forged)
        expect(tampered._tag).toBe("TokenSignatureInvalid")
        const badSignature = yield* verifyFlip(`${header}.${payload}.${signature.slice(0, -4)}AAAA`)
        expect(badSignature._tag).toBe("TokenSignatureInvalid")

        const garbage = yield* verifyFlip("not-a-jwt")
        expect(garbage._tag).toBe("TokenMalformed")
        expect((yield* verifyFlip(""))._tag).toBe("TokenMalformed")
        const none = `${jose.base64url.encode(JSON.stringify({ alg: "none", kid: "x" }))}.${payload}.`
        const unsigned = yield* verifyFlip(none)
        expect(unsigned._tag).toBe("TokenMalformed")
        expect(unsigned.message).toContain("none")
        const hs256 = yield* Effect.promise(() =>
          new jose.SignJWT(claims as jose.JWTPayload).setProtectedHeader({ alg: "HS256", kid: "x" }).sign(new TextEncoder().encode("k".repeat(32)))
        )
        expect((yield* verifyFlip(hs256))._tag).toBe("TokenMalformed")
        for (const error of [tampered, badSignature, garbage, unsigned]) {
          expect(error.message).not.toContain(payload)
          expect(error.message).not.toContain(signature)
        }
      }).pipe(Effect.provide(layer))
    }))

  it.effect("expiry: valid until exp + 30 s of tolerance (TestClock), then TokenExpired with the expiry date", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      yield* Effect.gen(function* () {
        const { token } = yield* signUp
        const issued = yield* AccessTokenVerifier.verifyAccessToken(token)
        const exp = issued.expiresAt.getTime()
        yield* TestClock.setTime(exp + 29_000)
        expect((yield* AccessTokenVerifier.verifyAccessToken(token)).userId).toBe(issued.userId)
        yield* TestClock.setTime(exp + 30_000)
        const expired = yield* verifyFlip(token)
        expect(expired._tag).toBe("TokenExpired")
        if (expired._tag === "TokenExpired") expect(expired.expiredAt.getTime()).toBe(exp)
      }).pipe(Effect.provide(layer))
    }))

  it.effect("only a token whose signature verified is TokenExpired: a forged token whose exp has passed is TokenSignatureInvalid", () =>
    Effect.gen(function* () {
      const { layer } = yield* setup()
      yield* Effect.gen(function* () {
        const { token } = yield* signUp
        const header = jose.decodeProtectedHeader(token)
        const claims = jose.decodeJwt(token)
        const { privateKey } = yield* Effect.promise(() => jose.generateKeyPair("ES256"))
        // the service's own key id and claims, signed with an attacker's key
        const forged = yield* Effect.promise(() => new jose.SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: header.kid! }).sign(privateKey))
        yield* TestClock.setTime((claims.exp! + 3600) * 1000)
        expect((yield* verifyFlip(forged))._tag).toBe("TokenSignatureInvalid")
        // the genuine token at the same time: expired
        expect((yield* verifyFlip(token))._tag).toBe("TokenExpired")
      }).pipe(Effect.provide(layer))
    }))

  it.effect("another project's token is TokenAudienceMismatch without a JWKS request; a wrong API base is TokenIssuerMismatch", () =>
    Effect.gen(function* () {
      const { emulator, layer, fetches } = yield* setup()
      const other = yield* emulator.createProject({ config: { signUpEnabled: true, credentialEnabled: true } })
      const otherToken = yield* Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: "other@example.com", password: "correct horse battery", noVerificationCallback: true })
        return yield* currentAccessToken
      }).pipe(Effect.provide(Stack.layerClient({ projectId: other.projectId, httpClient: Emulator.layerHttpClient(emulator) })))
      const { token } = yield* signUp.pipe(Effect.provide(layer))
      const mismatch = yield* verifyFlip(otherToken).pipe(Effect.provide(layer))
      expect(mismatch._tag).toBe("TokenAudienceMismatch")
      if (mismatch._tag === "TokenAudienceMismatch") expect(mismatch.audience).toBe(other.projectId)
      expect(fetches).toHaveLength(0)

      const otherBase = Layer.provideMerge(
        AccessTokenVerifier.layer({ issuerBaseUrl: "https://auth.example.com/" }),
        Stack.layerClient({ projectId: emulator.demo.projectId, httpClient: Emulator.layerHttpClient(emulator) })
      )
      const wrongIssuer = yield* verifyFlip(token).pipe(Effect.provide(otherBase))
      expect(wrongIssuer._tag).toBe("TokenIssuerMismatch")
      if (wrongIssuer._tag === "TokenIssuerMismatch") {
        expect(wrongIssuer.expected).toBe(`https://auth.example.com/api/v1/projects/${emulator.demo.projectId}`)
        expect(wrongIssuer.issuer).toBe(`${apiBase}/api/v1/projects/${emulator.demo.projectId}`)
      }
    }))

  it.effect("anonymous users: TokenUserNotAllowed unless allowAnonymous; then verified with the anonymous key set", () =>
    Effect.gen(function* () {
      const { emulator, layer, fetches } = yield* setup()
      yield* Effect.gen(function* () {
        const { userId } = yield* Anonymous.signUp()
        const token = yield* currentAccessToken
        const refused = yield* verifyFlip(token)
        expect(refused._tag).toBe("TokenUserNotAllowed")
        if (refused._tag === "TokenUserNotAllowed") expect(refused.userKind).toBe("anonymous")
        expect((yield* verifyFlip(token, { allowRestricted: true }))._tag).toBe("TokenUserNotAllowed")
        expect(fetches).toHaveLength(0)
        const claims = yield* AccessTokenVerifier.verifyAccessToken(token, { allowAnonymous: true })
        expect(claims.userId).toBe(userId)
        expect(claims.isAnonymous).toBe(true)
        expect(claims.isRestricted).toBe(true)
        expect(claims.restrictedReason).toEqual({ type: "anonymous" })
        expect(claims.audience).toBe(`${emulator.demo.projectId}:anon`)
        expect(claims.issuer).toBe(`${apiBase}/api/v1/projects-anonymous-users/${emulator.demo.projectId}`)
        // once verified (and remembered), the allowance is still checked on every call
        expect((yield* verifyFlip(token))._tag).toBe("TokenUserNotAllowed")
      }).pipe(Effect.provide(layer))
      expect(fetches).toEqual([`${apiBase}/api/v1/projects/${emulator.demo.projectId}/.well-known/jwks.json?include_anonymous=true`])
    }))

  it.effect("restricted users: TokenUserNotAllowed unless allowRestricted (or allowAnonymous)", () =>
    Effect.gen(function* () {
      const { emulator, layer } = yield* setup()
      yield* Effect.gen(function* () {
        const { userId } = yield* signUp
        yield* ServerUsers.update(userId, { restrictedByAdmin: true })
        const session = yield* Session
        yield* session.refresh
        const token = yield* currentAccessToken
        const refused = yield* verifyFlip(token)
        expect(refused._tag).toBe("TokenUserNotAllowed")
        if (refused._tag === "TokenUserNotAllowed") expect(refused.userKind).toBe("restricted")
        const claims = yield* AccessTokenVerifier.verifyAccessToken(token, { allowRestricted: true })
        expect(claims.isRestricted).toBe(true)
        expect(claims.restrictedReason).toEqual({ type: "restricted_by_administrator" })
        expect(claims.audience).toBe(`${emulator.demo.projectId}:restricted`)
        expect(claims.issuer).toBe(`${apiBase}/api/v1/projects-restricted-users/${emulator.demo.projectId}`)
        expect((yield* AccessTokenVerifier.verifyAccessToken(token, { allowAnonymous: true })).userId).toBe(userId)
      }).pipe(Effect.provide(layer))
    }))

  it.effect("1,000 concurrent verifications fetch the JWKS once", () =>
    Effect.gen(function* () {
      const { layer, fetches } = yield* setup()
      yield* Effect.gen(function* () {
        const tokens = yield* Effect.forEach([1, 2, 3, 4], () => signUp.pipe(Effect.map((s) => s.token)))
        const results = yield* Effect.forEach(
          Array.from({ length: 1000 }, (_, i) => tokens[i % tokens.length]!),
          (token) => AccessTokenVerifier.verifyAccessToken(token),
          { concurrency: "unbounded" }
        )
        expect(results).toHaveLength(1000)
      }).pipe(Effect.provide(layer))
      expect(fetches).toHaveLength(1)
    }))

  it.effect("an unknown kid: no refetch within the cooldown, one refetch after it, then none for a flood of made-up kids", () =>
    Effect.gen(function* () {
      const { emulator, layer, fetches } = yield* setup()
      const { privateKey } = yield* Effect.promise(() => jose.generateKeyPair("ES256"))
      yield* Effect.gen(function* () {
        const { token } = yield* signUp
        const claims = jose.decodeJwt(token)
        const forge = (kid: string) => Effect.promise(() => new jose.SignJWT(claims).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey))
        yield* AccessTokenVerifier.verifyAccessToken(token)
        expect(fetches).toHaveLength(1)
        const early = yield* verifyFlip(yield* forge("madeupkid001"))
        expect(early._tag).toBe("TokenKeyUnknown")
        expect(fetches).toHaveLength(1)
        yield* TestClock.adjust("31 seconds")
        const late = yield* verifyFlip(yield* forge("madeupkid002"))
        expect(late._tag).toBe("TokenKeyUnknown")
        if (late._tag === "TokenKeyUnknown") expect(late.kid).toBe("madeupkid002")
        expect(fetches).toHaveLength(2)
        const flood = yield* Effect.forEach(
          Array.from({ length: 200 }, (_, i) => `flood${i}`),
          (kid) => Effect.flatMap(forge(kid), (forged) => verifyFlip(forged)),
          { concurrency: 20 }
        )
        expect(flood.every((error) => error._tag === "TokenKeyUnknown")).toBe(true)
        expect(fetches).toHaveLength(2)
        // the real key still verifies from the cache
        expect((yield* AccessTokenVerifier.verifyAccessToken(token)).projectId).toBe(emulator.demo.projectId)
        expect(fetches).toHaveLength(2)
      }).pipe(Effect.provide(layer))
    }))

  it.effect("an unknown project is JwksUnavailable with the 404", () =>
    Effect.gen(function* () {
      const unknownProject = "3f1c0b8e-5a53-4d8e-9a0e-6d3b2f9c1a77"
      const { layer } = yield* setup({ projectId: unknownProject })
      const { privateKey } = yield* Effect.promise(() => jose.generateKeyPair("ES256"))
      const forged = yield* Effect.promise(() =>
        new jose.SignJWT({ sub: "x", aud: unknownProject, iss: `${apiBase}/api/v1/projects/${unknownProject}`, exp: 600 })
          .setProtectedHeader({ alg: "ES256", kid: "somekid00001" })
          .sign(privateKey)
      )
      const error = yield* verifyFlip(forged).pipe(Effect.provide(layer))
      expect(error._tag).toBe("JwksUnavailable")
      if (error._tag === "JwksUnavailable") expect(error.status).toBe(404)
    }))
})

// ---------------------------------------------------------------------------------------------
// Key sets served by the test itself: rotation, RSA keys
// ---------------------------------------------------------------------------------------------

const projectId = "5b8f2a8e-2f4c-4c1d-9d0a-2b7e6c1f0a11"
const baseUrl = "https://keys.example.com"

/** An HttpClient answering the JWKS with whatever `keys()` returns at that moment. */
const jwksServer = (keys: () => ReadonlyArray<jose.JWK>, maxAgeSeconds = 3600) => {
  let requests = 0
  const layer = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.sync(() => {
        requests += 1
        return HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify({ keys: keys() }), {
            status: 200,
            headers: { "content-type": "application/json", "cache-control": `public, max-age=${maxAgeSeconds}` }
          })
        )
      })
    )
  )
  return { layer, requests: () => requests }
}

const verifierOver = (http: Layer.Layer<HttpClient.HttpClient>) =>
  Layer.provideMerge(AccessTokenVerifier.layer(), Stack.layerClient({ projectId, baseUrl, httpClient: http }))

const sign = (alg: "ES256" | "RS256", kid: string, key: CryptoKey, nowSeconds = 0) =>
  Effect.promise(() =>
    new jose.SignJWT({
      sub: "0b4a6f8e-1c2d-4e3f-8a9b-0c1d2e3f4a5b",
      project_id: projectId,
      branch_id: "main",
      refresh_token_id: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
      role: "authenticated",
      name: null,
      email: "keys@example.com",
      email_verified: true,
      selected_team_id: null,
      signed_up_at: nowSeconds,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
      iss: `${baseUrl}/api/v1/projects/${projectId}`,
      iat: nowSeconds,
      aud: projectId,
      exp: nowSeconds + 600
    })
      .setProtectedHeader({ alg, kid })
      .sign(key)
  )

const jwkOf = (key: CryptoKey, kid: string, alg: string) => Effect.promise(async () => ({ ...(await jose.exportJWK(key)), kid, alg }))

describe("verifyAccessToken with key sets of the test", () => {
  it.effect("a key rotated in after the first fetch is found by exactly one refetch", () =>
    Effect.gen(function* () {
      const first = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const second = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const published: Array<jose.JWK> = [yield* jwkOf(first.publicKey, "first", "ES256")]
      const server = jwksServer(() => published)
      yield* Effect.gen(function* () {
        yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "first", first.privateKey))
        expect(server.requests()).toBe(1)
        published.push(yield* jwkOf(second.publicKey, "second", "ES256"))
        yield* TestClock.adjust("30 seconds")
        const claims = yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "second", second.privateKey, 30))
        expect(claims.primaryEmail).toBe("keys@example.com")
        expect(server.requests()).toBe(2)
        yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "second", second.privateKey, 30))
        yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "first", first.privateKey, 30))
        expect(server.requests()).toBe(2)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("the cached key set is refetched once its max-age has passed", () =>
    Effect.gen(function* () {
      const pair = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const jwk = yield* jwkOf(pair.publicKey, "k1", "ES256")
      const server = jwksServer(() => [jwk])
      yield* Effect.gen(function* () {
        yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "k1", pair.privateKey))
        yield* TestClock.adjust("3599 seconds")
        yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "k1", pair.privateKey, 3599))
        expect(server.requests()).toBe(1)
        yield* TestClock.adjust("1 second")
        yield* AccessTokenVerifier.verifyAccessToken(yield* sign("ES256", "k1", pair.privateKey, 3600))
        expect(server.requests()).toBe(2)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("a remembered token stops verifying once a refetch (after max-age) no longer publishes its key", () =>
    Effect.gen(function* () {
      const old = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const next = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      let published: Array<jose.JWK> = [yield* jwkOf(old.publicKey, "old", "ES256")]
      const server = jwksServer(() => published, 60)
      yield* Effect.gen(function* () {
        const token = yield* sign("ES256", "old", old.privateKey)
        yield* AccessTokenVerifier.verifyAccessToken(token)
        yield* AccessTokenVerifier.verifyAccessToken(token)
        expect(server.requests()).toBe(1)
        published = [yield* jwkOf(next.publicKey, "next", "ES256")]
        yield* TestClock.adjust("61 seconds")
        const revoked = yield* verifyFlip(token)
        expect(revoked._tag).toBe("TokenKeyUnknown")
        expect(server.requests()).toBe(2)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("RSA: a 1024-bit key is TokenKeyTooWeak; a 2048-bit RS256 key verifies; an ES256 token naming an RSA key fails", () =>
    Effect.gen(function* () {
      const weak = yield* Effect.promise(() => jose.generateKeyPair("RS256", { modulusLength: 1024, extractable: true }).catch(() => undefined))
      const strong = yield* Effect.promise(() => jose.generateKeyPair("RS256", { modulusLength: 2048, extractable: true }))
      const ec = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const keys: Array<jose.JWK> = [yield* jwkOf(strong.publicKey, "strong", "RS256")]
      // jose refuses to sign with a short RSA key, so the weak key is only published (WebCrypto made it)
      const weakPair = weak ??
        (yield* Effect.promise(() =>
          crypto.subtle.generateKey(
            { name: "RSASSA-PKCS1-v1_5", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
            true,
            ["sign", "verify"]
          )
        ))
      keys.push(yield* jwkOf(weakPair.publicKey, "weak", "RS256"))
      const server = jwksServer(() => keys)
      yield* Effect.gen(function* () {
        const ok = yield* AccessTokenVerifier.verifyAccessToken(yield* sign("RS256", "strong", strong.privateKey))
        expect(ok.projectId).toBe(projectId)
        // a token naming the weak key (its signature is irrelevant: the key is refused first)
        const strongToken = yield* sign("RS256", "strong", strong.privateKey)
        const [, payload, signature] = strongToken.split(".") as [string, string, string]
        const weakHeader = jose.base64url.encode(JSON.stringify({ alg: "RS256", kid: "weak" }))
        const tooWeak = yield* verifyFlip(`${weakHeader}.${payload}.${signature}`)
        expect(tooWeak._tag).toBe("TokenKeyTooWeak")
        if (tooWeak._tag === "TokenKeyTooWeak") expect(tooWeak.bits).toBe(1024)
        const mixed = yield* verifyFlip(yield* sign("ES256", "strong", ec.privateKey))
        expect(mixed._tag).toBe("TokenSignatureInvalid")
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it("rsaModulusBits counts bits, not bytes", () => {
    expect(AccessTokenVerifier.rsaModulusBits(jose.base64url.encode(new Uint8Array([0x00, 0x80, 0, 0])))).toBe(24)
    expect(AccessTokenVerifier.rsaModulusBits(jose.base64url.encode(new Uint8Array([0x01, 0xff])))).toBe(9)
    expect(AccessTokenVerifier.rsaModulusBits(jose.base64url.encode(new Uint8Array(256).fill(0xff)))).toBe(2048)
  })
})

// ---------------------------------------------------------------------------------------------
// JWKS fetch failures: one shared fetch, a back-off after a failure, a bound on waiting
// ---------------------------------------------------------------------------------------------

/** An HttpClient whose every answer comes from `answer` (which may wait); counts requests. */
const scriptedJwks = (answer: () => Promise<Response>) => {
  let requests = 0
  const layer = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.flatMap(
        Effect.sync(() => void (requests += 1)),
        () => Effect.map(Effect.promise(answer), (response) => HttpClientResponse.fromWeb(request, response))
      )
    )
  )
  return { layer, requests: () => requests }
}

/** A promise the test opens. */
const gate = () => {
  let open: () => void = () => {}
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open: () => open() }
}

const realPause = (millis = 2) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

/** Waits (real time) until `condition` holds. */
const until = (condition: () => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 500 && !condition(); i++) yield* realPause(2)
    expect(condition()).toBe(true)
  })

const unavailable = () => new Response("JWKS temporarily unavailable", { status: 503 })

describe("JWKS fetch failures", () => {
  it.effect("50 concurrent verifications with no key set cached send 1 JWKS request when it fails, and all get its JwksUnavailable", () =>
    Effect.gen(function* () {
      const pair = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const answer = gate()
      const server = scriptedJwks(async () => {
        await answer.promise
        return unavailable()
      })
      yield* Effect.gen(function* () {
        const token = yield* sign("ES256", "k1", pair.privateKey)
        const all = yield* Effect.forkChild(Effect.forEach(Array.from({ length: 50 }), () => verifyFlip(token), { concurrency: "unbounded" }))
        yield* until(() => server.requests() === 1)
        yield* realPause(20)
        answer.open()
        const errors = yield* Fiber.join(all)
        expect(errors.every((error) => error._tag === "JwksUnavailable" && error.status === 503)).toBe(true)
        expect(server.requests()).toBe(1)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("50 concurrent verifications with no key set cached send 1 JWKS request when it succeeds", () =>
    Effect.gen(function* () {
      const pair = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const jwk = yield* jwkOf(pair.publicKey, "k1", "ES256")
      const answer = gate()
      const server = scriptedJwks(async () => {
        await answer.promise
        return new Response(JSON.stringify({ keys: [jwk] }), { status: 200 })
      })
      yield* Effect.gen(function* () {
        const token = yield* sign("ES256", "k1", pair.privateKey)
        const all = yield* Effect.forkChild(
          Effect.forEach(Array.from({ length: 50 }), () => AccessTokenVerifier.verifyAccessToken(token), { concurrency: "unbounded" })
        )
        yield* until(() => server.requests() === 1)
        answer.open()
        expect(yield* Fiber.join(all)).toHaveLength(50)
        expect(server.requests()).toBe(1)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("after a failed fetch, verifications within the back-off send no request and fail with JwksUnavailable; after it, 1 request", () =>
    Effect.gen(function* () {
      const pair = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const jwk = yield* jwkOf(pair.publicKey, "k1", "ES256")
      let up = false
      const server = scriptedJwks(async () => (up ? new Response(JSON.stringify({ keys: [jwk] }), { status: 200 }) : unavailable()))
      yield* Effect.gen(function* () {
        const token = yield* sign("ES256", "k1", pair.privateKey)
        expect((yield* verifyFlip(token))._tag).toBe("JwksUnavailable")
        expect(server.requests()).toBe(1)
        for (let i = 0; i < 49; i++) {
          const error = yield* verifyFlip(token)
          expect(error._tag).toBe("JwksUnavailable")
          yield* TestClock.adjust(100) // 49 verifications over 4.9 s
        }
        expect(server.requests()).toBe(1)
        up = true
        yield* TestClock.adjust(Duration.toMillis(AccessTokenVerifier.defaultJwksFailureBackoff) - 4_900)
        const claims = yield* AccessTokenVerifier.verifyAccessToken(token)
        expect(claims.projectId).toBe(projectId)
        expect(server.requests()).toBe(2)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("a JWKS that never answers: the shared fetch ends at the fetch timeout with JwksUnavailable; no fiber is left", () =>
    Effect.gen(function* () {
      const pair = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const server = scriptedJwks(() => new Promise<Response>(() => {}))
      const fibers = makeFiberCount()
      yield* Effect.gen(function* () {
        const token = yield* sign("ES256", "k1", pair.privateKey)
        const waiting = yield* Effect.forEach(Array.from({ length: 3 }), () => Effect.forkChild(fibers.track(verifyFlip(token))))
        yield* until(() => server.requests() === 1)
        yield* TestClock.adjust(AccessTokenVerifier.defaultJwksFetchTimeout)
        const errors = yield* Fiber.joinAll(waiting)
        expect(errors.map((error) => error._tag)).toEqual(["JwksUnavailable", "JwksUnavailable", "JwksUnavailable"])
        expect(errors[0]!.message).toContain("did not answer within")
        expect(server.requests()).toBe(1)
        for (let i = 0; i < 500 && fibers.live() > 0; i++) yield* realPause(2)
        expect(fibers.live()).toBe(0)
        // and the back-off applies: no further request at once
        expect((yield* verifyFlip(token))._tag).toBe("JwksUnavailable")
        expect(server.requests()).toBe(1)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))

  it.effect("a verification interrupted while the JWKS is fetched does not cancel the fetch for the others: 1 request", () =>
    Effect.gen(function* () {
      const pair = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const jwk = yield* jwkOf(pair.publicKey, "k1", "ES256")
      const answer = gate()
      const server = scriptedJwks(async () => {
        await answer.promise
        return new Response(JSON.stringify({ keys: [jwk] }), { status: 200 })
      })
      yield* Effect.gen(function* () {
        const token = yield* sign("ES256", "k1", pair.privateKey)
        const first = yield* Effect.forkChild(AccessTokenVerifier.verifyAccessToken(token))
        yield* until(() => server.requests() === 1)
        const second = yield* Effect.forkChild(AccessTokenVerifier.verifyAccessToken(token))
        yield* realPause(10)
        yield* Fiber.interrupt(first)
        answer.open()
        expect((yield* Fiber.join(second)).projectId).toBe(projectId)
        expect(server.requests()).toBe(1)
      }).pipe(Effect.provide(verifierOver(server.layer)))
    }))
})
