/**
 * Trusted-domain patterns, one table run against both deciders: the SDK's `UrlTrust` (redirects)
 * and the emulator's `TrustedUrls` (callback URLs sent to the service). For every pattern and URL
 * both must give the expected answer: `*` as a whole label and inside a label, `**`, ports, paths,
 * regex metacharacters taken literally (or the pattern trusting nothing), schemes, IDN and
 * upper-case, localhost. Then the service's answer over real HTTP: a project with a wildcard
 * inside a label answers trust checks (200 / REDIRECT_URL_NOT_WHITELISTED), never 500.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"
import type { ProjectRecord } from "../../src/emulator/index.js"
import { isTrustedUrl } from "../../src/emulator/TrustedUrls.js"
import * as UrlTrust from "../../src/urls/UrlTrust.js"
import { startServer } from "../e2e/support.js"

interface Row {
  /** What the row is about. */
  readonly topic: string
  /** The project's one trusted domain (none when undefined). */
  readonly pattern: string | undefined
  readonly allowLocalhost?: boolean
  readonly trusted: ReadonlyArray<string>
  readonly untrusted: ReadonlyArray<string>
}

const table: ReadonlyArray<Row> = [
  {
    topic: "exact host",
    pattern: "https://app.example.com",
    trusted: ["https://app.example.com/", "https://app.example.com/any/path?x=1", "https://APP.Example.COM/x", "https://app.example.com:443/"],
    untrusted: [
      "https://appxexample.com/", // `.` is literal
      "https://app.example.com.evil.com/",
      "https://evil.app.example.com/",
      "https://evil.com/app.example.com",
      "https://evil.com/?https://app.example.com",
      "https://app.example.com@evil.com/",
      "https://user@app.example.com/" // user info is refused by the SDK's check
    ]
  },
  {
    topic: "`*` as a whole label",
    pattern: "https://*.example.com",
    trusted: ["https://a.example.com/", "https://shop-1.example.com/cart", "https://A.EXAMPLE.COM/", "https://xn--bcher-kva.example.com/"],
    untrusted: [
      "https://example.com/",
      "https://.example.com/",
      "https://a.b.example.com/",
      "https://aexample.com/",
      "https://a.example.com.evil.com/",
      "https://a.example.org/"
    ]
  },
  {
    topic: "`*` twice",
    pattern: "https://*.*.org",
    trusted: ["https://mail.example.org/"],
    untrusted: ["https://example.org/", "https://a.b.c.org/"]
  },
  {
    topic: "`**` (one or more labels)",
    pattern: "https://**.example.com",
    trusted: ["https://a.example.com/", "https://a.b.c.example.com/"],
    untrusted: ["https://example.com/", "https://aexample.com/", "https://a.example.com.evil.com/", "https://evil.com/.example.com"]
  },
  {
    topic: "`*` at the start of a label (was a regex error: every check of the project answered 500)",
    pattern: "https://*-api.example.com",
    trusted: ["https://v1-api.example.com/", "https://a-b-api.example.com/x"],
    untrusted: [
      "https://-api.example.com/",
      "https://api.example.com/",
      "https://x.y-api.example.com/",
      "https://v1-api.example.com.evil.com/",
      "https://v1-apixexample.com/"
    ]
  },
  {
    topic: "`*` at the end of a label",
    pattern: "https://api-*.example.com",
    trusted: ["https://api-v1.example.com/"],
    untrusted: ["https://api-.example.com/", "https://api.example.com/", "https://xapi-v1.example.com/", "https://api-v1.a.example.com/"]
  },
  {
    topic: "`*` in the middle of a label (was a regex quantifier: trusted the wrong hosts)",
    pattern: "https://a*b.example.com",
    trusted: ["https://axb.example.com/", "https://a-long-b.example.com/", "https://aab.example.com/"],
    untrusted: ["https://b.example.com/", "https://ab.example.com/", "https://aaa.example.com/", "https://ax.b.example.com/"]
  },
  {
    topic: "`+` is no host character: the pattern trusts nothing",
    pattern: "https://a+.example.com",
    trusted: [],
    untrusted: ["https://a.example.com/", "https://aa.example.com/", "https://a+.example.com/"]
  },
  {
    topic: "`(` and `|` are no host characters: the pattern trusts nothing",
    pattern: "https://(a|b).example.com",
    trusted: [],
    untrusted: ["https://a.example.com/", "https://b.example.com/", "https://(a|b).example.com/"]
  },
  {
    topic: "`[` outside an IPv6 address: the pattern trusts nothing",
    pattern: "https://[ab].example.com",
    trusted: [],
    untrusted: ["https://a.example.com/", "https://b.example.com/"]
  },
  {
    topic: "`?` ends the host, as in any URL",
    pattern: "https://app?.example.com",
    trusted: ["https://app/"],
    untrusted: ["https://app.example.com/", "https://apps.example.com/", "https://ap.example.com/"]
  },
  {
    topic: "`$` and `^` are no host characters",
    pattern: "https://^app$.example.com",
    trusted: [],
    untrusted: ["https://app.example.com/"]
  },
  {
    topic: "user info in the pattern: the pattern trusts nothing",
    pattern: "https://app.example.com@evil.com",
    trusted: [],
    untrusted: ["https://evil.com/", "https://app.example.com/"]
  },
  {
    topic: "the scheme must match",
    pattern: "https://app.example.com",
    trusted: [],
    untrusted: ["http://app.example.com/", "ftp://app.example.com/", "wss://app.example.com/"]
  },
  {
    topic: "an upper-case scheme and host",
    pattern: "HTTPS://APP.Example.COM",
    trusted: ["https://app.example.com/"],
    untrusted: ["http://app.example.com/"]
  },
  {
    topic: "no http(s) scheme: the pattern trusts nothing",
    pattern: "ftp://app.example.com",
    trusted: [],
    untrusted: ["ftp://app.example.com/", "https://app.example.com/", "http://app.example.com/"]
  },
  {
    topic: "no scheme at all: the pattern trusts nothing",
    pattern: "*.example.com",
    trusted: [],
    untrusted: ["https://a.example.com/", "http://a.example.com/"]
  },
  {
    topic: "a path in the pattern does not restrict the match",
    pattern: "https://app.example.com/handler",
    trusted: ["https://app.example.com/handler/sign-in", "https://app.example.com/elsewhere"],
    untrusted: ["https://evil.com/handler"]
  },
  {
    topic: "a wildcard in the path is not a host wildcard",
    pattern: "https://app.example.com/*",
    trusted: ["https://app.example.com/x"],
    untrusted: ["https://a.app.example.com/x"]
  },
  {
    topic: "an explicit port",
    pattern: "http://*.example.com:8080",
    trusted: ["http://a.example.com:8080/"],
    untrusted: ["http://a.example.com/", "http://a.example.com:8081/", "https://a.example.com:8080/"]
  },
  {
    topic: "any port",
    pattern: "https://app.example.com:*",
    trusted: ["https://app.example.com/", "https://app.example.com:8443/"],
    untrusted: ["http://app.example.com:8443/", "https://a.app.example.com:8443/"]
  },
  {
    topic: "the default port written out",
    pattern: "https://app.example.com:443",
    trusted: ["https://app.example.com/", "https://app.example.com:443/x"],
    untrusted: ["https://app.example.com:444/"]
  },
  {
    topic: "without a port, only the default one",
    pattern: "https://app.example.com",
    trusted: [],
    untrusted: ["https://app.example.com:8443/", "https://app.example.com:80/"]
  },
  {
    topic: "a port out of range: the pattern trusts nothing",
    pattern: "https://app.example.com:99999",
    trusted: [],
    untrusted: ["https://app.example.com/"]
  },
  {
    topic: "an IDN pattern matches the punycode host",
    pattern: "https://*.B\u00dcCHER.example",
    trusted: ["https://shop.xn--bcher-kva.example/", "https://SHOP.XN--BCHER-KVA.EXAMPLE/"],
    // a non-ASCII host in the URL itself is refused (homoglyphs): the punycode form is the one to use
    untrusted: ["https://shop.b\u00fccher.example/", "https://shop.bucher.example/", "https://xn--bcher-kva.example/"]
  },
  {
    topic: "a `*` inside a non-ASCII label: the pattern trusts nothing",
    pattern: "https://*-b\u00fccher.example",
    trusted: [],
    untrusted: ["https://x-xn--bcher-kva.example/", "https://xn--x-bcher-u9a.example/"]
  },
  {
    topic: "full-width dots in the pattern are dots",
    pattern: "https://app\uff0eexample\uff0ecom",
    trusted: ["https://app.example.com/"],
    untrusted: ["https://appxexample.com/"]
  },
  {
    topic: "localhost as a trusted domain (allow_localhost off)",
    pattern: "http://localhost:3000",
    allowLocalhost: false,
    trusted: ["http://localhost:3000/"],
    untrusted: ["http://localhost:3001/", "http://localhost/", "http://127.0.0.1:3000/", "https://localhost:3000/"]
  },
  {
    topic: "an IPv6 address as a trusted domain",
    pattern: "http://[::1]:3000",
    allowLocalhost: false,
    trusted: ["http://[::1]:3000/"],
    untrusted: ["http://[::1]:3001/", "http://localhost:3000/"]
  },
  {
    topic: "allow_localhost: any port of a local host",
    pattern: undefined,
    allowLocalhost: true,
    trusted: ["http://localhost:3000/", "http://127.0.0.1:8102/", "http://app.localhost/", "http://[::1]:5173/", "https://localhost/"],
    untrusted: ["http://localhost.evil.com/", "http://127.0.0.1.evil.com/", "https://app.example.com/"]
  },
  {
    topic: "allow_localhost off, no trusted domain",
    pattern: undefined,
    allowLocalhost: false,
    trusted: [],
    untrusted: ["http://localhost:3000/", "http://127.0.0.1:8102/"]
  }
]

const cases = table.flatMap((row) => [
  ...row.trusted.map((url) => ({ row, url, expected: true })),
  ...row.untrusted.map((url) => ({ row, url, expected: false }))
])

let emulator: Emulator.Emulator
const projects = new Map<Row, ProjectRecord>()

beforeAll(async () => {
  emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
  for (const row of table) {
    const credentials = await Effect.runPromise(
      emulator.createProject({
        config: {
          allowLocalhost: row.allowLocalhost ?? false,
          domains: row.pattern === undefined ? [] : [{ domain: row.pattern, handlerPath: "/handler" }]
        }
      })
    )
    projects.set(row, emulator.state.projects.get(credentials.projectId)!)
  }
})

describe("trusted-domain patterns: the SDK's UrlTrust and the emulator give the same answer", () => {
  it("the table covers every kind of pattern with at least 100 pattern × URL cases", () => {
    expect(table.length).toBeGreaterThanOrEqual(25)
    expect(cases.length).toBeGreaterThanOrEqual(100)
  })

  it.each(cases.map((c) => [c.row.pattern ?? "(no domain)", c.expected ? "trusts" : "does not trust", c.url, c] as const))(
    "%s %s %s",
    (_pattern, _verb, url, { row, expected }) => {
      const sdk = UrlTrust.isTrusted(url, {
        trustedDomains: row.pattern === undefined ? [] : [row.pattern],
        allowLocalhost: row.allowLocalhost ?? false
      })
      const service = isTrustedUrl(projects.get(row)!, url)
      expect({ topic: row.topic, sdk, emulator: service }).toEqual({ topic: row.topic, sdk: expected, emulator: expected })
    }
  )

  it("a wildcard inside a label never makes a trust check throw, whatever the other domains", () => {
    const patterns = ["https://*-api.example.com", "https://a*b.example.com", "https://**-x.example.com", "https://*+.example.com", "https://(*).example.com"]
    for (const pattern of patterns) {
      expect(() => UrlTrust.matchesTrustedDomain(new URL("https://v1-api.example.com/"), pattern)).not.toThrow()
    }
    expect(UrlTrust.matchesTrustedDomain(new URL("https://v1-x.example.com/"), "https://**-x.example.com")).toBe(true)
    expect(UrlTrust.matchesTrustedDomain(new URL("https://a.v1-x.example.com/"), "https://**-x.example.com")).toBe(true)
  })
})

describe("the emulator over real HTTP: a project with a wildcard inside a label", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let project: Emulator.ProjectCredentials

  beforeAll(async () => {
    server = await startServer({ passwordHashIterations: 1000 })
    project = await Effect.runPromise(
      server.server.emulator.createProject({
        config: {
          allowLocalhost: false,
          domains: [
            { domain: "https://*-api.example.com", handlerPath: "/handler" },
            { domain: "https://app.example.com", handlerPath: "/handler" }
          ]
        }
      })
    )
  })
  afterAll(async () => {
    await server?.stop()
  })

  const signUp = async (email: string, callbackUrl: string) => {
    const response = await fetch(`${server.server.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": project.projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": project.publishableClientKey
      },
      body: JSON.stringify({ email, password: "correct horse battery", verification_callback_url: callbackUrl })
    })
    return { status: response.status, body: (await response.json()) as { readonly code?: string } }
  }

  it("answers every trust check of the project (trusted: 200, untrusted: REDIRECT_URL_NOT_WHITELISTED), never 500", async () => {
    const answers = [
      await signUp("a@example.com", "https://app.example.com/handler/email-verification"),
      await signUp("b@example.com", "https://v1-api.example.com/handler/email-verification"),
      await signUp("c@example.com", "https://evil.example.com/handler/email-verification"),
      await signUp("d@example.com", "https://api.example.com/handler/email-verification")
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400, 400])
    expect(answers.slice(2).map((answer) => answer.body.code)).toEqual(["REDIRECT_URL_NOT_WHITELISTED", "REDIRECT_URL_NOT_WHITELISTED"])
    expect(server.server.emulator.outbox({ email: "a@example.com" })).toHaveLength(1)
    expect(server.server.emulator.outbox({ email: "c@example.com" })).toHaveLength(0)
  })
})
