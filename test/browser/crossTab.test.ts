/**
 * Cross-tab session sync in real Chromium (issue 15): two tabs of one origin, each with its own
 * runtime over the browser cookie store, against the emulator over HTTP. A sign-in and a sign-out
 * in one tab reach the other through `BroadcastChannel`, and the other tab reads `document.cookie`
 * only then: none of the 100 ms polling of the official SDK (which stays the fallback, counted
 * below with `crossTab: "poll"`).
 */
import { createServer } from "node:http"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { build } from "esbuild"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import { startServer } from "../e2e/support.js"
import { describeBrowser, launchChromium } from "./support.js"

const password = "correct horse battery"

describeBrowser("cross-tab session sync in Chromium", () => {
  let emulator: Awaited<ReturnType<typeof startServer>>
  let site: Server
  let siteUrl: string
  let browser: Browser
  let context: BrowserContext

  beforeAll(async () => {
    emulator = await startServer({ passwordHashIterations: 1000 })
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL("./crossTab/page.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "silent"
    })
    const script = bundle.outputFiles[0]!.text
    site = createServer((request, response) => {
      if ((request.url ?? "").startsWith("/page.js")) {
        response.writeHead(200, { "content-type": "text/javascript" }).end(script)
        return
      }
      response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>tab</title><script type="module" src="/page.js"></script>`)
    })
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve))
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    browser = await launchChromium()
    context = await browser.newContext()
    // generous: the emulator, the bundle and Chromium start slowly on a loaded machine
    context.setDefaultTimeout(30_000)
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await new Promise<void>((resolve) => (site === undefined ? resolve() : site.close(() => resolve())))
    await emulator?.stop()
  }, 60_000)

  const open = async (crossTab: "broadcast" | "poll"): Promise<Page> => {
    const demo = emulator.server.emulator.demo
    const query = new URLSearchParams({
      projectId: demo.projectId,
      key: demo.publishableClientKey,
      api: emulator.server.baseUrl,
      crossTab
    })
    const page = await context.newPage()
    if (process.env["DEBUG_BROWSER"] === "1") {
      page.on("console", (message) => console.log("console:", message.type(), message.text().slice(0, 300)))
      page.on("pageerror", (error) => console.log("pageerror:", error.message))
    }
    await page.goto(`${siteUrl}/?${query.toString()}`)
    await page.waitForFunction(() => (window as unknown as { crossTab?: { ready: boolean } }).crossTab?.ready === true)
    return page
  }

  type Api = {
    readonly seen: ReadonlyArray<string>
    cookieReads(): number
    signIn(email: string, password: string): Promise<string>
    signOut(): Promise<string>
  }
  const reads = (page: Page) => page.evaluate(() => (window as unknown as { crossTab: Api }).crossTab.cookieReads())
  const seen = (page: Page) => page.evaluate(() => [...(window as unknown as { crossTab: Api }).crossTab.seen])

  it("a sign-in and a sign-out in one tab reach the other tab, which reads no cookie while idle", async () => {
    const email = `tabs-${Date.now()}@example.com`
    const demo = emulator.server.emulator.demo
    await Effect.runPromise(
      Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(
        Effect.provide(
          Stack.layerClient({
            projectId: demo.projectId,
            publishableClientKey: demo.publishableClientKey,
            baseUrl: emulator.server.baseUrl,
            tokenStore: "memory"
          })
        )
      )
    )
    const first = await open("broadcast")
    const second = await open("broadcast")

    const idleStart = await reads(second)
    await second.waitForTimeout(1000)
    expect((await reads(second)) - idleStart).toBe(0)

    await first.evaluate(([user, secret]) => (window as unknown as { crossTab: Api }).crossTab.signIn(user!, secret!), [email, password])
    await second.waitForFunction((user) => (window as unknown as { crossTab: Api }).crossTab.seen.includes(user), email)

    await first.evaluate(() => (window as unknown as { crossTab: Api }).crossTab.signOut())
    await second.waitForFunction(() => (window as unknown as { crossTab: Api }).crossTab.seen.at(-1) === "nobody")
    // the first entry is the session as the tab found it (nobody). The other tab's renderer may
    // show the two cookies of the sign-in one at a time (refresh cookie, then access cookie): two
    // changes of one session, the same user read twice (seen under load), so repeats are merged
    const changes = await seen(second)
    expect(changes.filter((user, index) => index === 0 || user !== changes[index - 1])).toEqual(["nobody", email, "nobody"])
    await first.close()
    await second.close()
  }, 90_000)

  it("the polling fallback (crossTab: 'poll') reads document.cookie about every 100 ms while idle", async () => {
    const page = await open("poll")
    const idleStart = await reads(page)
    // wait for the reads themselves (not a fixed second: a loaded machine runs fewer timers in one)
    await page.waitForFunction((start) => (window as unknown as { crossTab: Api }).crossTab.cookieReads() >= start + 5, idleStart)
    expect((await reads(page)) - idleStart).toBeGreaterThanOrEqual(5)
    await page.close()
  }, 60_000)
})
