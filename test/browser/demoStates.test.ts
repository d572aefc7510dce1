/**
 * Issue 17: the demo app as the reference React app people copy, tried screen by screen in real
 * Chromium against the emulator: messages for people (the error's tag only in a details line),
 * input checked before sending, permission-aware team screens, the network going down, a session
 * revoked on another device, the states that used to be undesigned, keyboard use, every screen at
 * 1280 / 390 / 360 px with axe-core's check, and Vite serving the first page once (on its dev
 * server; the steps use the app bundled, see demoBundle.ts).
 *
 * Each step starts on its own page, from the state it needs: a visitor, or an account of Ada's
 * made through the SDK (a new address each step), signed in by its session's cookies, in a
 * context as a new one is (see resetContext: only its HTTP cache is kept); Bob joins her team,
 * and another device signs in, in new contexts of their own. The steps share
 * the servers and the browser only, so a slow or failed step leaves the others alone.
 * Screenshots: `test-output/screenshots/states-*-{1280,390}.png`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Locator, Page, Request } from "playwright-core"
import { afterAll, afterEach, beforeAll, expect, it } from "vitest"
import { startDemo } from "../../examples/react-app/server.js"
import type { RunningDemo } from "../../examples/react-app/server.js"
import { checkScreen, clearScreenshots, describeBrowser, latestEmail, launchChromium, recordConsoleErrors } from "./support.js"
import type { ScreenReport } from "./support.js"
import { openContext, resetContext, stepResources, uniqueEmail } from "./accounts.js"
import { startBundledDemo } from "./demoBundle.js"
import type { Account } from "./accounts.js"

/** A step: an account made through the SDK, a first page load, the step (generous for a loaded machine). */
const stepTimeout = 90_000

/** How long a poll waits for the page to catch up (generous: the page runs on a loaded machine too). */
const pollTimeout = 30_000
const visible = (locator: Locator) => locator.first().waitFor({ state: "visible" })
const gone = (locator: Locator) => expect.poll(() => locator.count(), { timeout: pollTimeout }).toBe(0)
const containsText = (locator: Locator, text: string) => expect.poll(() => locator.first().innerText(), { timeout: pollTimeout }).toContain(text)

describeBrowser("issue 17: every state of the demo app, for people", () => {
  let demo: RunningDemo
  let browser: Browser
  /** Ada's context: every step has it in the state a new context has (see resetContext). */
  let main: BrowserContext
  let cacheDir: string
  const password = "correct horse battery"
  const consoleErrors: Array<string> = []
  const reports: Array<ScreenReport> = []
  /** Main-frame navigations of the first page load (1 = served once, no Vite reload). */
  let firstLoadNavigations = 0
  /** API requests the pages sent, by path (`POST /api/v1/auth/password/sign-up`). */
  const apiRequests: Array<string> = []
  /** Every request of the pages as `resourceType url`, in order, and those that left the machine's two servers (the app works offline). */
  const requestLog: Array<string> = []
  const elsewhere: Array<string> = []

  const check = async (target: Page, name: string) => {
    reports.push(await checkScreen(target, `states-${name}`))
  }

  beforeAll(async () => {
    clearScreenshots("states-")
    browser = await launchChromium()
    // item 8 on Vite's dev server (what `npm start` serves), with a cold cache of its own: the
    // first load must not make Vite bundle again and reload; its requests and console are recorded
    cacheDir = mkdtempSync(join(tmpdir(), "vite-demo-states-"))
    demo = await startDemo({ port: 0, emulatorPort: 0, watch: false, logLevel: "warn", cacheDir })
    try {
      const cold = await openContext(browser, { baseURL: demo.appUrl, width: 1280, height: 860 })
      const first = await newPage(cold)
      first.on("framenavigated", (frame) => {
        if (frame === first.mainFrame()) firstLoadNavigations++
      })
      await first.goto("/", { timeout: 170_000 })
      await first.getByRole("heading", { name: "Authentication, as Effects" }).waitFor({ timeout: 170_000 })
      await first.waitForLoadState("networkidle", { timeout: 60_000 })
      await cold.close()
    } finally {
      await demo.close()
    }
    // the steps: the app bundled (demoBundle.ts), a page loads its script once instead of Vite's
    // ~260 modules each time; a first load in Ada's context warms its HTTP cache up
    demo = await startBundledDemo()
    main = await openContext(browser, { baseURL: demo.appUrl, width: 1280, height: 860 })
    const warm = await newPage(main)
    await warm.goto("/")
    await warm.getByRole("heading", { name: "Authentication, as Effects" }).waitFor()
  }, 240_000)

  /** `ada`: an account of Ada's (a new address each time; e-mail not verified) in the state the step starts from, signed in in Node only; `newContext`: a second person's or device's. */
  const { ada, newContext, cleanUp } = stepResources(() => ({ demo, browser, main }), { password, width: 1280 })
  afterEach(async () => {
    recorders.clear()
    await cleanUp()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await demo?.close()
    rmSync(cacheDir, { recursive: true, force: true })
  }, 60_000)

  /** The console-error recorder of each page {@link newPage} made. */
  const recorders = new Map<Page, { pause: (paused: boolean) => void }>()

  /** A page of `context` whose console errors and requests are recorded. */
  const newPage = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage()
    recorders.set(page, recordConsoleErrors(page, consoleErrors))
    page.on("request", (request: Request) => {
      requestLog.push(`${request.resourceType()} ${request.url()}`)
      const url = new URL(request.url())
      if (url.origin === demo.emulatorUrl) apiRequests.push(`${request.method()} ${url.pathname}`)
      else if (url.origin !== demo.appUrl && url.protocol !== "data:") elsewhere.push(url.href)
    })
    return page
  }

  /** A step's own context and page (signed in as `account` when given), at `path` when given. */
  const begin = async (account?: Account, path?: string): Promise<{ context: BrowserContext; page: Page; recorder: { pause: (paused: boolean) => void } }> => {
    const context = await resetContext(main, account)
    const page = await newPage(context)
    if (path !== undefined) await page.goto(path)
    return { context, page, recorder: recorders.get(page)! }
  }

  /** Sign-up requests sent since the step began. */
  const countSignUps = () => apiRequests.filter((request) => request === "POST /api/v1/auth/password/sign-up").length
  let signUpsBefore = 0
  const signUpRequests = () => countSignUps() - signUpsBefore

  const signInWithPassword = async (target: Page, address: string, secret: string) => {
    await target.goto("/handler/sign-in")
    const form = target.getByRole("form", { name: "Sign in with password" })
    await form.getByLabel("E-mail").fill(address)
    await form.getByLabel("Password").fill(secret)
    await form.getByRole("button", { name: "Sign in" }).click()
    await visible(target.getByRole("heading", { name: /^Welcome/ }))
  }

  it("item 8: the first page load on a cold Vite cache is served once (every dependency pre-bundled: no reload)", () => {
    expect(firstLoadNavigations).toBe(1)
  })

  it("item 1: sign-up checks the e-mail's shape and the password's length before sending, next to each field", async () => {
    const { page } = await begin()
    signUpsBefore = countSignUps()
    await page.goto("/handler/sign-up")
    const form = page.getByRole("form", { name: "Sign up" })
    await form.getByLabel("E-mail").fill("ada at example")
    await form.getByLabel("Password", { exact: true }).fill("short")
    await form.getByLabel("Repeat password").fill("shorter")
    await form.getByRole("button", { name: "Sign up" }).click()
    await containsText(form.getByRole("alert").nth(0), "Enter an e-mail address like name@example.com.")
    await containsText(form.getByRole("alert").nth(1), "Use at least 8 characters.")
    await containsText(form.getByRole("alert").nth(2), "The passwords do not match.")
    expect(await form.getByLabel("E-mail").getAttribute("aria-invalid")).toBe("true")
    expect(signUpRequests()).toBe(0)
    expect(await page.locator("main").innerText()).not.toContain("Request validation failed")
    await check(page, "01-sign-up-checked")
  }, stepTimeout)

  it("item 1: an e-mail already taken is a sentence with the tag in a details line, and the typed address stays", async () => {
    const email = uniqueEmail("ada")
    const { page } = await begin()
    signUpsBefore = countSignUps()
    await page.goto("/handler/sign-up")
    const form = page.getByRole("form", { name: "Sign up" })
    await form.getByLabel("E-mail").fill(demo.demoUser.email)
    await form.getByLabel("Password", { exact: true }).fill(password)
    await form.getByLabel("Repeat password").fill(password)
    await form.getByRole("button", { name: "Sign up" }).click()
    const alert = form.getByRole("alert")
    await containsText(alert, "An account with this e-mail already exists.")
    await containsText(alert, "Details: UserEmailAlreadyExists")
    expect(signUpRequests()).toBe(1)
    expect(await form.getByLabel("E-mail").inputValue()).toBe(demo.demoUser.email)
    await visible(form.getByRole("link", { name: "Sign in with this e-mail" }))
    await check(page, "02-sign-up-taken")

    await form.getByLabel("E-mail").fill(email)
    await form.getByRole("button", { name: "Sign up" }).click()
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
  }, stepTimeout)

  it("item 5: the sign-in and sign-up pages tell a signed-in user who is signed in instead of showing the form", async () => {
    const account = await ada()
    const { email } = account
    const { page } = await begin(account)
    for (const path of ["/handler/sign-in", "/handler/sign-up"]) {
      await page.goto(path)
      await visible(page.getByRole("heading", { name: "You are already signed in" }))
      await containsText(page.locator("main"), email)
      expect(await page.getByRole("form").count()).toBe(0)
    }
    await check(page, "03-already-signed-in")
  }, stepTimeout)

  it("item 5: the error page shows the app's text for known codes only, never the URL's message, and no 'Back to sign in' to a signed-in user", async () => {
    const { context, page } = await begin(await ada())
    await page.goto(`/handler/error?errorCode=SIGN_UP_NOT_ENABLED&message=${encodeURIComponent("Your account was hacked, call 555")}`)
    await containsText(page.getByRole("alert"), "New accounts cannot be created here at the moment.")
    await page.goto(`/handler/error?errorCode=MADE_UP_CODE&message=${encodeURIComponent("Your account was hacked, call 555")}`)
    await containsText(page.getByRole("alert"), "Something went wrong")
    expect(await page.locator("main").innerText()).not.toContain("hacked")
    expect(await page.getByRole("link", { name: "Back to sign in" }).count()).toBe(0)
    await visible(page.locator("main").getByRole("link", { name: "Home" }))
    // not even while the user is still being read: a page of its own records every link it ever showed
    const probe = await context.newPage()
    try {
      await probe.addInitScript(() => {
        const seen = window as unknown as { offeredSignIn: boolean }
        seen.offeredSignIn = false
        new MutationObserver(() => {
          for (const link of document.querySelectorAll("a")) if (link.textContent?.trim() === "Back to sign in") seen.offeredSignIn = true
        }).observe(document, { childList: true, subtree: true, characterData: true })
      })
      await probe.goto("/handler/error?errorCode=MADE_UP_CODE")
      await probe.waitForLoadState("networkidle")
      await visible(probe.locator("main").getByRole("link", { name: "Home" }))
      expect(await probe.evaluate(() => (window as unknown as { offeredSignIn: boolean }).offeredSignIn)).toBe(false)
    } finally {
      await probe.close()
    }
    await check(page, "04-error-page")
  }, stepTimeout)

  it("item 1: a wrong current password on Change password says so, and what was typed stays", async () => {
    const { page } = await begin(await ada())
    await page.goto("/handler/account-settings")
    const form = page.getByRole("form", { name: "Password" })
    await form.getByLabel("Current password").fill("not my password")
    await form.getByLabel("New password").fill("another long password")
    await form.getByRole("button", { name: "Change password" }).click()
    const alert = form.getByRole("alert")
    await containsText(alert, "Your current password is not correct.")
    await containsText(alert, "PasswordConfirmationMismatch")
    expect(await alert.innerText()).not.toContain("Passwords do not match")
    expect(await form.getByLabel("Current password").inputValue()).toBe("not my password")
    expect(await form.getByLabel("New password").inputValue()).toBe("another long password")
    await check(page, "05-account-settings")
  }, stepTimeout)

  it("item 5: Verify on a second e-mail says where the link went; a malformed address is refused before sending", async () => {
    const { page } = await begin(await ada(), "/handler/account-settings")
    const add = page.getByRole("form", { name: "Add an e-mail" })
    const before = apiRequests.length
    await add.getByLabel("Add an e-mail").fill("second@")
    await add.getByRole("button", { name: "Add" }).click()
    await containsText(add.getByRole("alert"), "Enter an e-mail address like name@example.com.")
    expect(apiRequests.slice(before).filter((request) => request.startsWith("POST /api/v1/contact-channels"))).toEqual([])
    const second = `second-${Date.now()}@example.com`
    await add.getByLabel("Add an e-mail").fill(second)
    await add.getByRole("button", { name: "Add" }).click()
    await containsText(page.getByRole("list", { name: "E-mail addresses" }), second)
    await page.getByRole("button", { name: `Verify ${second}` }).click()
    await visible(page.getByText(`We sent a verification link to ${second}`))
    await latestEmail(demo.emulatorUrl, second, "/handler/email-verification")

    // the emulator's outbox as a page for people: the e-mail with a link to click
    await page.goto(`${demo.emulatorUrl}/api/v1/emulator/outbox/page?email=${encodeURIComponent(second)}`)
    await visible(page.getByRole("heading", { name: "Outbox" }))
    await containsText(page.locator("li").first(), second)
    await check(page, "05a-outbox")
    await page.getByRole("link", { name: "Open the link" }).first().click()
    await page.waitForURL((url) => url.href.startsWith(demo.appUrl) && url.pathname === "/handler/email-verification")
    await page.getByRole("button", { name: "Verify my e-mail" }).click()
    await visible(page.getByText("Your e-mail address is verified."))
    await page.goto("/handler/account-settings")
  }, stepTimeout)

  it("item 5: TOTP setup shows a QR code drawn in the page (an inline SVG: no request for it)", async () => {
    const { page } = await begin(await ada(), "/handler/account-settings")
    await page.waitForLoadState("networkidle")
    const before = requestLog.length
    await page.getByRole("button", { name: "Set up an authenticator app" }).click()
    const qr = page.getByTestId("totp-qr")
    await visible(qr)
    expect(await qr.evaluate((element) => element.tagName.toLowerCase())).toBe("svg")
    expect((await qr.locator("path").getAttribute("d"))?.length ?? 0).toBeGreaterThan(100)
    // the session may read the user or refresh its token meanwhile (calls to the emulator's API);
    // the QR code itself is no request: no image, no document, nothing from the app's server
    const apiCall = (entry: string) => /^(fetch|xhr) /.test(entry) && entry.includes(`${demo.emulatorUrl}/api/`)
    expect(requestLog.slice(before).filter((entry) => !apiCall(entry))).toEqual([])
    await page.getByRole("form", { name: "Set up two-factor authentication" }).scrollIntoViewIfNeeded()
    await check(page, "06-totp-qr")
    await page.getByRole("button", { name: "Cancel" }).click()
    await gone(qr)
  }, stepTimeout)

  it("item 5: the 'copy it now' banner of a new API key goes when that key is revoked", async () => {
    const { page } = await begin(await ada(), "/handler/account-settings")
    const create = page.getByRole("form", { name: "Create an API key" })
    await create.getByLabel("Key description").fill("Laptop script")
    await create.getByRole("button", { name: "Create key" }).click()
    await visible(page.getByTestId("new-api-key"))
    await page.getByRole("button", { name: "Revoke Laptop script" }).click()
    await gone(page.getByTestId("new-api-key"))
    await containsText(page.getByRole("list", { name: "API keys" }), "Revoked")
  }, stepTimeout)

  it("item 1: a bad CLI login code is a sentence with the typed error's tag, inside its card", async () => {
    const { page } = await begin(await ada())
    await page.goto("/handler/cli-auth-confirm?login_code=not-a-real-code-0123456789")
    await page.getByRole("button", { name: "Authorize CLI" }).click()
    const alert = page.getByRole("alert")
    await containsText(alert, "This login link is not valid or has expired.")
    await containsText(alert, "CliInvalidLoginCode")
    expect(await alert.innerText()).not.toContain("http")
    expect(await alert.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0)
    expect(await page.getByRole("button", { name: "Authorize CLI" }).count()).toBe(0)
    await check(page, "07-cli-bad-code")
  }, stepTimeout)

  it("item 1: a bogus reset link says so before any password is typed", async () => {
    const { page } = await begin(await ada())
    await page.goto("/handler/password-reset?code=bogus")
    await visible(page.getByRole("heading", { name: "This reset link cannot be used" }))
    await containsText(page.getByRole("alert"), "This reset link is not valid. Ask for a new one.")
    expect(await page.getByLabel("New password").count()).toBe(0)
    await visible(page.getByRole("link", { name: "Ask for a new link" }))
    await check(page, "08-reset-link-bad")
  }, stepTimeout)

  it("item 2: team screens follow the user's permissions, by readable names; a member joining is switched to the team", async () => {
    const { page } = await begin(await ada())
    await page.goto("/teams")
    const create = page.getByRole("form", { name: "Create a team", exact: true })
    await create.getByLabel("Team name").fill("Difference Engines")
    await create.getByRole("button", { name: "Create team" }).click()
    await visible(page.getByRole("heading", { name: "Difference Engines" }))
    const permissions = page.getByTestId("team-permissions")
    await containsText(permissions, "Manage team API keys")
    expect(await permissions.innerText()).not.toContain("$")
    await visible(page.getByRole("button", { name: "Create team key" }))
    await visible(page.getByRole("button", { name: "Delete Difference Engines…" }))

    const bobEmail = `bob-${Date.now()}@example.com`
    const invite = page.getByRole("form", { name: "Invite a member" })
    await invite.getByLabel("E-mail to invite").fill(bobEmail)
    await invite.getByRole("button", { name: "Send invitation" }).click()
    await visible(page.getByText(`Invitation sent to ${bobEmail}.`))
    await check(page, "09-team-owner")

    const mail = await latestEmail(demo.emulatorUrl, bobEmail, "/handler/team-invitation")
    const bobContext = await newContext()
    try {
      const bob = await bobContext.newPage()
      recordConsoleErrors(bob, consoleErrors)
      await bob.goto("/handler/sign-up")
      const form = bob.getByRole("form", { name: "Sign up" })
      await form.getByLabel("E-mail").fill(bobEmail)
      await form.getByLabel("Password", { exact: true }).fill(password)
      await form.getByLabel("Repeat password").fill(password)
      await form.getByRole("button", { name: "Sign up" }).click()
      await visible(bob.getByRole("heading", { name: /^Welcome/ }))
      await bob.goto(mail.link!)
      await bob.getByRole("button", { name: "Join Difference Engines" }).click()
      await bob.waitForURL((url) => url.pathname === "/teams")
      // the joined team is the current one (not "No team selected")
      await visible(bob.getByRole("heading", { name: "Difference Engines" }))
      expect(await bob.getByText("No team selected").count()).toBe(0)
      // a member without $manage_api_keys is not offered team keys, and sees no error about them
      await containsText(bob.getByTestId("team-permissions"), "Invite members")
      expect(await bob.getByRole("button", { name: "Create team key" }).count()).toBe(0)
      expect(await bob.locator("main").innerText()).not.toContain("ApiKeyNotFound")
      expect(await bob.locator("main").innerText()).not.toContain("$")
      expect(await bob.getByRole("button", { name: /^Delete / }).count()).toBe(0)
      expect(await bob.getByRole("button", { name: /^Permissions of/ }).count()).toBe(0)
      await check(bob, "10-team-member")

      // Ada, a team admin, grants Bob "Manage team API keys" through the app's backend; Bob gets the team keys
      await page.reload()
      const bobRow = page.getByRole("list", { name: "Members" }).locator("li").filter({ hasNotText: "You" })
      await bobRow.getByRole("button", { name: /^Permissions of/ }).click()
      const keys = bobRow.getByRole("checkbox", { name: "Manage team API keys" })
      expect(await keys.isChecked()).toBe(false)
      // the box shows the granted state: it changes once the backend answered
      await keys.click()
      try {
        await expect.poll(() => keys.isChecked(), { timeout: pollTimeout }).toBe(true)
      } catch (error) {
        throw new Error(`${String(error)}\nThe member's row shows:\n${await bobRow.innerText()}`)
      }
      await check(page, "17-member-permissions")
      await bob.reload()
      await visible(bob.getByRole("button", { name: "Create team key" }))
      await keys.click()
      await expect.poll(() => keys.isChecked(), { timeout: pollTimeout }).toBe(false)
      await bob.reload()
      await visible(bob.getByRole("heading", { name: "Difference Engines" }))
      await gone(bob.getByRole("button", { name: "Create team key" }))
    } finally {
      await bobContext.close()
    }
  }, 120_000)

  it("item 2: the app's backend refuses a permission change without a valid access token (401), whatever the ids", async () => {
    const path = "/app-api/teams/00000000-0000-4000-8000-000000000000/members/00000000-0000-4000-8000-000000000001/permissions/team_admin"
    const anonymous = await fetch(`${demo.appUrl.replace("localhost", "127.0.0.1")}${path}`, { method: "POST" })
    expect(anonymous.status).toBe(401)
    const forged = await fetch(`${demo.appUrl.replace("localhost", "127.0.0.1")}${path}`, { method: "POST", headers: { authorization: "Bearer not.a.token" } })
    expect(forged.status).toBe(401)
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("NotSignedIn")
  }, stepTimeout)

  it("item 2: the owner deletes a team after typing its name", async () => {
    // Ada is in a team already (the list of her teams stays when the new one goes)
    const { page } = await begin(await ada({ team: "Difference Engines" }))
    await page.goto("/teams")
    const create = page.getByRole("form", { name: "Create a team", exact: true })
    await create.getByLabel("Team name").fill("Scratch team")
    await create.getByRole("button", { name: "Create team" }).click()
    await visible(page.getByRole("heading", { name: "Scratch team" }))
    await page.getByRole("button", { name: "Delete Scratch team…" }).click()
    const confirm = page.getByRole("form", { name: "Confirm team deletion" })
    const final = confirm.getByRole("button", { name: "Delete the team for good" })
    expect(await final.isDisabled()).toBe(true)
    await confirm.getByLabel("Type the team's name to confirm").fill("Scratch team")
    await final.click()
    await gone(page.getByRole("heading", { name: "Scratch team" }))
    await expect.poll(() => page.getByRole("list", { name: "Your teams" }).innerText(), { timeout: pollTimeout }).not.toContain("Scratch team")
  }, stepTimeout)

  it("item 3: with the API unreachable the page says so at the first failed attempt, keeps the user, never shows signed-out, and Retry recovers", async () => {
    const account = await ada()
    const { email } = account
    const { context, page, recorder } = await begin(account, "/teams")
    // the page has read the user and settled (nothing in flight when the network goes down)
    await visible(page.getByTestId("current-user"))
    await page.waitForLoadState("networkidle")
    recorder.pause(true)
    let refused = 0
    const isApi = (url: URL) => url.origin === demo.emulatorUrl
    await context.route(isApi, (route) => {
      refused++
      return route.abort("connectionrefused")
    })
    try {
      // a screen that reads: the banner comes with the first refused attempt, not after the SDK's retries
      await page.getByRole("link", { name: "Account settings" }).click()
      const banner = page.getByTestId("connectivity-banner")
      await visible(banner)
      expect(refused).toBeLessThanOrEqual(4)
      await containsText(banner, "We can't reach the server.")
      await containsText(page.getByTestId("current-user"), email)
      await check(page, "11-network-down")

      // a reload while the API is down: still never the signed-out landing page
      refused = 0
      await page.reload()
      await visible(page.getByTestId("connectivity-banner"))
      expect(refused).toBeLessThanOrEqual(2)
      expect(await page.getByRole("heading", { name: "Authentication, as Effects" }).count()).toBe(0)
      expect(await page.getByRole("link", { name: "Sign up" }).count()).toBe(0)
    } finally {
      await context.unroute(isApi)
    }
    // the API is back, but its answers wait for the click: on a slow machine one of the SDK's own
    // retries would otherwise bring the page back first and take the button away
    let retried: () => void = () => undefined
    const clicked = new Promise<void>((resolve) => (retried = resolve))
    await context.route(isApi, async (route) => {
      await clicked
      await route.continue()
    })
    await page.getByRole("button", { name: "Retry now" }).click()
    retried()
    await gone(page.getByTestId("connectivity-banner"))
    await containsText(page.getByTestId("current-user"), email)
    recorder.pause(false)
  }, 120_000)

  it("item 6: a session revoked on another device signs this one out as soon as the tab comes back into view", async () => {
    const account = await ada()
    const { email } = account
    // the first device: signed in, showing the user
    const { page } = await begin(account, "/")
    await visible(page.getByTestId("current-user"))
    const other = await newContext()
    try {
      const device = await other.newPage()
      recordConsoleErrors(device, consoleErrors)
      await signInWithPassword(device, email, password)
      await device.goto("/handler/account-settings#sessions")
      const sessions = device.getByRole("list", { name: "Active sessions" })
      await containsText(sessions, "Other device")
      // revoke every other device (the first page's session among them)
      const revokeButtons = sessions.getByRole("button", { name: "Revoke" })
      for (let left = await revokeButtons.count(); left > 0; left--) {
        await revokeButtons.first().click()
        await expect.poll(() => revokeButtons.count(), { timeout: pollTimeout }).toBe(left - 1)
      }
    } finally {
      await other.close()
    }
    // the first device: still showing the user until it asks the service again
    await containsText(page.getByTestId("current-user"), email)
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")))
    await visible(page.getByText("You were signed out: this session was ended from another device."))
    await gone(page.getByTestId("current-user"))
    await check(page, "12-session-revoked")
  }, stepTimeout)

  it("item 7: sign-in works with the keyboard alone, with a visible focus ring", async () => {
    const { email } = await ada()
    const { page } = await begin()
    await page.goto("/handler/sign-in")
    const emailField = page.getByRole("form", { name: "Sign in with password" }).getByLabel("E-mail")
    let tabs = 0
    while (!(await emailField.evaluate((element) => element === document.activeElement)) && tabs < 30) {
      await page.keyboard.press("Tab")
      tabs++
    }
    expect(tabs).toBeLessThan(30)
    expect(await emailField.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe("none")
    await page.keyboard.type(email)
    await page.keyboard.press("Tab")
    await page.keyboard.type(password)
    await page.keyboard.press("Enter")
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
  }, stepTimeout)

  it("item 5: the magic-link page takes the code from the e-mail", async () => {
    const { page } = await begin(await ada(), "/")
    await page.getByRole("link", { name: "Sign out" }).click()
    await visible(page.getByRole("heading", { name: "You are signed out" }))
    await page.goto("/handler/sign-in")
    // a new address: the magic link signs up (Ada's own address is not verified, so the service
    // would not let a code sign in to it)
    const newcomer = `grace-${Date.now()}@example.com`
    const form = page.getByRole("form", { name: "Sign in with a magic link" })
    await form.getByLabel("E-mail for the magic link").fill(newcomer)
    await form.getByRole("button", { name: "Send magic link" }).click()
    const codeForm = page.getByRole("form", { name: "Sign in with the e-mailed code" })
    await visible(codeForm).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\nThe page shows:\n${await page.locator("main").innerText()}`)
    })
    await check(page, "13-magic-link-code")
    const mail = await latestEmail(demo.emulatorUrl, newcomer, "/handler/magic-link-callback")
    const otp = /code is (\w{6})/.exec(mail.subject)?.[1]
    expect(otp).toMatch(/^\w{6}$/)
    await codeForm.getByLabel("Code from the e-mail").fill(otp!)
    await codeForm.getByRole("button", { name: "Sign in with the code" }).click()
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
  }, stepTimeout)

  it("item 5: denying at the OAuth provider ends on a page titled 'You are not signed in', with a way back", async () => {
    const { page } = await begin(await ada(), "/")
    await page.getByRole("link", { name: "Sign out" }).click()
    await visible(page.getByRole("heading", { name: "You are signed out" }))
    await page.goto("/handler/sign-in")
    await page.getByRole("button", { name: "Continue with GitHub" }).click()
    await page.waitForURL((url) => url.href.startsWith(demo.emulatorUrl))
    // the emulator's mock provider: a small page that fits a phone, with its two choices
    await visible(page.getByRole("heading", { name: "Sign in with github" }))
    await check(page, "14a-oauth-provider")
    await page.getByRole("button", { name: "Deny" }).click()
    await page.waitForURL((url) => url.href.startsWith(demo.appUrl))
    await visible(page.getByRole("heading", { name: "You are not signed in" }))
    await containsText(page.getByRole("alert"), "You did not allow the sign-in at your provider.")
    await visible(page.getByRole("link", { name: "Back to sign in" }))
    await check(page, "14-oauth-denied")
    // Back to the provider's page after answering: it says the request is used and leads back
    await page.goBack()
    await page.waitForURL((url) => url.href.startsWith(demo.emulatorUrl))
    await containsText(page.getByRole("alert"), "You already answered this sign-in request.")
    expect(await page.getByRole("button", { name: "Authorize" }).count()).toBe(0)
    await check(page, "14b-oauth-provider-answered")
    await page.getByRole("link", { name: "Back to the app" }).click()
    await page.waitForURL((url) => url.href.startsWith(demo.appUrl))
  }, stepTimeout)

  it("item 5: the demo password does not wrap at its hyphens", async () => {
    const { page } = await begin()
    await page.goto("/")
    for (const width of [1280, 390, 360]) {
      await page.setViewportSize({ width, height: 800 })
      const lines = await page.getByText(demo.demoUser.password, { exact: true }).first().evaluate((element) => element.getClientRects().length)
      expect(lines).toBe(1)
    }
    await page.setViewportSize({ width: 1280, height: 860 })
    await check(page, "15-home-visitor")
  }, stepTimeout)

  it("item 5: deleting the account takes a second step where the e-mail is typed", async () => {
    const { email } = await ada()
    const { page } = await begin()
    await signInWithPassword(page, email, password)
    await page.goto("/handler/account-settings#danger")
    await page.getByRole("button", { name: "Delete my account…" }).click()
    const confirm = page.getByRole("form", { name: "Confirm account deletion" })
    const final = confirm.getByRole("button", { name: "Delete my account for good" })
    expect(await final.isDisabled()).toBe(true)
    await confirm.getByLabel("Type your e-mail address to confirm").fill("someone-else@example.com")
    expect(await final.isDisabled()).toBe(true)
    await check(page, "16-delete-account")
    await confirm.getByLabel("Type your e-mail address to confirm").fill(email)
    await final.click()
    await visible(page.getByRole("heading", { name: "Authentication, as Effects" }))
  }, stepTimeout)

  it("item 4 and 7: every screen here fits 360 px without sideways scroll and has 0 serious accessibility violations (axe-core)", () => {
    expect(reports.length).toBe(20)
    expect(
      reports
        .filter((report) => report.overflow.narrow > 0 || report.overflow.phone > 0)
        .map((report) => `${report.name}: ${report.overflow.narrow} px at 360, ${report.overflow.phone} px at 390`)
    ).toEqual([])
    expect(reports.flatMap((report) => report.violations.map((violation) => `${report.name}: ${violation.id} ${violation.targets.join(", ")}`))).toEqual([])
  })

  it("logged no console error and threw no uncaught exception (outside the step that cuts the network)", () => {
    expect(consoleErrors).toEqual([])
  })

  it("sent no request anywhere but the app and the emulator (offline end to end: fonts, QR code and all)", () => {
    expect(requestLog.length).toBeGreaterThan(50)
    expect(elsewhere).toEqual([])
  })
})
