/**
 * The one builder of cookie strings (`src/session/setCookie.ts`) and the cookie writers that use it
 * (issue 25 item 2, cookie attribute injection): whatever the name, value or domain — a token, a
 * name read from a request, a domain decoded from a `--custom-` cookie name —, what is written is
 * one cookie with exactly the SDK's attributes, a header Node accepts, and reads back as given.
 */
import { validateHeaderValue } from "node:http"
import { describe, expect, it } from "@effect/vitest"
import { type Arbitrary, Effect, Option } from "effect"
import { crockfordAlphabet, encodeBase32 } from "../../src/core/internal/base32.js"
import * as Cookies from "../../src/session/cookies.js"
import * as SetCookie from "../../src/session/setCookie.js"
import * as fc from "../reliability/arbitraries.js"
import { fromStrings } from "../../src/session/TokenStore.js"

const projectId = "proj-1"

/** Whether Node would send the text as a `Set-Cookie` header (it throws on CR, LF, NUL, …). */
const acceptedByNode = (cookie: string): boolean => {
  try {
    validateHeaderValue("set-cookie", cookie)
    return true
  } catch {
    return false
  }
}

/** Whether the text is well-formed UTF-16 (no lone surrogate). */
const isWellFormed = (text: string): boolean => {
  try {
    encodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/** The attributes after the name=value pair, as written (`; `-separated). */
const attributesOf = (cookie: string): ReadonlyArray<string> => cookie.split("; ").slice(1)

/** The attributes the SDK writes, and only those. */
const expectedAttributes = (maxAge: number, secure: boolean, domain?: string): ReadonlyArray<string> => [
  "Path=/",
  `Max-Age=${maxAge}`,
  "SameSite=Lax",
  ...(domain === undefined ? [] : [`Domain=${domain}`]),
  ...(secure ? ["Secure"] : [])
]

/** A `--custom-` cookie name carrying any bytes, as a planted cookie may. */
const customName = (bytes: Uint8Array): string => `stack-refresh-${projectId}--custom-${encodeBase32(bytes, crockfordAlphabet.toUpperCase())}`

/** A string of up to 20 units of `unit`. */
const stringOf = (unit: Arbitrary.Arbitrary<string>) => fc.array(unit, { maxLength: 20 }).pipe(fc.map((units) => units.join("")))

/** Any UTF-16 code unit (lone surrogates included). */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).pipe(fc.map((code) => String.fromCharCode(code)))

/** A domain name: one to three labels of letters, digits and inner hyphens, then a top-level label. */
const domain = fc.tuple(
  fc.array(fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }),
  fc.stringMatching(/^[a-z]{2,6}$/)
).pipe(fc.map(([labels, top]) => [...labels, top].join(".")))

/** Any bytes, up to 40. */
const bytes = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 }).pipe(fc.map((values) => Uint8Array.from(values)))

/** Hostile texts: any UTF-16 (lone surrogates included), with the characters that end a cookie or a header. */
const hostileText = fc.oneof(
  stringOf(anyUnit),
  stringOf(fc.constantFrom(";", "=", ",", " ", "\r", "\n", "\0", "\"", "%", "(", ")", "a", "\u00ff", "\ud800"))
)

/** Checks `property` on `runs` values (effect's `Arbitrary`; fails with the shrunk counterexample). */
const assertProperty = <A>(arbitrary: Arbitrary.Arbitrary<A>, property: (value: A) => void, runs: number) =>
  Effect.runPromise(fc.check(arbitrary, (value) => (property(value), true), { runs }))

describe("SetCookie.hostCookie: any name and value", () => {
  it("writes one cookie with exactly the SDK's attributes, which Node sends and which reads back", () =>
    assertProperty(
      fc.tuple(hostileText, hostileText, fc.integer({ min: -5, max: 40_000_000 }), fc.boolean()),
      ([name, value, maxAge, secure]) => {
        const cookie = SetCookie.hostCookie({ name, value, maxAgeSeconds: maxAge, secure })
        expect(acceptedByNode(cookie)).toBe(true)
        expect(attributesOf(cookie)).toEqual(expectedAttributes(Math.max(0, maxAge), secure || name.startsWith("__Host-")))
        const pair = cookie.split("; ")[0]!
        expect(pair.split("=").length).toBe(2)
        // what is well-formed UTF-16 reads back as given (a lone surrogate is written as U+FFFD);
        // the platform's parser skips names of Object.prototype members (none is a name the SDK reads)
        if (name.length > 0 && !(name in Object.prototype) && isWellFormed(name) && isWellFormed(value)) {
          expect([...Cookies.parseCookieHeader(pair)]).toEqual([[name, value]])
        }
      },
      500
    ))

  it("a Max-Age that is not a finite number is written as 0", () => {
    for (const maxAgeSeconds of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(attributesOf(SetCookie.hostCookie({ name: "a", value: "b", maxAgeSeconds, secure: false }))).toEqual(expectedAttributes(0, false))
    }
  })
})

describe("SetCookie.domainCookie and domainName: a Domain is written only when it is a domain name", () => {
  it("accepts domain names, lower-cased", () => {
    for (
      const [text, domain] of [["example.com", "example.com"], ["App.Example.COM", "app.example.com"], ["localhost", "localhost"], ["a-b.c1.io", "a-b.c1.io"]]
    ) {
      expect(SetCookie.domainName(text)).toEqual(Option.some(domain))
    }
  })

  it("refuses attribute injection, control characters, non-ASCII look-alikes and malformed names", () => {
    for (
      const text of [
        "app.example; max-age=31536000; samesite=none",
        "app.example\r\nSet-Cookie: x=1",
        "app.example\n",
        "app example",
        "app.example=",
        ".example.com",
        "example.com.",
        "a..b",
        "-a.example",
        "a-.example",
        "\u212Aelvin.example", // KELVIN SIGN lower-cases to an ASCII "k"
        "ex\u00e4mple.com",
        "x".repeat(64) + ".example",
        `${"a.".repeat(127)}ab`,
        ""
      ]
    ) expect(SetCookie.domainName(text)).toEqual(Option.none())
  })

  it("any domain text: either refused, or one cookie whose Domain is that lower-cased domain name", () =>
    assertProperty(
      fc.tuple(hostileText, domain, fc.boolean()),
      ([hostile, valid, pick]) => {
        const domain = pick ? valid : hostile
        const cookie = SetCookie.domainCookie({ name: "n", value: "v", maxAgeSeconds: 0, secure: false, domain })
        Option.match(SetCookie.domainName(domain), {
          onNone: () => expect(cookie).toEqual(Option.none()),
          onSome: (name) => {
            expect(Option.map(cookie, attributesOf)).toEqual(Option.some(expectedAttributes(0, false, name)))
            expect(Option.map(cookie, acceptedByNode)).toEqual(Option.some(true))
          }
        })
      },
      500
    ))

  it("never writes a Domain on a __Host- cookie", () => {
    expect(SetCookie.domainCookie({ name: "__Host-x", value: "", maxAgeSeconds: 0, secure: true, domain: "example.com" })).toEqual(Option.none())
  })
})

describe("the token writers: nothing decoded from a request reaches a header", () => {
  const hostileNames = [
    "app.example; max-age=31536000; samesite=none",
    "app.example\r\nX-Injected: 1",
    "app.example\nSet-Cookie: planted=1"
  ]

  it("a --custom- name decoding to attributes or CR/LF is not a domain", () => {
    for (const text of hostileNames) {
      expect(Cookies.customRefreshCookieDomain(customName(new TextEncoder().encode(text)), projectId)).toEqual(Option.none())
    }
    expect(Cookies.customRefreshCookieDomain(customName(new TextEncoder().encode("example.com")), projectId)).toEqual(Option.some("example.com"))
  })

  it("the OAuth verifier cookie of a state read from a callback URL is written as one cookie, whatever the state", () => {
    for (const state of ["x; Domain=evil.example; Max-Age=31536000", "x\r\nSet-Cookie: planted=1", "x=y"]) {
      for (
        const cookie of [Cookies.serializeDeletion(Cookies.oauthVerifierCookieName(state), { secure: false }), Cookies.serializeOAuthVerifier(state, "v", true)]
      ) {
        expect(acceptedByNode(cookie)).toBe(true)
        expect(attributesOf(cookie)).toEqual(cookie.includes("Max-Age=0") ? expectedAttributes(0, false) : expectedAttributes(3600, true))
        expect([...Cookies.parseCookieHeader(cookie.split("; ")[0])].map(([name]) => name)).toEqual([Cookies.oauthVerifierCookieName(state)])
      }
    }
  })

  it("a planted --custom- cookie whose name decodes to attributes or CR/LF is never written back", () => {
    for (const text of hostileNames) {
      for (const secure of [false, true]) {
        const existing = new Map([[customName(new TextEncoder().encode(text)), JSON.stringify({ refresh_token: "x", updated_at_millis: 1 })]])
        const written = Cookies.writeTokens(fromStrings("a", "r"), { projectId, secure, now: 5, existing, cookieDomains: [text] })
        expect(written.length).toBe(2)
        expect(written.every(acceptedByNode)).toBe(true)
        expect(written.every((cookie) => !/max-age=31536000; samesite=none|domain=/i.test(cookie))).toBe(true)
      }
    }
  })

  it("whatever cookies the request holds and whatever domains are configured, every string written is one cookie Node sends, with a configured Domain or none", () => {
    const planted = fc.oneof(
      hostileText,
      bytes.pipe(fc.map(customName)),
      domain.pipe(fc.map((name) => Cookies.customRefreshCookieName(projectId, name)))
    )
    return assertProperty(
      fc.tuple(
        fc.array(fc.tuple(planted, hostileText), { maxLength: 6 }),
        fc.array(fc.oneof(domain, hostileText), { maxLength: 3 }),
        fc.boolean()
      ),
      ([cookies, cookieDomains, secure]) => {
        const configured = cookieDomains.flatMap((domain) => Option.toArray(SetCookie.domainName(domain)))
        const written = Cookies.writeTokens(fromStrings("a", "r"), { projectId, secure, now: 5, existing: new Map(cookies), cookieDomains })
        for (const cookie of written) {
          expect(acceptedByNode(cookie)).toBe(true)
          const domains = attributesOf(cookie).filter((attribute) => attribute.startsWith("Domain="))
          expect(domains.every((attribute) => configured.includes(attribute.slice("Domain=".length)))).toBe(true)
          expect(attributesOf(cookie).length).toBe(3 + domains.length + (cookie.endsWith("; Secure") ? 1 : 0))
        }
      },
      300
    )
  })
})
