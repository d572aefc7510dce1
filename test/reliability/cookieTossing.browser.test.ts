/**
 * Cookie tossing (issue 25 item 1) in the demo app in real Chromium: the app is served over HTTPS
 * at https://www.app.test (a TLS proxy in front of the demo's server; Chromium resolves
 * `*.app.test` to 127.0.0.1), and a page of the sibling subdomain https://evil.app.test plants,
 * with `document.cookie` and `Domain=app.test`, the attacker's real refresh token under the names
 * the SDK reads: the `--custom-` name (of a domain the app is not on, so that a deletion built
 * from the name cannot reach it) with `updated_at_millis` 9e15, the `--default` name and the
 * legacy names. Rules:
 *
 * - the planted cookies never sign the visitor in as the attacker: not when they come, not after
 *   a sign-out;
 * - a sign-in always sticks: after signing out and in again, every page load shows the visitor.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import * as http from "node:http"
import * as https from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Option, Redacted } from "effect"
import { chromium } from "playwright-core"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { RunningDemo } from "../../examples/react-app/server.js"
import * as Password from "../../src/auth/Password.js"
import * as Cookies from "../../src/session/cookies.js"
import * as Stack from "../../src/Stack.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import { startBundledDemo } from "../browser/demoBundle.js"
import { chromiumPath, describeBrowser, recordConsoleErrors } from "../browser/support.js"

const stepTimeout = 60_000

/** A self-signed certificate for `*.app.test` (Chromium is told to accept it). */
const makeCertificate = (): { readonly key: string; readonly cert: string } => {
  const dir = mkdtempSync(join(tmpdir(), "tossing-tls-"))
  try {
    execFileSync("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=app.test",
      "-addext",
      "subjectAltName=DNS:app.test,DNS:*.app.test",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem")
    ], { stdio: "ignore" })
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * An HTTPS front for the demo's app server on 127.0.0.1 (the proxy sends the app's own host name,
 * `Host: localhost:<port>`, as a dev server that answers only its own names needs).
 */
const startTlsProxy = (target: URL): Promise<https.Server> =>
  new Promise((resolve, reject) => {
    const server = https.createServer(makeCertificate(), (request, response) => {
      const upstream = http.request(
        { host: "127.0.0.1", port: target.port, method: request.method, path: request.url, headers: { ...request.headers, host: target.host } },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        }
      )
      upstream.on("error", () => response.destroy())
      request.pipe(upstream)
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

describeBrowser("cookie tossing in the demo app (Chromium, HTTPS)", () => {
  let demo: RunningDemo
  let proxy: https.Server
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let appOrigin: string
  let evilOrigin: string
  let attackerEmail: string
  let attackerSession: (signUp: boolean) => Promise<string>
  let visitorShownAs: string
  const consoleErrors: Array<string> = []

  beforeAll(async () => {
    // the app bundled (test/browser/demoBundle.ts): a page loads its script once, not ~260 modules
    demo = await startBundledDemo()
    proxy = await startTlsProxy(new URL(demo.appUrl))
    const port = (proxy.address() as AddressInfo).port
    appOrigin = `https://www.app.test:${port}`
    evilOrigin = `https://evil.app.test:${port}`

    // the attacker's own account, and a live refresh token of it for each planting (a sign-out of
    // a session the attacker's cookie had taken over ends that session)
    attackerEmail = `attacker-${Date.now()}@example.com`
    const credentials = { email: attackerEmail, password: "attacker password 1" }
    const attackerLayer = Stack.layerClient({
      projectId: demo.projectId,
      publishableClientKey: demo.publishableClientKey,
      baseUrl: demo.emulatorUrl,
      tokenStore: "memory"
    })
    attackerSession = (signUp) =>
      Effect.runPromise(
        Effect.gen(function* () {
          yield* signUp ? Password.signUpWithPassword({ ...credentials, noVerificationCallback: true }) : Password.signInWithPassword(credentials)
          const tokens = yield* (yield* TokenStore).get
          return Option.getOrThrow(Option.map(tokens.refreshToken, Redacted.value))
        }).pipe(Effect.provide(attackerLayer))
      )
    await attackerSession(true)

    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--host-resolver-rules=MAP *.app.test 127.0.0.1"]
    })
    context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1200, height: 860 } })
    context.setDefaultTimeout(20_000)
    // the sibling subdomain's page: any page of its own origin can write cookies for app.test
    await context.route(`${evilOrigin}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>evil</title>" }))
    page = await context.newPage()
    recordConsoleErrors(page, consoleErrors)
    await page.goto(`${appOrigin}/`, { timeout: 150_000 })
    await page.getByRole("heading", { name: "Authentication, as Effects" }).waitFor({ timeout: 150_000 })
  }, 200_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => (proxy === undefined ? resolve(undefined) : proxy.close(resolve)))
    await demo?.close()
  }, 60_000)

  const currentUser = () => page.getByTestId("current-user")

  const signIn = async () => {
    await page.goto(`${appOrigin}/handler/sign-in`)
    const form = page.getByRole("form", { name: "Sign in with password" })
    await form.getByLabel("E-mail").fill(demo.demoUser.email)
    await form.getByLabel("Password").fill(demo.demoUser.password)
    await form.getByRole("button", { name: "Sign in" }).click()
    await currentUser().first().waitFor({ state: "visible" })
  }

  const signOut = async () => {
    await page.goto(`${appOrigin}/handler/sign-out`)
    await page.getByRole("heading", { name: "You are signed out" }).waitFor({ state: "visible" })
  }

  /** Loads the home page and answers who it shows as signed in (`null`: signed out). */
  const shownOnHome = async (): Promise<string | null> => {
    await page.goto(`${appOrigin}/`)
    const signedOut = page.locator(".user-menu").getByRole("link", { name: "Sign in" })
    await Promise.race([currentUser().first().waitFor({ state: "visible" }), signedOut.first().waitFor({ state: "visible" })])
    return (await currentUser().count()) === 0 ? null : (await currentUser().first().innerText()).trim()
  }

  /** The attacker's page on the sibling subdomain plants its refresh token for all of app.test. */
  const plant = async () => {
    const attackerRefresh = await attackerSession(false)
    const evil = await context.newPage()
    await evil.goto(`${evilOrigin}/`)
    const structured = encodeURIComponent(JSON.stringify({ refresh_token: attackerRefresh, updated_at_millis: 9e15 }))
    const assignments = [
      `${Cookies.customRefreshCookieName(demo.projectId, "evil.example")}=${structured}`,
      `${Cookies.refreshCookieName(demo.projectId, false)}=${structured}`,
      `${Cookies.legacyRefreshCookieName(demo.projectId)}=${encodeURIComponent(attackerRefresh)}`,
      `${Cookies.globalLegacyRefreshCookieName}=${encodeURIComponent(attackerRefresh)}`
    ].map((pair) => `${pair}; Domain=app.test; Path=/; Max-Age=31536000; Secure; SameSite=Lax`)
    await evil.evaluate((cookies) => {
      for (const cookie of cookies) document.cookie = cookie
    }, assignments)
    // the precondition of the attack: the app's pages carry the planted cookies, these ones (a
    // page's cookie writes reach the browser's cookie store asynchronously: read until they are there)
    const planted = assignments.map((cookie) => cookie.slice(0, cookie.indexOf(";"))).sort()
    const seen = async () =>
      (await context.cookies(appOrigin)).filter((cookie) => cookie.domain === ".app.test").map((cookie) => `${cookie.name}=${cookie.value}`).sort()
    await expect.poll(seen, { timeout: 30_000 }).toEqual(planted)
    await evil.close()
  }

  it("the visitor signs in as themselves", async () => {
    await signIn()
    visitorShownAs = (await currentUser().first().innerText()).trim()
    expect(visitorShownAs).not.toBe(attackerEmail)
    expect(await shownOnHome()).toBe(visitorShownAs)
  }, stepTimeout)

  it("cookies planted by a sibling subdomain do not sign the visitor in as the attacker", async () => {
    await plant()
    expect(await shownOnHome()).toBe(visitorShownAs)
    await page.reload()
    expect(await shownOnHome()).toBe(visitorShownAs)
  }, stepTimeout)

  it("after a sign-out the planted cookies do not sign the visitor in as the attacker", async () => {
    await signOut()
    expect(await shownOnHome()).toBeNull()
    await plant()
    expect(await shownOnHome()).toBeNull()
  }, stepTimeout)

  it("signing back in sticks, every time, while the planted cookies live", async () => {
    for (let round = 0; round < 2; round++) {
      await plant()
      await signIn()
      expect(await shownOnHome()).toBe(visitorShownAs)
      expect(await shownOnHome()).toBe(visitorShownAs)
      await signOut()
      expect(await shownOnHome()).toBeNull()
    }
    expect(consoleErrors.filter((line) => !line.includes("Failed to load resource"))).toEqual([])
  }, 2 * stepTimeout)
})
