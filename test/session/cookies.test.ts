import { describe, expect, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import * as Cookies from "../../src/session/cookies.js"
import { empty, fromStrings, type StoredTokens } from "../../src/session/TokenStore.js"

const projectId = "proj-1"

const texts = (tokens: StoredTokens) => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

const now = 1_700_000_000_000

const jar = (entries: Record<string, string>): Cookies.CookieMap => new Map(Object.entries(entries))

const structured = (refreshToken: string, updatedAtMillis: number) => JSON.stringify({ refresh_token: refreshToken, updated_at_millis: updatedAtMillis })

/** Splits a serialised cookie into its name, decoded value and attributes (lower-cased keys). */
const inspect = (cookie: string) => {
  const [pair = "", ...rest] = cookie.split("; ")
  const eq = pair.indexOf("=")
  const attributes = new Map(
    rest.map((attribute) => {
      const [key = "", value = ""] = attribute.split("=")
      return [key.toLowerCase(), value] as const
    })
  )
  return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes }
}

describe("cookie names", () => {
  it("the refresh cookie is stack-refresh-{projectId}--default over HTTP", () => {
    expect(Cookies.refreshCookieName(projectId, false)).toBe("stack-refresh-proj-1--default")
  })

  it("the refresh cookie takes the __Host- prefix over HTTPS", () => {
    expect(Cookies.refreshCookieName(projectId, true)).toBe("__Host-stack-refresh-proj-1--default")
  })

  it("legacy, access, OAuth verifier and HTTPS marker names", () => {
    expect(Cookies.legacyRefreshCookieName(projectId)).toBe("stack-refresh-proj-1")
    expect(Cookies.globalLegacyRefreshCookieName).toBe("stack-refresh")
    expect(Cookies.accessCookieName).toBe("stack-access")
    expect(Cookies.oauthVerifierCookieName("abc")).toBe("stack-oauth-outer-abc")
    expect(Cookies.isHttpsCookieName).toBe("stack-is-https")
  })

  it("a custom cookie name encodes the lower-cased domain, and decodes back", () => {
    const name = Cookies.customRefreshCookieName(projectId, "Example.COM")
    expect(name.startsWith("stack-refresh-proj-1--custom-")).toBe(true)
    expect(Cookies.customRefreshCookieDomain(name, projectId)).toEqual(Option.some("example.com"))
    expect(Cookies.customRefreshCookieDomain("stack-refresh-proj-1--default", projectId)).toEqual(Option.none())
  })

  it("recognises every refresh cookie of the project, and only those", () => {
    for (
      const name of [
        "stack-refresh",
        "stack-refresh-proj-1",
        "stack-refresh-proj-1--default",
        "__Host-stack-refresh-proj-1--default",
        Cookies.customRefreshCookieName(projectId, "example.com")
      ]
    ) expect(Cookies.isRefreshCookieName(name, projectId)).toBe(true)
    for (const name of ["stack-access", "stack-refresh-proj-2--default", "stack-refresh-proj-1--other", "stack-is-https"]) {
      expect(Cookies.isRefreshCookieName(name, projectId)).toBe(false)
    }
  })
})

describe("parsing a Cookie header", () => {
  it("splits pairs and URL-decodes values", () => {
    const cookies = Cookies.parseCookieHeader("a=1; b=%5B%22x%22%5D;c=hello%20world")
    expect([...cookies]).toEqual([["a", "1"], ["b", "[\"x\"]"], ["c", "hello world"]])
  })

  it("keeps the first of repeated names and values containing '='", () => {
    const cookies = Cookies.parseCookieHeader("a=1; a=2; b=x=y")
    expect(cookies.get("a")).toBe("1")
    expect(cookies.get("b")).toBe("x=y")
  })

  it("garbage never throws", () => {
    for (const header of [null, undefined, "", ";;;", "=novalue", "noequals", "a=%E0%A4%A", "a=\"quoted\"", "💥=💥; =; ;="]) {
      expect(() => Cookies.parseCookieHeader(header)).not.toThrow()
    }
    expect(Cookies.parseCookieHeader("a=%E0%A4%A").get("a")).toBe("%E0%A4%A")
    expect(Cookies.parseCookieHeader("a=\"quoted\"").get("a")).toBe("quoted")
  })

  it("decodes names as values, skips empty names and never lets a name reach the prototype", () => {
    const cookies = Cookies.parseCookieHeader("a%3Bb=1; =2; __proto__=3; c=4")
    expect([...cookies]).toEqual([["a;b", "1"], ["c", "4"]])
    expect(Object.getPrototypeOf(cookies)).toBe(Map.prototype)
  })
})

describe("reading tokens", () => {
  it("no cookies read as no tokens", () => {
    expect(texts(Cookies.readTokens(new Map(), projectId))).toEqual(texts(empty))
  })

  it("reads the --default refresh cookie and the matching stack-access", () => {
    const cookies = jar({
      "stack-refresh-proj-1--default": structured("r1", 10),
      "stack-access": JSON.stringify(["r1", "a1"])
    })
    expect(texts(Cookies.readTokens(cookies, projectId))).toEqual({ accessToken: "a1", refreshToken: "r1" })
  })

  it("a cookie the app did not write for this host never outranks the __Host- one, whatever its timestamp", () => {
    const custom = Cookies.customRefreshCookieName(projectId, "example.com")
    const cookies = jar({
      "stack-refresh": "global-legacy",
      "stack-refresh-proj-1": "legacy",
      "stack-refresh-proj-1--default": structured("http", 9e15),
      [custom]: structured("custom", 9e15),
      "__Host-stack-refresh-proj-1--default": structured("own", 1)
    })
    for (const secure of [false, true]) {
      expect(texts(Cookies.readTokens(cookies, projectId, { now, secure, cookieDomains: ["example.com"] })).refreshToken).toBe("own")
    }
  })

  it("over HTTP: the app's own --default cookie, then the legacy names, then configured --custom- cookies", () => {
    const custom = Cookies.customRefreshCookieName(projectId, "example.com")
    const options = { now, cookieDomains: ["example.com"] }
    const all = { "stack-refresh": "global-legacy", "stack-refresh-proj-1": "legacy", [custom]: structured("custom", 200) }
    expect(texts(Cookies.readTokens(jar({ ...all, "stack-refresh-proj-1--default": structured("own", 1) }), projectId, options)).refreshToken).toBe("own")
    expect(texts(Cookies.readTokens(jar(all), projectId, options)).refreshToken).toBe("legacy")
    expect(texts(Cookies.readTokens(jar({ "stack-refresh": "global-legacy", [custom]: structured("custom", 200) }), projectId, options)).refreshToken)
      .toBe("global-legacy")
    expect(texts(Cookies.readTokens(jar({ [custom]: structured("custom", 200) }), projectId, options)).refreshToken).toBe("custom")
  })

  it("over HTTPS only the __Host- cookie and configured --custom- cookies count: any other name can be planted", () => {
    const custom = Cookies.customRefreshCookieName(projectId, "example.com")
    const planted = jar({ "stack-refresh": "global-legacy", "stack-refresh-proj-1": "legacy", "stack-refresh-proj-1--default": structured("http", 5) })
    expect(texts(Cookies.readTokens(planted, projectId, { now, secure: true })).refreshToken).toBeNull()
    const withCustom = new Map([...planted, [custom, structured("custom", 5)]])
    expect(texts(Cookies.readTokens(withCustom, projectId, { now, secure: true, cookieDomains: ["example.com"] })).refreshToken).toBe("custom")
  })

  it("a --custom- cookie counts only for a configured domain; among them the largest believable updated_at_millis wins", () => {
    const parent = Cookies.customRefreshCookieName(projectId, "example.com")
    const app = Cookies.customRefreshCookieName(projectId, "app.example.com")
    const cookies = jar({ [parent]: structured("parent", 100), [app]: structured("app", 200) })
    expect(texts(Cookies.readTokens(cookies, projectId)).refreshToken).toBeNull()
    expect(texts(Cookies.readTokens(cookies, projectId, { now, cookieDomains: ["elsewhere.example"] })).refreshToken).toBeNull()
    expect(texts(Cookies.readTokens(cookies, projectId, { now, cookieDomains: ["example.com"] })).refreshToken).toBe("parent")
    expect(texts(Cookies.readTokens(cookies, projectId, { now, cookieDomains: ["EXAMPLE.com", "app.example.com"] })).refreshToken).toBe("app")
  })

  it("a timestamp from the future is not believed", () => {
    const parent = Cookies.customRefreshCookieName(projectId, "example.com")
    const app = Cookies.customRefreshCookieName(projectId, "app.example.com")
    const cookies = jar({ [parent]: structured("planted", 9e15), [app]: structured("real", now - 1) })
    const read = Cookies.readRefreshToken(cookies, projectId, { now, cookieDomains: ["example.com", "app.example.com"] })
    expect(Option.map(read, (found) => found.refreshToken)).toEqual(Option.some("real"))
    const alone = Cookies.readRefreshToken(jar({ [parent]: structured("future", 9e15) }), projectId, { now, cookieDomains: ["example.com"] })
    expect(alone).toEqual(Option.some({ refreshToken: "future", updatedAtMillis: undefined }))
  })

  it("configured domains that are not domain names match nothing", () => {
    for (const domain of ["https://example.com", "example.com:443", ".example.com", "example.com/", "", "a b.example"]) {
      const cookies = jar({ [Cookies.customRefreshCookieName(projectId, domain)]: structured("custom", 1) })
      expect(texts(Cookies.readTokens(cookies, projectId, { now, cookieDomains: [domain] })).refreshToken).toBeNull()
    }
  })

  it("a structured cookie without updated_at_millis loses to one with it", () => {
    const parent = Cookies.customRefreshCookieName(projectId, "example.com")
    const app = Cookies.customRefreshCookieName(projectId, "app.example.com")
    const cookies = jar({ [parent]: JSON.stringify({ refresh_token: "undated" }), [app]: structured("dated", 1) })
    expect(texts(Cookies.readTokens(cookies, projectId, { now, cookieDomains: ["example.com", "app.example.com"] })).refreshToken).toBe("dated")
  })

  it("ignores other projects' refresh cookies", () => {
    const cookies = jar({ "stack-refresh-proj-2--default": structured("other", 1), "stack-refresh-proj-2": "other" })
    expect(texts(Cookies.readTokens(cookies, projectId)).refreshToken).toBeNull()
  })

  it("stack-access is ignored unless its element 0 equals the chosen refresh token", () => {
    const stale = jar({
      "stack-refresh-proj-1--default": structured("r2", 10),
      "stack-access": JSON.stringify(["r1", "a1"])
    })
    expect(texts(Cookies.readTokens(stale, projectId))).toEqual({ accessToken: null, refreshToken: "r2" })
    const noRefresh = jar({ "stack-access": JSON.stringify(["r1", "a1"]) })
    expect(texts(Cookies.readTokens(noRefresh, projectId))).toEqual({ accessToken: null, refreshToken: null })
  })

  it("malformed values read as absent, never throw", () => {
    const cookies = jar({
      "stack-refresh-proj-1--default": "{not json",
      "__Host-stack-refresh-proj-1--default": JSON.stringify({ refresh_token: 42, updated_at_millis: 5 }),
      "stack-access": "[\"r\""
    })
    expect(texts(Cookies.readTokens(cookies, projectId))).toEqual({ accessToken: null, refreshToken: null })
    for (const access of ["null", "{}", "[]", "[\"r\", 1]", "[\"r\", \"a\", \"b\"]", "\"r\""]) {
      const withAccess = jar({ "stack-refresh-proj-1": "r", "stack-access": access })
      expect(texts(Cookies.readTokens(withAccess, projectId))).toEqual({ accessToken: null, refreshToken: "r" })
    }
    for (const refresh of ["null", "[]", "1", "\"r\"", "{\"refresh_token\":\"undefined\",\"updated_at_millis\":1}"]) {
      expect(texts(Cookies.readTokens(jar({ "stack-refresh-proj-1--default": refresh }), projectId)).refreshToken).toBeNull()
    }
  })

  it("the text 'undefined' is never a token", () => {
    const cookies = jar({ "stack-refresh-proj-1": "undefined", "stack-access": JSON.stringify(["undefined", "undefined"]) })
    expect(texts(Cookies.readTokens(cookies, projectId))).toEqual({ accessToken: null, refreshToken: null })
  })
})

describe("writing tokens", () => {
  const write = (tokens: StoredTokens, secure: boolean, existing: Record<string, string> = {}) =>
    Cookies.writeTokens(tokens, { projectId, secure, now: 1_700_000_000_123, existing: jar(existing) }).map(inspect)

  it("writes the refresh cookie as JSON with updated_at_millis from now, for 1 year", () => {
    const [refresh] = write(fromStrings("a", "r"), false)
    expect(refresh?.name).toBe("stack-refresh-proj-1--default")
    expect(JSON.parse(refresh?.value ?? "")).toEqual({ refresh_token: "r", updated_at_millis: 1_700_000_000_123 })
    expect(refresh?.attributes.get("max-age")).toBe("31536000")
    expect(refresh?.attributes.get("path")).toBe("/")
    expect(refresh?.attributes.get("samesite")).toBe("Lax")
    expect(refresh?.attributes.has("secure")).toBe(false)
    expect(refresh?.attributes.has("httponly")).toBe(false)
  })

  it("writes stack-access as [refresh, access] for 1 day", () => {
    const [, access] = write(fromStrings("a", "r"), false)
    expect(access?.name).toBe("stack-access")
    expect(JSON.parse(access?.value ?? "")).toEqual(["r", "a"])
    expect(access?.attributes.get("max-age")).toBe("86400")
  })

  it("uses the __Host- name and Secure on HTTPS", () => {
    const cookies = write(fromStrings("a", "r"), true)
    expect(cookies[0]?.name).toBe("__Host-stack-refresh-proj-1--default")
    expect(cookies.every((cookie) => cookie.attributes.has("secure"))).toBe(true)
  })

  it("deletes with Max-Age=0 when a token is absent", () => {
    const cookies = write(empty, false)
    expect(cookies.map((cookie) => [cookie.name, cookie.attributes.get("max-age")])).toEqual([
      ["stack-refresh-proj-1--default", "0"],
      ["stack-access", "0"]
    ])
    const [, access] = write(fromStrings(undefined, "r"), false)
    expect(access?.attributes.get("max-age")).toBe("0")
  })

  it("deletes every other refresh cookie of the project it can really remove; a --custom- one only for a configured domain, with it", () => {
    const custom = Cookies.customRefreshCookieName(projectId, "example.com")
    const foreign = Cookies.customRefreshCookieName(projectId, "elsewhere.example")
    const existing = {
      "stack-refresh": "x",
      "stack-refresh-proj-1": "x",
      "stack-refresh-proj-1--default": structured("x", 1),
      "__Host-stack-refresh-proj-1--default": structured("x", 1),
      [custom]: structured("x", 1),
      [foreign]: structured("x", 1),
      "stack-refresh-proj-2--default": structured("other project", 1),
      "unrelated": "x"
    }
    const cookies = Cookies.writeTokens(fromStrings("a", "r"), { projectId, secure: true, now, existing: jar(existing), cookieDomains: ["example.com"] })
      .map(inspect)
    const deleted = cookies.filter((cookie) => cookie.attributes.get("max-age") === "0")
    expect(deleted.map((cookie) => cookie.name).sort()).toEqual(
      [custom, "stack-refresh", "stack-refresh-proj-1", "stack-refresh-proj-1--default"].sort()
    )
    expect(deleted.find((cookie) => cookie.name === custom)?.attributes.get("domain")).toBe("example.com")
    expect(deleted.filter((cookie) => cookie.name !== custom).every((cookie) => !cookie.attributes.has("domain"))).toBe(true)
    expect(cookies[0]?.name).toBe("__Host-stack-refresh-proj-1--default")
    expect(cookies[0]?.attributes.get("max-age")).toBe("31536000")
  })

  it("what is written reads back", () => {
    for (const secure of [false, true]) {
      const written = Cookies.writeTokens(fromStrings("a;b=c", "r \"1\""), { projectId, secure, now: 5, existing: new Map() })
      const header = written.filter((cookie) => !cookie.includes("Max-Age=0")).map((cookie) => cookie.split(";")[0]).join("; ")
      expect(texts(Cookies.readTokens(Cookies.parseCookieHeader(header), projectId))).toEqual({
        accessToken: "a;b=c",
        refreshToken: "r \"1\""
      })
    }
  })

  it("OAuth verifier cookie lasts 1 hour; the HTTPS marker is Secure for 1 year", () => {
    const verifier = inspect(Cookies.serializeOAuthVerifier("st", "verifier", false))
    expect([verifier.name, verifier.value, verifier.attributes.get("max-age")]).toEqual(["stack-oauth-outer-st", "verifier", "3600"])
    const marker = inspect(Cookies.serializeIsHttpsMarker())
    expect([marker.name, marker.value, marker.attributes.get("max-age"), marker.attributes.has("secure")]).toEqual([
      "stack-is-https",
      "true",
      "31536000",
      true
    ])
  })
})
