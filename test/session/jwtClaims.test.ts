/**
 * The session reads an access token's expiry with its own small JWT reader (issue 14: no `jose`
 * in the client bundle for it): it must read exactly what `jose`'s `decodeJwt` reads, and turn
 * everything `decodeJwt` refuses into `undefined` (never a throw).
 */
import { decodeJwt } from "jose"
import { describe, expect, it } from "vitest"
import { unverifiedClaims } from "../../src/session/jwtClaims.js"

const b64u = (text: string) => Buffer.from(text, "utf8").toString("base64url")
const header = b64u(JSON.stringify({ alg: "ES256", kid: "k" }))

/** What `decodeJwt` answers: the claims, or `undefined` when it throws. */
const byJose = (token: string) => {
  try {
    return decodeJwt(token)
  } catch {
    return undefined
  }
}

const tokens: ReadonlyArray<readonly [string, string]> = [
  ["a token with exp", `${header}.${b64u(JSON.stringify({ sub: "u", exp: 4102444800 }))}.c2ln`],
  ["a token without exp", `${header}.${b64u(JSON.stringify({ sub: "u" }))}.c2ln`],
  ["unicode claims", `${header}.${b64u(JSON.stringify({ name: "Zoë 東京 🎉", exp: 1 }))}.c2ln`],
  ["an empty signature", `${header}.${b64u(JSON.stringify({ exp: 5 }))}.`],
  ["a payload of every length modulo 4", `${header}.${b64u(JSON.stringify({ a: "xy" }))}.s`],
  ["padding in the payload", `${header}.${Buffer.from(JSON.stringify({ exp: 7 })).toString("base64")}.s`],
  ["two parts", `${header}.${b64u("{}")}`],
  ["five parts (JWE)", `${header}.a.b.c.d`],
  ["an empty payload", `${header}..s`],
  ["a payload that is not base64url", `${header}.**.s`],
  ["a payload of one base64url character too many", `${header}.${b64u("{}")}A.s`],
  ["a payload that is not JSON", `${header}.${b64u("not json")}.s`],
  ["an array payload", `${header}.${b64u("[1,2]")}.s`],
  ["a null payload", `${header}.${b64u("null")}.s`],
  ["a number payload", `${header}.${b64u("42")}.s`],
  ["a string payload", `${header}.${b64u("\"x\"")}.s`],
  ["the empty string", ""],
  ["no dots", "abc"]
]

describe("the session's JWT reader reads what jose's decodeJwt reads", () => {
  for (const [name, token] of tokens) {
    it(`${name}: the same claims, or undefined where decodeJwt throws`, () => {
      expect(unverifiedClaims(token)).toEqual(byJose(token))
    })
  }

  it("the expiry of a token with exp is its exp claim", () => {
    expect(unverifiedClaims(tokens[0]![1])?.["exp"]).toBe(4102444800)
  })
})
