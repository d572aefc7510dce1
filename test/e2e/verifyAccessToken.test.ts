/**
 * `verifyAccessToken` over real HTTP against the emulator server: tokens the server issued verify
 * with the JWKS fetched once; anonymous tokens need the allowance and use the anonymous key set;
 * a tampered token fails; a made-up kid costs no request within the cooldown; a JWKS that fails
 * (404 of an unknown project, or a host that refuses connections) costs one request for any number
 * of concurrent verifications, and none within the back-off.
 */
import { createServer } from "node:net"
import { Effect, Layer, Option, Redacted } from "effect"
import * as jose from "jose"
import { describe, expect, it } from "vitest"
import * as Anonymous from "../../src/auth/Anonymous.js"
import * as Password from "../../src/auth/Password.js"
import * as AccessTokenVerifier from "../../src/session/AccessTokenVerifier.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ passwordHashIterations: 1000 })

const layers = () => {
  const fetch = countingFetch()
  const stack = Stack.layerClient({
    projectId: main.server.emulator.demo.projectId,
    publishableClientKey: main.server.emulator.demo.publishableClientKey,
    baseUrl: main.server.baseUrl,
    httpClient: fetch.layer
  })
  return { layer: Layer.provideMerge(AccessTokenVerifier.layer(), stack), count: fetch.count }
}

const run = <A, E>(
  effect: Effect.Effect<A, E, AccessTokenVerifier.AccessTokenVerifier | Stack.ClientServices>,
  layer: Layer.Layer<AccessTokenVerifier.AccessTokenVerifier | Stack.ClientServices, unknown>
) => Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)

const accessToken = Effect.gen(function* () {
  const session = yield* Session
  return Redacted.value(Option.getOrThrow((yield* session.current).accessToken))
})

const jwksPath = () => `GET /projects/${main.server.emulator.demo.projectId}/.well-known/jwks.json`

describe("verifyAccessToken over HTTP", () => {
  it("verifies the server's tokens with one JWKS request for 200 verifications, and refuses a tampered one", async () => {
    const { layer, count } = layers()
    const result = await run(
      Effect.gen(function* () {
        const { userId } = yield* Password.signUpWithPassword({
          email: `verify-e2e-${Date.now()}@example.com`,
          password: "correct horse battery",
          noVerificationCallback: true
        })
        const token = yield* accessToken
        const all = yield* Effect.forEach(Array.from({ length: 200 }), () => AccessTokenVerifier.verifyAccessToken(token), { concurrency: 10 })
        const [header, payload, signature] = token.split(".") as [string, string, string]
        const claims = jose.decodeJwt(token)
        const forged = `${header}.${jose.base64url.encode(JSON.stringify({ ...claims, email: "mallory@example.com" }))}.${signature}`
        const tampered = yield* Effect.flip(AccessTokenVerifier.verifyAccessToken(forged))
        return { userId, all, tampered, payload }
      }),
      layer
    )
    expect(result.all.every((claims) => claims.userId === result.userId)).toBe(true)
    expect(result.all[0]!.issuer).toBe(`${main.server.baseUrl}/api/v1/projects/${main.server.emulator.demo.projectId}`)
    expect(result.tampered._tag).toBe("TokenSignatureInvalid")
    expect(count(jwksPath())).toBe(1)
  })

  it("anonymous tokens: refused without the allowance (no request), verified with it from the anonymous key set", async () => {
    const { layer, count } = layers()
    const outcome = await run(
      Effect.gen(function* () {
        const { userId } = yield* Anonymous.signUp()
        const token = yield* accessToken
        const refused = yield* Effect.flip(AccessTokenVerifier.verifyAccessToken(token))
        const before = count(jwksPath())
        const claims = yield* AccessTokenVerifier.verifyAccessToken(token, { allowAnonymous: true })
        return { userId, refused, before, claims }
      }),
      layer
    )
    expect(outcome.refused._tag).toBe("TokenUserNotAllowed")
    expect(outcome.before).toBe(0)
    expect(outcome.claims.userId).toBe(outcome.userId)
    expect(outcome.claims.isAnonymous).toBe(true)
    expect(outcome.claims.issuer).toBe(`${main.server.baseUrl}/api/v1/projects-anonymous-users/${main.server.emulator.demo.projectId}`)
    expect(count(jwksPath())).toBe(1)
  })

  it("made-up kids right after the first fetch cost no request (refetch cooldown)", async () => {
    const { layer, count } = layers()
    const { privateKey } = await jose.generateKeyPair("ES256")
    const errors = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: `verify-kid-${Date.now()}@example.com`, password: "correct horse battery", noVerificationCallback: true })
        const token = yield* accessToken
        yield* AccessTokenVerifier.verifyAccessToken(token)
        const claims = jose.decodeJwt(token)
        return yield* Effect.forEach(
          Array.from({ length: 50 }, (_, i) => `kid${i}`),
          (kid) =>
            Effect.promise(() => new jose.SignJWT(claims).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey)).pipe(
              Effect.flatMap((forged) => Effect.flip(AccessTokenVerifier.verifyAccessToken(forged)))
            )
        )
      }),
      layer
    )
    expect(errors.every((error) => error._tag === "TokenKeyUnknown")).toBe(true)
    expect(count(jwksPath())).toBe(1)
  })
})

describe("verifyAccessToken over HTTP when the JWKS fails", () => {
  const forgedFor = async (projectId: string, issuerBase: string) => {
    const { privateKey } = await jose.generateKeyPair("ES256")
    return new jose.SignJWT({ sub: "someone", aud: projectId, iss: `${issuerBase}/api/v1/projects/${projectId}`, exp: Math.floor(Date.now() / 1000) + 600 })
      .setProtectedHeader({ alg: "ES256", kid: "somekid00001" })
      .sign(privateKey)
  }

  it("an unknown project (404): 50 concurrent verifications send 1 JWKS request; 50 more within the back-off send none", async () => {
    const projectId = "7c2e9a41-0b6d-4f3a-8e15-2d9c4b7a6e03"
    const fetch = countingFetch()
    const layer = Layer.provideMerge(
      AccessTokenVerifier.layer(),
      Stack.layerClient({ projectId, publishableClientKey: "pck_unknown", baseUrl: main.server.baseUrl, httpClient: fetch.layer })
    )
    const token = await forgedFor(projectId, main.server.baseUrl)
    const path = `GET /projects/${projectId}/.well-known/jwks.json`
    const verifyAll = Effect.forEach(Array.from({ length: 50 }), () => Effect.flip(AccessTokenVerifier.verifyAccessToken(token)), {
      concurrency: "unbounded"
    })
    const [first, second] = await run(Effect.all([verifyAll, verifyAll]), layer)
    expect([...first, ...second].every((error) => error._tag === "JwksUnavailable" && error.status === 404)).toBe(true)
    expect(fetch.count(path)).toBe(1)
  })

  it("a host that refuses connections: 50 concurrent verifications share 1 fetch, ended by the fetch timeout; none within the back-off", async () => {
    // a port nobody listens on: open one on 127.0.0.1, note it, close it
    const port = await new Promise<number>((resolve) => {
      const probe = createServer()
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
      })
    })
    const baseUrl = `http://127.0.0.1:${port}`
    const projectId = main.server.emulator.demo.projectId
    const fetch = countingFetch()
    const layer = Layer.provideMerge(
      AccessTokenVerifier.layer({ fetchTimeout: "300 millis" }),
      Stack.layerClient({ projectId, publishableClientKey: "pck_unreachable", baseUrl, httpClient: fetch.layer })
    )
    const token = await forgedFor(projectId, baseUrl)
    const verifyAll = Effect.forEach(Array.from({ length: 50 }), () => Effect.flip(AccessTokenVerifier.verifyAccessToken(token)), {
      concurrency: "unbounded"
    })
    const [first, second] = await run(Effect.all([verifyAll, verifyAll]), layer)
    expect([...first, ...second].every((error) => error._tag === "JwksUnavailable")).toBe(true)
    // the transport's first attempt (its retries wait a backoff of ≥ 500 ms, past the 300 ms bound)
    expect(fetch.count(`GET /projects/${projectId}/.well-known/jwks.json`)).toBe(1)
  })
})
