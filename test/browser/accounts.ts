/**
 * Accounts of the demo project made through the SDK, and browser contexts signed in as them: what
 * lets every step of a browser journey start from its own state (its own page, its own cookies)
 * instead of from the page the previous step left.
 *
 * An account is signed up over HTTP against the emulator with a memory token store; its session
 * goes into a new browser context as the cookies the app's cookie store reads (the official SDK's
 * format, written by `Cookies.writeTokens`), so the app starts signed in.
 */
import { Effect, ManagedRuntime, Option } from "effect"
import type { Browser, BrowserContext } from "playwright-core"
import * as EmailVerification from "../../src/auth/EmailVerification.js"
import * as Password from "../../src/auth/Password.js"
import * as Totp from "../../src/auth/Totp.js"
import * as Cookies from "../../src/session/cookies.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Stack from "../../src/Stack.js"
import * as Teams from "../../src/teams/Teams.js"
import * as Users from "../../src/users/Users.js"
import { latestEmail } from "./support.js"

/** Where the demo runs (what `startDemo` returns, as far as accounts need it). */
export interface DemoTarget {
  readonly appUrl: string
  readonly emulatorUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
}

/** What an account starts with. */
export interface AccountSetup {
  readonly email: string
  readonly password: string
  /** Verify the primary e-mail with the code the emulator e-mailed (default false: unverified, the verification e-mail waits in the outbox). */
  readonly verified?: boolean
  readonly displayName?: string
  /** Turn on TOTP two-factor authentication with a fresh secret (default false). */
  readonly totp?: boolean
  /** A team to create, made the user's current team. */
  readonly team?: string
}

/** A signed-up account and its session (in Node, in memory). */
export interface Account {
  readonly email: string
  readonly password: string
  /** The TOTP secret, when turned on. */
  readonly totpSecret: Uint8Array | undefined
  /** The session's cookies, for a browser context of the app's origin. */
  readonly cookies: () => Promise<Parameters<BrowserContext["addCookies"]>[0]>
  /** Ends the Node side (the session itself stays valid). */
  readonly dispose: () => Promise<void>
}

/** Signs up an account through the SDK (a memory token store) and brings it to the state `setup` asks for. */
export const makeAccount = async (demo: DemoTarget, setup: AccountSetup): Promise<Account> => {
  const runtime = ManagedRuntime.make(
    Stack.layerClient({ projectId: demo.projectId, publishableClientKey: demo.publishableClientKey, baseUrl: demo.emulatorUrl, tokenStore: "memory" })
  )
  try {
    await runtime.runPromise(
      Password.signUpWithPassword({ email: setup.email, password: setup.password, verificationCallbackUrl: `${demo.appUrl}/handler/email-verification` })
    )
    if (setup.verified === true) {
      const mail = await latestEmail(demo.emulatorUrl, setup.email, "/handler/email-verification")
      await runtime.runPromise(EmailVerification.verifyEmail(new URL(mail.link!).searchParams.get("code")!))
    }
    if (setup.displayName !== undefined) await runtime.runPromise(Users.updateCurrent({ displayName: setup.displayName }))
    const totpSecret = setup.totp === true ? Totp.randomSecret() : undefined
    if (totpSecret !== undefined) await runtime.runPromise(Users.updateCurrent({ totpSecretBase64: Totp.toBase64(totpSecret) }))
    if (setup.team !== undefined) {
      const team = await runtime.runPromise(Teams.create({ displayName: setup.team }))
      await runtime.runPromise(Users.updateCurrent({ selectedTeamId: team.id }))
    }
    const cookies = async () => {
      const tokens = await runtime.runPromise(Effect.flatMap(TokenStore.TokenStore, (store) => store.get))
      if (Option.isNone(tokens.refreshToken)) throw new Error(`${setup.email} has no session`)
      return Cookies.writeTokens(tokens, { projectId: demo.projectId, secure: false, now: Date.now(), existing: new Map() }).flatMap((cookie) => {
        const [pair] = cookie.split(";")
        const eq = pair!.indexOf("=")
        const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1] ?? "0")
        if (maxAge === 0) return []
        return [{
          name: pair!.slice(0, eq),
          value: pair!.slice(eq + 1),
          domain: "localhost",
          path: "/",
          sameSite: "Lax" as const,
          expires: Math.floor(Date.now() / 1000) + maxAge
        }]
      })
    }
    return { email: setup.email, password: setup.password, totpSecret, cookies, dispose: () => runtime.dispose() }
  } catch (error) {
    await runtime.dispose()
    throw error
  }
}

/** The current TOTP code of an account with TOTP turned on. */
export const totpCode = (account: Account): Promise<string> => Effect.runPromise(Totp.generate(account.totpSecret!))

let addresses = 0
/** A unique e-mail address for a test (`name-<time>-<n>@example.com`). */
export const uniqueEmail = (name: string): string => `${name}-${Date.now()}-${++addresses}@example.com`

/** Options of {@link openContext}. */
export interface ContextOptions {
  readonly baseURL: string
  readonly width?: number
  readonly height?: number
}

/**
 * Generous waits of the browser tests: an action or a locator wait (30 s) and a navigation (60 s).
 * A page of the demo loads hundreds of modules from Vite's dev server; on a loaded 2-core machine
 * that alone takes many seconds, the only reason a wait would run out.
 */
export const waits = { action: 30_000, navigation: 60_000 } as const

/** A new browser context (own cookies and storage) with the generous waits. */
export const openContext = async (browser: Browser, options: ContextOptions): Promise<BrowserContext> => {
  const context = await browser.newContext({ baseURL: options.baseURL, viewport: { width: options.width ?? 1280, height: options.height ?? 860 } })
  context.setDefaultTimeout(waits.action)
  context.setDefaultNavigationTimeout(waits.navigation)
  return context
}

/**
 * Gives a test file's main browser context to the next step in the state a new context has (no
 * page, no route, no cookie: no session, no OAuth verifier), signed in as `account` when given. A
 * step's own page starts with its own `sessionStorage`. The context is reused rather than made
 * anew for its HTTP cache: a page of the demo loads about 260 modules, and in a new context that
 * took 3.7 s instead of 2.0 s on a loaded machine.
 */
export const resetContext = async (context: BrowserContext, account?: Account): Promise<BrowserContext> => {
  for (const page of context.pages()) await page.close()
  await context.unrouteAll({ behavior: "ignoreErrors" })
  await context.clearCookies()
  if (account !== undefined) await context.addCookies(await account.cookies())
  return context
}

/** What the steps of a browser file run against (read once `beforeAll` has set them). */
export interface StepTargets {
  readonly demo: DemoTarget
  readonly browser: Browser
  /** The main user's context, given to each step by {@link resetContext}. */
  readonly main: BrowserContext
}

/**
 * The accounts and second contexts the steps of a browser file make: `ada` (an account of the
 * main user's, a new address each time, in the state the step starts from) and `newContext` (a new
 * context for a second person or device); `cleanUp` (in `afterEach`) disposes of the accounts,
 * closes the second contexts and resets the main context.
 */
export const stepResources = (targets: () => StepTargets, options: { readonly password: string; readonly width: number }) => {
  const opened: Array<BrowserContext> = []
  const accounts: Array<Account> = []
  return {
    ada: async (setup: Partial<AccountSetup> = {}): Promise<Account> => {
      const account = await makeAccount(targets().demo, { email: uniqueEmail("ada"), password: options.password, ...setup })
      accounts.push(account)
      return account
    },
    newContext: async (): Promise<BrowserContext> => {
      const context = await openContext(targets().browser, { baseURL: targets().demo.appUrl, width: options.width, height: 860 })
      opened.push(context)
      return context
    },
    cleanUp: async (): Promise<void> => {
      await resetContext(targets().main)
      for (const context of opened.splice(0)) await context.close()
      for (const account of accounts.splice(0)) await account.dispose()
    }
  }
}
