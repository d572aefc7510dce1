/**
 * Shared pieces of the real-browser tests: Debian's Chromium through `playwright-core`, the demo
 * (emulator + Vite app) on free ports, the emulator's outbox, and screenshots in
 * `test-output/screenshots/`.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs"
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

/** Empties the screenshot folder (a run leaves only its own screenshots). */
export const clearScreenshots = (): void => {
  rmSync(screenshotDir, { recursive: true, force: true })
  mkdirSync(screenshotDir, { recursive: true })
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

/** The newest e-mail to `email` whose link contains `linkPart` (`GET /api/v1/emulator/outbox`), polling briefly. */
export const latestEmail = async (emulatorUrl: string, email: string, linkPart: string): Promise<OutboxItem> => {
  for (let attempt = 0; attempt < 50; attempt++) {
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
