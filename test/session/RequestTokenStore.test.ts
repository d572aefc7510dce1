import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as Cookies from "../../src/session/cookies.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import { empty, fromStrings, type StoredTokens, TokenStore } from "../../src/session/TokenStore.js"

const projectId = "proj-1"
const options = { projectId }

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

/** A request-like object as server code receives it. */
const request = (headers: Record<string, string>) => new Request("https://app.example.com/page", { headers })

const cookieHeader = (refreshToken: string, accessToken: string) =>
  Cookies.writeTokens(fromStrings(accessToken, refreshToken), { projectId, secure: true, now: 1, existing: new Map() })
    .map((cookie) => cookie.split(";")[0])
    .join("; ")

describe("RequestTokenStore", () => {
  it.effect("reads the tokens of the x-stack-auth header", () =>
    Effect.gen(function* () {
      const store = yield* RequestTokenStore.make(
        request({ "x-stack-auth": JSON.stringify({ accessToken: "a1", refreshToken: "r1" }) }),
        options
      )
      expect(texts(yield* store.get)).toEqual({ accessToken: "a1", refreshToken: "r1" })
    }))

  it.effect("x-stack-auth wins over the cookies", () =>
    Effect.gen(function* () {
      const store = yield* RequestTokenStore.make(
        request({ "x-stack-auth": JSON.stringify({ accessToken: "a1", refreshToken: "r1" }), cookie: cookieHeader("r2", "a2") }),
        options
      )
      expect(texts(yield* store.get).refreshToken).toBe("r1")
    }))

  it.effect("an x-stack-auth of a signed-out browser (both null) reads as no tokens", () =>
    Effect.gen(function* () {
      const store = yield* RequestTokenStore.make(request(RequestTokenStore.authHeaders(empty)), options)
      expect(texts(yield* store.get)).toEqual(texts(empty))
    }))

  describe("rejects a bad x-stack-auth header without revealing its content", () => {
    const secret = "s3cr3t-token-text"
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["malformed JSON", `{"accessToken":"${secret}"`, "not valid JSON"],
      ["not an object", JSON.stringify([secret, secret]), "not a JSON object"],
      ["a JSON string", JSON.stringify(secret), "not a JSON object"],
      ["only an access token", JSON.stringify({ accessToken: secret }), "both accessToken and refreshToken are required"],
      ["only a refresh token", JSON.stringify({ accessToken: null, refreshToken: secret }), "both accessToken and refreshToken are required"],
      ["the text 'undefined'", JSON.stringify({ accessToken: "undefined", refreshToken: secret }), "accessToken is not a usable token"],
      ["a number", JSON.stringify({ accessToken: secret, refreshToken: 12345 }), "refreshToken must be a string or null"]
    ]
    for (const [name, header, reason] of cases) {
      it.effect(name, () =>
        Effect.gen(function* () {
          const error = yield* Effect.flip(RequestTokenStore.make(request({ "x-stack-auth": header }), options))
          expect(error._tag).toBe("TokenStoreError")
          expect(error.message).toBe(`Invalid x-stack-auth header: ${reason}`)
          expect(error.message).not.toContain(secret)
          expect(error.message).not.toContain("12345")
          expect(JSON.stringify(error)).not.toContain(secret)
        }))
    }

    it.effect("through the layer too", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          Effect.provide(TokenStore, RequestTokenStore.layer(request({ "x-stack-auth": "nope" }), options))
        )
        expect(error.message).toBe("Invalid x-stack-auth header: not valid JSON")
      }))
  })

  it.effect("falls back to the cookie header", () =>
    Effect.gen(function* () {
      const store = yield* RequestTokenStore.make(request({ cookie: `theme=dark; ${cookieHeader("r3", "a3")}` }), options)
      expect(texts(yield* store.get)).toEqual({ accessToken: "a3", refreshToken: "r3" })
    }))

  it.effect("an empty x-stack-auth header counts as absent", () =>
    Effect.gen(function* () {
      const store = yield* RequestTokenStore.make({ get: (name) => (name === "cookie" ? cookieHeader("r3", "a3") : "") }, options)
      expect(texts(yield* store.get).refreshToken).toBe("r3")
    }))

  it.effect("accepts bare headers and Node-style header records", () =>
    Effect.gen(function* () {
      const fromHeaders = yield* RequestTokenStore.make(new Headers({ cookie: cookieHeader("r4", "a4") }), options)
      expect(texts(yield* fromHeaders.get).refreshToken).toBe("r4")
      const fromNode = yield* RequestTokenStore.make({ headers: { cookie: cookieHeader("r5", "a5"), "x-other": ["1", "2"] } }, options)
      expect(texts(yield* fromNode.get)).toEqual({ accessToken: "a5", refreshToken: "r5" })
    }))

  it.effect("no headers read as no tokens", () =>
    Effect.gen(function* () {
      const store = yield* RequestTokenStore.make(request({}), options)
      expect(texts(yield* store.get)).toEqual(texts(empty))
    }))

  it.effect("keeps writes in memory and leaves the request alone", () =>
    Effect.gen(function* () {
      const req = request({ cookie: cookieHeader("r6", "a6") })
      const store = yield* RequestTokenStore.make(req, options)
      yield* store.set(fromStrings("a7", "r7"))
      expect(texts(yield* store.get)).toEqual({ accessToken: "a7", refreshToken: "r7" })
      expect(req.headers.get("cookie")).toBe(cookieHeader("r6", "a6"))
    }))

  describe("authHeaders", () => {
    it("produces { x-stack-auth: JSON } with null for absent tokens", () => {
      expect(RequestTokenStore.authHeaders(fromStrings("a", "r"))).toEqual({
        "x-stack-auth": JSON.stringify({ accessToken: "a", refreshToken: "r" })
      })
      expect(RequestTokenStore.authHeaders(empty)).toEqual({
        "x-stack-auth": JSON.stringify({ accessToken: null, refreshToken: null })
      })
    })

    it.effect("round-trips through a request", () =>
      Effect.gen(function* () {
        const tokens = fromStrings("a8", "r8")
        const store = yield* RequestTokenStore.make(request(RequestTokenStore.authHeaders(tokens)), options)
        expect(texts(yield* store.get)).toEqual(texts(tokens))
      }))
  })
})
