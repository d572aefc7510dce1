/**
 * Time to a signed-in first render (issue 28 item 8), in Chromium: this SDK vs the official
 * `@stackframe/react`, equivalent pages (`bench/pages/*-render.tsx`: the provider and a component
 * showing the signed-in user's e-mail) built by Vite as production apps (`./vite.ts`), served by a
 * plain file server in a process of its own (`bench/children/file-server.mjs`), against the
 * emulator in a process of its own (the official SDK talks to it through its `baseUrl`).
 *
 * Each run: a new session of the same user (`POST /auth/sessions`), a fresh browser context whose
 * cookies hold it as the official SDK writes them (`stack-refresh-{project}--default` holding
 * `{"refresh_token","updated_at_millis"}` and `stack-access` holding `["<refresh>","<access>"]`:
 * `packages/template/src/lib/stack-app/apps/implementations/client-app-impl.ts` at stack-auth
 * 2f719903, `_getRefreshTokenDefaultCookieNameForSecure`, `_formatRefreshCookieValue`,
 * `_formatAccessCookieValue`), written by this SDK's `Cookies.writeTokens`, the format both read:
 * the same cookies for both sides; the emulator's request counts reset, then the page is opened. The
 * figure is the page's own clock (`performance.now()`, from the navigation's start) when the
 * e-mail first appears in the DOM (a `MutationObserver` added before any page script); the
 * requests are those the emulator received from the page until the network is idle. Runs
 * alternate the order (ours first, then official first), after one unmeasured run each.
 */
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { chromium } from "playwright-core"
import * as Cookies from "../../src/session/cookies.js"
import { fromStrings } from "../../src/session/TokenStore.js"
import { benchDir } from "./bundle.js"
import type { Target } from "./harness.js"
import { createSession, createUser, serverHeaders } from "./harness.js"
import { makeWorkDir } from "./overhead.js"
import type { Spread } from "./processes.js"
import { emulatorCounts, load, spread, startEmulatorChild, startServerChild } from "./processes.js"
import { viteBuildPage } from "./vite.js"

/** Debian's Chromium, as the browser tests use it. */
export const chromiumPath = "/usr/bin/chromium"

/** Whether Chromium is installed. */
export const chromiumAvailable = (): boolean => existsSync(chromiumPath)

/** The two pages. */
export type RenderSide = "ours" | "official"

/** One side's figures. */
export interface RenderFigures {
  /** Milliseconds from the navigation's start to the e-mail in the DOM. */
  readonly ms: Spread
  /**
   * Requests the emulator received per page load (until the network is idle), CORS preflights
   * (`OPTIONS`) left out, median; the preflights apart; by "METHOD /path" (preflights included) of the last run.
   */
  readonly requests: number
  readonly preflights: number
  readonly requestsByPath: Readonly<Record<string, number>>
  /** First-load JavaScript of the page's Vite build, gzip -9. */
  readonly firstLoadGzipBytes: number
}

/** The render figures. */
export interface RenderResult {
  readonly runs: number
  readonly sides: Readonly<Record<RenderSide, RenderFigures>>
  /** ours ÷ official of the medians. */
  readonly ratio: number
  /** ours ÷ official of each pair of runs. */
  readonly ratioSpread: Spread
  readonly chromium: string
  readonly loadAverage: { readonly start: number; readonly end: number }
}

const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

/** The script added to every page before its own: the time the e-mail first appears in the DOM. */
const watchFor = (email: string) =>
  `(() => {
  const email = ${JSON.stringify(email)}
  const check = () => {
    if (globalThis.__signedInAt === undefined && document.body !== null && document.body.textContent.includes(email)) {
      globalThis.__signedInAt = performance.now()
      observer.disconnect()
    }
  }
  const observer = new MutationObserver(check)
  observer.observe(document, { childList: true, subtree: true, characterData: true })
})()`

/** The cookies that hold a session, as `document.cookie` would store them after this SDK (or the official one) wrote them. */
const sessionCookies = (projectId: string, accessToken: string, refreshToken: string) =>
  Cookies.writeTokens(fromStrings(accessToken, refreshToken), { projectId, secure: false, now: Date.now(), existing: new Map() }).map((text) => {
    const pair = text.split(";")[0]!
    const at = pair.indexOf("=")
    return { name: decodeURIComponent(pair.slice(0, at)), value: pair.slice(at + 1), domain: "127.0.0.1", path: "/" }
  })

/** Runs the comparison: `runs` measured page loads per side (≥ 1), alternating, after one unmeasured load each unless `warmup: false`. */
export const runRender = async (options: { readonly runs: number; readonly warmup?: boolean }): Promise<RenderResult> => {
  const loadStart = load()
  const work = makeWorkDir("render")
  const emulator = await startEmulatorChild(0)
  let files: Awaited<ReturnType<typeof startServerChild<{ port: number }>>> | undefined
  const browser = await chromium.launch({ executablePath: chromiumPath, args: flags })
  try {
    const builds = {
      ours: await viteBuildPage(join(benchDir, "pages", "ours-render.tsx"), join(work, "ours"), "ours"),
      official: await viteBuildPage(join(benchDir, "pages", "official-render.tsx"), join(work, "official"), "official")
    }
    files = await startServerChild<{ port: number }>([], join(benchDir, "children", "file-server.mjs"), [work])
    const target: Target = emulator.info
    const userId = await createUser(target, "render")
    const user = (await (await fetch(`${target.baseUrl}/api/v1/users/${userId}`, { headers: serverHeaders(target) })).json()) as { primary_email: string }
    const email = user.primary_email
    const query = new URLSearchParams({ api: target.baseUrl, project: target.projectId, key: target.publishableClientKey })
    const pageUrl = (side: RenderSide) => `http://127.0.0.1:${files!.info.port}/${side}/index.html?${query}`

    const once = async (side: RenderSide) => {
      const tokens = await createSession(target, userId)
      const context = await browser.newContext()
      try {
        await context.addCookies(sessionCookies(target.projectId, tokens.accessToken, tokens.refreshToken))
        await context.addInitScript({ content: watchFor(email) })
        const page = await context.newPage()
        await emulatorCounts(emulator.info, true)
        await page.goto(pageUrl(side), { waitUntil: "commit" })
        await page.waitForFunction(() => (globalThis as { __signedInAt?: number }).__signedInAt !== undefined, undefined, { timeout: 60_000, polling: 50 })
        const ms = await page.evaluate(() => (globalThis as unknown as { __signedInAt: number }).__signedInAt)
        await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined)
        const byPath = await emulatorCounts(emulator.info)
        const count = (preflight: boolean) =>
          Object.entries(byPath).filter(([key]) => key.startsWith("OPTIONS ") === preflight).reduce((sum, [, n]) => sum + n, 0)
        return { ms, byPath, requests: count(false), preflights: count(true) }
      } finally {
        await context.close()
      }
    }

    const sides: ReadonlyArray<RenderSide> = ["ours", "official"]
    // unmeasured: the file server's and the emulator's first answers
    if (options.warmup !== false) { for (const side of sides) await once(side) }
    const times: Record<RenderSide, Array<number>> = { ours: [], official: [] }
    const requests: Record<RenderSide, Array<number>> = { ours: [], official: [] }
    const preflights: Record<RenderSide, Array<number>> = { ours: [], official: [] }
    const byPath: Record<RenderSide, Record<string, number>> = { ours: {}, official: {} }
    const ratios: Array<number> = []
    for (let run = 0; run < options.runs; run++) {
      const pair: Partial<Record<RenderSide, number>> = {}
      for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
        const result = await once(side)
        times[side].push(result.ms)
        requests[side].push(result.requests)
        preflights[side].push(result.preflights)
        byPath[side] = result.byPath
        pair[side] = result.ms
      }
      ratios.push(pair.ours! / pair.official!)
    }
    const figures = (side: RenderSide): RenderFigures => ({
      ms: spread(times[side]),
      requests: spread(requests[side]).median,
      preflights: spread(preflights[side]).median,
      requestsByPath: byPath[side],
      firstLoadGzipBytes: builds[side].firstLoadGzipBytes
    })
    return {
      runs: options.runs,
      sides: { ours: figures("ours"), official: figures("official") },
      ratio: spread(times.ours).median / spread(times.official).median,
      ratioSpread: spread(ratios),
      chromium: browser.version(),
      loadAverage: { start: loadStart, end: load() }
    }
  } finally {
    await browser.close()
    await files?.stop()
    await emulator.stop()
    rmSync(work, { recursive: true, force: true })
  }
}
