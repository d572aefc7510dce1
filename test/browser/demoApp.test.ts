/**
 * The demo app (examples/react-app) in real Chromium against the emulator: the journey of a user
 * from sign-up to CLI login, one step per test. The steps share the servers and the browser only:
 * each starts on its own page with the cookies of the state it needs (none, or an account made
 * through the SDK and signed in by its session's cookies) in a context as a new one is (see
 * resetContext: only its HTTP cache is kept), so a slow or failed step leaves the others alone. Screenshots of the main screens go to `test-output/screenshots/`.
 */
import { Effect, Option, Redacted } from "effect"
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, expect, it } from "vitest"
import * as Cli from "../../src/auth/Cli.js"
import * as Totp from "../../src/auth/Totp.js"
import * as Stack from "../../src/Stack.js"
import type { RunningDemo } from "../../examples/react-app/server.js"
import {
  addVirtualAuthenticator,
  checkScreen,
  clearScreenshots,
  decodeBase32,
  describeBrowser,
  latestEmail,
  launchChromium,
  recordConsoleErrors
} from "./support.js"
import type { ScreenReport } from "./support.js"
import { openContext, resetContext, stepResources, totpCode, uniqueEmail } from "./accounts.js"
import { startBundledDemo } from "./demoBundle.js"
import type { Account } from "./accounts.js"

/** A step: an account made through the SDK, a first page load, the step (generous for a loaded machine). */
const stepTimeout = 90_000

const visible = (locator: Locator) => locator.first().waitFor({ state: "visible" })
/** How long a poll waits for the page to catch up (generous: the page runs on a loaded machine too). */
const pollTimeout = 30_000
const gone = (locator: Locator) => expect.poll(() => locator.count(), { timeout: pollTimeout }).toBe(0)
const containsText = (locator: Locator, text: string) => expect.poll(() => locator.first().innerText(), { timeout: pollTimeout }).toContain(text)
const hasText = (locator: Locator, text: string) => expect.poll(() => locator.first().innerText(), { timeout: pollTimeout }).toBe(text)

describeBrowser("the demo app in Chromium", () => {
  let demo: RunningDemo
  let browser: Browser
  /** Ada's context: every step has it in the state a new context has (see resetContext). */
  let main: BrowserContext
  const password = "correct horse battery"
  const dialogs: Array<string> = []
  const consoleErrors: Array<string> = []
  const reports: Array<ScreenReport> = []

  beforeAll(async () => {
    clearScreenshots("journey-")
    // the app bundled (demoBundle.ts): a page loads its script once, not Vite's ~260 modules each time
    demo = await startBundledDemo()
    browser = await launchChromium()
    // warm-up: load the app once, so that no step pays for the first load
    main = await openContext(browser, { baseURL: demo.appUrl, width: 1200, height: 860 })
    const page = await main.newPage()
    await page.goto("/", { timeout: 150_000 })
    await page.getByRole("heading", { name: "Authentication, as Effects" }).waitFor({ timeout: 150_000 })
  }, 240_000)

  /** `ada`: an account of Ada's (a new address each time) in the state the step starts from; `newContext`: a second person's. */
  const { ada, newContext, cleanUp } = stepResources(() => ({ demo, browser, main }), { password, width: 1200 })
  afterEach(cleanUp, 60_000)

  afterAll(async () => {
    await browser?.close()
    await demo?.close()
  }, 60_000)

  /** A page of `context` whose console errors and dialogs are recorded. */
  const newPage = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage()
    recordConsoleErrors(page, consoleErrors)
    if (process.env["DEBUG_BROWSER"] === "1") {
      page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 300)))
      page.on("pageerror", (e) => console.log("pageerror:", e.message))
      page.on("request", (r) => {
        if (r.url().includes("/api/") || r.isNavigationRequest()) console.log("req:", r.method(), r.url().slice(0, 120))
      })
      page.on("framenavigated", (f) => console.log("nav:", f.url().slice(0, 120)))
    }
    // an unhandled failure would show an alert (the provider's default): record it, fail later
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    return page
  }

  /** A step's own page (and cookies) at `path`, signed in as `account` when given. */
  const start = async (path: string, account?: Account): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await resetContext(main, account)
    const page = await newPage(context)
    await page.goto(path)
    return { context, page }
  }

  const signInWithPassword = async (page: Page, address: string, secret: string) => {
    await page.goto("/handler/sign-in")
    const form = page.getByRole("form", { name: "Sign in with password" })
    await form.getByLabel("E-mail").fill(address)
    await form.getByLabel("Password").fill(secret)
    await form.getByRole("button", { name: "Sign in" }).click()
  }

  const signOut = async (page: Page) => {
    await page.getByRole("link", { name: "Sign out" }).click()
    await visible(page.getByRole("heading", { name: "You are signed out" }))
  }

  it("serves the home page to a visitor", async () => {
    const { page } = await start("/")
    await visible(page.getByRole("heading", { name: "Authentication, as Effects" }))
    reports.push(await checkScreen(page, "journey-01-home-visitor"))
  }, stepTimeout)

  it("signs up with e-mail and password", async () => {
    const email = uniqueEmail("ada")
    const { page } = await start("/")
    await page.getByRole("link", { name: "Sign up" }).first().click()
    const form = page.getByRole("form", { name: "Sign up" })
    await form.getByLabel("E-mail").fill(email)
    await form.getByLabel("Password", { exact: true }).fill(password)
    await form.getByLabel("Repeat password").fill(password)
    reports.push(await checkScreen(page, "journey-02-sign-up"))
    await form.getByRole("button", { name: "Sign up" }).click()
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
    await visible(page.getByText(`Please verify ${email}`))
    expect(new URL(page.url()).pathname).toBe("/")
    reports.push(await checkScreen(page, "journey-03-home-unverified"))
  }, stepTimeout)

  it("verifies the e-mail with the link from the emulator's outbox", async () => {
    // signed up (through the SDK, with the app's verification page), signed in, not verified yet
    const account = await ada()
    const { email } = account
    const { page } = await start("/", account)
    await visible(page.getByText(`Please verify ${email}`))
    const mail = await latestEmail(demo.emulatorUrl, email, "/handler/email-verification")
    const link = new URL(mail.link!)
    expect(link.origin).toBe(demo.appUrl)
    expect(link.searchParams.get("code")).toMatch(/\S+/)
    await page.goto(link.href)
    reports.push(await checkScreen(page, "journey-04-email-verification"))
    await page.getByRole("button", { name: "Verify my e-mail" }).click()
    await visible(page.getByText("Your e-mail address is verified."))
    await page.getByRole("link", { name: "Continue" }).click()
    await gone(page.getByText(`Please verify ${email}`))
  }, stepTimeout)

  it("signs out", async () => {
    const { page } = await start("/", await ada({ verified: true }))
    await signOut(page)
    reports.push(await checkScreen(page, "journey-05-signed-out"))
    await page.getByRole("link", { name: "Back to home" }).click()
    await visible(page.getByRole("heading", { name: "Authentication, as Effects" }))
  }, stepTimeout)

  it("shows a wrong password's typed error by its message, then signs in", async () => {
    const { email } = await ada({ verified: true })
    const { page } = await start("/")
    await signInWithPassword(page, email, "not the password")
    const alert = page.getByRole("alert")
    await containsText(alert, "Wrong e-mail or password.")
    await containsText(alert, "EmailPasswordMismatch")
    reports.push(await checkScreen(page, "journey-06-sign-in-error"))
    const form = page.getByRole("form", { name: "Sign in with password" })
    await form.getByLabel("Password").fill(password)
    await form.getByRole("button", { name: "Sign in" }).click()
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
    await hasText(page.getByTestId("current-user"), email)
  }, stepTimeout)

  it("after sign-in, an after_auth_return_to that leaves the app (/..//evil.example) stays on the app's origin", async () => {
    const account = await ada({ verified: true })
    const { email } = account
    const { context, page } = await start("/", account)
    // any request to the attacker's host would be counted (and answered here, never by the network)
    const evilRequests: Array<string> = []
    const isEvil = (url: URL) => url.hostname === "evil.example" || url.hostname.endsWith(".evil.example")
    await context.route(isEvil, (route) => {
      evilRequests.push(route.request().url())
      return route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" })
    })
    try {
      await signOut(page)
      await page.goto("/handler/sign-in?after_auth_return_to=/..//evil.example")
      const form = page.getByRole("form", { name: "Sign in with password" })
      await form.getByLabel("E-mail").fill(email)
      await form.getByLabel("Password").fill(password)
      await form.getByRole("button", { name: "Sign in" }).click()
      // wait for whichever comes first: the app's home page, or the attacker's page
      await page.waitForURL((url) => isEvil(url) || url.pathname === "/")
      expect(evilRequests).toEqual([])
      await visible(page.getByRole("heading", { name: /^Welcome/ }))
      await hasText(page.getByTestId("current-user"), email)
      const landed = new URL(page.url())
      expect(landed.origin).toBe(demo.appUrl)
      expect(landed.pathname).toBe("/")
      expect(evilRequests).toEqual([])

      // a return path of the app itself is still followed
      await signOut(page)
      await page.goto(`/handler/sign-in?after_auth_return_to=${encodeURIComponent("/handler/account-settings")}`)
      const again = page.getByRole("form", { name: "Sign in with password" })
      await again.getByLabel("E-mail").fill(email)
      await again.getByLabel("Password").fill(password)
      await again.getByRole("button", { name: "Sign in" }).click()
      await page.waitForURL((url) => url.pathname === "/handler/account-settings")
      await hasText(page.getByTestId("current-user"), email)
      expect(new URL(page.url()).origin).toBe(demo.appUrl)
      expect(evilRequests).toEqual([])
    } finally {
      await context.unroute(isEvil)
    }
  }, stepTimeout)

  it("changes the display name in account settings", async () => {
    const { page } = await start("/", await ada({ verified: true }))
    await page.getByRole("link", { name: "Account settings" }).click()
    const profile = page.getByRole("form", { name: "Profile" })
    await profile.getByLabel("Display name").fill("Ada Lovelace")
    await profile.getByRole("button", { name: "Save profile" }).click()
    await hasText(page.getByTestId("current-user"), "Ada Lovelace")
    reports.push(await checkScreen(page, "journey-07-account-settings"))
  }, stepTimeout)

  it("turns on TOTP two-factor authentication and signs in again with a generated code", async () => {
    const account = await ada({ verified: true, displayName: "Ada Lovelace" })
    const { email } = account
    const { page } = await start("/handler/account-settings", account)
    await page.getByRole("button", { name: "Set up an authenticator app" }).click()
    const setup = page.getByRole("form", { name: "Set up two-factor authentication" })
    const totpSecret = decodeBase32(await page.getByTestId("totp-secret").innerText())
    const totpNow = () => Effect.runPromise(Totp.generate(totpSecret))
    expect(totpSecret.length).toBe(20)
    await setup.getByLabel("Code from the app").fill("000000" === (await totpNow()) ? "111111" : "000000")
    await setup.getByRole("button", { name: "Turn on two-factor authentication" }).click()
    await containsText(setup.getByRole("alert"), "That code does not match")
    await setup.getByLabel("Code from the app").fill(await totpNow())
    reports.push(await checkScreen(page, "journey-08-totp-setup"))
    await setup.getByRole("button", { name: "Turn on two-factor authentication" }).click()
    await visible(page.getByRole("button", { name: "Turn off two-factor authentication" }))

    await signOut(page)
    await signInWithPassword(page, email, password)
    await visible(page.getByRole("heading", { name: "Two-factor authentication" }))
    expect(new URL(page.url()).pathname).toBe("/handler/mfa")
    await page.getByRole("textbox", { name: "Authenticator code" }).fill(await totpNow())
    reports.push(await checkScreen(page, "journey-09-mfa"))
    await page.getByRole("button", { name: "Verify" }).click()
    await visible(page.getByRole("heading", { name: "Welcome, Ada Lovelace" }))
  }, stepTimeout)

  it("creates a team", async () => {
    const { page } = await start("/", await ada({ verified: true, displayName: "Ada Lovelace" }))
    await page.getByRole("link", { name: "Teams", exact: true }).click()
    const create = page.getByRole("form", { name: "Create a team" })
    await create.getByLabel("Team name").fill("Analytical Engines")
    await create.getByRole("button", { name: "Create team" }).click()
    await visible(page.getByRole("heading", { name: "Analytical Engines" }))
    // permissions by readable names, never raw ids
    await containsText(page.getByTestId("team-permissions"), "Invite members")
    expect(await page.getByTestId("team-permissions").innerText()).not.toContain("$")
    await containsText(page.getByRole("list", { name: "Members" }), "Ada Lovelace")
    const key = page.getByRole("form", { name: "Create a team API key" })
    await key.getByLabel("Team key description").fill("Build server")
    await key.getByRole("button", { name: "Create team key" }).click()
    await expect.poll(async () => (await page.getByTestId("new-team-api-key").innerText()).trim().length, { timeout: pollTimeout }).toBeGreaterThan(20)
    await containsText(page.getByRole("list", { name: "Team API keys" }), "Build server")
  }, stepTimeout)

  it("invites a second user, who accepts in a second browser context", async () => {
    // Ada, with her team (made through the SDK) as the current one
    const { page } = await start("/teams", await ada({ verified: true, displayName: "Ada Lovelace", team: "Analytical Engines" }))
    await visible(page.getByRole("heading", { name: "Analytical Engines" }))
    const bobEmail = uniqueEmail("bob")
    const invite = page.getByRole("form", { name: "Invite a member" })
    await invite.getByLabel("E-mail to invite").fill(bobEmail)
    await invite.getByRole("button", { name: "Send invitation" }).click()
    await visible(page.getByText(`Invitation sent to ${bobEmail}.`))
    await containsText(page.getByRole("list", { name: "Pending invitations" }), bobEmail)
    reports.push(await checkScreen(page, "journey-10-team"))

    const mail = await latestEmail(demo.emulatorUrl, bobEmail, "/handler/team-invitation")
    const bob = await newPage(await newContext())
    // not signed in: the invitation page sends Bob to sign in (he signs up from there) and back
    await bob.goto(mail.link!)
    await bob.waitForURL((url) => url.pathname === "/handler/sign-in")
    await bob.getByRole("link", { name: "Sign up" }).last().click()
    const form = bob.getByRole("form", { name: "Sign up" })
    await form.getByLabel("E-mail").fill(bobEmail)
    await form.getByLabel("Password", { exact: true }).fill(password)
    await form.getByLabel("Repeat password").fill(password)
    await form.getByRole("button", { name: "Sign up" }).click()
    await bob.waitForURL((url) => url.pathname === "/handler/team-invitation")
    await containsText(bob.locator("main"), "You are invited to join Analytical Engines.")
    reports.push(await checkScreen(bob, "journey-11-team-invitation"))
    await bob.getByRole("button", { name: "Join Analytical Engines" }).click()
    await bob.waitForURL((url) => url.pathname === "/teams")
    await containsText(bob.getByRole("list", { name: "Your teams" }), "Analytical Engines")
    // Ada sees her new team member
    await page.reload()
    await expect.poll(() => page.getByRole("list", { name: "Members" }).locator("li").count(), { timeout: pollTimeout }).toBe(2)
    await gone(page.getByRole("list", { name: "Pending invitations" }))
  }, stepTimeout)

  it("signs in with the emulator's mock OAuth provider", async () => {
    const { page } = await start("/", await ada({ verified: true }))
    await signOut(page)
    await page.goto("/handler/sign-in")
    reports.push(await checkScreen(page, "journey-12-sign-in"))
    await page.getByRole("button", { name: "Continue with GitHub" }).click()
    // the provider's consent page (served by the emulator)
    await page.waitForURL((url) => url.href.startsWith(demo.emulatorUrl))
    await page.getByLabel("E-mail").fill(uniqueEmail("grace"))
    await page.getByRole("button", { name: "Authorize" }).click()
    await page.waitForURL((url) => url.href.startsWith(demo.appUrl) && !url.pathname.startsWith("/handler/oauth-callback"))
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
    await visible(page.getByText("github"))
    reports.push(await checkScreen(page, "journey-13-home-oauth"))
  }, stepTimeout)

  it("registers a passkey and signs in with it (Chromium's virtual authenticator)", async () => {
    const { context, page } = await start("/", await ada({ verified: true }))
    await addVirtualAuthenticator(context, page)
    await page.getByRole("link", { name: "Account settings" }).click()
    await page.getByRole("button", { name: "Register a passkey" }).click()
    await visible(page.getByText("Your passkey is ready"))
    await visible(page.getByText("Passkey registered"))
    reports.push(await checkScreen(page, "journey-14-passkey-registered"))
    const name = await page.getByTestId("current-user").innerText()

    await signOut(page)
    await page.goto("/handler/sign-in")
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await visible(page.getByRole("heading", { name: /^Welcome/ }))
    await hasText(page.getByTestId("current-user"), name)
  }, stepTimeout)

  it("confirms a CLI login", async () => {
    const account = await ada({ verified: true })
    const cli = Stack.layerClient({ projectId: demo.projectId, publishableClientKey: demo.publishableClientKey, baseUrl: demo.emulatorUrl })
    const attempt = await Effect.runPromise(Cli.initiate().pipe(Effect.provide(cli)))
    const { page } = await start(Cli.confirmationUrl(demo.appUrl, attempt.loginCode), account)
    await visible(page.getByRole("heading", { name: "Authorize the CLI" }))
    reports.push(await checkScreen(page, "journey-15-cli-auth-confirm"))
    await page.getByRole("button", { name: "Authorize CLI" }).click()
    await visible(page.getByText("The CLI is signed in."))
    const answer = await Effect.runPromise(Cli.poll(attempt.pollingCode).pipe(Effect.provide(cli)))
    expect(answer.status).toBe("success")
    expect(Option.isSome(Option.fromNullishOr(answer.refreshToken))).toBe(true)
    expect(Redacted.value(answer.refreshToken!).length).toBeGreaterThan(10)
  }, stepTimeout)

  it("creates a user API key in account settings (shown once)", async () => {
    const { page } = await start("/", await ada({ verified: true }))
    await page.getByRole("link", { name: "Account settings" }).click()
    const create = page.getByRole("form", { name: "Create an API key" })
    await create.getByLabel("Key description").fill("CI deploys")
    await create.getByRole("button", { name: "Create key" }).click()
    await expect.poll(async () => (await page.getByTestId("new-api-key").innerText()).trim(), { timeout: pollTimeout }).toMatch(/^sk_/)
    await containsText(page.getByRole("list", { name: "API keys" }), "CI deploys")
    await containsText(page.getByRole("list", { name: "Active sessions" }), "This device")
  }, stepTimeout)

  it("signs in with a magic link from the outbox (then the TOTP code)", async () => {
    const account = await ada({ verified: true, displayName: "Ada Lovelace", totp: true })
    const { email } = account
    const { page } = await start("/", account)
    await signOut(page)
    await page.goto("/handler/sign-in")
    const form = page.getByRole("form", { name: "Sign in with a magic link" })
    await form.getByLabel("E-mail for the magic link").fill(email)
    await form.getByRole("button", { name: "Send magic link" }).click()
    await visible(page.getByText("We sent a sign-in link to"))
    const mail = await latestEmail(demo.emulatorUrl, email, "/handler/magic-link-callback")
    await page.goto(mail.link!)
    await page.waitForURL((url) => url.pathname === "/handler/mfa")
    await page.getByRole("textbox", { name: "Authenticator code" }).fill(await totpCode(account))
    await page.getByRole("button", { name: "Verify" }).click()
    await visible(page.getByRole("heading", { name: "Welcome, Ada Lovelace" }))
  }, stepTimeout)

  it("resets a forgotten password with the e-mailed link", async () => {
    const account = await ada({ verified: true, displayName: "Ada Lovelace", totp: true })
    const { email } = account
    const { page } = await start("/", account)
    await signOut(page)
    await page.goto("/handler/sign-in")
    await page.getByRole("link", { name: "Forgot password?" }).click()
    const form = page.getByRole("form", { name: "Forgot password" })
    await form.getByLabel("E-mail").fill(email)
    await form.getByRole("button", { name: "Send reset link" }).click()
    await visible(page.getByText("a reset link is on its way"))
    const mail = await latestEmail(demo.emulatorUrl, email, "/handler/password-reset")
    await page.goto(mail.link!)
    const reset = page.getByRole("form", { name: "Reset password" })
    await reset.getByLabel("New password", { exact: true }).fill("a brand new password")
    await reset.getByLabel("Repeat new password").fill("a brand new password")
    await reset.getByRole("button", { name: "Change password" }).click()
    await visible(page.getByText("Your password was changed."))
    await signInWithPassword(page, email, "a brand new password")
    await page.waitForURL((url) => url.pathname === "/handler/mfa")
  }, stepTimeout)

  it("never fell back to the provider's alert for an unhandled failure", () => {
    expect(dialogs).toEqual([])
  })

  it("every screen of the journey fits 360 px without sideways scroll, with 0 serious accessibility violations (axe-core)", () => {
    expect(reports.length).toBeGreaterThanOrEqual(14)
    expect(
      reports
        .filter((report) => report.overflow.narrow > 0 || report.overflow.phone > 0)
        .map((report) => `${report.name}: ${report.overflow.narrow} px at 360, ${report.overflow.phone} px at 390`)
    ).toEqual([])
    expect(reports.flatMap((report) => report.violations.map((violation) => `${report.name}: ${violation.id} ${violation.targets.join(", ")}`))).toEqual([])
  })

  it("logged no console error and threw no uncaught exception", () => {
    expect(consoleErrors).toEqual([])
  })
})
