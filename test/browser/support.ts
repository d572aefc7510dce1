/**
 * Shared pieces of the real-browser tests: Debian's Chromium through `playwright-core`, the demo
 * (emulator + Vite app) on free ports, the emulator's outbox, and screenshots in
 * `test-output/screenshots/`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { chromium } from "playwright-core"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { describe } from "vitest"

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const chromiumPath = "/usr/bin/chromium"

/** Where screenshots go (a test artifact). */
export const screenshotDir = fileURLToPath(new URL("../../test-output/screenshots/", import.meta.url))

const hasChromium = existsSync(chromiumPath)
const inCi = process.env["CI"] === "true" || process.env["CI"] === "1"

if (!hasChromium && !inCi) {
  console.warn(
    `[browser tests] skipped: ${chromiumPath} is missing. Install it with \`apt-get update && apt-get install -y chromium\` (CI installs it and runs these tests).`
  )
}

/**
 * `describe` when Chromium is there (or under CI, where its absence must fail the run), else
 * `describe.skip` with the message above.
 */
export const describeBrowser: typeof describe = hasChromium || inCi ? describe : (describe.skip as typeof describe)

/** Launches headless Chromium. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--host-resolver-rules=MAP localhost 127.0.0.1"]
  })

/**
 * Removes the screenshots whose names start with `prefix` (a run leaves only its own; each test
 * file has its own prefix, so files running side by side do not delete each other's).
 */
export const clearScreenshots = (prefix: string): void => {
  mkdirSync(screenshotDir, { recursive: true })
  for (const file of readdirSync(screenshotDir)) {
    if (file.startsWith(prefix)) rmSync(`${screenshotDir}${file}`, { force: true })
  }
}

/** Saves a full-page screenshot as `test-output/screenshots/{name}.png`; returns the path. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(screenshotDir, { recursive: true })
  await page.evaluate(() => window.scrollTo(0, 0))
  const path = `${screenshotDir}${name}.png`
  await page.screenshot({ path, fullPage: true })
  return path
}

/** An e-mail as the emulator's outbox route lists it. */
export interface OutboxItem {
  readonly id: string
  readonly to: ReadonlyArray<string> | string
  readonly subject: string
  readonly code?: string | null
  readonly link?: string | null
  readonly sent_at_millis: number
}

/**
 * The newest e-mail to `email` whose link contains `linkPart` (`GET /api/v1/emulator/outbox`),
 * polling until it is there (bounded: 30 s, generous for a loaded machine).
 */
export const latestEmail = async (emulatorUrl: string, email: string, linkPart: string): Promise<OutboxItem> => {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const response = await fetch(`${emulatorUrl}/api/v1/emulator/outbox?email=${encodeURIComponent(email)}`)
    const body = (await response.json()) as { readonly items: ReadonlyArray<OutboxItem> }
    const match = [...body.items].reverse().find((item) => (item.link ?? "").includes(linkPart))
    if (match !== undefined) return match
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No e-mail to ${email} with a link containing ${linkPart}`)
}

/** RFC 4648 base32 (the TOTP setup key the settings page shows) to bytes. */
export const decodeBase32 = (text: string): Uint8Array => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  const clean = text.replace(/[\s=]/g, "").toUpperCase()
  const bytes: Array<number> = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = alphabet.indexOf(char)
    if (value < 0) throw new Error(`Not base32: ${char}`)
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((buffer >> bits) & 0xff)
    }
  }
  return new Uint8Array(bytes)
}

/** Adds Chromium's virtual WebAuthn authenticator (DevTools `WebAuthn` domain) to a page. */
export const addVirtualAuthenticator = async (context: BrowserContext, page: Page): Promise<void> => {
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true
    }
  })
}

/** The widths every screen is checked at: desktop, phone (screenshots), and the narrowest phone (no sideways scroll). */
export const widths = { desktop: 1280, phone: 390, narrow: 360 } as const

/** axe-core's browser build, injected into pages for the accessibility check. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** An accessibility violation axe-core found, as the tests report it. */
export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/** Runs axe-core on the page; returns its serious and critical violations. */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: axeSource })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as {
      axe: {
        run: (
          context: Document
        ) => Promise<
          { violations: ReadonlyArray<{ id: string; impact: string | null; help: string; nodes: ReadonlyArray<{ target: ReadonlyArray<unknown> }> }> }
        >
      }
    }).axe
    const result = await axe.run(document)
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(" "))
    }))
  })
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
}

/** How far the page scrolls sideways at its current width (0 when everything fits). */
export const horizontalOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement
    return root.scrollWidth - root.clientWidth
  })

/** What {@link checkScreen} measured on one screen. */
export interface ScreenReport {
  readonly name: string
  /** Sideways scroll at 360 px and 390 px. */
  readonly overflow: { readonly narrow: number; readonly phone: number }
  readonly violations: ReadonlyArray<AxeViolation>
}

/**
 * One screen, checked the way issue 17 asks: a full-page screenshot at 1280 px
 * (`{name}-1280.png`) and at 390 px (`{name}-390.png`), the sideways scroll at 390 and 360 px, and
 * axe-core's serious violations at both widths. The page ends at its previous viewport.
 */
export const checkScreen = async (page: Page, name: string): Promise<ScreenReport> => {
  const before = page.viewportSize() ?? { width: widths.desktop, height: 860 }
  try {
    await page.setViewportSize({ width: widths.desktop, height: before.height })
    await screenshot(page, `${name}-${widths.desktop}`)
    const desktopViolations = await seriousViolations(page)
    await page.setViewportSize({ width: widths.phone, height: 844 })
    const phone = await horizontalOverflow(page)
    await screenshot(page, `${name}-${widths.phone}`)
    const phoneViolations = await seriousViolations(page)
    await page.setViewportSize({ width: widths.narrow, height: 780 })
    const narrow = await horizontalOverflow(page)
    return { name, overflow: { narrow, phone }, violations: [...desktopViolations, ...phoneViolations] }
  } finally {
    await page.setViewportSize(before)
  }
}

/**
 * Records the page's console errors and uncaught exceptions. Chromium's own "Failed to load
 * resource" lines for 4xx answers the app handles (a wrong password is a 400) are not the app's
 * errors and are left out; `pause` stops recording (e.g. while a test cuts the network on purpose).
 */
export const recordConsoleErrors = (page: Page, into: Array<string>): { pause: (paused: boolean) => void } => {
  let paused = false
  page.on("console", (message) => {
    if (paused || message.type() !== "error") return
    if (message.text().startsWith("Failed to load resource: the server responded with a status of 4")) return
    into.push(`${page.url()}: ${message.text()}`)
  })
  page.on("pageerror", (error) => {
    if (!paused) into.push(`${page.url()}: uncaught ${error.message}`)
  })
  return { pause: (value) => (paused = value) }
}
