/**
 * The official SDK's `Authorization` hand-over (`@stackframe/js` 2.8.108 `getAuthorizationHeader()`):
 * `Bearer stackauth_` + base64 of `{"accessToken","refreshToken"}`. The SDK writes it
 * (`Tokens.getAuthorizationHeader`, `RequestTokenStore.authorizationHeader`) and reads it from an
 * incoming request before `x-stack-auth` and the cookies, as the official request token store
 * does; a plain bearer token is not this hand-over, and a malformed one fails without echoing it.
 */
import { Effect, Option, Redacted, Result } from "effect"
import { describe, expect, it } from "vitest"
import * as Cookies from "../../src/session/cookies.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"

const projectId = "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f"
const access = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl"
const refresh = "refresh-token-text-0123456789"

const tokens = (accessToken: string | null, refreshToken: string | null): StoredTokens => ({
  accessToken: accessToken === null ? Option.none() : Option.some(Redacted.make(accessToken)),
  refreshToken: refreshToken === null ? Option.none() : Option.some(Redacted.make(refreshToken))
})

const texts = (stored: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(stored.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(stored.refreshToken, Redacted.value))
})

/** The official SDK's encoding, written out: `btoa` over the UTF-8 bytes of the JSON. */
const officialHeader = (json: unknown, prefix = "stackauth_") => `Bearer ${prefix}${Buffer.from(JSON.stringify(json), "utf8").toString("base64")}`

const read = (headers: Record<string, string>) => Effect.runPromise(Effect.result(RequestTokenStore.readRequestTokens(new Headers(headers), { projectId })))

describe("the Authorization hand-over of the official SDK", () => {
  it("is written exactly as the official getAuthorizationHeader() writes it", () => {
    expect(Option.getOrNull(RequestTokenStore.authorizationHeader(tokens(access, refresh)))).toBe(
      officialHeader({ accessToken: access, refreshToken: refresh })
    )
    expect(Option.getOrNull(RequestTokenStore.authorizationHeader(tokens(null, refresh)))).toBe(
      officialHeader({ accessToken: null, refreshToken: refresh })
    )
  })

  it("is absent when signed out (the official SDK answers null)", () => {
    expect(Option.isNone(RequestTokenStore.authorizationHeader(tokens(null, null)))).toBe(true)
  })

  it("reads back what it writes, and what the official SDK writes (either token may be null; stackauth_ and hexclave_)", async () => {
    const written = Option.getOrThrow(RequestTokenStore.authorizationHeader(tokens(access, refresh)))
    const ours = await read({ authorization: written })
    expect(Result.map(ours, texts)).toEqual(Result.succeed({ accessToken: access, refreshToken: refresh }))
    const refreshOnly = await read({ authorization: officialHeader({ accessToken: null, refreshToken: refresh }) })
    expect(Result.map(refreshOnly, texts)).toEqual(Result.succeed({ accessToken: null, refreshToken: refresh }))
    const hexclave = await read({ authorization: officialHeader({ accessToken: access, refreshToken: refresh }, "hexclave_") })
    expect(Result.map(hexclave, texts)).toEqual(Result.succeed({ accessToken: access, refreshToken: refresh }))
    const lowerCaseScheme = await read({ authorization: officialHeader({ accessToken: access, refreshToken: refresh }).replace("Bearer", "bearer") })
    expect(Result.map(lowerCaseScheme, texts)).toEqual(Result.succeed({ accessToken: access, refreshToken: refresh }))
  })

  it("comes before x-stack-auth and the cookies of the same request", async () => {
    const cookie = Cookies.writeTokens(tokens("cookie-access", "cookie-refresh"), { projectId, secure: false, now: Date.now(), existing: new Map() })
      .map((setCookie) => setCookie.split(";")[0])
      .join("; ")
    const result = await read({
      authorization: officialHeader({ accessToken: access, refreshToken: refresh }),
      "x-stack-auth": JSON.stringify({ accessToken: "header-access", refreshToken: "header-refresh" }),
      cookie
    })
    expect(Result.map(result, texts)).toEqual(Result.succeed({ accessToken: access, refreshToken: refresh }))
  })

  it("a plain bearer token or another scheme is not the hand-over: x-stack-auth is read instead", async () => {
    for (const authorization of [`Bearer ${access}`, "Basic dXNlcjpwYXNz", "Bearer"]) {
      const result = await read({ authorization, "x-stack-auth": JSON.stringify({ accessToken: "header-access", refreshToken: "header-refresh" }) })
      expect(Result.map(result, texts)).toEqual(Result.succeed({ accessToken: "header-access", refreshToken: "header-refresh" }))
    }
  })

  it("a stackauth_ credential that does not decode is a TokenStoreError naming the header, never its text", async () => {
    const secretish = Buffer.from("not json at all but secret-ish", "utf8").toString("base64")
    for (
      const authorization of [
        "Bearer stackauth_",
        "Bearer stackauth_%%%not-base64%%%",
        `Bearer stackauth_${secretish}`,
        officialHeader([access, refresh]),
        officialHeader({ accessToken: 42, refreshToken: refresh }),
        officialHeader({ accessToken: "undefined", refreshToken: refresh })
      ]
    ) {
      const result = await read({ authorization })
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) {
        expect(result.failure._tag).toBe("TokenStoreError")
        expect(result.failure.message).toMatch(/^Invalid Authorization header: /)
        expect(result.failure.message).not.toContain(secretish)
        expect(result.failure.message).not.toContain(access)
        expect(result.failure.message).not.toContain(refresh)
      }
    }
  })

  it("a token a request header cannot carry makes the request read as signed out (no call is sent with it)", async () => {
    const result = await read({ authorization: officialHeader({ accessToken: "line\r\nbreak", refreshToken: refresh }) })
    expect(Result.map(result, texts)).toEqual(Result.succeed({ accessToken: null, refreshToken: null }))
  })
})
